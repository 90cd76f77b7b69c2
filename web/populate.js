// This module wires the populated planet into the demo page: the scatter layer and site markers drawn after the terrain, edit mode, their per-frame upkeep (called from main.js's step) and their ctDemo members (scatter stats, dropping edits, the edited ground, the sites shown).
import { isSoftwareRenderer } from './gl.js';
import { ScatterLayer } from './scatter_layer.js';
import { SiteMarkers } from './site_markers.js';
import { createEditMode } from './edit_mode.js';
import { latLonToDir } from '../stream/geo.js';

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
  // The catalogue comes from the core itself (one source for the kinds).
  import('../wasm/ct.mjs').then((m) => m.loadCore()).then((core) => { scatter.setKinds(core.scatterKinds()); app.frame.dirty = true; },
    (e) => console.warn('scatter: no catalogue:', e.message));
  let lastView = null;
  const changed = () => { app.frame.dirty = true; };
  const edit = createEditMode({ app, canvas: o.canvas, layers: { scatter, markers }, view: () => lastView });
  // Mesh requests since a mark, for the edit check (which tiles came again).
  const meshLog = [];
  const pool = app.services.pool, mesh = pool.mesh.bind(pool);
  pool.mesh = (key, ...rest) => { meshLog.push({ ...key }); return mesh(key, ...rest); };

  return {
    /** A frame's upkeep: scatter for the drawn tiles, sites near the camera. */
    update(view) {
      lastView = view;
      const w = app.world;
      if (!w.streamer || w.building) return;
      scatter.update({ pool, tiles: w.streamer.lastTiles ?? [], eye: view.eye, radiusM: w.radiusM, surfaceLod: w.config.surface_lod, generation: w.generation, changed });
      markers.update({ world: app.services.walk.pageWorld()?.world ?? null, eye: view.eye, radiusM: w.radiusM, altitudeM: view.altitudeM, changed });
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
        const mark = meshLog.length;
        const r = await edit.drop(latLonToDir(latDeg, lonDeg), shape);
        const mid = meshLog.length;
        await new Promise((res) => { app.frame.dirty = true; app.frame.settledWaiters.push(res); });
        return { ...r, refreshed: meshLog.slice(mark, mid), later: meshLog.slice(mid) };
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
