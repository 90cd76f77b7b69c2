// ct_scatter.mjs - This module adds scatter to the World (world.scatter, over
// ct_chunk_scatter) and the catalogue to the Core (core.scatterKinds, the
// generated copy of core/include/ct_scatter.def). Instances are the same
// whichever LOD's key asks; at surface_lod the World's chunk buffer is read
// (generated once, or the chunk generated last, as mesh() does), at coarser
// LODs the core takes point ground queries for the few instances there.
import { ctError } from './ct_heap.mjs';
import { SCATTER_KINDS, SCATTER_MAX } from './ct_constants.mjs';
import { parseKey } from './ct_key.mjs';

// Byte offsets of the parts of a World's scatter buffer (8-aligned, each for SCATTER_MAX instances).
const PARTS = { id: 8, pos: 12, height: 4, yaw: 4, scale: 4, kind: 1 };
const LAYOUT = (() => {
  const at = {};
  let off = 0;
  for (const [k, size] of Object.entries(PARTS)) { at[k] = off; off += (size * SCATTER_MAX + 7) & ~7; }
  at.center = off; at.count = off + 24; at.bytes = off + 32;
  return at;
})();

export const scatterCoreMethods = {
  /** The scatter catalogue: [{name, level, spacingM, maxSlopeDeg, ..., densityKm2[8], doc}], indexed by kind. */
  scatterKinds() { return SCATTER_KINDS; },
};

export const scatterMethods = {
  /**
   * The instances of a chunk key (any LOD up to surface_lod): {count, center
   * (Float64Array 3, body-fixed metres), positions (Float32Array 3n, the
   * foot relative to center), kind (Uint8Array, index into scatterKinds()),
   * heightM (ground height at the foot), yaw (radians about local up from
   * local north), scale (size in metres), id (BigUint64Array, stable)}.
   * Every array is a copy with its own buffer (ready for a transfer list).
   */
  scatter(key) {
    const heap = this._live(), k = parseKey(key), surface = this.config.surface_lod;
    if (k.lod > surface) {
      throw ctError('CT_ERR_LOD', `scatter key LOD ${k.lod} is finer than the world's surface_lod ${surface}`);
    }
    const chunk = k.lod === surface ? (this._generate(k), this._chunk) : 0;
    if (!this._scatterBuf) this._scatterBuf = heap.malloc(LAYOUT.bytes);
    const b = this._scatterBuf, at = (part) => b + LAYOUT[part];
    heap.check(heap.x.ctw_chunk_scatter(this.ptr, chunk, k.face, k.lod, k.x, k.y, SCATTER_MAX, at('pos'), at('kind'),
      at('height'), at('yaw'), at('scale'), at('id'), at('center'), at('count'), ...heap.errArgs()));
    const n = heap.u32()[at('count') / 4], f32 = heap.f32(), u8 = heap.u8();
    const f32s = (part, per) => f32.slice(at(part) / 4, at(part) / 4 + per * n);
    return {
      count: n,
      center: heap.f64().slice(at('center') / 8, at('center') / 8 + 3),
      positions: f32s('pos', 3), kind: u8.slice(at('kind'), at('kind') + n), heightM: f32s('height', 1),
      yaw: f32s('yaw', 1), scale: f32s('scale', 1),
      id: new BigUint64Array(u8.slice(at('id'), at('id') + 8 * n).buffer),
    };
  },
};

/** Frees a World's scatter buffer (World.free). */
export function freeScatter(world) {
  world.heap.free(world._scatterBuf);
  world._scatterBuf = 0;
}
