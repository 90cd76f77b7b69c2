// This module draws a minimap as RGBA pixels (no DOM, no GL): top-down round
// the player from the chunks a game holds (any LODs, the finest that covers a
// pixel wins), with hillshade, palette colours, water, rivers, scatter
// density, edit footprints, sites, and the player's position and heading. Any
// renderer shows the result (a 2D canvas putImageData, a texture upload).
//
// Each pixel is a point of the player's tangent plane, (east, north) metres
// from the player north-up or (right, forward) heading-up, carried back onto
// the sphere (the gnomonic map: straight lines through the player stay
// straight), then read in whichever held chunk's key holds that direction.
// Within poleDeg of a pole north turns on the spot, so the map is heading-up
// there whatever was asked.
import { ctError } from '../wasm/ct_error.mjs';
import { CHUNK_CORE, CHUNK_EDGE, parseKey, keyAt, keyId, normalize, cross, dot } from './geo.js';

const SAMPLES = CHUNK_EDGE * CHUNK_EDGE;
/** Pixels no held chunk covers. */
const UNKNOWN = [34, 38, 46];
/** Water drawn where a chunk holds water (the palette's water shades are darkened by depth on top). */
const WATER = [46, 104, 178];
const RIVER = [58, 128, 210];
const SITE = [214, 48, 48];
const EDIT_COLOURS = { flatten: [250, 214, 70], crater: [250, 130, 40], brush: [200, 120, 250], path: [236, 236, 220] };
/** Light from the top left of the map, 45 degrees up: the usual cartographic choice. */
const LIGHT = normalize([-1, 1, 1]);

function fail(code, msg) { return ctError(code, `minimap: ${msg}`); }

function unitVec(v, what) {
  if (v == null || typeof v.length !== 'number' || v.length < 3) throw fail('CT_ERR_DIRECTION', `${what} must be an array of 3 numbers`);
  const a = [+v[0], +v[1], +v[2]];
  if (!a.every(Number.isFinite)) throw fail('CT_ERR_DIRECTION', `${what} has a NaN or infinite component`);
  const l = Math.hypot(a[0], a[1], a[2]);
  if (l === 0) throw fail('CT_ERR_DIRECTION', `${what} is the zero vector`);
  return [a[0] / l, a[1] / l, a[2] / l];
}

function number(v, what, lo, hi) {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) throw fail('CT_ERR_CONFIG', `${what} must be a number in [${lo}, ${hi}] (got ${v})`);
  return v;
}

/** The chunks by LOD, finest first: [{lod, byId: Map(keyId -> chunk)}]. */
function indexChunks(chunks) {
  if (!Array.isArray(chunks)) throw fail('CT_ERR_NULL', 'chunks must be an array of chunks ({key, heightM, water, palette})');
  const lods = new Map();
  chunks.forEach((c, i) => {
    if (c == null || typeof c !== 'object') throw fail('CT_ERR_NULL', `chunks[${i}] is not a chunk`);
    let key;
    try { key = parseKey(c.key); } catch (e) { throw fail(e.code ?? 'CT_ERR_NULL', `chunks[${i}].key: ${e.message}`); }
    for (const f of ['heightM', 'water', 'palette']) {
      if (c[f] == null || c[f].length !== SAMPLES) throw fail('CT_ERR_BUFFER', `chunks[${i}].${f} must hold ${SAMPLES} samples (257 x 257)`);
    }
    if (!lods.has(key.lod)) lods.set(key.lod, new Map());
    lods.get(key.lod).set(keyId(key), c);
  });
  return [...lods.entries()].sort((a, b) => b[0] - a[0]).map(([lod, byId]) => ({ lod, byId }));
}

/**
 * The map's frame: up (the player's direction), and the map's x (right) and y
 * (up) axes on the tangent plane; whether it is heading-up.
 */
function mapFrame(d, f, headingUp, poleDeg) {
  // North: the planet's axis (+Y) projected on the tangent plane.
  const nLen = Math.hypot(d[0], d[2]);   // = |Y - d (d . Y)|
  const nearPole = Math.atan2(nLen, Math.abs(d[1])) < (poleDeg * Math.PI) / 180;
  const up = headingUp || nearPole;
  let y;
  if (up) y = f;
  else y = normalize([-d[1] * d[0], 1 - d[1] * d[1], -d[1] * d[2]]);
  const x = cross(y, d);   // right of y seen from above
  return { x, y, headingUp: up, nearPole };
}

/** The tangent-plane metres (mx, my) of a body-fixed direction u, or null behind the horizon. */
function project(frame, d, R, u) {
  const c = dot(u, d);
  if (c <= 0.2) return null;
  return [(R * dot(u, frame.x)) / c, (R * dot(u, frame.y)) / c];
}

/**
 * Draws the minimap.
 * @param {object} o
 * @param {{dir: ArrayLike<number>, forward: ArrayLike<number>}} o.pose  the player's ground pose (stream/pose.js)
 * @param {number} o.radiusM  the planet's radius
 * @param {object[]} o.chunks  chunks ({key, heightM, water, palette}: world.chunk / pool.chunk), any LODs
 * @param {ArrayLike<number>} o.palette  120 bytes: 40 RGB colours (world.palette())
 * @param {number} [o.size]  pixels per side (8..1024, default 160)
 * @param {number} [o.rangeM]  metres from the centre to a side (default 1000)
 * @param {boolean} [o.headingUp]  the player's heading up (default false: north up)
 * @param {number} [o.poleDeg]  within this many degrees of a pole the map is heading-up (default 3)
 * @param {boolean} [o.bilinear]  heights read bilinearly (default true); colours are always the nearest sample's
 * @param {object[]} [o.scatter]  world.scatter / pool.scatter results: darker where instances stand dense
 * @param {{dir: ArrayLike<number>}[]} [o.sites]  world.sites results: red markers
 * @param {object[]} [o.edits]  an edit set (world.editSet): footprints outlined
 * @param {{offset: ArrayLike<number>, points: ArrayLike<number>}} [o.rivers]  world.riverCurves(): lines
 * @returns {{width: number, height: number, pixels: Uint8ClampedArray, headingUp: boolean, metresPerPixel: number, covered: number}}
 */
export function renderMinimap(o) {
  if (o == null || typeof o !== 'object') throw fail('CT_ERR_NULL', 'needs an options object');
  if (o.pose == null || typeof o.pose !== 'object') throw fail('CT_ERR_NULL', 'pose must be an object {dir, forward}');
  const d = unitVec(o.pose.dir, 'pose.dir');
  const f0 = unitVec(o.pose.forward, 'pose.forward'), along = dot(f0, d);
  if (Math.abs(along) > 1e-3) throw fail('CT_ERR_DIRECTION', `pose.forward is not tangent to pose.dir (dot = ${along})`);
  const f = normalize([f0[0] - d[0] * along, f0[1] - d[1] * along, f0[2] - d[2] * along]);
  const R = number(o.radiusM, 'radiusM', 1, 1e9);
  const size = o.size ?? 160;
  if (!Number.isInteger(size) || size < 8 || size > 1024) throw fail('CT_ERR_CONFIG', `size must be an integer in 8..1024 (got ${size})`);
  const rangeM = number(o.rangeM ?? 1000, 'rangeM', 1, R);
  const poleDeg = number(o.poleDeg ?? 3, 'poleDeg', 0, 90);
  if (o.palette == null || o.palette.length !== 120) throw fail('CT_ERR_CONFIG', 'palette must hold 120 bytes (40 RGB colours: world.palette())');
  const lods = indexChunks(o.chunks);
  const frame = mapFrame(d, f, !!o.headingUp, poleDeg);
  const mpp = (2 * rangeM) / size, bilinear = o.bilinear !== false;

  // 1. Sample: height, colour, water per pixel.
  const n = size * size, H = new Float64Array(n), wet = new Uint8Array(n), rgb = new Uint8Array(3 * n);
  const seen = new Uint8Array(n);
  let covered = 0;
  const u = [0, 0, 0];
  for (let py = 0; py < size; py++) {
    const my = (size / 2 - py - 0.5) * mpp;
    for (let px = 0; px < size; px++) {
      const mx = (px + 0.5 - size / 2) * mpp, p = py * size + px;
      for (let k = 0; k < 3; k++) u[k] = d[k] * R + frame.x[k] * mx + frame.y[k] * my;
      const dir = normalize(u);
      for (const { lod, byId } of lods) {
        const at = keyAt(dir, lod), c = byId.get(keyId(at.key));
        if (!c) continue;
        const ix = Math.min(CHUNK_CORE, Math.round(at.localX)), iy = Math.min(CHUNK_CORE, Math.round(at.localY));
        const s = iy * CHUNK_EDGE + ix, pal = c.palette[s] % 40;
        for (let k = 0; k < 3; k++) rgb[3 * p + k] = o.palette[3 * pal + k];
        wet[p] = c.water[s] !== 0 ? 1 : 0;
        H[p] = bilinear ? heightBilinear(c.heightM, at.localX, at.localY) : c.heightM[s];
        seen[p] = 1;
        covered++;
        break;
      }
    }
  }

  // 2. Shade: hillshade from the screen-space height gradient; water tinted blue.
  const pixels = new Uint8ClampedArray(4 * n);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const p = py * size + px, q = 4 * p;
      pixels[q + 3] = 255;
      if (!seen[p]) { pixels[q] = UNKNOWN[0]; pixels[q + 1] = UNKNOWN[1]; pixels[q + 2] = UNKNOWN[2]; continue; }
      if (wet[p]) {
        for (let k = 0; k < 3; k++) pixels[q + k] = (WATER[k] * 3 + rgb[3 * p + k]) >> 2;
        continue;
      }
      const hx = slope(H, seen, wet, size, px, py, 1, 0), hy = slope(H, seen, wet, size, px, py, 0, 1);
      // Normal of the height field (map x right, y up; py grows downwards).
      const nx = -hx / mpp, ny = hy / mpp, len = Math.hypot(nx, ny, 1);
      const lit = Math.max(0, (nx * LIGHT[0] + ny * LIGHT[1] + LIGHT[2]) / len);
      const shade = 0.45 + 0.75 * lit;   // flat ground: 0.45 + 0.75 * 0.577 = 0.88
      for (let k = 0; k < 3; k++) pixels[q + k] = rgb[3 * p + k] * shade;
    }
  }

  const put = (px, py, c, a = 1) => {
    if (px < 0 || py < 0 || px >= size || py >= size) return;
    const q = 4 * (py * size + px);
    for (let k = 0; k < 3; k++) pixels[q + k] = pixels[q + k] * (1 - a) + c[k] * a;
  };
  const toPixel = (dir) => {
    const m = project(frame, d, R, dir);
    return m && [m[0] / mpp + size / 2 - 0.5, size / 2 - 0.5 - m[1] / mpp];
  };

  // 3. Scatter density: instances per pixel block, darker where dense.
  if (o.scatter != null) drawScatter(o.scatter, { size, mpp, toPixel, pixels, seen, wet });
  // 4. Rivers as lines (the chunks' own river water is already blue).
  if (o.rivers != null) drawRivers(o.rivers, { d, R, rangeM, toPixel, put, size });
  // 5. Edit footprints.
  if (o.edits != null) drawEdits(o.edits, { toPixel, put, mpp, size, d, R, rangeM });
  // 6. Sites.
  if (o.sites != null) {
    if (!Array.isArray(o.sites)) throw fail('CT_ERR_NULL', 'sites must be an array of {dir}');
    o.sites.forEach((s, i) => {
      const at = toPixel(unitVec(s?.dir, `sites[${i}].dir`));
      if (!at) return;
      const cx = Math.round(at[0]), cy = Math.round(at[1]);
      for (let j = -3; j <= 3; j++) for (let i2 = -3; i2 <= 3; i2++) put(cx + i2, cy + j, Math.max(Math.abs(i2), Math.abs(j)) === 3 ? [20, 20, 20] : SITE);
    });
  }
  // 7. The player: a disc at the centre and an arrow along the heading.
  drawPlayer({ frame, f, size, put });
  return { width: size, height: size, pixels, headingUp: frame.headingUp, metresPerPixel: mpp, covered };
}

function heightBilinear(h, lx, ly) {
  const x0 = Math.min(CHUNK_CORE - 1, Math.floor(lx)), y0 = Math.min(CHUNK_CORE - 1, Math.floor(ly));
  const fx = Math.min(1, lx - x0), fy = Math.min(1, ly - y0), s = y0 * CHUNK_EDGE + x0;
  const a = h[s] + (h[s + 1] - h[s]) * fx, b = h[s + CHUNK_EDGE] + (h[s + CHUNK_EDGE + 1] - h[s + CHUNK_EDGE]) * fx;
  return a + (b - a) * fy;
}

/** Height change per pixel along (dx, dy) (central where both neighbours are dry land, else one-sided, else 0). */
function slope(H, seen, wet, size, px, py, dx, dy) {
  const ok = (x, y) => x >= 0 && y >= 0 && x < size && y < size && seen[y * size + x] && !wet[y * size + x];
  const a = ok(px - dx, py - dy), b = ok(px + dx, py + dy), p = py * size + px;
  if (a && b) return (H[(py + dy) * size + px + dx] - H[(py - dy) * size + px - dx]) / 2;
  if (b) return H[(py + dy) * size + px + dx] - H[p];
  if (a) return H[p] - H[(py - dy) * size + px - dx];
  return 0;
}

function drawScatter(list, m) {
  if (!Array.isArray(list)) throw fail('CT_ERR_NULL', 'scatter must be an array of scatter results');
  const B = 4, nb = Math.ceil(m.size / B), count = new Uint32Array(nb * nb);
  list.forEach((s, i) => {
    if (s == null || !Number.isInteger(s.count) || s.center == null || s.positions == null || s.positions.length < 3 * s.count) {
      throw fail('CT_ERR_NULL', `scatter[${i}] is not a scatter result ({count, center, positions})`);
    }
    const c = s.center, P = s.positions;
    for (let k = 0; k < s.count; k++) {
      const at = m.toPixel(normalize([c[0] + P[3 * k], c[1] + P[3 * k + 1], c[2] + P[3 * k + 2]]));
      if (!at) continue;
      const bx = Math.floor((at[0] + 0.5) / B), by = Math.floor((at[1] + 0.5) / B);
      if (bx >= 0 && by >= 0 && bx < nb && by < nb) count[by * nb + bx]++;
    }
  });
  // Instances per km2 in each block; 2,000 per km2 (a dense wood with its undergrowth) darkens by half.
  const blockKm2 = (B * m.mpp) ** 2 / 1e6;
  for (let py = 0; py < m.size; py++) {
    for (let px = 0; px < m.size; px++) {
      const p = py * m.size + px, c = count[Math.floor(py / B) * nb + Math.floor(px / B)];
      if (!c || !m.seen[p] || m.wet[p]) continue;
      const k = 1 - 0.5 * Math.min(1, c / blockKm2 / 2000);
      m.pixels[4 * p] *= k * 0.9; m.pixels[4 * p + 1] *= k; m.pixels[4 * p + 2] *= k * 0.9;
    }
  }
}

/** A line between two pixel positions, one pixel wide. */
function line(put, a, b, c) {
  const steps = Math.ceil(Math.max(Math.abs(b[0] - a[0]), Math.abs(b[1] - a[1]))) + 1;
  if (steps > 4096) return;
  for (let s = 0; s <= steps; s++) put(Math.round(a[0] + ((b[0] - a[0]) * s) / steps), Math.round(a[1] + ((b[1] - a[1]) * s) / steps), c);
}

function drawRivers(r, m) {
  if (r.offset == null || r.points == null) throw fail('CT_ERR_NULL', 'rivers must be world.riverCurves() ({offset, points})');
  // Only segments near the map: a point within the map's circle (plus a margin) on the sphere.
  const cosNear = Math.cos(Math.min(Math.PI / 2, (2 * m.rangeM) / m.R)), P = r.points;
  for (let s = 0; s + 1 < r.offset.length; s++) {
    let prev = null;
    for (let k = r.offset[s]; k < r.offset[s + 1]; k++) {
      const u = [P[3 * k], P[3 * k + 1], P[3 * k + 2]];
      const at = dot(u, m.d) >= cosNear ? m.toPixel(u) : null;
      if (at && prev) line(m.put, prev, at, RIVER);
      prev = at;
    }
  }
}

function drawEdits(edits, m) {
  if (!Array.isArray(edits)) throw fail('CT_ERR_NULL', 'edits must be an array of edits');
  edits.forEach((e, i) => {
    const c = EDIT_COLOURS[e?.kind];
    if (!c) throw fail('CT_ERR_CONFIG', `edits[${i}].kind must be flatten, crater, brush or path`);
    if (e.kind === 'path') {
      const pts = e.points, n = pts instanceof Float64Array ? pts.length / 3 : pts?.length;
      let prev = null;
      for (let k = 0; k < n; k++) {
        const u = unitVec(pts instanceof Float64Array ? pts.subarray(3 * k, 3 * k + 3) : pts[k], `edits[${i}].points[${k}]`);
        const at = m.toPixel(u);
        if (at && prev) line(m.put, prev, at, c);
        prev = at;
      }
      return;
    }
    const at = m.toPixel(unitVec(e.center, `edits[${i}].center`));
    const r = number(e.radiusM, `edits[${i}].radiusM`, 0, m.R) / m.mpp;
    if (!at || Math.hypot(at[0] - m.size / 2, at[1] - m.size / 2) > r + m.size) return;
    // The outline: a ring one pixel wide at the radius (at least 2 pixels out).
    const rr = Math.max(2, r), x0 = Math.floor(at[0] - rr - 1), x1 = Math.ceil(at[0] + rr + 1);
    for (let y = Math.max(0, Math.floor(at[1] - rr - 1)); y <= Math.min(m.size - 1, Math.ceil(at[1] + rr + 1)); y++) {
      for (let x = Math.max(0, x0); x <= Math.min(m.size - 1, x1); x++) {
        if (Math.abs(Math.hypot(x - at[0], y - at[1]) - rr) < 0.75) m.put(x, y, c);
      }
    }
  });
}

function drawPlayer({ frame, f, size, put }) {
  const c = size / 2 - 0.5;
  // The heading in map pixels (y down).
  const hx = dot(f, frame.x), hy = -dot(f, frame.y), hl = Math.hypot(hx, hy) || 1;
  const ax = hx / hl, ay = hy / hl, len = Math.max(6, size / 14);
  line(put, [c, c], [c + ax * len, c + ay * len], [255, 255, 255]);
  // The arrow head: two short strokes back from the tip.
  const tip = [c + ax * len, c + ay * len];
  for (const s of [1, -1]) line(put, tip, [tip[0] - ax * 3 + s * ay * 3, tip[1] - ay * 3 - s * ax * 3], [255, 255, 255]);
  for (let j = -3; j <= 3; j++) {
    for (let i = -3; i <= 3; i++) {
      const r = Math.hypot(i + 0.5 - 0.5, j), x = Math.round(c + i), y = Math.round(c + j);
      if (r <= 2.2) put(x, y, [255, 255, 255]);
      else if (r <= 3.2) put(x, y, [10, 10, 10]);
    }
  }
}
