// This module shows the best sites near the camera (world.sites on the page's own WebAssembly world: settlements and ports within SITE_RADIUS_M) as pins in walk mode and low flight; the pins keep a readable size on screen however far they stand, and are asked again only when the camera has moved a good part of the radius.
import { length, sub, normalize } from '../stream/geo.js';

/** Sites are searched within this distance of the point under the camera. */
export const SITE_RADIUS_M = 20000;
/** Pins show below this altitude above the ground (walk mode and low flight). */
export const SITE_MAX_ALTITUDE_M = 30000;
/** Ask again once the camera has moved this far from the last search. */
const REQUERY_M = 4000;
/** The kinds shown, how many of each, and their pin colours. */
const KINDS = [
  { kind: 'settlement', count: 5, colour: [0.95, 0.55, 0.1] },
  { kind: 'port', count: 3, colour: [0.1, 0.75, 0.95] },
];
/** A pin's true height (metres) and the fewest pixels it is drawn high. */
const PIN_M = 40, PIN_PX = 36;

export class SiteMarkers {
  /** @param {import('./scatter_layer.js').ShapeBatches} batches the scatter layer's program and shapes */
  constructor(batches) {
    this.batches = batches;
    this.sites = [];
    this.groups = [];
    this.at = null;
    this.world = null;
    this.visible = false;
  }

  /** Forgets the sites (a new world or edit set). */
  clear() {
    for (const g of this.groups) this.batches.release(g.batch);
    this.groups = [];
    this.sites = [];
    this.at = null;
  }

  /**
   * @param {object} o {world (the page's world with sites(), or null), eye (body-fixed metres),
   *   radiusM, altitudeM (above the ground), changed()}
   */
  update(o) {
    this.visible = !!o.world && o.altitudeM < SITE_MAX_ALTITUDE_M;
    if (!this.visible) return;
    if (o.world !== this.world) { this.clear(); this.world = o.world; }
    const dir = normalize(o.eye);
    if (this.at && length(sub(dir, this.at)) * o.radiusM < REQUERY_M) return;
    this.clear();
    this.at = dir;
    for (const k of KINDS) {
      let found;
      try {
        found = o.world.sites({ kind: k.kind, count: k.count, near: dir, radiusM: SITE_RADIUS_M });
      } catch (e) {
        console.warn(`sites (${k.kind}):`, e.message);
        continue;
      }
      if (!found.length) continue;
      const center = found[0].dir.map((x) => x * o.radiusM);
      const inst = new Float32Array(6 * found.length);
      found.forEach((s, i) => {
        const r = o.radiusM + Math.max(0, s.heightM);
        for (let a = 0; a < 3; a++) inst[6 * i + a] = s.dir[a] * r - center[a];
        inst[6 * i + 3] = PIN_M;
        this.sites.push({ kind: k.kind, rank: i, dir: [...s.dir], heightM: s.heightM, score: s.score });
      });
      this.groups.push({ batch: this.batches.create('pin', inst), center, colour: k.colour });
    }
    o.changed();
  }

  /** Draws the pins (the renderer's frame). */
  draw(f) {
    if (!this.visible || !this.groups.length || (f.exaggeration || 1) !== 1) return;
    this.batches.begin(f);
    for (const g of this.groups) this.batches.draw(f, g.batch, g.center, g.colour, [1e9, 2e9], PIN_PX);
    this.batches.gl.bindVertexArray(null);
  }

  /** The sites shown: [{kind, rank, dir, heightM, score}]. */
  list() {
    return this.visible ? this.sites.map((s) => ({ ...s, dir: [...s.dir] })) : [];
  }
}
