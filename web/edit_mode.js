// This module is the demo's edit mode: the B key or the Edit button toggles it, a click on the ground (the cursor's terrain raycast) drops a pad or a crater (the choice beside the button), the pool applies the whole edit set (pool.withEdits) and the page's own world follows (world.withEdits over the base world), and exactly the drawn tiles that editedKeys lists at their LODs are asked again; the others stay cached.
import { screenRay } from '../stream/camera.js';
import { pickCursor } from './cursor_pick.js';
import { groundProbe } from './ground.js';

/** The key that toggles edit mode. */
export const EDIT_KEY = 'b';
/** What a click drops: a pad for a building, a crater from a strike. */
export const EDIT_SHAPES = {
  pad: (center) => ({ kind: 'flatten', center, radiusM: 60, blendM: 40 }),
  crater: (center) => ({ kind: 'crater', center, radiusM: 150, depthM: 30, rimM: 6 }),
};
/** A pointer that moved less than this many pixels between down and up clicked (more: it dragged the camera). */
const CLICK_PX = 5;

/**
 * @param {object} o {app (main.js), canvas, layers: {scatter, markers}, view(): the last frame's view}
 */
export function createEditMode(o) {
  const { app, canvas } = o;
  const m = { on: false, shape: 'crater', edits: [], base: null, edited: null, busy: null, last: null, down: null };
  const bar = document.createElement('div');
  Object.assign(bar.style, { position: 'fixed', left: '8px', top: '40px', display: 'flex', gap: '4px', font: '13px system-ui, sans-serif' });
  const style = { padding: '4px 10px', background: '#1c2638', color: '#dde4ee', border: '1px solid #3a4a68', borderRadius: '4px' };
  const button = Object.assign(document.createElement('button'), { id: 'edit', type: 'button', title: `Edit the ground: a click drops a pad or a crater (${EDIT_KEY.toUpperCase()})` });
  const select = Object.assign(document.createElement('select'), { id: 'edit-shape', title: 'What a click drops' });
  for (const name of Object.keys(EDIT_SHAPES)) select.append(Object.assign(document.createElement('option'), { value: name, textContent: name, selected: name === m.shape }));
  Object.assign(button.style, style, { cursor: 'pointer' });
  Object.assign(select.style, style);
  select.addEventListener('change', () => { m.shape = select.value; });
  const label = () => { button.textContent = m.on ? `Editing (${EDIT_KEY.toUpperCase()})` : `Edit (${EDIT_KEY.toUpperCase()})`; button.setAttribute('aria-pressed', String(m.on)); select.style.display = m.on ? '' : 'none'; };
  button.addEventListener('click', () => api.toggle());
  bar.append(button, select);
  document.body.append(bar);
  label();
  window.addEventListener('keydown', (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    if (e.key.toLowerCase() === EDIT_KEY) { api.toggle(); e.preventDefault(); }
  });
  canvas.addEventListener('pointerdown', (e) => { m.down = { x: e.clientX, y: e.clientY }; });
  canvas.addEventListener('pointerup', (e) => {
    const d = m.down;
    m.down = null;
    if (!m.on || !d || Math.hypot(e.clientX - d.x, e.clientY - d.y) > CLICK_PX) return;
    const rect = canvas.getBoundingClientRect(), dpr = canvas.width / Math.max(1, canvas.clientWidth);
    const dir = api.pick((e.clientX - rect.left) * dpr, (e.clientY - rect.top) * dpr);
    if (dir) api.drop(dir, m.shape).catch((err) => console.warn('edit failed:', err.message));
  });

  const api = {
    active: () => m.on,
    toggle() { m.on = !m.on; label(); },
    /** The ground direction under a drawing-buffer pixel (the terrain raycast), or null. */
    pick(px, py) {
      const view = o.view(), pw = app.services.walk.pageWorld();
      if (!view || !pw) return null;
      const hit = pickCursor({ eye: view.eye, ray: screenRay(view, px, py), radiusM: app.world.radiusM, exaggeration: app.display.exaggeration, pageWorld: pw, lastHeightM: 0 });
      return hit && hit.dir;
    },
    /**
     * Adds a pad or crater (or an edit object of its own, centred here) at a direction: the pool and the page's world take
     * the new set, then the tiles it touches are asked again. Resolves with
     * {edit, editSetId, editedKeys}.
     */
    async drop(dir, shape = m.shape) {
      if (m.busy) await m.busy.catch(() => {});
      const run = (async () => {
        const walk = app.services.walk, probe = walk.pageWorld();
        if (!probe) throw new Error('edit mode: the page world is still loading');
        if (!m.base) m.base = probe.world;
        const edit = typeof shape === 'string' ? EDIT_SHAPES[shape](Array.from(dir)) : { ...shape, center: Array.from(dir) };
        const edits = [...m.edits, edit];
        const edited = m.base.withEdits(edits);  // throws on a bad edit, before the pool sees it
        let r;
        try {
          r = await app.services.pool.withEdits(edits);
        } catch (e) {
          edited.free();
          throw e;
        }
        const old = m.edited, base = m.base;
        m.edits = edits;
        m.edited = edited;
        walk.setProbe({ ...groundProbe(edited), free() { edited.free(); base.free(); } });
        old?.free();
        const keys = api.touchedKeys(edited);
        app.world.streamer.invalidate(keys);
        o.layers.scatter.invalidate(keys);
        o.layers.markers.clear();
        app.frame.dirty = true;
        m.last = { edit, editSetId: r.editSetId, editedKeys: keys };
        return m.last;
      })();
      m.busy = run;
      return run;
    },
    /** editedKeys of the edited world at every LOD drawn now and every LOD scatter is asked at. */
    touchedKeys(world) {
      const lods = new Set((app.world.streamer.lastTiles ?? []).map((t) => t.key.lod));
      const sl = app.world.config.surface_lod;
      for (let l = Math.max(0, sl - (o.layers.scatter.maxLevel ?? 0)); l <= sl; l++) lods.add(l);
      return [...lods].sort((a, b) => a - b).flatMap((l) => world.editedKeys(l));
    },
    /** The page's edit set. */
    edits: () => m.edits.map((e) => ({ ...e })),
    /** A new world: no edits (the pool's build starts without them). */
    reset() {
      m.edits = [];
      m.edited = m.base = null;
      m.last = null;
    },
  };
  return api;
}
