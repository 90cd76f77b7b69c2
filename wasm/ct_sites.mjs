// ct_sites.mjs - This module adds world.sites to the World: ranked,
// deterministic places for a settlement, a port or a spawn (ct_world_sites),
// whole-world or within radiusM of a direction.
import { ctError } from './ct_heap.mjs';
import { SITE_KINDS, SITES_MAX } from './ct_constants.mjs';
import { vec3 } from './ct_dirs.mjs';

const SITE_DOUBLES = 10;   // ctw_world_sites' record

function siteQuery(opts) {
  const kind = SITE_KINDS.indexOf(opts.kind ?? 'settlement');
  if (kind < 0) throw ctError('CT_ERR_CONFIG', `site kind ${String(opts.kind)} is not one of ${SITE_KINDS.join(', ')}`);
  const count = opts.count ?? 10, spacing = opts.minSpacingM ?? 0;
  if (!Number.isInteger(count) || count < 1 || count > SITES_MAX) {
    throw ctError('CT_ERR_CONFIG', `site count ${String(count)} is not an integer in 1..${SITES_MAX}`);
  }
  if (typeof spacing !== 'number' || !(spacing >= 0) || !Number.isFinite(spacing)) {
    throw ctError('CT_ERR_CONFIG', 'site minSpacingM must be a finite number >= 0');
  }
  const near = opts.near == null ? null : vec3(opts.near, 'site near');
  const radius = opts.radiusM ?? 0;
  if (near && (typeof radius !== 'number' || !(radius > 0) || !Number.isFinite(radius))) {
    throw ctError('CT_ERR_CONFIG', 'site radiusM must be a finite number > 0 with near');
  }
  return { kind, count, spacing, near, radius };
}

export const sitesMethods = {
  /**
   * Ranked sites, best first: [{dir, heightM, reliefM, slopeDeg,
   * freshWaterM, coastM, biome, score}]. opts: {kind: 'settlement' | 'port'
   * | 'spawn', count (1..1024, default 10), minSpacingM (default 0), near
   * (a direction; default: the whole world), radiusM (with near)}. Fewer
   * come back when fewer places meet the kind's rules (docs/populate.md).
   */
  sites(opts = {}) {
    const heap = this._live(), q = siteQuery(opts);
    const out = heap.malloc(8 * SITE_DOUBLES * q.count), near = heap.slot(23), count = heap.slot(24);
    try {
      if (q.near) heap.f64().set(q.near, near / 8);
      heap.check(heap.x.ctw_world_sites(this.ptr, q.kind, q.count, q.spacing, q.near ? 1 : 0, near, q.radius, out,
        q.count, count, ...heap.errArgs()));
      const n = heap.u32()[count / 4], f = heap.f64(), list = [];
      for (let i = 0; i < n; i++) {
        const r = out / 8 + SITE_DOUBLES * i;
        list.push({
          dir: [f[r], f[r + 1], f[r + 2]], heightM: f[r + 3], reliefM: f[r + 4], slopeDeg: f[r + 5],
          freshWaterM: f[r + 6], coastM: f[r + 7], biome: f[r + 8], score: f[r + 9],
        });
      }
      return list;
    } finally {
      heap.free(out);
    }
  },
};
