// This module holds the streaming library's pure geometry: vectors, the cube-face transforms of the core's addressing contract, latitude/longitude and chunk-key bounds (no DOM, no GL).

import { FACE_NAMES, FACE_FILE_NAMES, CHUNK_CORE, CHUNK_EDGE } from '../wasm/ct_constants.mjs';
import { parseKey, keyId } from '../wasm/ct_key.mjs';

/**
 * Faces in core order: "+X" style names, "px" style as addresses spell them (the core's lists);
 * samples per chunk edge, owned (256) and with the positive border (257), for web/ too.
 */
export { FACE_NAMES, FACE_FILE_NAMES, CHUNK_CORE, CHUNK_EDGE };
/** The one key check and the one key id (wasm/ct_key.mjs). */
export { parseKey, keyId };

export const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
export const length = (a) => Math.sqrt(dot(a, a));
/** Unit vector along a (a must be non-zero). */
export function normalize(a) {
  const l = length(a);
  return [a[0] / l, a[1] / l, a[2] / l];
}
/** Angle in radians between two unit vectors, stable near 0 and pi. */
export function angleBetween(a, b) {
  return Math.atan2(length(cross(a, b)), dot(a, b));
}

/**
 * Face uv in [-1,1] (v grows down the image) to a unit direction, the OpenGL
 * cube-map convention of the core: +X (1,-v,-u) -X (-1,-v,u) +Y (u,1,v)
 * -Y (u,-1,-v) +Z (u,-v,1) -Z (-u,-v,-1).
 */
export function faceUvToDir(face, u, v) {
  let d;
  switch (face) {
    case 0: d = [1, -v, -u]; break;
    case 1: d = [-1, -v, u]; break;
    case 2: d = [u, 1, v]; break;
    case 3: d = [u, -1, -v]; break;
    case 4: d = [u, -v, 1]; break;
    case 5: d = [-u, -v, -1]; break;
    default: throw new RangeError(`face ${face} out of range`);
  }
  return normalize(d);
}

/** Direction to {face, u, v}; the dominant axis owns it, exact ties go to X, then Y, then Z. */
export function dirToFaceUv(d) {
  const ax = Math.abs(d[0]), ay = Math.abs(d[1]), az = Math.abs(d[2]);
  if (ax >= ay && ax >= az) {
    return d[0] > 0 ? { face: 0, u: -d[2] / ax, v: -d[1] / ax } : { face: 1, u: d[2] / ax, v: -d[1] / ax };
  }
  if (ay >= az) {
    return d[1] > 0 ? { face: 2, u: d[0] / ay, v: d[2] / ay } : { face: 3, u: d[0] / ay, v: -d[2] / ay };
  }
  return d[2] > 0 ? { face: 4, u: d[0] / az, v: -d[1] / az } : { face: 5, u: -d[0] / az, v: -d[1] / az };
}

/**
 * The chunk at lod that owns direction d, and the local sample position in it
 * ([0,256]; 256 only on a face's positive edges), as the core's ct_key_at.
 */
export function keyAt(d, lod) {
  const { face, u, v } = dirToFaceUv(d);
  const n = 2 ** lod;
  const gx = ((u + 1) / 2) * n * CHUNK_CORE;
  const gy = ((v + 1) / 2) * n * CHUNK_CORE;
  const x = Math.min(n - 1, Math.max(0, Math.floor(gx / CHUNK_CORE)));
  const y = Math.min(n - 1, Math.max(0, Math.floor(gy / CHUNK_CORE)));
  return { key: { face, lod, x, y }, localX: gx - x * CHUNK_CORE, localY: gy - y * CHUNK_CORE };
}

/** Unit direction of a local sample position (may lie outside [0,256]) of a key. */
export function keyDirection(key, localX, localY) {
  const n = 2 ** key.lod;
  const u = ((key.x * CHUNK_CORE + localX) / (CHUNK_CORE * n)) * 2 - 1;
  const v = ((key.y * CHUNK_CORE + localY) / (CHUNK_CORE * n)) * 2 - 1;
  return faceUvToDir(key.face, u, v);
}

/** The four children of a key at lod+1, in row-major order. */
export function childKeys(key) {
  const out = [];
  for (let j = 0; j < 2; j++) {
    for (let i = 0; i < 2; i++) out.push({ face: key.face, lod: key.lod + 1, x: key.x * 2 + i, y: key.y * 2 + j });
  }
  return out;
}

/** The parent key (lod-1), or null at lod 0. */
export function parentKey(key) {
  if (key.lod === 0) return null;
  return { face: key.face, lod: key.lod - 1, x: key.x >> 1, y: key.y >> 1 };
}

/**
 * Latitude/longitude in degrees to a unit direction. Y is up (north pole);
 * longitude 0 is +X and grows towards -Z, so east x north = up in the
 * right-handed frame the renderer uses.
 */
export function latLonToDir(latDeg, lonDeg) {
  const la = (latDeg * Math.PI) / 180, lo = (lonDeg * Math.PI) / 180;
  return [Math.cos(la) * Math.cos(lo), Math.sin(la), -Math.cos(la) * Math.sin(lo)];
}

/** Unit (or any non-zero) direction to {lat, lon} in degrees, lon in (-180,180]. */
export function dirToLatLon(d) {
  const n = normalize(d);
  const lat = (Math.asin(Math.max(-1, Math.min(1, n[1]))) * 180) / Math.PI;
  const lon = (Math.atan2(-n[2], n[0]) * 180) / Math.PI;
  return { lat, lon: lon === -180 ? 180 : lon };
}

/** Local east, north, up unit vectors at a direction (east falls back to +X... near the poles). */
export function enuFrame(d) {
  const up = normalize(d);
  let east = cross([0, 1, 0], up);
  if (length(east) < 1e-9) east = [0, 0, -1];
  east = normalize(east);
  const north = cross(up, east);
  return { east, north, up };
}

/**
 * Bounds of a chunk for culling and LOD: centre direction, the angular
 * radius (largest angle from the centre to its border), and a bounding
 * sphere {center, radius} in metres that holds the terrain between radii
 * rMin and rMax.
 */
export function keyBounds(key, rMin, rMax) {
  const half = CHUNK_CORE / 2;
  const centerDir = keyDirection(key, half, half);
  const pts = [];
  for (const ly of [0, half, CHUNK_CORE]) {
    for (const lx of [0, half, CHUNK_CORE]) pts.push(keyDirection(key, lx, ly));
  }
  let angle = 0;
  for (const p of pts) angle = Math.max(angle, angleBetween(centerDir, p));
  // The arc between sampled points bulges past the chord; the centre point
  // is one of them, so a small margin covers the rest.
  const cosA = Math.cos(angle);
  const inner = rMin * cosA;
  const mid = (inner + rMax) / 2;
  const center = scale(centerDir, mid);
  let radius = 0;
  for (const p of pts) {
    for (const r of [rMin, rMax]) radius = Math.max(radius, length(sub(scale(p, r), center)));
  }
  radius = Math.max(radius, rMax - mid) * 1.02;
  return { centerDir, angle, center, radius };
}

/** Nominal distance in metres between neighbouring samples of a chunk at lod (face centre). */
export function sampleSpacingM(radiusM, lod) {
  return (2 * radiusM) / (CHUNK_CORE * 2 ** lod);
}
