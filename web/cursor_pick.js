// This module picks the ground under the cursor (no DOM, no GL): the first hit of the cursor's ray with the terrain and water (world.raycast on the page's own WebAssembly world), or, until that world is loaded or while heights are exaggerated, the sphere at the last height read under the cursor.
import { raySphere } from '../stream/camera.js';
import { add, scale, normalize, dot } from '../stream/geo.js';

/** Deepest and highest ground the core makes (metres): a ray that reaches neither shell misses the terrain. */
const SHELL_LOW_M = -11000, SHELL_HIGH_M = 9000;

/**
 * How far along a ray the terrain can be: to where it enters the sphere
 * under all ground (a ray reaching it has crossed the surface), else to
 * where it leaves the sphere over all ground; 0 when it misses that sphere.
 */
export function rayReachM(eye, ray, radiusM) {
  const inner = raySphere(eye, ray, radiusM + SHELL_LOW_M);
  if (inner !== null) return inner;
  const outer = radiusM + SHELL_HIGH_M, b = dot(eye, ray), c = dot(eye, eye) - outer * outer;
  const disc = b * b - c;
  return disc < 0 ? 0 : Math.max(0, -b + Math.sqrt(disc));
}

/**
 * The direction under the cursor and how it was found.
 * @param {object} o
 * @param {number[]} o.eye          the camera eye, body-fixed metres (computeView's)
 * @param {number[]} o.ray          unit ray through the cursor (screenRay)
 * @param {number} o.radiusM
 * @param {number} o.exaggeration   the meshes' vertical exaggeration: the raycast sees the real ground, so only at 1
 * @param {{raycast(o: number[], d: number[], maxM: number): object|null}|null} o.pageWorld
 * @param {number} o.lastHeightM    fallback: the surface height last read under the cursor (real metres)
 * @returns {{dir: number[], distanceM: number, by: 'raycast'|'sphere', water?: boolean}|null} null: the sky
 */
export function pickCursor(o) {
  if (o.pageWorld && o.exaggeration === 1) {
    const reach = rayReachM(o.eye, o.ray, o.radiusM);
    const hit = reach > 0 ? o.pageWorld.raycast(o.eye, o.ray, reach) : null;
    return hit && { dir: normalize(hit.point), distanceM: hit.distanceM, by: 'raycast', water: hit.water };
  }
  const t = raySphere(o.eye, o.ray, o.radiusM + o.lastHeightM * o.exaggeration);
  return t === null ? null : { dir: normalize(add(o.eye, scale(o.ray, t))), distanceM: t, by: 'sphere' };
}
