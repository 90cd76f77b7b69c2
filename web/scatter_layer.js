// This module draws scatter (pool.scatter: the core's trees, shrubs and rocks per chunk key) as instanced low-poly shapes over the drawn tiles: it asks for the scatter of drawn tiles near the eye at the LODs where kinds appear, keeps one GPU batch per kind per key, drops a key's batches when its tile is no longer drawn, draws nearest first within an instance budget, and fades instances out with distance. Site markers (site_markers.js) draw through the same instanced program.
import { createProgram } from './gl.js';
import { sub, length, keyId } from '../stream/geo.js';
import { logDepthFactor } from '../stream/surface_glsl.js';
import { SCATTER_VS, SCATTER_FS } from './scatter_shaders.js';
import { buildShapes, kindStyle } from './scatter_shapes.js';

/** Tiles farther than this from the eye (centre distance less half their width) get no scatter. */
export const SCATTER_RANGE_M = 2500;
/** A kind fades out between 70% and 100% of this many times its largest size (metres), within the range. */
const FADE_PER_SIZE = 120;
/** Fewest metres a kind is drawn to, however small (tufts, small rocks). */
const MIN_FADE_M = 150;
/** Instances drawn per frame at most (nearest tiles first): software GL pays for every vertex. */
export const INSTANCE_BUDGET = { gpu: 400000, software: 60000 };
/** Scatter requests in flight at once: meshes come first. */
const MAX_IN_FLIGHT = 2;

/** The instanced program and the shapes' vertex buffers on one context. */
export class ShapeBatches {
  constructor(gl) {
    this.gl = gl;
    this.prog = createProgram(gl, SCATTER_VS, SCATTER_FS, 'scatter');
    this.shapes = {};
    for (const [name, data] of Object.entries(buildShapes())) {
      const buf = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, buf);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
      this.shapes[name] = { buf, vertices: data.length / 6 };
    }
  }

  /**
   * A batch of one shape: inst holds 6 floats per instance (foot x, y, z
   * from the centre, size, yaw, tint). Returns {vao, buf, count, bytes}.
   */
  create(shape, inst) {
    const gl = this.gl, s = this.shapes[shape];
    const vao = gl.createVertexArray(), buf = gl.createBuffer();
    gl.bindVertexArray(vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, s.buf);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 24, 0);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 24, 12);
    gl.bindBuffer(gl.ARRAY_BUFFER, buf);
    gl.bufferData(gl.ARRAY_BUFFER, inst, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(2);
    gl.vertexAttribPointer(2, 4, gl.FLOAT, false, 24, 0);
    gl.vertexAttribDivisor(2, 1);
    gl.enableVertexAttribArray(3);
    gl.vertexAttribPointer(3, 2, gl.FLOAT, false, 24, 16);
    gl.vertexAttribDivisor(3, 1);
    gl.bindVertexArray(null);
    return { vao, buf, shape, count: inst.length / 6, vertices: s.vertices, bytes: inst.byteLength };
  }

  release(b) {
    this.gl.deleteVertexArray(b.vao);
    this.gl.deleteBuffer(b.buf);
  }

  /** Sets the frame's uniforms; then draw() each batch. */
  begin(f) {
    const gl = this.gl, u = this.prog.u;
    gl.useProgram(this.prog.program);
    gl.uniformMatrix4fv(u.uViewProj, false, Float32Array.from(f.view.viewProj));
    gl.uniform3fv(u.uSun, f.sun);
    gl.uniform3fv(u.uHaze, [0.55, 0.65, 0.8]);
    gl.uniform1f(u.uHazeM, 9000);
    gl.uniform1f(u.uPixelScale, f.view.pixelScale);
    gl.uniform1f(u.uLogDepthF, logDepthFactor(f.view.far));
    gl.enable(gl.DEPTH_TEST);
    gl.disable(gl.CULL_FACE);
  }

  /** Draws a batch whose feet are relative to center (float64), faded between fade[0] and fade[1] metres. */
  draw(f, b, center, colour, fade, minPx = 0) {
    const gl = this.gl, u = this.prog.u;
    gl.uniform3fv(u.uOffset, sub(center, f.view.eye));
    gl.uniform3fv(u.uCenter, center);
    gl.uniform3fv(u.uColor, colour);
    gl.uniform2f(u.uFade, fade[0], fade[1]);
    gl.uniform1f(u.uMinPx, minPx);
    gl.bindVertexArray(b.vao);
    gl.drawArraysInstanced(gl.TRIANGLES, 0, b.vertices, b.count);
  }
}

/** Per-instance floats of a scatter reply, grouped by kind: Map kind -> Float32Array (6 per instance). */
export function instancesByKind(sc) {
  const counts = new Map();
  for (let i = 0; i < sc.count; i++) counts.set(sc.kind[i], (counts.get(sc.kind[i]) ?? 0) + 1);
  const out = new Map(), fill = new Map();
  for (const [k, n] of counts) { out.set(k, new Float32Array(6 * n)); fill.set(k, 0); }
  for (let i = 0; i < sc.count; i++) {
    const k = sc.kind[i], a = out.get(k), j = fill.get(k);
    a[j] = sc.positions[3 * i]; a[j + 1] = sc.positions[3 * i + 1]; a[j + 2] = sc.positions[3 * i + 2];
    a[j + 3] = sc.scale[i]; a[j + 4] = sc.yaw[i];
    // A stable tint from the instance's id: neighbours of one kind differ a little.
    a[j + 5] = (Number(sc.id[i] & 0xffn) / 127.5) - 1;
    fill.set(k, j + 6);
  }
  return out;
}

/** Scatter of the drawn tiles near the eye, streamed with them. */
export class ScatterLayer {
  /**
   * @param {WebGL2RenderingContext} gl
   * @param {{software?: boolean}} [o] software: a CPU renderer (the smaller instance budget)
   */
  constructor(gl, o = {}) {
    this.gl = gl;
    this.batches = new ShapeBatches(gl);
    this.budget = o.software ? INSTANCE_BUDGET.software : INSTANCE_BUDGET.gpu;
    this.kinds = null;         // core.scatterKinds() with their style, set by setKinds
    this.entries = new Map();  // keyId -> {key, center, batches, count} or {pending: request}
    this.enabled = true;
    this.requested = [];       // keys asked since the last clear (tests: which tiles came again)
    this.last = { instances: 0, batches: 0, keys: 0 };
  }

  /** The catalogue (core.scatterKinds()): each kind's level, sizes and name. */
  setKinds(kinds) {
    this.kinds = kinds.map((k) => ({ ...k, ...kindStyle(k.name), fadeM: Math.max(MIN_FADE_M, Math.min(SCATTER_RANGE_M, FADE_PER_SIZE * k.maxSizeM)) }));
    this.maxLevel = Math.max(...kinds.map((k) => k.level));
  }

  /** Forgets everything (a new world, or an edit set: the pool cancelled what was pending). */
  clear() {
    for (const e of this.entries.values()) this._free(e);
    this.entries.clear();
  }

  /** Drops these keys' scatter (edited tiles): they are asked again while drawn. */
  invalidate(keys) {
    for (const k of keys) {
      const e = this.entries.get(keyId(k));
      if (e) { this._free(e); this.entries.delete(keyId(k)); }
    }
  }

  _free(e) {
    if (e.pending) e.pending.cancelled = true;
    for (const b of e.batches ?? []) this.batches.release(b);
  }

  /**
   * One frame's streaming: asks for the scatter of drawn tiles within range
   * at LODs where kinds appear, and drops keys no longer drawn.
   * @param {object} o {pool, tiles (drawn), eye, radiusM, surfaceLod, generation, exaggeration, changed()}
   */
  update(o) {
    if (!this.kinds || !this.enabled) return;
    const want = new Map();
    const minLod = o.surfaceLod - this.maxLevel;
    for (const t of o.tiles) {
      if (t.key.lod < minLod) continue;
      const halfM = (Math.PI * o.radiusM) / 4 / 2 ** t.key.lod * 1.5;
      const d = length(sub(t.center, o.eye)) - halfM;
      if (d < SCATTER_RANGE_M) want.set(keyId(t.key), { key: t.key, d });
    }
    for (const [id, e] of this.entries) if (!want.has(id)) { this._free(e); this.entries.delete(id); }
    let inFlight = 0;
    for (const e of this.entries.values()) if (e.pending) inFlight++;
    const order = [...want.entries()].filter(([id]) => !this.entries.has(id)).sort((a, b) => a[1].d - b[1].d);
    for (const [id, w] of order) {
      if (inFlight >= MAX_IN_FLIGHT) break;
      inFlight++;
      const pending = { cancelled: false };
      const entry = { key: w.key, pending };
      this.entries.set(id, entry);
      this.requested.push(w.key);
      o.pool.scatter(w.key, { priority: -1 }).then((sc) => {
        if (pending.cancelled || this.entries.get(id) !== entry || sc.generation !== o.generation) return;
        entry.pending = null;
        entry.center = Array.from(sc.center);
        entry.count = sc.count;
        entry.positions = sc.positions;   // the feet, kept for the minimap's density (held())
        entry.batches = [];
        for (const [k, inst] of instancesByKind(sc)) {
          const b = this.batches.create(this.kinds[k].shape, inst);
          b.kind = k;
          entry.batches.push(b);
        }
        o.changed();
      }, () => {
        // Cancelled by a new edit set or world, or failed: asked again next frame while still wanted.
        if (this.entries.get(id) === entry) this.entries.delete(id);
      });
    }
  }

  /** Draws the instances nearest first within the budget; returns the number drawn. */
  draw(f) {
    this.last = { instances: 0, batches: 0, keys: 0 };
    if (!this.kinds || !this.enabled || (f.exaggeration || 1) !== 1) return 0;
    const ready = [...this.entries.values()].filter((e) => e.batches).map((e) => ({ e, d: length(sub(e.center, f.view.eye)) })).sort((a, b) => a.d - b.d);
    if (!ready.length) return 0;
    this.batches.begin(f);
    let n = 0;
    for (const { e } of ready) {
      if (n + e.count > this.budget) break;
      for (const b of e.batches) {
        const k = this.kinds[b.kind];
        this.batches.draw(f, b, e.center, k.colour, [0.7 * k.fadeM, k.fadeM]);
        this.last.batches++;
      }
      n += e.count;
      this.last.keys++;
    }
    this.last.instances = n;
    this.gl.bindVertexArray(null);
    return n;
  }

  /** The held scatter as renderMinimap takes it ({count, center, positions} per key): its density layer. */
  held() {
    const out = [];
    for (const e of this.entries.values()) if (e.positions) out.push({ count: e.count, center: e.center, positions: e.positions });
    return out;
  }

  /** Numbers for ctDemo.scatter(). */
  stats() {
    let pending = 0, ready = 0, instances = 0;
    for (const e of this.entries.values()) {
      if (e.pending) pending++;
      else if (e.batches) { ready++; instances += e.count; }
    }
    return { enabled: this.enabled, keys: ready, pending, instancesHeld: instances, drawn: { ...this.last } };
  }
}
