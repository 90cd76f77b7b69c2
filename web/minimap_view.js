// This module shows the minimap in a corner of the demo page in walk mode: a
// 2D canvas redrawn a few times a second with renderMinimap (stream/), from
// the chunks MinimapChunks keeps round the walker (the pool's surface_lod
// chunks and coarser ones). N toggles north-up and heading-up (heading-up is
// automatic near a pole). Sites, edits and scatter come from app.minimapLayers
// when a part of the page sets it ({sites, edits, scatter}, each optional).
import { renderMinimap, MinimapChunks } from '../stream/index.js';

/** Pixels per side, metres from the walker to a side, ms between redraws. */
const SIZE = 176, RANGE_M = 1200, EVERY_MS = 250;
export const MINIMAP_KEY = 'n';

/**
 * @param {object} o
 * @param {object} o.app   the page state (main.js)
 * @param {object} o.walk  walk mode (walk_mode.js): active(), walker()
 * @param {() => Uint8Array} o.palette  the palette drawn (120 bytes)
 * @returns {{tick: (now: number) => void, stats: () => object, dispose: () => void}}
 */
export function createMinimapView({ app, walk, palette }) {
  const canvas = document.createElement('canvas');
  canvas.id = 'minimap';
  canvas.width = canvas.height = SIZE;
  canvas.title = `Minimap (${MINIMAP_KEY.toUpperCase()}: north up / heading up)`;
  Object.assign(canvas.style, { position: 'fixed', left: '8px', top: '44px', width: `${SIZE}px`, height: `${SIZE}px`,
    border: '1px solid #3a4a68', borderRadius: '4px', display: 'none', imageRendering: 'pixelated' });
  document.body.append(canvas);
  const g = canvas.getContext('2d');
  const m = { headingUp: false, chunks: null, for: null, last: -Infinity, drawn: 0, lastMap: null, error: null };
  const onKey = (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    if (e.key.toLowerCase() === MINIMAP_KEY && walk.active()) { m.headingUp = !m.headingUp; m.last = -Infinity; }
  };
  window.addEventListener('keydown', onKey);

  return {
    tick(now) {
      const on = walk.active() && !!app.world.config;
      canvas.style.display = on ? 'block' : 'none';
      if (!on || now - m.last < EVERY_MS) return;
      m.last = now;
      if (m.for !== app.world.generation) {
        m.chunks = new MinimapChunks({ pool: app.services.pool, radiusM: app.world.radiusM, surfaceLod: app.world.config.surface_lod, rangeM: RANGE_M });
        m.for = app.world.generation;
      }
      const pose = walk.walker().pose;
      try {
        m.chunks.update(pose);
        const layers = app.minimapLayers ?? {};
        const map = renderMinimap({ pose, radiusM: app.world.radiusM, chunks: m.chunks.chunks(), palette: palette(), size: SIZE, rangeM: RANGE_M,
          headingUp: m.headingUp, sites: layers.sites, edits: layers.edits, scatter: layers.scatter });
        g.putImageData(new ImageData(map.pixels, map.width, map.height), 0, 0);
        m.drawn++;
        m.lastMap = { headingUp: map.headingUp, covered: map.covered, metresPerPixel: map.metresPerPixel };
        m.error = null;
      } catch (e) {
        m.error = e.message;   // shown in stats(); the next tick tries again
      }
    },
    /** {shown, drawn, headingUp, covered, chunks, error}: for tests. */
    stats: () => ({ shown: canvas.style.display !== 'none', drawn: m.drawn, ...(m.lastMap ?? {}), chunks: m.chunks ? m.chunks.chunks().length : 0,
      error: m.error, headingUpAsked: m.headingUp }),
    /** North-up (false) or heading-up (true), as the N key toggles. */
    setHeadingUp(on) { m.headingUp = !!on; m.last = -Infinity; },
    dispose() { window.removeEventListener('keydown', onKey); canvas.remove(); },
  };
}
