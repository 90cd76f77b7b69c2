// This module draws the stream network (pool.streams: the links below the macro rivers that the streams layer carves) as water-coloured ribbons along the valley floors of the drawn tiles near the eye: it asks for the streams of drawn tiles within range, keeps one GPU batch of segments per key, drops a key's batch when its tile is no longer drawn, and draws each segment as a flat ribbon at the water level, at least a pixel wide, lifted a little above the tile's ground (more on coarse tiles, whose samples miss the valley floor: there the ribbons thin to lines).
import { createProgram } from './gl.js';
import { sub, length, keyId } from '../stream/geo.js';
import { logDepthFactor } from '../stream/surface_glsl.js';
import { STREAM_VS, STREAM_FS } from './stream_layer_glsl.js';

/** Floats per segment instance: both ends (relative to the key's centre) and the width in metres. */
export const SEGMENT_FLOATS = 7;
/** Streams requests in flight at once: meshes come first. */
const MAX_IN_FLIGHT = 2;
/** Keys held at most (nearest first). */
const MAX_KEYS = 96;

/**
 * Segment instances of a streams reply (world.streams): SEGMENT_FLOATS per
 * segment between consecutive points of each link, in link order.
 * @returns {Float32Array}
 */
export function streamSegments(s) {
  let n = 0;
  for (let k = 0; k < s.count; k++) n += Math.max(0, s.pointStart[k + 1] - s.pointStart[k] - 1);
  const out = new Float32Array(SEGMENT_FLOATS * n), P = s.positions;
  let o = 0;
  for (let k = 0; k < s.count; k++) {
    for (let p = s.pointStart[k]; p + 1 < s.pointStart[k + 1]; p++) {
      for (let c = 0; c < 3; c++) { out[o + c] = P[3 * p + c]; out[o + 3 + c] = P[3 * p + 3 + c]; }
      out[o + 6] = s.width[k];
      o += SEGMENT_FLOATS;
    }
  }
  return out;
}

/** Metres between a key's samples at a face centre (the widest): face coordinates span 2 radii there, over 256 * 2^lod samples. */
export function keySpacingM(radiusM, lod) {
  return (2 * radiusM) / (256 * 2 ** lod);
}

/**
 * The drawn tiles whose streams are wanted, nearest first: those at a LOD
 * finer than the world's coarse stream lattice (coarser keys hold no level)
 * whose nearest point is within range of the eye, at most MAX_KEYS.
 * @param {{key: object, center: number[]}[]} tiles the drawn tiles
 * @param {{eye: number[], radiusM: number, altitudeM: number, minLod: number}} o
 * @returns {{id: string, key: object, d: number}[]}
 */
export function wantedKeys(tiles, o) {
  const range = streamRangeM(o.altitudeM), out = [];
  for (const t of tiles) {
    if (t.key.lod < o.minLod) continue;
    const halfM = (Math.PI * o.radiusM) / 4 / 2 ** t.key.lod * 1.5;
    const d = Math.max(0, length(sub(t.center, o.eye)) - halfM);
    if (d < range) out.push({ id: keyId(t.key), key: t.key, d });
  }
  return out.sort((a, b) => a.d - b.d).slice(0, MAX_KEYS);
}

/** How far from the eye streams are drawn: a few times the altitude, at least 5 km, at most 150 km. */
export function streamRangeM(altitudeM) {
  return Math.min(150000, Math.max(5000, 4 * Math.max(0, altitudeM)));
}

/**
 * Whether a world carries streams the layer can draw: streams on
 * (stream_depth_m > 0) and a surface_lod at or past stream_from_lod.
 */
export function worldHasStreams(config) {
  return !!config && Number(config.stream_depth_m) > 0 && Number(config.surface_lod) >= Number(config.stream_from_lod);
}

/**
 * Lift of a key's ribbons above their water level, metres: the tile's mesh
 * follows the carved floor at the finest LOD (a few decimetres), but a
 * coarser tile's samples miss a valley narrower than their spacing and its
 * ground stands up to about half a spacing above the floor there.
 */
export function keyLiftM(radiusM, lod, surfaceLod) {
  return lod >= surfaceLod ? 0.3 : 0.5 * keySpacingM(radiusM, lod);
}

/** The streams of the drawn tiles near the eye, streamed with them. */
export class StreamLayer {
  /** @param {WebGL2RenderingContext} gl */
  constructor(gl) {
    this.gl = gl;
    this.prog = createProgram(gl, STREAM_VS, STREAM_FS, 'streams');
    this.entries = new Map();   // keyId -> {key, center, vao, buf, segments} or {pending}
    this.enabled = true;
    this.generation = null;
    this.last = { segments: 0, keys: 0 };
  }

  /** Forgets everything (a new world). */
  clear() {
    for (const e of this.entries.values()) this._free(e);
    this.entries.clear();
  }

  _free(e) {
    if (e.pending) e.pending.cancelled = true;
    if (e.vao) { this.gl.deleteVertexArray(e.vao); this.gl.deleteBuffer(e.buf); }
  }

  /**
   * One frame's streaming: asks for the streams of the wanted tiles, drops
   * keys no longer wanted.
   * @param {object} o {pool, tiles (drawn), eye, radiusM, altitudeM, config (the world's), generation, changed()}
   */
  update(o) {
    if (o.generation !== this.generation) { this.clear(); this.generation = o.generation; }
    if (!this.enabled || !worldHasStreams(o.config)) { this.clear(); return; }
    const minLod = Math.min(Number(o.config.stream_level), Number(o.config.stream_fine_level)) + 1;
    const want = wantedKeys(o.tiles, { eye: o.eye, radiusM: o.radiusM, altitudeM: o.altitudeM, minLod });
    const ids = new Set(want.map((w) => w.id));
    for (const [id, e] of this.entries) if (!ids.has(id)) { this._free(e); this.entries.delete(id); }
    let inFlight = 0;
    for (const e of this.entries.values()) if (e.pending) inFlight++;
    for (const w of want) {
      if (inFlight >= MAX_IN_FLIGHT) break;
      if (this.entries.has(w.id)) continue;
      inFlight++;
      const pending = { cancelled: false }, entry = { key: w.key, pending };
      this.entries.set(w.id, entry);
      o.pool.streams(w.key, { priority: -1 }).then((s) => {
        if (pending.cancelled || this.entries.get(w.id) !== entry || s.generation !== this.generation) return;
        entry.pending = null;
        this._upload(entry, s, keyLiftM(o.radiusM, w.key.lod, Number(o.config.surface_lod)));
        o.changed();
      }, () => {
        // Cancelled or failed: asked again next frame while still wanted.
        if (this.entries.get(w.id) === entry) this.entries.delete(w.id);
      });
    }
  }

  _upload(entry, s, liftM) {
    const gl = this.gl, seg = streamSegments(s);
    entry.center = Array.from(s.center);
    entry.segments = seg.length / SEGMENT_FLOATS;
    entry.liftM = liftM;
    if (!entry.segments) return;
    entry.vao = gl.createVertexArray();
    entry.buf = gl.createBuffer();
    gl.bindVertexArray(entry.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, entry.buf);
    gl.bufferData(gl.ARRAY_BUFFER, seg, gl.STATIC_DRAW);
    const bytes = 4 * SEGMENT_FLOATS;
    for (const [loc, size, off] of [[0, 3, 0], [1, 3, 12], [2, 1, 24]]) {
      gl.enableVertexAttribArray(loc);
      gl.vertexAttribPointer(loc, size, gl.FLOAT, false, bytes, off);
      gl.vertexAttribDivisor(loc, 1);
    }
    gl.bindVertexArray(null);
  }

  /** Draws the ribbons blended over the terrain (depth tested, not written); returns the segments drawn. */
  draw(f) {
    this.last = { segments: 0, keys: 0 };
    if (!this.enabled || (f.exaggeration || 1) !== 1) return 0;
    const gl = this.gl, u = this.prog.u, view = f.view;
    let begun = false;
    for (const e of this.entries.values()) {
      if (!e.vao) continue;
      if (!begun) {
        begun = true;
        gl.useProgram(this.prog.program);
        gl.uniformMatrix4fv(u.uViewProj, false, Float32Array.from(view.viewProj));
        gl.uniform3fv(u.uEye, Float32Array.from(view.eye));
        gl.uniform3fv(u.uSun, f.sun);
        gl.uniform1f(u.uPixelScale, view.pixelScale);
        gl.uniform1f(u.uLogDepthF, logDepthFactor(view.far));
        gl.enable(gl.BLEND);
        gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
        gl.enable(gl.DEPTH_TEST);
        gl.disable(gl.CULL_FACE);
        gl.depthMask(false);
      }
      gl.uniform3fv(u.uOffset, sub(e.center, view.eye));
      gl.uniform1f(u.uLiftM, e.liftM);
      gl.bindVertexArray(e.vao);
      gl.drawArraysInstanced(gl.TRIANGLES, 0, 6, e.segments);
      this.last.segments += e.segments;
      this.last.keys++;
    }
    if (begun) {
      gl.depthMask(true);
      gl.disable(gl.BLEND);
      gl.bindVertexArray(null);
    }
    return this.last.segments;
  }

  /** Numbers for ctDemo.streams(). */
  stats() {
    let pending = 0, ready = 0, segments = 0;
    for (const e of this.entries.values()) {
      if (e.pending) pending++;
      else { ready++; segments += e.segments ?? 0; }
    }
    return { enabled: this.enabled, keys: ready, pending, segmentsHeld: segments, drawn: { ...this.last } };
  }
}

/**
 * Wires the layer into the demo page: drawn after the terrain, fed from the
 * drawn tiles on every frame it draws; streams=0 in the address turns it off.
 * @param {object} o {app (main.js), options (the address bar's)}
 * @returns {{layer: StreamLayer, api: {streams(): object}}}
 */
export function attachStreams(o) {
  const { app } = o, renderer = app.services.renderer;
  const layer = new StreamLayer(renderer.gl);
  layer.enabled = o.options.streams !== '0';
  const changed = () => { app.frame.dirty = true; };
  renderer.layers.push({
    draw(f) {
      const w = app.world;
      if (w.streamer && !w.building) {
        layer.update({ pool: app.services.pool, tiles: w.streamer.lastTiles ?? [], eye: f.view.eye, radiusM: w.radiusM,
          altitudeM: f.view.altitudeM ?? length(f.view.eye) - w.radiusM, config: w.config, generation: w.generation, changed });
      }
      layer.draw(f);
    },
  });
  return {
    layer,
    api: {
      /** Stream numbers: {enabled, keys, pending, segmentsHeld, drawn: {segments, keys}}. */
      streams: () => layer.stats(),
      /** Streams drawn or not (as streams=0 in the address); resolves with their stats once drawn. */
      setStreams(on) {
        layer.enabled = !!on;
        if (!on) layer.clear();
        return new Promise((res) => { app.frame.dirty = true; app.frame.settledWaiters.push(() => res(layer.stats())); });
      },
    },
  };
}
