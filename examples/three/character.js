// This module draws the walking character and places the third-person
// camera: a capsule of the Rapier body's size, turned so its axis is radial
// up and its visor faces the heading, and a camera pose a few metres behind
// and above it looking at its chest. Positions are float64 body-fixed until
// the eye is subtracted, like the tiles'.
import * as THREE from 'three';
import { dirToLatLon } from 'cubesphere-terrain/stream';
import { HALF_M, RADIUS_M } from './walk.js';

/** The third-person camera: metres behind and above the chest; the lowest it goes over the ground. */
const BACK_M = 7, RISE_M = 1.2, CHEST_M = 0.3, CLEAR_M = 1;
const DEG = 180 / Math.PI;

export class CharacterMesh {
  constructor(scene) {
    this.group = new THREE.Group();
    const body = new THREE.Mesh(new THREE.CapsuleGeometry(RADIUS_M, 2 * HALF_M, 6, 16),
      new THREE.MeshLambertMaterial({ color: 0xff8a1e }));
    // The visor shows which way the character faces (-z is ahead in the group's basis).
    const visor = new THREE.Mesh(new THREE.BoxGeometry(0.36, 0.12, 0.12), new THREE.MeshLambertMaterial({ color: 0x1d3b6e }));
    visor.position.set(0, HALF_M, -RADIUS_M);
    this.group.add(body, visor);
    this.group.visible = false;
    for (const m of this.group.children) {
      m.frustumCulled = false;   // placed relative to the eye: the bounds move every frame
      m.castShadow = m.receiveShadow = true;
    }
    scene.add(this.group);
    this.basis = new THREE.Matrix4();
  }

  /** At the walker's capsule (body-fixed centre), relative to the eye; hidden when not shown. */
  show(walker, eye, visible) {
    this.group.visible = visible && !!walker && !!walker.p;
    if (!this.group.visible) return;
    const c = walker.position(), { up, ahead, right } = walker.axes();
    this.group.position.set(c[0] - eye[0], c[1] - eye[1], c[2] - eye[2]);
    this.basis.makeBasis(new THREE.Vector3(...right), new THREE.Vector3(...up), new THREE.Vector3(-ahead[0], -ahead[1], -ahead[2]));
    this.group.quaternion.setFromRotationMatrix(this.basis);
  }
}

/**
 * The camera pose {lat, lon, alt, heading, tilt} behind and above the
 * walker, looking at its chest, with up radial; and groundM, the held
 * ground under the camera (the camera stays CLEAR_M above it, looking
 * down more steeply when the ground behind rises).
 */
export function thirdPersonPose(walker, radiusM) {
  const c = walker.position(), { up, ahead } = walker.axes();
  const cam = [0, 1, 2].map((i) => c[i] + up[i] * (CHEST_M + RISE_M) - ahead[i] * BACK_M);
  const r = Math.hypot(...cam), dir = cam.map((v) => v / r);
  const g = walker.ground.groundAt(dir);
  const groundM = g ? g.heightM : walker.eye().heightM;
  const alt = Math.max(r - radiusM, groundM + CLEAR_M);
  const rise = RISE_M + (alt - (r - radiusM));
  const ll = dirToLatLon(dir);
  return { pose: { lat: ll.lat, lon: ll.lon, alt, heading: (walker.heading + 360) % 360, tilt: Math.atan2(BACK_M, rise) * DEG }, groundM };
}
