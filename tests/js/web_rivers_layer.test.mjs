// Tests of web/rivers_layer.js's line geometry: the carved curves where the graph has them, else each node to its downstream node in chords that follow the sphere at the water surface (mouths draw nothing past themselves), and a world without rivers gives no lines.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { riverLines } from '../../web/rivers_layer.js';

const R = 1000000;
const graph = {
  // Node 0 -> 1 -> mouth 2 (downstream -1), along the equator.
  direction: Float64Array.from([1, 0, 0, Math.SQRT1_2, Math.SQRT1_2, 0, 0, 1, 0]),
  downstream: Int32Array.from([1, 2, -1]),
  surfaceM: Float64Array.from([400, 200, 0]),
  widthM: Float64Array.from([100, 300, 500]),
};

test('two segments in chords at the surface, the widths of their upstream nodes', () => {
  const l = riverLines(graph, R, 2);
  assert.is(l.count % 2, 0);
  assert.is(l.count, 2 * 2 * 8);
  for (let v = 0; v < l.count; v++) {
    const r = Math.hypot(l.pos[3 * v], l.pos[3 * v + 1], l.pos[3 * v + 2]);
    assert.ok(r >= R && r <= R + 800 + 1e-6, `vertex ${v} at radius ${r}`);
  }
  assert.ok(Math.abs(Math.hypot(l.pos[0], l.pos[1], l.pos[2]) - (R + 800)) < 1e-6, 'first vertex at 400 m, exaggerated twice');
  assert.is(l.width[0], 100);
  assert.is(l.width[l.count - 1], 300);
  const last = 3 * (l.count - 1);
  assert.ok(Math.abs(l.pos[last + 1] - R) < 1e-6, 'the last chord ends at the mouth, at sea level');
});

test('with curves: one line pair per curve piece, at the curve points and surfaces, the segment widths', () => {
  const a = Math.SQRT1_2;
  const curves = {
    offset: Uint32Array.from([0, 3, 5]),
    points: Float64Array.from([1, 0, 0, 0.96, 0.28, 0, a, a, 0, a, a, 0, 0, 1, 0]),
    surfaceM: Float64Array.from([400, 300, 200, 200, 0]),
    widthM: Float64Array.from([100, 300]),
  };
  const l = riverLines({ ...graph, curves }, R, 1);
  assert.is(l.count, 2 * (2 + 1));
  const r = (v) => Math.hypot(l.pos[3 * v], l.pos[3 * v + 1], l.pos[3 * v + 2]);
  assert.ok(Math.abs(r(0) - (R + 400)) < 1e-6 && Math.abs(r(1) - (R + 300)) < 1e-6);
  assert.ok(Math.abs(l.pos[3] / r(1) - 0.96 / Math.hypot(0.96, 0.28)) < 1e-12, 'the second vertex is the curve point');
  assert.equal(Array.from(l.width), [100, 100, 100, 100, 300, 300]);
  assert.ok(Math.abs(l.pos[3 * 5 + 1] - R) < 1e-6, 'the mouth curve ends at sea level');
});

test('no rivers: no lines', () => {
  const l = riverLines({ direction: new Float64Array(0), downstream: new Int32Array(0), surfaceM: new Float64Array(0), widthM: new Float64Array(0) }, R);
  assert.is(l.count, 0);
});

test.run();
