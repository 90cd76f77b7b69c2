// Tests of web/stream_layer.js's pure parts: the segment instances of a streams reply (consecutive points of each link, the link's width), which drawn tiles are asked for (fine enough for a lattice level, within range, nearest first), how far ribbons are lifted on fine and coarse tiles, and which worlds carry streams.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  streamSegments, wantedKeys, keyLiftM, keySpacingM, streamRangeM, worldHasStreams, SEGMENT_FLOATS,
} from '../../web/stream_layer.js';

const R = 6371000;
// Two links: three points falling along x, then two points along y; widths 0.5 and 2 m.
const reply = {
  count: 2, pointCount: 5,
  center: Float64Array.from([0, 0, R]),
  positions: Float32Array.from([0, 0, 10, 5, 0, 8, 10, 0, 6, 10, 0, 6, 10, 7, 4]),
  pointStart: Uint32Array.from([0, 3, 5]),
  waterM: Float32Array.from([10, 8, 6, 6, 4]),
  width: Float32Array.from([0.5, 2]),
  order: Uint8Array.from([1, 2]),
  level: Uint8Array.from([7, 7]),
};

test('segments: consecutive points of each link with its width, none across links', () => {
  const s = streamSegments(reply);
  assert.is(s.length, 3 * SEGMENT_FLOATS);
  assert.equal([...s.subarray(0, 7)], [0, 0, 10, 5, 0, 8, 0.5]);
  assert.equal([...s.subarray(7, 14)], [5, 0, 8, 10, 0, 6, 0.5]);
  assert.equal([...s.subarray(14, 21)], [10, 0, 6, 10, 7, 4, 2]);
  assert.is(streamSegments({ ...reply, count: 0, pointStart: Uint32Array.from([0]) }).length, 0, 'no links, no segments');
  // a one-point link (never sent by the core) draws nothing rather than a segment into the next link
  assert.is(streamSegments({ ...reply, pointStart: Uint32Array.from([0, 1, 5]) }).length, 3 * SEGMENT_FLOATS);
});

test('wanted keys: fine enough for a level, within range, nearest first', () => {
  const eye = [0, 0, R + 3000];
  const tile = (lod, x, z) => ({ key: { face: 4, lod, x, y: 0 }, center: [x, 0, z] });
  const tiles = [tile(12, 2000, R), tile(12, 0, R), tile(5, 0, R), tile(12, 90000, R), tile(9, 30000, R)];
  const w = wantedKeys(tiles, { eye, radiusM: R, altitudeM: 3000, minLod: 5 });
  assert.equal(w.map((t) => `${t.key.lod}/${t.key.x}`), ['5/0', '12/0', '12/2000'],
    'the LOD 5 tile (it holds the eye), the LOD 12 ones by distance, none beyond range');
  assert.ok(w[0].d <= w[1].d && w[1].d <= w[2].d);
  assert.equal(wantedKeys(tiles, { eye, radiusM: R, altitudeM: 3000, minLod: 6 }).map((t) => t.key.lod), [12, 12],
    'tiles coarser than the lattice are not asked');
  assert.is(streamRangeM(3000), 12000);
  assert.is(streamRangeM(100), 5000, 'at least 5 km near the ground');
  assert.is(streamRangeM(1e7), 150000, 'at most 150 km');
  const many = Array.from({ length: 200 }, (_, i) => tile(12, i, R));
  assert.is(wantedKeys(many, { eye, radiusM: R, altitudeM: 3000, minLod: 5 }).length, 96, 'a bounded number of keys');
});

test('lift: a few decimetres on the finest tiles, half a sample spacing on coarser ones', () => {
  assert.is(keyLiftM(R, 12, 12), 0.3);
  assert.ok(Math.abs(keySpacingM(R, 12) - 12.15) < 0.01, `${keySpacingM(R, 12)} m at a face centre`);
  assert.is(keyLiftM(R, 10, 12), 0.5 * keySpacingM(R, 10));
  assert.ok(keyLiftM(R, 9, 12) > keyLiftM(R, 10, 12));
});

test('worlds with streams: depth on and surface_lod at or past stream_from_lod', () => {
  assert.ok(worldHasStreams({ stream_depth_m: 16, surface_lod: 12, stream_from_lod: 10 }));
  assert.not.ok(worldHasStreams({ stream_depth_m: 0, surface_lod: 12, stream_from_lod: 10 }));
  assert.not.ok(worldHasStreams({ stream_depth_m: 16, surface_lod: 9, stream_from_lod: 10 }));
  assert.not.ok(worldHasStreams(null));
});

test.run();
