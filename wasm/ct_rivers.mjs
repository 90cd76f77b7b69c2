// ct_rivers.mjs - This module reads a World's river graph and river curves
// (wasm/ct_world.mjs rivers(), riverCurves()) out of WebAssembly memory into
// typed arrays of their own: the graph's summary, then per node or per curve
// point the arrays the C side fills in one call each.

/**
 * The river graph solved at world load (empty with river_min_area_km2=0):
 * per node a unit direction (3 values), the downstream node (-1 at a
 * mouth), drainage area (m2), channel width (m), curve length to the
 * downstream node (m), water surface (m), lake-outlet mark and flags
 * (1 lake outlet, 2 mouth into the sea, 4 mouth into a lake), plus the
 * graph summary in `info`. Copies out of WebAssembly memory.
 * @param {import('./ct_heap.mjs').Heap} heap the core's memory and exports
 * @param {number} world the ct_world pointer
 */
export function readRivers(heap, world) {
  const x = heap.x, out = heap.slot(6);
  heap.check(x.ctw_world_rivers_info(world, out, ...heap.errArgs()));
  const f = heap.f64().slice(out / 8, out / 8 + 6), n = f[0];
  const info = { nodeCount: n, segmentCount: f[1], lakesOpen: f[2], lakesClosed: f[3],
    landAreaM2: f[4], landToSeaM2: f[5] };
  const r = { info, direction: new Float64Array(3 * n), downstream: new Int32Array(n),
    drainageAreaM2: new Float64Array(n), widthM: new Float64Array(n), lengthM: new Float64Array(n),
    surfaceM: new Float64Array(n), flags: new Uint8Array(n), lakeOutlet: new Uint8Array(n) };
  if (!n) return r;
  const ptr = heap.malloc(n * (8 * 8 + 4 + 1));
  const o = { dir: ptr, area: ptr + 24 * n, width: ptr + 32 * n, len: ptr + 40 * n, surf: ptr + 48 * n,
    down: ptr + 56 * n, flags: ptr + 60 * n };
  try {
    heap.check(x.ctw_world_rivers(world, n, o.dir, o.down, o.area, o.width, o.len, o.surf, o.flags,
      ...heap.errArgs()));
    const f64 = heap.f64(), i32 = heap.i32(), u8 = heap.u8();
    r.direction.set(f64.subarray(o.dir / 8, o.dir / 8 + 3 * n));
    r.drainageAreaM2.set(f64.subarray(o.area / 8, o.area / 8 + n));
    r.widthM.set(f64.subarray(o.width / 8, o.width / 8 + n));
    r.lengthM.set(f64.subarray(o.len / 8, o.len / 8 + n));
    r.surfaceM.set(f64.subarray(o.surf / 8, o.surf / 8 + n));
    r.downstream.set(i32.subarray(o.down / 4, o.down / 4 + n));
    r.flags.set(u8.subarray(o.flags, o.flags + n));
  } finally {
    heap.free(ptr);
  }
  for (let i = 0; i < n; i++) r.lakeOutlet[i] = r.flags[i] & 1;
  return r;
}

/**
 * The curves the samples carve, for drawing (ct_world_river_curves): segment k
 * (node k's to its downstream vertex; lake outlet stubs after the nodes) has
 * the unit directions points[3 * offset[k] ..] up to offset[k + 1], the water
 * surface at each point in surfaceM and its channel width in widthM[k].
 * @param {import('./ct_heap.mjs').Heap} heap the core's memory and exports
 * @param {number} world the ct_world pointer
 */
export function readRiverCurves(heap, world) {
  const x = heap.x, cnt = heap.slot(6);
  heap.check(x.ctw_world_river_curves(world, 0, 0, 0, 0, 0, 0, cnt, ...heap.errArgs()));
  const [segs, pts] = heap.u32().slice(cnt / 4, cnt / 4 + 2);
  const r = { offset: new Uint32Array(segs + 1), points: new Float64Array(3 * pts),
    surfaceM: new Float64Array(pts), widthM: new Float64Array(segs) };
  if (!segs) return r;
  const ptr = heap.malloc(32 * pts + 8 * segs + 4 * (segs + 1));
  const o = { pts: ptr, surf: ptr + 24 * pts, width: ptr + 32 * pts, off: ptr + 32 * pts + 8 * segs };
  try {
    heap.check(x.ctw_world_river_curves(world, segs + 1, pts, o.off, o.pts, o.surf, o.width, cnt,
      ...heap.errArgs()));
    const f64 = heap.f64();
    r.points.set(f64.subarray(o.pts / 8, o.pts / 8 + 3 * pts));
    r.surfaceM.set(f64.subarray(o.surf / 8, o.surf / 8 + pts));
    r.widthM.set(f64.subarray(o.width / 8, o.width / 8 + segs));
    r.offset.set(heap.u32().subarray(o.off / 4, o.off / 4 + segs + 1));
  } finally {
    heap.free(ptr);
  }
  return r;
}
