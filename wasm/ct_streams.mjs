// ct_streams.mjs - This module adds the stream network inside a chunk to the
// World (world.streams, over ct_chunk_streams): the links of the streams
// layer's lattice that cross a key's area, drawn as polylines on the water
// surface. The buffers inside WebAssembly memory are made once per world, at
// the bound the core guarantees (ctw_streams_max_links / _points), and every
// array returned is a copy with its own buffer, ready for a transfer list.
import { parseKey } from './ct_key.mjs';

// Byte sizes per link (l) and per point (p) of each part, in layout order (8-aligned parts).
const PARTS = [['pos', 0, 12], ['water', 0, 4], ['start', 4, 0], ['width', 4, 0], ['order', 1, 0], ['level', 1, 0]];

function layout(links, points) {
  const at = {};
  let off = 0;
  for (const [k, perLink, perPoint] of PARTS) {
    at[k] = off;
    off += (perLink * (links + 1) + perPoint * points + 7) & ~7;
  }
  at.center = off; at.counts = off + 24; at.bytes = off + 32;
  return at;
}

export const streamsMethods = {
  /**
   * The stream links crossing a chunk key (any LOD up to surface_lod; none
   * when the world has streams off): {count, pointCount, center
   * (Float64Array 3, body-fixed metres), positions (Float32Array 3 per point,
   * on the water surface, relative to center), pointStart (Uint32Array
   * count + 1: link k's points, downstream), waterM (Float32Array per point,
   * the water level, never rising downstream), width (Float32Array per link,
   * metres), order (Uint8Array per link: 1 fine head, 2 fine fed, 3 coarse
   * head, 4 coarse fed), level (Uint8Array per link: the lattice level)}.
   */
  streams(key) {
    const heap = this._live(), x = heap.x, k = parseKey(key);
    if (!this._streams) {
      const links = x.ctw_streams_max_links(), points = x.ctw_streams_max_points();
      const at = layout(links, points);
      this._streams = { links, points, at, ptr: heap.malloc(at.bytes) };
    }
    const { links, points, at: lay, ptr } = this._streams, at = (part) => ptr + lay[part];
    heap.check(x.ctw_chunk_streams(this.ptr, k.face, k.lod, k.x, k.y, links, points, at('start'), at('pos'),
      at('water'), at('width'), at('order'), at('level'), at('center'), at('counts'), ...heap.errArgs()));
    const u32 = heap.u32(), f32 = heap.f32(), u8 = heap.u8();
    const n = u32[at('counts') / 4], p = u32[at('counts') / 4 + 1];
    const f32s = (part, count) => f32.slice(at(part) / 4, at(part) / 4 + count);
    return {
      count: n, pointCount: p,
      center: heap.f64().slice(at('center') / 8, at('center') / 8 + 3),
      positions: f32s('pos', 3 * p), waterM: f32s('water', p),
      pointStart: u32.slice(at('start') / 4, at('start') / 4 + n + 1),
      width: f32s('width', n), order: u8.slice(at('order'), at('order') + n), level: u8.slice(at('level'), at('level') + n),
    };
  },
};

/** Frees a World's streams buffer (World.free). */
export function freeStreams(world) {
  if (world._streams) world.heap.free(world._streams.ptr);
  world._streams = null;
}
