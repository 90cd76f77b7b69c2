// collider_fixture.mjs - This module hands the physics tests a chunk's
// collider and the exact ground height under a direction. It calls
// world.collider and world.groundAt where the World has them; otherwise it
// builds the same things from world.mesh: the stride-1 grid without skirts
// (the drawn surface), and the radial line through a direction intersected
// with that grid's own triangles in float64, so the fallback answers what
// those calls answer.
import { keyId } from '../../wasm/ct_key.mjs';

const CHUNK_CORE = 256;   // grid cells per chunk edge at stride 1

/**
 * A chunk's collider: {center (Float64Array 3), positions (Float32Array,
 * metres from center, body-fixed axes), indices (Uint32Array),
 * vertexCount, triangleCount}, the mesh's grid at stride with no skirts.
 */
export function colliderFor(world, key, stride = 1) {
  if (typeof world.collider === 'function') return world.collider(key, { stride });
  if (stride === 1 && held.get(world)?.has(keyId(key))) return held.get(world).get(keyId(key));
  const m = world.mesh(key, { stride, skirtDepthM: 0 });
  const c = {
    center: Float64Array.from(m.center),
    positions: m.positions.slice(),
    indices: Uint32Array.from(m.indices),   // 16-bit at coarse strides
    vertexCount: m.vertexCount,
    triangleCount: m.indexCount / 3,
  };
  // Kept for the ground query, so a chunk is meshed once per World.
  if (stride === 1) {
    if (!held.has(world)) held.set(world, new Map());
    held.get(world).set(keyId(key), c);
  }
  return c;
}

// Stride-1 colliders built without world.collider, per World, by key id.
const held = new WeakMap();

function heldCollider(world, key) {
  return held.get(world)?.get(keyId(key)) ?? colliderFor(world, key, 1);
}

/**
 * Distance along the unit ray dir from the planet's centre to triangle t of
 * collider c (Moller-Trumbore in float64 on center + offset), and the
 * triangle's upward unit normal, or null when the line misses it. eps widens the triangle by a hair so that a line
 * through a shared edge or vertex hits one of its triangles.
 */
function rayTriangle(c, t, dir, eps = 1e-9) {
  const p = [0, 1, 2].map((k) => {
    const v = c.indices[3 * t + k];
    return [c.center[0] + c.positions[3 * v], c.center[1] + c.positions[3 * v + 1], c.center[2] + c.positions[3 * v + 2]];
  });
  const e1 = [p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]];
  const e2 = [p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]];
  const q = [dir[1] * e2[2] - dir[2] * e2[1], dir[2] * e2[0] - dir[0] * e2[2], dir[0] * e2[1] - dir[1] * e2[0]];
  const det = e1[0] * q[0] + e1[1] * q[1] + e1[2] * q[2];
  if (det === 0) return null;
  const s = [-p[0][0], -p[0][1], -p[0][2]];   // ray origin (the centre) minus p0
  const u = (s[0] * q[0] + s[1] * q[1] + s[2] * q[2]) / det;
  const r = [s[1] * e1[2] - s[2] * e1[1], s[2] * e1[0] - s[0] * e1[2], s[0] * e1[1] - s[1] * e1[0]];
  const v = (dir[0] * r[0] + dir[1] * r[1] + dir[2] * r[2]) / det;
  if (u < -eps || v < -eps || u + v > 1 + eps) return null;
  const d = (e2[0] * r[0] + e2[1] * r[1] + e2[2] * r[2]) / det;
  const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
  const up = Math.sign(n[0] * dir[0] + n[1] * dir[1] + n[2] * dir[2]) / Math.hypot(n[0], n[1], n[2]);
  return d > 0 ? { d, normal: n.map((x) => x * up) } : null;
}

/** The hit of dir with the stride-1 grid of key, trying the cells round (localX, localY); null on a miss. */
function hitInChunk(world, key, localX, localY, dir) {
  const c = heldCollider(world, key);
  const ci = Math.min(CHUNK_CORE - 1, Math.max(0, Math.floor(localX)));
  const cj = Math.min(CHUNK_CORE - 1, Math.max(0, Math.floor(localY)));
  // The cell keyAt names holds the hit but for a hair at its diagonal and
  // edges (the triangles are flat, the local coordinates are not): try it,
  // then the 8 cells round it.
  for (let ring = 0; ring <= 1; ring++) {
    for (let j = cj - ring; j <= cj + ring; j++) {
      for (let i = ci - ring; i <= ci + ring; i++) {
        if (i < 0 || j < 0 || i >= CHUNK_CORE || j >= CHUNK_CORE) continue;
        if (ring && Math.max(Math.abs(i - ci), Math.abs(j - cj)) < ring) continue;
        const cell = j * CHUNK_CORE + i;
        for (const t of [2 * cell, 2 * cell + 1]) {
          const hit = rayTriangle(c, t, dir);
          if (hit) return hit;
        }
      }
    }
  }
  return null;
}

/**
 * The stride-1 surface_lod mesh where the radial line through dir meets it,
 * as world.groundAt answers: {heightM (above the planet's radius), normal
 * (unit, body-fixed, the triangle's)}.
 */
export function groundAt(world, dir) {
  if (typeof world.groundAt === 'function') return world.groundAt(dir);
  const n = Math.hypot(dir[0], dir[1], dir[2]), u = [dir[0] / n, dir[1] / n, dir[2] / n];
  const at = world.keyAt(u);
  let hit = hitInChunk(world, at.key, at.localX, at.localY, u);
  // On a chunk border the line may pass just inside the neighbour's triangles.
  for (let dy = -1; !hit && dy <= 1; dy++) {
    for (let dx = -1; !hit && dx <= 1; dx++) {
      const near = world.keyAt(world.core.keyDirection(at.key, at.localX + dx, at.localY + dy));
      if (keyId(near.key) !== keyId(at.key)) hit = hitInChunk(world, near.key, near.localX, near.localY, u);
    }
  }
  if (!hit) throw new Error(`no ground triangle under [${u.join(', ')}]`);
  return { heightM: hit.d - world.config.radius_m, normal: hit.normal };
}

/** world.groundAt(dir).heightM: metres above the planet's radius. */
export function groundHeightAt(world, dir) {
  return groundAt(world, dir).heightM;
}
