// Tests of the terrain-stats coast measures (tools/coast_measure.mjs) and the
// Earth rasteriser (tools/earth_raster.mjs) on shapes whose answer is known:
// a straight coast, a digital disc, a Koch curve, rings across the
// antimeridian and with holes, and a tiny TopoJSON topology.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bandRows, measureCoast, boxDimension, LAND, OCEAN, INLAND } from '../../tools/coast_measure.mjs';
import { rasteriseRings, objectRings } from '../../tools/earth_raster.mjs';
import { parseArgs, worldList, PRESETS } from '../../tools/terrain_stats.mjs';

const close = (a, b, rel, msg) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${msg}: ${a} vs ${b}`);
const R = 6371;

test('band rows keep exactly the row centres with |lat| <= latMax', () => {
  // 5.625 degree rows: centres 87.19, 81.56, ... row 5 is 59.06 N, row 26 is 59.06 S.
  assert.equal(bandRows({ width: 64, height: 32, latMax: 60 }), { row0: 5, row1: 27 });
  assert.equal(bandRows({ width: 64, height: 32, latMax: 90 }), { row0: 0, row1: 32 });
});

test('a straight coast along a parallel: exact length, area and dimension 1', () => {
  const grid = { width: 512, height: 256, latMax: 60 };
  const { row0, row1 } = bandRows(grid);
  const k = 40; // land from band row k down
  const raster = new Uint8Array((row1 - row0) * grid.width).fill(OCEAN);
  raster.fill(LAND, k * grid.width);
  const m = measureCoast(raster, grid, { radiusKm: R });
  const edgeLat = (y) => Math.PI / 2 - (y * Math.PI) / grid.height;
  close(m.coastKm, 2 * Math.PI * R * Math.cos(edgeLat(row0 + k)), 1e-12, 'coast length');
  close(m.landKm2, 2 * Math.PI * R * R * (Math.sin(edgeLat(row0 + k)) - Math.sin(edgeLat(row1))), 1e-12, 'land area');
  close(m.dimension, 1, 1e-12, 'box dimension');
  assert.equal(m.boxes[0].boxes, grid.width, 'one row of coast pixels');
});

test('a digital disc: staircase length 4(2r+1) pixel edges, area pi r^2, dimension near 1', () => {
  const grid = { width: 8192, height: 4096, latMax: 60 };
  const { row0, row1 } = bandRows(grid);
  const W = grid.width;
  const r = 150;
  const cy = grid.height / 2 - row0; // band row whose top edge is the equator
  const cx = W / 2;
  const raster = new Uint8Array((row1 - row0) * W).fill(OCEAN);
  for (let y = cy - r; y <= cy + r; y++)
    for (let x = cx - r; x <= cx + r; x++) if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) raster[y * W + x] = LAND;
  const m = measureCoast(raster, grid, { radiusKm: R });
  const px = (Math.PI * R) / grid.height; // km per pixel at the equator, both ways when W = 2H
  // Every row and column of a convex shape crosses its outline twice, so
  // there are 4(2r+1) unit edges; parallel edges shrink by cos(lat), and the
  // disc reaches r pixels (6.6 degrees) from the equator.
  const edges = m.coastKm / px;
  const lo = 2 * (2 * r + 1) * (1 + Math.cos((r * Math.PI) / grid.height));
  assert.ok(edges <= 4 * (2 * r + 1) + 1e-9 && edges >= lo, `edges ${edges} outside [${lo}, ${4 * (2 * r + 1)}]`);
  // ... which is 4/pi times the true circumference, the bias Earth pays as well.
  close(m.coastKm / (2 * Math.PI * r * px), 4 / Math.PI, 0.01, 'staircase bias');
  close(m.landKm2, Math.PI * r * r * px * px, 0.01, 'disc area');
  assert.ok(Math.abs(m.dimension - 1) < 0.08, `disc dimension ${m.dimension}`);
});

/** Koch curve on an equilateral triangle (bumps inwards), as a [lon, lat] ring. */
function koch(level, size) {
  const h = (size * Math.sqrt(3)) / 2;
  let pts = [[-size / 2, -h / 3], [0, (2 * h) / 3], [size / 2, -h / 3]];
  for (let l = 0; l < level; l++) {
    const out = [];
    pts.forEach(([x0, y0], k) => {
      const [x1, y1] = pts[(k + 1) % pts.length];
      const dx = (x1 - x0) / 3;
      const dy = (y1 - y0) / 3;
      const a = [x0 + dx, y0 + dy];
      out.push([x0, y0], a, [a[0] + dx / 2 + (dy * Math.sqrt(3)) / 2, a[1] + dy / 2 - (dx * Math.sqrt(3)) / 2], [x0 + 2 * dx, y0 + 2 * dy]);
    });
    pts = out;
  }
  return [...pts, pts[0]];
}

test('a Koch coast has box dimension near log 4 / log 3, a disc near 1', () => {
  const grid = { width: 8192, height: 4096, latMax: 60 };
  const r = rasteriseRings([koch(7, 30)], grid);
  assert.is(r.oddRows, 0);
  const d = measureCoast(r.raster, grid).dimension;
  assert.ok(Math.abs(d - Math.log(4) / Math.log(3)) < 0.06, `Koch dimension ${d}`);
  // Coarser levels stop being fractal below their smallest segment: lower D.
  const d2 = measureCoast(rasteriseRings([koch(2, 30)], grid).raster, grid).dimension;
  assert.ok(d2 < d - 0.1, `level 2 ${d2} vs level 7 ${d}`);
});

test('least-squares dimension uses only the fit range', () => {
  const counts = [1, 2, 4, 8, 16, 32, 64].map((s) => ({ size: s, boxes: s <= 8 ? 1e6 / s ** 1.5 : 1e6 / s }));
  close(boxDimension(counts, 1, 8), 1.5, 1e-12, 'fine range');
  close(boxDimension(counts, 16, 64), 1, 1e-12, 'coarse range');
  assert.is(boxDimension(counts, 128, 256), null);
});

test('rasterised rings: squares, holes and a ring across the antimeridian', () => {
  const grid = { width: 360, height: 180, latMax: 60 }; // one-degree pixels, rows 30..149
  const count = (r) => r.raster.reduce((n, c) => n + (c === LAND), 0);
  const sq = (x0, y0, x1, y1) => [[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]];
  assert.is(count(rasteriseRings([sq(0, 0, 20, 20)], grid)), 400);
  assert.is(count(rasteriseRings([sq(0, 0, 20, 20), sq(5, 5, 15, 15).reverse()], grid)), 300);
  // 170 E to 170 W through 180: 20 pixels per row, at both ends of the row.
  const wrap = rasteriseRings([[[170, -10], [-170, -10], [-170, 10], [170, 10], [170, -10]]], grid);
  assert.is(count(wrap), 400);
  assert.is(wrap.oddRows, 0);
  const row = 90 - wrap.row0; // the row just south of the equator
  assert.is(wrap.raster[row * 360 + 359], LAND, 'west of 180');
  assert.is(wrap.raster[row * 360 + 0], LAND, 'east of -180');
  assert.is(wrap.raster[row * 360 + 180], OCEAN, 'Greenwich is sea');
  // Rows outside the band are not drawn at all.
  assert.is(count(rasteriseRings([sq(0, 70, 20, 80)], grid)), 0);
});

test('TopoJSON: quantised delta arcs, shared points once, reversed arcs', () => {
  const topo = {
    type: 'Topology',
    transform: { scale: [0.5, 0.25], translate: [10, -5] },
    // arc 0: (0,0) -> (4,0) -> (4,8); arc 1: (0,0) -> (0,8) -> (4,8)
    arcs: [[[0, 0], [4, 0], [0, 8]], [[0, 0], [0, 8], [4, 0]]],
    objects: { land: { type: 'GeometryCollection', geometries: [{ type: 'Polygon', arcs: [[0, ~1]] }] } },
  };
  const [ring] = objectRings(topo, topo.objects.land);
  assert.equal(ring, [[10, -5], [12, -5], [12, -3], [10, -3], [10, -5]]);
});

test('inland water counts as water or as land, as asked', () => {
  const grid = { width: 64, height: 32, latMax: 60 };
  const { row0, row1 } = bandRows(grid);
  const raster = new Uint8Array((row1 - row0) * 64).fill(LAND);
  raster[10 * 64 + 10] = INLAND; // one lake pixel: four edges
  assert.ok(measureCoast(raster, grid).coastKm > 0);
  assert.is(measureCoast(raster, grid, { inlandIsWater: false }).coastKm, 0);
});

test('command line: presets x seeds, quick grid, bad input rejected', () => {
  const o = parseArgs(['--presets', 'all', '--seeds', '42,7,0', '--quick']);
  assert.is(worldList(o).length, PRESETS.length * 3);
  assert.is(o.width, 2048);
  assert.is(o.height, 1024);
  assert.equal(worldList(parseArgs(['--preset', 'alpine', '--set', 'seed=3']))[0].args,
    ['--preset', 'alpine', '--set', 'seed=3']);
  assert.throws(() => parseArgs(['--seeds', '4x']), /whole numbers/);
  assert.throws(() => parseArgs(['--frobnicate']), /unknown option/);
});

test.run();
