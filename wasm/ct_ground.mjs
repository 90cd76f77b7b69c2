// ct_ground.mjs - This module adds the exact ground, terrain raycasts and
// physics colliders to the World (wasm/ct_world.mjs): groundAt, ground,
// groundInChunk, raycast and collider, over ct_world_ground, ct_chunk_ground,
// ct_world_raycast and ct_mesh_build (see core/include/ct.h). The ground is
// the surface the stride-1 mesh of the surface_lod chunk draws, so what a
// game stands on, hits and collides with is what is drawn.
import { ctError } from './ct_heap.mjs';
import { CHUNK_CORE } from './ct_constants.mjs';
import { parseKey } from './ct_key.mjs';
import { meshBuffers } from './ct_mesh.mjs';

const GROUND_DOUBLES = 16;   // ctw__ground_out's record
const GROUND_BATCH = 256;    // directions per C call in world.ground
const EDGE = CHUNK_CORE + 1;

/** One ctw__ground_out record at double index i as the groundAt object. */
function groundRecord(f, i) {
  return {
    heightM: f[i], waterM: f[i + 1], hasWater: f[i + 2] === 1, normal: [f[i + 3], f[i + 4], f[i + 5]],
    slopeDeg: f[i + 6], biome: f[i + 7], material: f[i + 8], paletteIndex: f[i + 9],
    key: { face: f[i + 10], lod: f[i + 11], x: f[i + 12], y: f[i + 13] }, localX: f[i + 14], localY: f[i + 15],
  };
}

function vec3(v, what) {
  if (v == null || typeof v.length !== 'number' || v.length < 3) {
    throw ctError('CT_ERR_DIRECTION', `${what} must be an array of 3 numbers`);
  }
  return [+v[0], +v[1], +v[2]];
}

/** Float64Array of 3n passes through; arrays of [x, y, z] are flattened. */
function flat3(dirs) {
  if (dirs instanceof Float64Array) {
    if (dirs.length % 3) throw ctError('CT_ERR_DIRECTION', 'ground: Float64Array length must be a multiple of 3');
    return dirs;
  }
  if (!Array.isArray(dirs)) throw ctError('CT_ERR_DIRECTION', 'ground: dirs must be a Float64Array or an array of [x, y, z]');
  const out = new Float64Array(3 * dirs.length);
  dirs.forEach((d, i) => out.set(vec3(d, `direction ${i}`), 3 * i));
  return out;
}

export const groundMethods = {
  /**
   * The exact ground under a direction: {heightM, waterM, hasWater, normal,
   * slopeDeg, biome, material, paletteIndex, key, localX, localY}. heightM is
   * where the radial line meets the stride-1 mesh of the surface_lod chunk;
   * waterM/hasWater are the drawn water surface's (it may lie under the
   * ground at a shore: the point is in water where waterM > heightM).
   */
  groundAt(dir) {
    const heap = this._live(), d = heap.slot(20), out = heap.slot(21);
    heap.f64().set(vec3(dir, 'direction'), d / 8);
    heap.check(heap.x.ctw_world_ground(this.ptr, d, out, ...heap.errArgs()));
    return groundRecord(heap.f64(), out / 8);
  },

  /**
   * The ground at many directions (Float64Array of 3n or [[x, y, z], ...]):
   * typed arrays heightM, waterM, hasWater, normal (3n), slopeDeg, biome,
   * material, paletteIndex, face, x, y (the surface_lod key), localX, localY.
   * Throws on the first bad direction (message names its index).
   */
  ground(dirs) {
    const heap = this._live(), x = heap.x, flat = flat3(dirs), n = flat.length / 3;
    const r = {
      heightM: new Float64Array(n), waterM: new Float64Array(n), hasWater: new Uint8Array(n),
      normal: new Float64Array(3 * n), slopeDeg: new Float64Array(n), biome: new Uint8Array(n),
      material: new Uint8Array(n), paletteIndex: new Uint8Array(n), face: new Uint8Array(n),
      x: new Uint32Array(n), y: new Uint32Array(n), localX: new Float64Array(n), localY: new Float64Array(n),
    };
    if (!this._groundBuf) this._groundBuf = heap.malloc(8 * (3 + GROUND_DOUBLES) * GROUND_BATCH);
    const din = this._groundBuf, dout = din + 24 * GROUND_BATCH, bad = heap.slot(22);
    for (let start = 0; start < n; start += GROUND_BATCH) {
      const m = Math.min(GROUND_BATCH, n - start);
      heap.f64().set(flat.subarray(3 * start, 3 * (start + m)), din / 8);
      const code = x.ctw_world_ground_many(this.ptr, din, m, dout, bad, ...heap.errArgs());
      if (code) {
        const i = heap.i32()[bad / 4];
        try { heap.check(code); } catch (e) { e.message = `direction ${start + i}: ${e.message}`; e.index = start + i; throw e; }
      }
      const f = heap.f64();
      for (let k = 0; k < m; k++) {
        const at = dout / 8 + GROUND_DOUBLES * k, j = start + k;
        r.heightM[j] = f[at]; r.waterM[j] = f[at + 1]; r.hasWater[j] = f[at + 2];
        r.normal[3 * j] = f[at + 3]; r.normal[3 * j + 1] = f[at + 4]; r.normal[3 * j + 2] = f[at + 5];
        r.slopeDeg[j] = f[at + 6]; r.biome[j] = f[at + 7]; r.material[j] = f[at + 8]; r.paletteIndex[j] = f[at + 9];
        r.face[j] = f[at + 10]; r.x[j] = f[at + 12]; r.y[j] = f[at + 13];
        r.localX[j] = f[at + 14]; r.localY[j] = f[at + 15];
      }
    }
    return r;
  },

  /**
   * groundAt from a chunk the caller holds (world.chunk(key) of this world),
   * at (localX, localY) in [0, 256], with no sampling: its heightM, water,
   * biome and palette arrays. Only the 4x4 samples around the cell are read.
   */
  groundInChunk(chunk, localX, localY) {
    const heap = this._live(), x = heap.x;
    if (chunk == null || !(chunk.heightM instanceof Float32Array) || !(chunk.water instanceof Uint16Array)) {
      throw ctError('CT_ERR_NULL', 'groundInChunk: chunk must be a world.chunk() result');
    }
    if (chunk.generation !== this.generation) {
      throw ctError('CT_ERR_MESH', `groundInChunk: chunk was generated by a different world (${chunk.generation})`);
    }
    const k = parseKey(chunk.key);
    if (!this._groundChunk) {
      this._groundChunk = x.ctw_chunk_new() >>> 0;
      if (!this._groundChunk) throw ctError('CT_ERR_MEMORY', 'out of WebAssembly memory for a chunk');
    }
    const c = this._groundChunk, lx = +localX, ly = +localY;
    if (lx >= 0 && ly >= 0 && lx <= CHUNK_CORE && ly <= CHUNK_CORE) {
      // The samples the query reads: the cell's corners and the ring a water cell's levels use.
      const ci = Math.min(Math.floor(lx), CHUNK_CORE - 1), cj = Math.min(Math.floor(ly), CHUNK_CORE - 1);
      const hm = x.ctw_chunk_height_m(c) >>> 2, w = x.ctw_chunk_water(c) >>> 1;
      const b = x.ctw_chunk_biome(c) >>> 0, p = x.ctw_chunk_palette(c) >>> 0;
      const f32 = heap.f32(), u16 = heap.u16(), u8 = heap.u8();
      for (let y = Math.max(cj - 1, 0); y <= Math.min(cj + 2, CHUNK_CORE); y++) {
        for (let i = Math.max(ci - 1, 0); i <= Math.min(ci + 2, CHUNK_CORE); i++) {
          const at = y * EDGE + i;
          f32[hm + at] = chunk.heightM[at]; u16[w + at] = chunk.water[at];
          u8[b + at] = chunk.biome[at]; u8[p + at] = chunk.palette[at];
        }
      }
    }
    const out = heap.slot(21);
    heap.check(x.ctw_chunk_ground(this.ptr, c, k.face, k.lod, k.x, k.y, +chunk.heightQuantumM, lx, ly, out,
      ...heap.errArgs()));
    return groundRecord(heap.f64(), out / 8);
  },

  /**
   * The first hit of a ray (body-fixed metres) with the terrain mesh, and
   * with water surfaces when opts.water: null, or {distanceM, point, normal,
   * key, water, inside}. maxM: finite, > 0. An origin under the ground hits
   * at distance 0 with inside true.
   */
  raycast(originM, dir, maxM, opts = {}) {
    const heap = this._live(), o = vec3(originM, 'ray origin'), d = vec3(dir, 'ray direction');
    if (typeof maxM !== 'number') throw ctError('CT_ERR_DIRECTION', 'ray length maxM must be a number');
    const input = heap.slot(20), out = heap.slot(21), hit = heap.slot(22);
    heap.f64().set([...o, ...d, maxM], input / 8);
    heap.check(heap.x.ctw_world_raycast(this.ptr, input, opts.water ? 1 : 0, out, hit, ...heap.errArgs()));
    if (!heap.i32()[hit / 4]) return null;
    const f = heap.f64().slice(out / 8, out / 8 + 13);
    return {
      distanceM: f[0], point: [f[1], f[2], f[3]], normal: [f[4], f[5], f[6]],
      key: { face: f[7], lod: f[8], x: f[9], y: f[10] }, water: f[11] === 1, inside: f[12] === 1,
    };
  },

  /**
   * A physics collider for a chunk: exactly world.mesh's positions and
   * triangles at the same key and stride, without skirts. {key, center
   * (Float64Array 3), positions (Float32Array, metres relative to center,
   * body-fixed), indices (Uint32Array), vertexCount, triangleCount}, in
   * arrays of their own (transferable). Neighbours at one LOD and stride
   * share their border vertices once the centres are added.
   */
  collider(key, opts = {}) {
    const heap = this._live(), x = heap.x, stride = opts.stride ?? 1;
    if (!Number.isInteger(stride) || stride < 1 || stride > CHUNK_CORE) {
      throw ctError('CT_ERR_MESH', `collider stride ${String(stride)} is not 1, 2, 4 ... ${CHUNK_CORE}`);
    }
    const lay = heap.slot(9), meta = heap.slot(10), counts = heap.slot(11);
    heap.check(x.ctw_mesh_layout(stride, 0, 1, 0, lay, ...heap.errArgs()));
    const [vmax, imax, ib] = heap.u32().slice(lay / 4, lay / 4 + 3);
    // The World's mesh buffer, as world.mesh uses it: its views go stale.
    this._meshSeq++;
    const old = this._mesh;
    this._mesh = null;
    const m = this._mesh = meshBuffers(heap, old, { pos: 12 * vmax, nrm: 12 * vmax, col: 0, pal: 0, idx: ib * imax });
    const k = this._generate(key);
    heap.check(x.ctw_mesh_build(this.ptr, this._chunk, 0, stride, 0, 1, 0, m.pos, m.nrm, 0, 0, m.idx, meta, counts, 0,
      ...heap.errArgs()));
    const vc = heap.u32()[counts / 4], ic = heap.u32()[counts / 4 + 1];
    const positions = heap.f32().slice(m.pos / 4, m.pos / 4 + 3 * vc);
    const indices = ib === 4 ? heap.u32().slice(m.idx / 4, m.idx / 4 + ic)
      : Uint32Array.from(heap.u16().subarray(m.idx / 2, m.idx / 2 + ic));
    return {
      key: k, center: heap.f64().slice(meta / 8, meta / 8 + 3), positions, indices,
      vertexCount: vc, triangleCount: ic / 3,
    };
  },
};

/** Frees the ground buffers of a World (its free() calls this). */
export function freeGround(world) {
  if (world._groundChunk) world.heap.x.ctw_chunk_free(world._groundChunk);
  world.heap.free(world._groundBuf);
  world._groundChunk = world._groundBuf = 0;
}
