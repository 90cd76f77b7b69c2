// This module is the example's walking character: a Rapier capsule moved by
// a KinematicCharacterController with radial up and radial gravity, on the
// ground a GroundNeighbourhood keeps round it (the pool's colliders, cut into
// patches and handed over a few per frame). Rapier works in float32, so its
// frame is body-fixed axes with a float64 origin near the player; when the
// player wanders more than REBASE_M from it, the origin moves and the patches
// are put in again. No three.js here: main.js draws, this module only moves.
import { GroundNeighbourhood, enuFrame } from 'cubesphere-terrain/stream';

const normalize = (a) => { const l = Math.hypot(a[0], a[1], a[2]); return [a[0] / l, a[1] / l, a[2] / l]; };

/** The capsule: half the straight part, the radius, centre to feet (1.8 m tall in all). */
export const HALF_M = 0.6, RADIUS_M = 0.3, FOOT_M = HALF_M + RADIUS_M;
const G = 9.81, JUMP_MPS = 5, REBASE_M = 2000;
/** Eyes above the feet. */
export const EYE_M = 1.7;

/** The rotation that turns +y (a capsule's axis, a trunk's) onto up. */
export function yTo(up) {
  const w = 1 + up[1], l = Math.hypot(w, up[2], up[0]);
  return l < 1e-9 ? { x: 1, y: 0, z: 0, w: 0 } : { x: up[2] / l, y: 0, z: -up[0] / l, w: w / l };
}
const vec = (a) => ({ x: a[0], y: a[1], z: a[2] });

export class Walker {
  /**
   * @param {object} o
   * @param {any} o.RAPIER  the initialised @dimforge/rapier3d-compat module
   * @param {{collider: Function}} o.pool  a worker pool with collider()
   * @param {number} o.radiusM
   * @param {number} o.surfaceLod
   * @param {number[]} o.dir  where to stand (a unit direction)
   * @param {number} [o.rangeM]
   */
  constructor({ RAPIER, pool, radiusM, surfaceLod, dir, rangeM = 1500 }) {
    this.R = radiusM;
    this.RAPIER = RAPIER;
    this.physics = new RAPIER.World(vec([0, 0, 0]));   // gravity is radial: applied by hand
    this.colliders = new Map();                        // patch key -> Rapier collider
    this.patches = new Map();                          // patch key -> patch (to put in again on a rebase)
    this.origin = dir.map((v) => v * radiusM);
    this.ground = new GroundNeighbourhood({
      pool, radiusM, surfaceLod, rangeM,
      onAdd: (k, patch) => { this.patches.set(k, patch); this._insert(k, patch); },
      onRemove: (k) => { this.patches.delete(k); this.physics.removeCollider(this.colliders.get(k), false); this.colliders.delete(k); },
      onError: (e) => { this.errors.push(e.message); },
    });
    this.errors = [];
    this.body = this.physics.createCollider(RAPIER.ColliderDesc.capsule(HALF_M, RADIUS_M));
    this.ctl = this.physics.createCharacterController(0.02);
    this.ctl.enableSnapToGround(0.5);
    this.ctl.enableAutostep(0.4, 0.2, false);
    this.ctl.setMaxSlopeClimbAngle((60 * Math.PI) / 180);
    this.ctl.setMinSlopeSlideAngle((70 * Math.PI) / 180);
    this.dir = normalize(dir);
    this.p = null;          // capsule centre in the frame; null until the ground under it is held
    this.upMps = 0;         // velocity along up (jumps, falls)
    this.grounded = false;
    this.heading = 0;       // degrees clockwise from north, as the orbit camera's
  }

  _insert(k, patch) {
    const v = new Float32Array(patch.positions.length), o = this.origin;
    for (let i = 0; i < v.length; i += 3) {
      v[i] = patch.center[0] + patch.positions[i] - o[0];
      v[i + 1] = patch.center[1] + patch.positions[i + 1] - o[1];
      v[i + 2] = patch.center[2] + patch.positions[i + 2] - o[2];
    }
    this.colliders.set(k, this.physics.createCollider(this.RAPIER.ColliderDesc.trimesh(v, patch.indices)));
  }

  /** The capsule centre, body-fixed float64. */
  position() {
    return this.p ? [this.origin[0] + this.p[0], this.origin[1] + this.p[1], this.origin[2] + this.p[2]] : this.dir.map((v) => v * this.R);
  }

  /** The feet's height above the planet's radius, and the eye's position (body-fixed). */
  eye() {
    const abs = this.position(), r = Math.hypot(...abs), up = abs.map((v) => v / r);
    const feet = r - (this.p ? FOOT_M : 0);
    return { dir: up, heightM: feet - this.R, eye: up.map((v) => v * (feet + EYE_M)) };
  }

  /** Jumps when on the ground; true when it did. */
  jump() {
    if (!this.grounded) return false;
    this.upMps = JUMP_MPS;
    this.grounded = false;
    return true;
  }

  /** Radial up, and ahead and right along the heading, at the player. */
  axes() {
    const up = this.dir, { east, north } = enuFrame(up), h = (this.heading * Math.PI) / 180;
    const ahead = [0, 1, 2].map((i) => north[i] * Math.cos(h) + east[i] * Math.sin(h));
    const right = [0, 1, 2].map((i) => east[i] * Math.cos(h) - north[i] * Math.sin(h));
    return { up, ahead, right };
  }

  /**
   * One frame of dt seconds: forwardMps and rightMps along the heading.
   * Nothing moves until the ground under the player is held; then the
   * capsule is set on it and walks.
   */
  step(dt, forwardMps, rightMps) {
    this.ground.update(this.dir);
    this.physics.step();   // puts new colliders in the broad phase for the controller's queries
    if (!this.p) {
      const g = this.ground.groundAt(this.dir);
      if (!g) return;
      this.p = this.dir.map((v, i) => v * (this.R + g.heightM + FOOT_M + 0.05) - this.origin[i]);
    }
    const { up, ahead, right } = this.axes();
    this.upMps -= G * dt;
    const move = [0, 1, 2].map((i) => (ahead[i] * forwardMps + right[i] * rightMps + up[i] * this.upMps) * dt);
    this.body.setTranslation(vec(this.p));
    this.body.setRotation(yTo(up));
    this.ctl.setUp(vec(up));
    this.ctl.computeColliderMovement(this.body, vec(move));
    const m = this.ctl.computedMovement();
    this.grounded = this.ctl.computedGrounded();
    if (this.grounded && this.upMps < 0) this.upMps = 0;
    this.p = [this.p[0] + m.x, this.p[1] + m.y, this.p[2] + m.z];
    this.dir = normalize(this.position());
    // Under the held ground (a hole the controller slipped through): back on top.
    const g = this.ground.groundAt(this.dir);
    if (g && Math.hypot(...this.position()) - FOOT_M < this.R + g.heightM - 0.5) {
      this.p = this.dir.map((v, i) => v * (this.R + g.heightM + FOOT_M) - this.origin[i]);
      this.upMps = 0;
    }
    if (Math.hypot(...this.p) > REBASE_M) this._rebase();
  }

  _rebase() {
    const abs = this.position();
    this.origin = this.dir.map((v) => v * this.R);
    this.p = abs.map((v, i) => v - this.origin[i]);
    for (const c of this.colliders.values()) this.physics.removeCollider(c, false);
    this.colliders.clear();
    for (const [k, patch] of this.patches) this._insert(k, patch);
  }

  /** The terrain hit of a ray (body-fixed), from the held ground: {point, normal, distanceM} or null. */
  raycast(originM, dir, maxM = 20000) { return this.ground.raycast(originM, dir, maxM); }

  stats() {
    const e = this.eye();
    return { placed: !!this.p, grounded: this.grounded, heightM: e.heightM, dir: e.dir.slice(),
      colliders: this.colliders.size, ground: this.ground.stats(), errors: this.errors.slice() };
  }

  dispose() {
    this.ground.clear();
    this.physics.free();
  }
}
