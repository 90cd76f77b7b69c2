// This module is the frame's picture choices that need no GL: the old planet's crossfade after a rebuild and how strongly the relief map leans with the altitude.

/** A rebuild fades the old planet out over this long once the new one covers the view. */
export const CROSSFADE_MS = 600;
/** The old planet waits at most this long after the build for the new one to settle. */
export const CROSSFADE_WAIT_MS = 8000;

/** How much the relief map's lean is strengthened: 1 near the ground, up to 4 from orbit (a hillshade). */
export function reliefBoost(aboveM) {
  const t = Math.log10(Math.max(1, aboveM) / 5000) / Math.log10(400);
  return 1 + 3 * Math.min(1, Math.max(0, t));
}

/** The old planet after a rebuild: drawn alone until the new one covers the view, then faded out. */
export function crossfade(app, s, now) {
  const prev = app.world.previous;
  if (!prev) return { tiles: s.tiles, exaggeration: s.exaggeration, fade: null };
  if (prev.fadeStart === null && s.complete && (s.settled || now - prev.builtAt > CROSSFADE_WAIT_MS)) prev.fadeStart = now;
  if (prev.fadeStart === null) return { tiles: prev.tiles, exaggeration: prev.exaggeration, fade: null };
  const alpha = 1 - (now - prev.fadeStart) / CROSSFADE_MS;
  if (alpha <= 0) {
    prev.streamer.dispose();
    app.world.previous = null;
    return { tiles: s.tiles, exaggeration: s.exaggeration, fade: null };
  }
  return { tiles: s.tiles, exaggeration: s.exaggeration, fade: { tiles: prev.tiles, alpha, exaggeration: prev.exaggeration } };
}
