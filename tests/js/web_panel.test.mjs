// Tests of the page's panel and HUD maths: slider scales that hold exactly the value shown (log for wide ranges, default reachable), the frame clock's medians, and the sun option of the address bar.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sliderScale, roundKnob } from '../../web/sliders.js';
import { FrameClock } from '../../web/frameclock.js';
import { parseSun, formatSun, DEFAULT_SUN, parseHash } from '../../web/url.js';

const KNOBS = [
  { name: 'max_macro_slope', kind: 'real', min: 0, max: 10, def: 0.003 },
  { name: 'detail_amplitude_m', kind: 'real', min: 0, max: 5000, def: 80 },
  { name: 'lake_max_vertices', kind: 'uint', min: 0, max: 1000000, def: 600 },
  { name: 'surface_lod', kind: 'uint', min: 0, max: 16, def: 6 },
  { name: 'land_bias', kind: 'real', min: -1, max: 1, def: -0.05 },
  { name: 'continent_frequency', kind: 'real', min: 0.1, max: 32, def: 1.4 },
];

test('every slider position holds the value the field shows, and the slider put at that value holds it', () => {
  for (const k of KNOBS) {
    const s = sliderScale(k);
    for (let p = 0; p <= s.steps; p++) {
      const v = s.toValue(p);
      assert.ok(v >= k.min && v <= k.max, `${k.name} ${v} in range`);
      assert.is(v, roundKnob(v, k.kind) === v || v === k.def ? v : NaN, `${k.name} value ${v} is what a field shows`);
      assert.is(s.toValue(s.toPos(v)), v, `${k.name} position ${p} -> ${v} -> back`);
    }
  }
});

test('defaults are reachable on the slider and the ends are the knob range', () => {
  for (const k of KNOBS) {
    const s = sliderScale(k);
    assert.is(s.toValue(s.toPos(k.def)), k.def, k.name);
    assert.is(s.toValue(0), k.min, `${k.name} min`);
    assert.is(s.toValue(s.steps), k.max, `${k.name} max`);
  }
});

test('wide ranges are logarithmic, narrow ones linear', () => {
  const log = Object.fromEntries(KNOBS.map((k) => [k.name, sliderScale(k).log]));
  assert.equal(log, { max_macro_slope: true, detail_amplitude_m: true, lake_max_vertices: true, surface_lod: false, land_bias: false, continent_frequency: false });
  // On a log scale the small default does not sit at the left end (it did on a 0..10 linear slider).
  const s = sliderScale(KNOBS[0]);
  assert.ok(s.toPos(0.003) > s.steps / 5, `0.003 at position ${s.toPos(0.003)}`);
});

test('the frame clock reports the median interval between drawn frames, not the draw call', () => {
  const c = new FrameClock();
  let t = 0;
  for (const dt of [400, 500, 450, 5000, 470]) { t += dt; c.drew(t, 2, null); }
  const s = c.stats();
  // 5000 ms is the page resting (no draws), not a frame interval.
  assert.is(s.intervalMs, 470);
  assert.is(s.drawMs, 2);
  assert.is(s.gpuMs, null);
  assert.is(s.count, 5);
  c.drew(t + 300, 3, 12.5);
  assert.is(c.stats().gpuMs, 12.5);
  assert.is(c.stats().count, 6);
});

test('the sun option is the sub-solar point, wrapped and clamped, default when unreadable', () => {
  assert.equal(parseSun('10,20'), { lat: 10, lon: 20 });
  assert.equal(parseSun('95,190'), { lat: 90, lon: -170 });
  assert.equal(parseSun('x'), { ...DEFAULT_SUN });
  assert.is(formatSun(DEFAULT_SUN), undefined);
  assert.is(formatSun({ lat: -12.5, lon: 100 }), '-12.5,100');
  assert.is(parseHash('#preset=alpine&sun=5,6').options.sun, '5,6');
  assert.equal(parseHash('#preset=alpine&sun=5,6').world.set, {});
});

test.run();
