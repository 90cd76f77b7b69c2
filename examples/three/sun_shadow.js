// This module is the example's sun: a three.js DirectionalLight fixed in the
// world's frame that casts three.js's own shadow map (renderer.shadowMap, the
// terrain meshes casting and receiving), its orthographic box moved each
// frame to the ground the view looks at and sized to the height above it:
// about 100 m across around a walking character, tens of kilometres from
// high up. #shadows=0 in the address turns it off.
import * as THREE from 'three';

/** Half the shadow box's width (metres) per metre of height above the ground, and its bounds. */
const BOX_PER_ABOVE = 3, BOX_MIN_M = 60, BOX_MAX_M = 150000;
/** Shadow map texels per edge. */
const MAP_SIZE = 2048;

export class SunShadow {
  /**
   * @param {THREE.WebGLRenderer} renderer
   * @param {THREE.Scene} scene
   * @param {{dir: number[], on: boolean, color?: number, intensity?: number}} o dir: towards the sun (world frame)
   */
  constructor(renderer, scene, o) {
    this.dir = new THREE.Vector3(...o.dir).normalize();
    this.on = o.on;
    this.light = new THREE.DirectionalLight(o.color ?? 0xffffff, o.intensity ?? 2.2);
    this.light.position.copy(this.dir);
    scene.add(this.light, this.light.target);
    renderer.shadowMap.enabled = this.on;
    renderer.shadowMap.type = THREE.PCFSoftShadowMap;
    this.light.castShadow = this.on;
    this.light.shadow.mapSize.set(MAP_SIZE, MAP_SIZE);
    this.center = new THREE.Vector3();
  }

  /**
   * Moves the shadow box to this frame's view (camera at the origin, world
   * axes, as the tiles are placed): centred where the view's middle meets
   * the ground, or as far as the box reaches towards the horizon.
   * @param {{eye: number[], forward: number[]}} view  @param {number} aboveM height of the eye over the ground
   */
  update(view, aboveM) {
    if (!this.on) return;
    const half = Math.min(BOX_MAX_M, Math.max(BOX_MIN_M, BOX_PER_ABOVE * aboveM));
    const down = new THREE.Vector3(...view.eye).normalize().negate();
    const fwd = new THREE.Vector3(...view.forward);
    const t = Math.min(half, aboveM / Math.max(fwd.dot(down), 1e-3));
    this.center.copy(fwd).multiplyScalar(t);
    this.light.target.position.copy(this.center);
    this.light.position.copy(this.center).addScaledVector(this.dir, 2 * half);
    const cam = this.light.shadow.camera;
    cam.left = cam.bottom = -half;
    cam.right = cam.top = half;
    cam.near = 0;
    cam.far = 4 * half;
    cam.updateProjectionMatrix();
    // A couple of texels along the normal: no acne on ground the sun grazes.
    this.light.shadow.normalBias = (4 * half) / MAP_SIZE;
    this.light.shadow.bias = -1e-4;
  }
}
