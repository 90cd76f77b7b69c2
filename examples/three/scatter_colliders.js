// This module gives the walker's physics a fixed collider for every tree and
// rock near it that the page draws (scatter_layer.js): a cylinder round a
// trunk, a ball for a rock, of the catalogue's collision radius
// (collisionPerM x scale metres, SCATTER_KINDS from the package; 0: none, as
// for shrubs, reeds and tufts). Colliders come within NEAR_M of the character
// and go past FAR_M (hysteresis, so one at the edge is not made every step),
// and are put in again when the walker moves its float32 origin.
import { SCATTER_KINDS } from 'cubesphere-terrain/stream';
import { yTo } from './walk.js';

const NEAR_M = 60, FAR_M = 90, RECHECK_M = 10;

/** The collider shape of an instance: {shape: 'cylinder'|'ball', radiusM, halfM, centre (body-fixed)} or null. */
export function instanceCollider(foot) {
  const kind = SCATTER_KINDS[foot.kind], r = kind ? kind.collisionPerM * foot.scale : 0;
  if (!(r > 0)) return null;
  // Rocks (their size is a diameter) are balls half sunk; plants are trunks as tall as the plant.
  const rock = kind.name === 'boulder' || kind.name === 'rock';
  const halfM = rock ? r : foot.scale / 2, lift = rock ? r * 0.6 : halfM;
  return { shape: rock ? 'ball' : 'cylinder', radiusM: r, halfM, centre: foot.at.map((v, i) => v + foot.up[i] * lift) };
}

export class ScatterColliders {
  constructor() {
    this.held = new Map();   // instance id -> {collider, c}
    this.walker = null;
    this.origin = null;
    this.at = null;
    this.version = -1;   // the layer's version the colliders were made from
  }

  /** One step: colliders for the layer's instances near the walker; all anew after a rebase or for a new walker. */
  update(walker, layer) {
    if (walker !== this.walker || walker.origin !== this.origin) {
      if (walker === this.walker) for (const h of this.held.values()) walker.physics.removeCollider(h.collider, false);
      this.held.clear();
      this.walker = walker;
      this.origin = walker.origin;
      this.at = null;
    }
    const p = walker.position();
    if (this.at && Math.hypot(p[0] - this.at[0], p[1] - this.at[1], p[2] - this.at[2]) < RECHECK_M && layer.version === this.version) return;
    this.at = p;
    this.version = layer.version;
    const seen = new Set();
    for (const foot of layer.instances(p, FAR_M)) {
      const id = foot.id;
      seen.add(id);
      if (this.held.has(id)) continue;
      if (Math.hypot(...foot.at.map((v, i) => v - p[i])) > NEAR_M) continue;
      const c = instanceCollider(foot);
      if (!c) continue;
      const R = walker.RAPIER, o = walker.origin;
      const desc = c.shape === 'ball' ? R.ColliderDesc.ball(c.radiusM) : R.ColliderDesc.cylinder(c.halfM, c.radiusM);
      desc.setTranslation(c.centre[0] - o[0], c.centre[1] - o[1], c.centre[2] - o[2]).setRotation(yTo(foot.up));
      this.held.set(id, { collider: walker.physics.createCollider(desc), c });
    }
    for (const [id, h] of this.held) if (!seen.has(id)) { walker.physics.removeCollider(h.collider, false); this.held.delete(id); }
  }

  /** The held colliders: {id (decimal string), shape, radiusM, centre}. */
  list() {
    return [...this.held].map(([id, h]) => ({ id: String(id), shape: h.c.shape, radiusM: h.c.radiusM, centre: h.c.centre }));
  }

  clear() {
    this.held.clear();
    this.walker = null;
    this.origin = null;
  }
}
