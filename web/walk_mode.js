// This module puts walk mode on the demo page: the Walk button and the G key, the ground under the eye each frame (the core's height from a WebAssembly world on the page, never below the drawn mesh), the pose it hands to the frame loop, the true relief while walking (exaggeration 1), and entering from the address bar (walk=1) or ctDemo.walk().
import { walkPose, walkStep, walkerAt, attachWalkInput, EYE_HEIGHT_M } from './walk.js';
import { meshHeightAt, createGroundProbe } from './ground.js';

/** The key that toggles walk mode (F is the orbit camera's "down"). */
export const WALK_KEY = 'g';

/**
 * @param {object} o
 * @param {object} o.app           the page state (main.js)
 * @param {HTMLElement} o.canvas
 * @param {(w: object) => void} o.onLeave  called with the walker's last pose when walk mode ends
 * @param {(x: number) => void} [o.setExaggeration]  the page's vertical exaggeration: walk mode sets 1
 *   while it lasts (the ground drawn next to the walker is then the exact ground it stands on, the
 *   stride-1 surface_lod mesh, stream/lod.js) and gives the page's factor back when it ends
 * @returns {object} {active, walker, enter, leave, toggle, tick, pose, ground, dispose}
 */
export function createWalkMode(o) {
  const { app } = o;
  const m = { on: false, w: walkerAt(0, 0), probe: null, probeFor: null, loading: null, last: null, flyX: null };
  const button = document.createElement('button');
  button.id = 'walk';
  button.type = 'button';
  button.title = `Walk on the ground at eye height (${WALK_KEY.toUpperCase()}; WASD walk, Shift runs, drag to look, Esc leaves)`;
  Object.assign(button.style, { position: 'fixed', left: '8px', top: '8px', padding: '4px 10px', background: '#1c2638', color: '#dde4ee',
    border: '1px solid #3a4a68', borderRadius: '4px', cursor: 'pointer', font: '13px system-ui, sans-serif' });
  const label = () => { button.textContent = m.on ? 'Fly (G)' : 'Walk (G)'; button.setAttribute('aria-pressed', String(m.on)); };
  label();
  button.addEventListener('click', () => api.toggle());
  document.body.append(button);
  const input = attachWalkInput(o.canvas, { active: () => m.on, walker: () => m.w, changed: () => { app.frame.dirty = true; } });
  const onKey = (e) => {
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) return;
    const k = e.key.toLowerCase();
    if (k === WALK_KEY) { api.toggle(); e.preventDefault(); }
    else if (k === 'escape' && m.on) api.leave();
  };
  window.addEventListener('keydown', onKey);

  // The page's own WebAssembly world, for this generation; reloaded after a rebuild.
  const ensureProbe = () => {
    const gen = app.world.generation;
    if (!gen || m.probeFor === gen || m.loading) return;
    m.loading = createGroundProbe(app.services.pool).then((p) => {
      m.probe?.free();
      m.probe = p;
      m.probeFor = p.generation;
    }, (e) => {
      // Without it the worker pool's sampled ground (a few times a second) holds the eye.
      console.warn('walk mode: no WebAssembly world on the page:', e.message);
      m.probeFor = gen;
    }).finally(() => { m.loading = null; });
  };

  const api = {
    active: () => m.on,
    walker: () => m.w,
    /** Enters walk mode at {lat, lon, heading, tilt} (defaults: where the camera is, looking at the horizon). */
    enter(at = {}) {
      const p = app.camera.pose ?? { lat: 0, lon: 0, heading: 0 };
      m.w = walkerAt(at.lat ?? p.lat, at.lon ?? p.lon, at.heading ?? p.heading ?? 0, at.tilt ?? 90);
      if (!m.on && o.setExaggeration && app.display.exaggeration !== 1) {
        m.flyX = app.display.exaggeration;
        o.setExaggeration(1);
      }
      m.on = true;
      input.keys.clear();
      ensureProbe();
      label();
      app.frame.dirty = true;
    },
    leave() {
      if (!m.on) return;
      m.on = false;
      label();
      o.onLeave({ ...walkPose(m.w, api.ground().eyeGroundM) });
      // The factor flown with comes back, unless it was changed during the walk.
      if (m.flyX !== null && app.display.exaggeration === 1) o.setExaggeration(m.flyX);
      m.flyX = null;
    },
    toggle() { if (m.on) api.leave(); else api.enter(); },
    /** Applies held keys; true if the eye moved. */
    tick(dtMs) {
      if (!m.on) return false;
      ensureProbe();
      return walkStep(m.w, input.keys, dtMs, app.world.radiusM);
    },
    /**
     * The ground under a direction in drawn metres: the core's height (the
     * page's world, else the pool's last sample under the camera), the drawn
     * mesh's height there, and the one the eye stands on (the higher; the sea
     * surface is 0 m).
     */
    ground(dir = m.w.pose.dir) {
      const x = app.display.exaggeration;
      const fresh = m.probe && m.probe.generation === app.world.generation;
      const coreM = fresh ? m.probe.heightM(dir) * x : app.camera.groundRealM * x;
      const meshM = meshHeightAt(app.world.streamer?.lastTiles ?? [], dir);
      const eyeGroundM = Math.max(0, coreM, meshM ?? -Infinity);
      m.last = { coreM, meshM, eyeGroundM, fromPage: !!fresh };
      return m.last;
    },
    /** The eye's pose this frame (walk mode on), and the ground height it stands on. */
    pose() {
      const g = api.ground();
      return { pose: walkPose(m.w, g.eyeGroundM), groundM: g.eyeGroundM };
    },
    lastGround: () => m.last && { ...m.last },
    /**
     * The page's own WebAssembly world of this generation (heightM, raycast),
     * or null while it loads: the first ask starts the load.
     */
    pageWorld() {
      ensureProbe();
      return m.probe && m.probe.generation === app.world.generation ? m.probe : null;
    },
    /** Puts another page world of this generation in place (an edited one, web/edit_mode.js); the caller frees the old. */
    setProbe(p) { m.probe = p; m.probeFor = p.generation; },
    dispose() {
      input.detach();
      window.removeEventListener('keydown', onKey);
      m.probe?.free();
      button.remove();
    },
  };
  return api;
}

export { EYE_HEIGHT_M };
