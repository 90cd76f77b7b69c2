// This module wires the populated planet into the demo page: the scatter layer and site markers drawn after the terrain, edit mode, their per-frame upkeep (called from main.js's step) and their ctDemo members (scatter stats, dropping edits, the edited ground, the sites shown).
import { isSoftwareRenderer } from './gl.js';
import { ScatterLayer } from './scatter_layer.js';
import { SiteMarkers, SITE_MAX_ALTITUDE_M } from './site_markers.js';
import { createEditMode } from './edit_mode.js';
import { latLonToDir } from '../stream/geo.js';

/** Above this altitude (metres above the ground) no scatter or site can show: nothing is loaded or asked. */
const KINDS_BELOW_M = 100000;

/**
 * @param {object} o {app (main.js), canvas, options (the address bar's: scatter=0 turns scatter off)}
 * @returns {{update(view: object): void, newWorld(): void, api: object}}
 */
export function attachPopulate(o) {
  const { app } = o, renderer = app.services.renderer, gl = renderer.gl;
  const scatter = new ScatterLayer(gl, { software: isSoftwareRenderer(gl) });
  scatter.enabled = o.options.scatter !== '0';
  const markers = new SiteMarkers(scatter.batches);
  renderer.layers.push(scatter, markers);
  // The catalogue comes from the core itself (one source for the kinds), loaded once the camera
  // comes down to where scatter could show: views from orbit never pay for it.
  let kinds = null;
  const loadKinds = () => {
    kinds = import('../wasm/ct.mjs').then((m) => m.loadCore()).then((core) => { scatter.setKinds(core.scatterKinds()); app.frame.dirty = true; },
      (e) => console.warn('scatter: no catalogue:', e.message));
  };
  let lastView = null;
  const changed = () => { app.frame.dirty = true; };
  const edit = createEditMode({ app, canvas: o.canvas, layers: { scatter, markers }, view: () => lastView });
  // The walk-mode minimap (web/minimap_view.js) draws the pins, the edit set's footprints and the scatter's density too.
  app.minimapLayers = { get sites() { return markers.sites; }, get edits() { return edit.edits(); }, get scatter() { return scatter.held(); } };
  // Mesh requests made while ctDemo.drop runs, for the edit check (which tiles came again).
  let meshLog = null;
  const pool = app.services.pool, mesh = pool.mesh.bind(pool);
  pool.mesh = (key, ...rest) => { meshLog?.push({ ...key }); return mesh(key, ...rest); };

  return {
    /** A frame's upkeep: scatter for the drawn tiles, sites near the camera. */
    update(view) {
      lastView = view;
      const w = app.world;
      if (!w.streamer || w.building) return;
      if (view.altitudeM > KINDS_BELOW_M) {
        // From orbit: no pins, and the scatter of the tiles left behind goes.
        markers.visible = false;
        if (scatter.kinds) scatter.update({ pool, tiles: [], eye: view.eye, radiusM: w.radiusM, surfaceLod: w.config.surface_lod, generation: w.generation, changed });
        return;
      }
      if (!kinds && scatter.enabled) loadKinds();
      scatter.update({ pool, tiles: w.streamer.lastTiles ?? [], eye: view.eye, radiusM: w.radiusM, surfaceLod: w.config.surface_lod, generation: w.generation, changed });
      // The page's own world (walk mode's) loads on the first low view, as the cursor raycast's does.
      const low = view.altitudeM < SITE_MAX_ALTITUDE_M;
      markers.update({ world: low ? app.services.walk.pageWorld()?.world ?? null : null, eye: view.eye, radiusM: w.radiusM, altitudeM: view.altitudeM, changed });
    },
    /** A new world: nothing of the old one's scatter, sites or edits. */
    newWorld() {
      scatter.clear();
      markers.clear();
      edit.reset();
    },
    /** ctDemo members. */
    api: {
      /** Scatter numbers: {enabled, keys, pending, instancesHeld, drawn: {instances, batches, keys}}. */
      scatter: () => scatter.stats(),
      /** Scatter drawn or not (as scatter=0 in the address); resolves with its stats once drawn. */
      setScatter(on) {
        scatter.enabled = !!on;
        if (!on) scatter.clear();
        return new Promise((res) => { app.frame.dirty = true; app.frame.settledWaiters.push(() => res(scatter.stats())); });
      },
      /** The sites shown as pins: [{kind, rank, dir, heightM, score}]. */
      sites: () => markers.list(),
      /** Edit mode on or off (the B key, the Edit button). */
      editMode: (on) => { if (on !== undefined && on !== edit.active()) edit.toggle(); return edit.active(); },
      /**
       * Drops a 'pad' or 'crater' at latDeg, lonDeg; resolves once the view is
       * streamed again with {edit, editSetId, editedKeys, refreshed (the chunk
       * keys asked again at once: the drawn tiles editedKeys lists), later (keys
       * asked for after them, until the view settled: the new relief can refine
       * an edited tile into its children)}.
       */
      async drop(latDeg, lonDeg, shape = 'crater') {
        const log = meshLog = [];
        try {
          const r = await edit.drop(latLonToDir(latDeg, lonDeg), shape);
          const mid = log.length;
          await new Promise((res) => { app.frame.dirty = true; app.frame.settledWaiters.push(res); });
          return { ...r, refreshed: log.slice(0, mid), later: log.slice(mid) };
        } finally {
          if (meshLog === log) meshLog = null;
        }
      },
      /** The page world's exact ground (world.groundAt, edits included): {heightM, waterM, hasWater}. */
      groundAt(latDeg, lonDeg) {
        const w = app.services.walk.pageWorld()?.world;
        if (!w) return null;
        const g = w.groundAt(latLonToDir(latDeg, lonDeg));
        return { heightM: g.heightM, waterM: g.waterM, hasWater: g.hasWater };
      },
      /** The edit set applied. */
      edits: () => edit.edits(),
    },
  };
}
