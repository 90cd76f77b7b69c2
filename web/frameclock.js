// This module measures what the HUD reports about frames: the real interval between drawn frames (median of the recent ones, so one slow frame does not hide the rest), the CPU time of a draw call and, where the browser can measure it, the GPU time (no DOM, no GL).

const WINDOW = 30;
const IDLE_MS = 1500;

const median = (xs) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[(s.length - 1) >> 1];
};

export class FrameClock {
  constructor() {
    this.intervals = [];
    this.draws = [];
    this.prevDraw = null;
    this.gpuMs = null;
    this.count = 0;
  }

  /**
   * A frame was drawn at now (ms, rAF time), taking drawMs of CPU in the draw
   * call; gpuMs is the GPU timer's latest answer (null without one). A gap
   * over IDLE_MS is the page resting (it draws only on change), not a frame.
   */
  drew(now, drawMs, gpuMs) {
    if (this.prevDraw !== null && now - this.prevDraw < IDLE_MS) push(this.intervals, now - this.prevDraw);
    this.prevDraw = now;
    this.count++;
    push(this.draws, drawMs);
    if (gpuMs !== null && gpuMs !== undefined) this.gpuMs = gpuMs;
  }

  /** {intervalMs, drawMs, gpuMs}: medians of the recent frames (gpuMs null when unmeasured); count: frames drawn so far. */
  stats() {
    return { intervalMs: median(this.intervals), drawMs: median(this.draws), gpuMs: this.gpuMs, count: this.count };
  }
}

function push(list, v) {
  list.push(v);
  if (list.length > WINDOW) list.shift();
}
