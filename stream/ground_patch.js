// This module cuts a chunk's physics collider (world.collider or
// pool.collider: a stride-s grid of (n+1)^2 vertices, row by row, two
// triangles per cell in cell order, no skirts) into square patches, and casts
// rays at a patch's triangles. A patch keeps the collider's centre and copies
// its float32 vertex positions bit for bit, so patches of one chunk, and of
// neighbouring chunks at one LOD and stride, share their border vertices
// exactly as the colliders do. Each patch carries small boxes over 8 x 8
// cells so a ray tests a few hundred triangles, not thousands (no DOM, no GL).

/** Cells per side of a ray-culling box inside a patch. */
const BLOCK = 8;

/**
 * Cells per side of a collider (n) checked against its counts.
 * @returns {number}
 */
export function colliderCells(collider) {
  const n = Math.round(Math.sqrt(collider.triangleCount / 2));
  if (!(collider.positions instanceof Float32Array) || !(collider.indices instanceof Uint32Array) ||
      collider.center == null || collider.center.length !== 3 ||
      2 * n * n !== collider.triangleCount || (n + 1) * (n + 1) !== collider.vertexCount) {
    throw new TypeError('a collider must be a stride-s grid {center, positions, indices, vertexCount, triangleCount} without skirts');
  }
  return n;
}

/**
 * Patch (px, py) of a collider with n cells per side, cells [px*p, ...) in x
 * and y: {center (Float64Array, the collider's), positions (Float32Array),
 * indices (Uint32Array), vertexCount, triangleCount, cells: [x0, y0, w, h],
 * boxes} where boxes holds min/max corners (relative to center) of each
 * 8 x 8-cell block, then of the whole patch, 6 doubles each.
 */
export function cutPatch(collider, n, p, px, py) {
  const x0 = px * p, y0 = py * p, w = Math.min(p, n - x0), h = Math.min(p, n - y0);
  if (w <= 0 || h <= 0) throw new RangeError(`patch ${px}/${py} lies outside a ${n}-cell collider`);
  const src = collider.positions, srcIdx = collider.indices;
  const positions = new Float32Array(3 * (w + 1) * (h + 1));
  for (let j = 0; j <= h; j++) {
    const from = 3 * ((y0 + j) * (n + 1) + x0);
    positions.set(src.subarray(from, from + 3 * (w + 1)), 3 * j * (w + 1));
  }
  const indices = new Uint32Array(6 * w * h);
  let k = 0;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const t = 6 * ((y0 + j) * n + x0 + i);
      for (let c = 0; c < 6; c++) {
        const v = srcIdx[t + c], vx = (v % (n + 1)) - x0, vy = Math.floor(v / (n + 1)) - y0;
        if (vx < 0 || vy < 0 || vx > w || vy > h) throw new Error(`collider triangle ${t / 3} is not in its cell`);
        indices[k++] = vy * (w + 1) + vx;
      }
    }
  }
  return {
    center: Float64Array.from(collider.center), positions, indices, vertexCount: (w + 1) * (h + 1),
    triangleCount: 2 * w * h, cells: [x0, y0, w, h], boxes: blockBoxes(positions, w, h),
  };
}

/** Min/max corners of each BLOCK x BLOCK-cell block of a (w x h)-cell grid (its border vertices included), then the whole grid's. */
function blockBoxes(pos, w, h) {
  const bw = Math.ceil(w / BLOCK), bh = Math.ceil(h / BLOCK), out = new Float64Array(6 * (bw * bh + 1));
  const all = 6 * bw * bh;
  for (let k = 0; k <= bw * bh; k++) { out.fill(Infinity, 6 * k, 6 * k + 3); out.fill(-Infinity, 6 * k + 3, 6 * k + 6); }
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const b = 6 * (by * bw + bx);
      for (let j = by * BLOCK; j <= Math.min(h, (by + 1) * BLOCK); j++) {
        for (let i = bx * BLOCK; i <= Math.min(w, (bx + 1) * BLOCK); i++) grow(out, b, pos, 3 * (j * (w + 1) + i));
      }
      for (let c = 0; c < 3; c++) {
        out[all + c] = Math.min(out[all + c], out[b + c]);
        out[all + 3 + c] = Math.max(out[all + 3 + c], out[b + 3 + c]);
      }
    }
  }
  return out;
}

function grow(box, b, pos, v) {
  for (let c = 0; c < 3; c++) {
    const x = pos[v + c];
    if (x < box[b + c]) box[b + c] = x;
    if (x > box[b + 3 + c]) box[b + 3 + c] = x;
  }
}

/** Ray (o relative to the box frame, unit d) against box b of boxes: entry distance, or Infinity on a miss within [0, maxT]. */
function slab(boxes, b, o, d, maxT) {
  let t0 = 0, t1 = maxT;
  for (let c = 0; c < 3; c++) {
    const lo = boxes[b + c] - 1e-3, hi = boxes[b + 3 + c] + 1e-3;   // a millimetre of slack for float32
    if (d[c] === 0) {
      if (o[c] < lo || o[c] > hi) return Infinity;
    } else {
      let a = (lo - o[c]) / d[c], z = (hi - o[c]) / d[c];
      if (a > z) [a, z] = [z, a];
      if (a > t0) t0 = a;
      if (z < t1) t1 = z;
      if (t0 > t1) return Infinity;
    }
  }
  return t0;
}

/**
 * Moller-Trumbore in float64 on triangle t of a patch, o relative to its
 * centre, d unit: {t, normal} (the unit normal on the side away from the
 * planet's centre), or null. eps widens the triangle by a hair so that a
 * line through a shared edge hits one of them.
 */
export function rayTriangle(patch, t, o, d, eps = 1e-9) {
  const P = patch.positions, I = patch.indices;
  const a = 3 * I[3 * t], b = 3 * I[3 * t + 1], c = 3 * I[3 * t + 2];
  const e1x = P[b] - P[a], e1y = P[b + 1] - P[a + 1], e1z = P[b + 2] - P[a + 2];
  const e2x = P[c] - P[a], e2y = P[c + 1] - P[a + 1], e2z = P[c + 2] - P[a + 2];
  const qx = d[1] * e2z - d[2] * e2y, qy = d[2] * e2x - d[0] * e2z, qz = d[0] * e2y - d[1] * e2x;
  const det = e1x * qx + e1y * qy + e1z * qz;
  if (det === 0) return null;
  const sx = o[0] - P[a], sy = o[1] - P[a + 1], sz = o[2] - P[a + 2];
  const u = (sx * qx + sy * qy + sz * qz) / det;
  if (u < -eps || u > 1 + eps) return null;
  const rx = sy * e1z - sz * e1y, ry = sz * e1x - sx * e1z, rz = sx * e1y - sy * e1x;
  const v = (d[0] * rx + d[1] * ry + d[2] * rz) / det;
  if (v < -eps || u + v > 1 + eps) return null;
  const dist = (e2x * rx + e2y * ry + e2z * rz) / det;
  if (!(dist >= 0)) return null;
  let nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  // Outward: the same side as the point itself seen from the planet's centre.
  const cx = patch.center[0] + P[a], cy = patch.center[1] + P[a + 1], cz = patch.center[2] + P[a + 2];
  const l = Math.hypot(nx, ny, nz) * (nx * cx + ny * cy + nz * cz < 0 ? -1 : 1);
  nx /= l; ny /= l; nz /= l;
  return { t: dist, normal: [nx, ny, nz] };
}

/** The two triangles of cell (i, j) of a patch (patch cell coordinates), nearest hit or null. */
export function rayCell(patch, i, j, o, d) {
  const w = patch.cells[2], t = 2 * (j * w + i);
  const a = rayTriangle(patch, t, o, d), b = rayTriangle(patch, t + 1, o, d);
  return a && b ? (a.t <= b.t ? a : b) : a || b;
}

/** Where the ray from body-fixed origin along unit d enters a patch's box within maxT, or Infinity. */
export function patchEntry(patch, origin, d, maxT) {
  const o = [origin[0] - patch.center[0], origin[1] - patch.center[1], origin[2] - patch.center[2]];
  return slab(patch.boxes, patch.boxes.length - 6, o, d, maxT);
}

/**
 * The nearest hit of the ray from body-fixed origin (float64) along unit d
 * within maxT with a patch's triangles: {t, normal} or null. Boxes first.
 */
export function rayPatch(patch, origin, d, maxT) {
  const o = [origin[0] - patch.center[0], origin[1] - patch.center[1], origin[2] - patch.center[2]];
  const boxes = patch.boxes, nb = boxes.length / 6 - 1;
  if (slab(boxes, 6 * nb, o, d, maxT) === Infinity) return null;
  const [, , w, h] = patch.cells, bw = Math.ceil(w / BLOCK);
  let best = null;
  for (let b = 0; b < nb; b++) {
    if (slab(boxes, 6 * b, o, d, best ? best.t : maxT) === Infinity) continue;
    const bx = (b % bw) * BLOCK, by = Math.floor(b / bw) * BLOCK;
    for (let j = by; j < Math.min(h, by + BLOCK); j++) {
      for (let i = bx; i < Math.min(w, bx + BLOCK); i++) {
        const hit = rayCell(patch, i, j, o, d);
        if (hit && hit.t <= maxT && (!best || hit.t < best.t)) best = hit;
      }
    }
  }
  return best;
}
