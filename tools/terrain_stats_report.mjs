// This module formats terrain-stats results: a table per world, one row per
// world for sweeps, and the Markdown used in docs/generation.md.

// Earth's land hypsometry (global 5-arc-minute relief, land above sea level)
// and river network figures, from the surveys cited in docs/generation.md.
export const EARTH = { heightM: { p50: 450, p90: 2300, p99: 4900, max: 8848 }, hack: '0.5-0.6',
  bifurcation: '3-5', seaShare: 0.8 };

const f = (x, d = 2) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d));
const pct = (x) => (x === null || x === undefined ? '-' : `${(100 * x).toFixed(1)}%`);

function lakeText(l) {
  if (!l.lakes) return `0 lakes (${l.seas} inland seas)`;
  return `${l.elevated}/${l.lakes} elevated (${pct(l.elevated_share)}), levels ${f(l.level_min_m, 0)}..${f(l.level_max_m, 0)} m`;
}

function riverText(r, tree) {
  if (!r || !r.nodes) return 'none (river_min_area_km2=0)';
  const n = (x, d) => (x < 0 ? '-' : f(x, d));
  const t = tree && tree.nodes ? tree : r;
  return `${r.nodes} nodes, Hack h ${n(t.hack, 3)} (Earth ${EARTH.hack}), bifurcation ${n(t.bifurcation_top ?? -1, 2)} ` +
    `in the top-order basins, ${n(t.bifurcation, 2)} pooled ` +
    `(Earth ${EARTH.bifurcation}, ${t.max_order} orders; ${t === tree ? 'full drainage tree' : 'drawn rivers'}), density ${n(r.density_per_km * 1000, 2)} km/1000 km², ` +
    `sinuosity ${n(r.sinuosity, 2)}, to the sea ${pct(r.sea_share)} (Earth ~${pct(EARTH.seaShare)}), ` +
    `lakes ${r.lakes_open} open / ${r.lakes_closed} closed, ${r.lost_mouths} lost mouths`;
}

/** The largest sea mouths: land left between the river water and the sea. */
function mouthText(mo) {
  if (!mo) return '-';
  return `${mo.measured} largest: ${mo.unreached} never meet the sea, ${mo.with_gap} with land before it ` +
    `(gap p50 ${f(mo.gap_p50_km, 2)} km, max ${f(mo.gap_max_km, 2)} km); mouth node to the sea p50 ${f(mo.node_to_sea_p50_km, 1)} km`;
}

/** Human-readable table for one world. */
export function formatWorld(m, earth, grid) {
  const c = m.coast;
  const ch = m.chunks;
  const rows = [
    ['world', `${m.label}  (generation ${m.world.generation}, built in ${f(m.world.load_ms, 0)} ms)`],
    ['grid', `${grid.width}x${grid.height}, |lat| <= ${grid.latMax}, land share ${pct(m.raster.land_share)}, pass ${f(m.raster.ms / 1000, 1)} s`],
    ['coast / land area', `${f(c.coast_per_land_area_per_km * 1000, 3)} km per 1000 km² of land  (Earth ${f(earth.coastPerLandArea * 1000, 3)})  = ${f(c.vs_earth.coast_per_land_area)}x Earth`],
    ['  sea coasts only', `${f(c.sea.coast_per_land_area_per_km * 1000, 3)} km per 1000 km²  = ${f(c.vs_earth.sea_coast_per_land_area)}x Earth`],
    ['  coast px / land px', `${f(c.vs_earth.coast_pixels_per_land_pixel)}x Earth`],
    ['box dimension', `${f(c.dimension, 3)}  (Earth ${f(earth.dimension, 3)}, diff ${f(c.vs_earth.dimension_diff, 3)}; boxes ${c.fit_px[0]}..${c.fit_px[1]} px)`],
    ['lakes', `${lakeText(m.lakes)}  (build stats: ${m.stats.lakes} lakes, ${m.stats.water_bodies} bodies)`],
    ['land slope (deg)', `p50 ${f(ch.slope_deg.p50)}  p90 ${f(ch.slope_deg.p90)}  p99 ${f(ch.slope_deg.p99)}  at LOD ${ch.lod} (~${f(ch.spacing_m, 0)} m spacing)`],
    ...(m.slopes || []).map((sl) => [`  at surface_lod ${sl.lod}`,
      `p50 ${f(sl.slope_deg.p50)}  p90 ${f(sl.slope_deg.p90)}  p99 ${f(sl.slope_deg.p99)}  (~${f(sl.spacing_m, 1)} m spacing, ${sl.with_land} land chunks)`]),
    ['land height (m)', `p50 ${f(ch.height_m.p50, 0)}  p90 ${f(ch.height_m.p90, 0)}  p99 ${f(ch.height_m.p99, 0)}  max ${f(ch.height_m.max, 0)}  (macro max ${f(m.stats.max_height_m, 0)}; Earth ${EARTH.heightM.p50}/${EARTH.heightM.p90}/${EARTH.heightM.p99}/${EARTH.heightM.max})`],
    ['rivers', riverText(m.rivers, m.river_tree)],
    ['river mouths', mouthText(m.mouths)],
    ['beach band', `${pct(ch.beach_share)} of land within 0..${ch.beach_max_m} m, ${pct(ch.zero_share)} at exactly 0 m`],
    ['chunks', `${ch.with_land} with land of ${ch.generated} generated, ${f(ch.land_samples / 1e6, 2)} M land samples, ${f(ch.ms / 1000, 1)} s`],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  return `${rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n')}\n`;
}

/** The land slope median and p90 at one of the --slope-lods, or '-'. */
const slopeAt = (m, lod) => {
  const sl = (m.slopes || []).find((x) => x.lod === lod);
  return sl ? `${f(sl.slope_deg.p50)} / ${f(sl.slope_deg.p90, 1)}` : '-';
};

const COLUMNS = [
  ['world', (m) => m.label],
  ['coast/area vs Earth', (m) => f(m.coast.vs_earth.coast_per_land_area)],
  ['sea only', (m) => f(m.coast.vs_earth.sea_coast_per_land_area)],
  ['box dim', (m) => f(m.coast.dimension, 3)],
  ['lakes elevated', (m) => (m.lakes.lakes ? `${m.lakes.elevated}/${m.lakes.lakes}` : '0')],
  ['slope p50', (m) => f(m.chunks.slope_deg.p50)],
  ['p90', (m) => f(m.chunks.slope_deg.p90)],
  ['p99', (m) => f(m.chunks.slope_deg.p99)],
  ['slope LOD 11 p50 / p90', (m) => slopeAt(m, 11)],
  ['LOD 14 p50 / p90', (m) => slopeAt(m, 14)],
  ['height p50', (m) => f(m.chunks.height_m.p50, 0)],
  ['p90', (m) => f(m.chunks.height_m.p90, 0)],
  ['p99', (m) => f(m.chunks.height_m.p99, 0)],
  ['max', (m) => f(m.chunks.height_m.max, 0)],
  ['land 0..2 m', (m) => pct(m.chunks.beach_share)],
  ['Hack h', (m) => (m.river_tree ? f(m.river_tree.hack, 3) : '-')],
  ['bifurcation top basins', (m) => (m.river_tree ? f(m.river_tree.bifurcation_top, 2) : '-')],
  ['pooled', (m) => (m.river_tree ? f(m.river_tree.bifurcation, 2) : '-')],
  ['mouth gap max km', (m) => (m.mouths ? f(m.mouths.gap_max_km, 2) : '-')],
  ['sinuosity', (m) => (m.rivers && m.rivers.nodes ? f(m.rivers.sinuosity, 2) : '-')],
  ['to sea', (m) => (m.rivers && m.rivers.nodes ? pct(m.rivers.sea_share) : '-')],
];

/** One row per world, plain text. */
export function formatSweep(out) {
  const cells = [COLUMNS.map((c) => c[0]), ...out.worlds.map((m) => COLUMNS.map((c) => c[1](m)))];
  const widths = COLUMNS.map((_, k) => Math.max(...cells.map((r) => r[k].length)));
  const e = out.earth;
  return `${cells.map((r) => r.map((x, k) => x.padEnd(widths[k])).join('  ')).join('\n')}\n` +
    `Earth: ${f(e.coast_per_land_area_per_km * 1000, 3)} coast km per 1000 km^2 of land, box dimension ${f(e.dimension, 3)}\n`;
}

/** The same rows as a Markdown table. */
export function formatMarkdown(out) {
  const head = COLUMNS.map((c) => c[0]);
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  for (const m of out.worlds) lines.push(`| ${COLUMNS.map((c) => c[1](m)).join(' | ')} |`);
  const e = out.earth;
  lines.push('', `Earth (land-10m, same grid): ${f(e.coast_per_land_area_per_km * 1000, 3)} km of coast per ` +
    `1000 km² of land, box dimension ${f(e.dimension, 3)}. Grid ${out.grid.width}x${out.grid.height}, |lat| <= ${out.grid.lat_max_deg}. ` +
    `Earth's land heights p50/p90/p99/max ${EARTH.heightM.p50}/${EARTH.heightM.p90}/${EARTH.heightM.p99}/${EARTH.heightM.max} m; ` +
    `Hack h ${EARTH.hack}, bifurcation ${EARTH.bifurcation}, ~${pct(EARTH.seaShare)} of land drains to the sea.`);
  return lines.join('\n');
}
