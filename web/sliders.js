// This module maps knob values to slider positions and back, so that a slider always holds exactly the value shown beside it: linear for narrow ranges, logarithmic for ranges wider than 1000x, values rounded to what the field shows, and the default reachable by a snap (no DOM).

/** Positions of a slider (its max; min is 0). */
export const SLIDER_STEPS = 1000;

/** Share of the range below which a log slider's lowest non-zero position sits (for min 0). */
const LOG_FLOOR = 1e-5;

/** v rounded to 3 significant digits (integers for uint knobs), as a plain number. */
export function roundKnob(v, kind) {
  if (kind === 'uint') return Math.round(v);
  if (v === 0 || !Number.isFinite(v)) return v;
  return Number(v.toPrecision(3));
}

/**
 * The scale of a knob's slider.
 * @param {{kind: string, min: number, max: number, def: number}} k knob (from the core's table)
 * @param {number} [max=k.max] a lower upper end for the slider (the field still takes any value)
 * @returns {{log: boolean, steps: number, toValue(pos: number): number, toPos(value: number): number}}
 *   toValue gives the exact value the knob will hold at a position (rounded, default snapped);
 *   toPos the nearest position of a value (clamped).
 */
export function sliderScale(k, max = k.max) {
  const lo = k.min, hi = max;
  const floor = lo > 0 ? lo : hi * LOG_FLOOR;
  // Counts are logarithmic only over more than 1000 values; reals when the
  // range spans 1000x (from 0: the default sits far below the top).
  const log = k.kind === 'uint' ? lo >= 0 && hi - lo > 1000 : lo >= 0 && hi > 0 && hi / floor >= 1000;
  const steps = k.kind === 'uint' && !log ? Math.max(1, Math.round(hi - lo)) : SLIDER_STEPS;
  let raw, pos;
  if (log) {
    // Position 0 is the minimum itself (0 for knobs that start at 0).
    const span = Math.log(hi / floor);
    raw = (p) => (p <= 0 ? lo : floor * Math.exp((span * (p - (lo === 0 ? 1 : 0))) / (steps - (lo === 0 ? 1 : 0))));
    pos = (v) => (v <= lo ? 0 : (lo === 0 ? 1 : 0) + (Math.log(Math.max(v, floor) / floor) / span) * (steps - (lo === 0 ? 1 : 0)));
  } else {
    raw = (p) => lo + ((hi - lo) * p) / steps;
    pos = (v) => ((v - lo) / (hi - lo)) * steps;
  }
  const near = (v) => Math.max(0, Math.min(steps, Math.round(pos(v))));
  const defPos = near(k.def);
  const toValue = (p) => {
    const q = Math.max(0, Math.min(steps, Math.round(p)));
    if (q === defPos) return k.def;
    if (q === steps) return hi;
    return Math.min(hi, Math.max(lo, roundKnob(raw(q), k.kind)));
  };
  // Rounding can land a value one position off: prefer the neighbour that holds it exactly.
  const toPos = (v) => {
    const p = near(v);
    for (const q of [p, p - 1, p + 1]) if (q >= 0 && q <= steps && toValue(q) === v) return q;
    return p;
  };
  return { log, steps, toValue, toPos };
}
