// tiles.test.mjs - Baked tiles in the JS core: core.decodeTile(encodeTile(
// world.chunk(k))) equals the generated chunk in every field, and meshes,
// colliders and ground queries of a decoded chunk are the generated ones byte
// for byte (every stride, skirts, water, on a lake, sea and dry chunk); a
// chunk object never enters the World's buffer of the chunk generated last;
// bad tile bytes and foreign chunks are refused with clear errors. Scatter
// of a decoded surface_lod tile is the generated scatter byte for byte.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { SMALL, freshCore, keysByWater, thrown } from './ct_fixture.mjs';

const core = await freshCore();
const world = core.buildWorld(SMALL);
const other = core.buildWorld({ ...SMALL, set: { ...SMALL.set, seed: 77 } });
const L = world.config.surface_lod;

// A lake, a sea and a dry chunk at LOD 2, and one at surface_lod.
const KINDS = { ...keysByWater(world), fine: { face: 4, lod: L, x: 9, y: 6 } };

function sameArray(a, b, what) {
  assert.is(a.constructor, b.constructor, `${what}: type`);
  assert.is(a.length, b.length, `${what}: length`);
  assert.ok(Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength)), `${what}: bytes`);
}

function sameChunk(got, want, what) {
  for (const f of Object.keys(want)) {
    if (ArrayBuffer.isView(want[f])) sameArray(got[f], want[f], `${what} ${f}`);
    else assert.equal(got[f], want[f], `${what} ${f}`);
  }
}

test('every kind of chunk was found', () => {
  for (const kind of ['lake', 'sea', 'dry']) assert.ok(KINDS[kind], `no ${kind} chunk in the small world`);
});

test('decodeTile(encodeTile(chunk)) equals the generated chunk in every field', () => {
  for (const [kind, key] of Object.entries(KINDS)) {
    const want = world.chunk(key), bytes = core.encodeTile(want);
    assert.is(bytes.length, core.tileFileBytes());
    const got = core.decodeTile(bytes);
    assert.is(got.source, 'tile');
    sameChunk(got, want, kind);
    // ArrayBuffer input too, and the tile bytes are deterministic.
    sameChunk(core.decodeTile(bytes.slice().buffer), want, `${kind} (ArrayBuffer)`);
    assert.ok(Buffer.from(core.encodeTile(got)).equals(Buffer.from(bytes)), `${kind}: re-encoding gives the same bytes`);
  }
});

test('a decoded tile meshes, collides and answers ground queries exactly as the generated chunk', () => {
  const variants = [{ stride: 1 }, { stride: 4, skirtDepthM: 120 }, { stride: 2, verticalExaggeration: 3 }, { water: true }];
  for (const [kind, key] of Object.entries(KINDS)) {
    const tile = core.decodeTile(core.encodeTile(world.chunk(key)));
    for (const opts of variants) {
      const want = world.mesh(key, { ...opts, digest: true, copy: true }), got = world.mesh(tile, { ...opts, digest: true, copy: true });
      assert.is(got.digest, want.digest, `${kind} ${JSON.stringify(opts)}: mesh digest`);
      assert.equal([got.vertexCount, got.indexCount, got.center, got.radius], [want.vertexCount, want.indexCount, want.center, want.radius]);
      sameArray(got.paletteIndex, want.paletteIndex, `${kind} palette indices`);
    }
    for (const stride of [1, 8]) {
      const want = world.collider(key, { stride }), got = world.collider(tile, { stride });
      assert.equal(got.key, want.key);
      sameArray(got.center, want.center, `${kind} collider center`);
      sameArray(got.positions, want.positions, `${kind} collider positions`);
      sameArray(got.indices, want.indices, `${kind} collider indices`);
    }
    const generated = world.chunk(key);
    for (const [lx, ly] of [[0, 0], [17.25, 200.5], [128, 128], [256, 3.75], [255.9, 255.9]]) {
      assert.equal(world.groundInChunk(tile, lx, ly), world.groundInChunk(generated, lx, ly), `${kind} ground at ${lx},${ly}`);
    }
  }
});

test('a decoded tile scatters exactly as the generated chunk; a tampered tile never gets that far', () => {
  const key = KINDS.fine, want = world.scatter(key), bytes = core.encodeTile(world.chunk(key));
  assert.ok(want.count > 0, 'the surface_lod chunk has instances');
  const before = world.chunkCounters(), got = world.scatter(core.decodeTile(bytes));
  assert.equal(world.chunkCounters(), before, 'scatter of a chunk object neither generates nor reuses');
  assert.is(got.count, want.count);
  for (const f of ['center', 'positions', 'kind', 'heightM', 'yaw', 'scale', 'id']) sameArray(got[f], want[f], `scatter ${f}`);
  // A coarser chunk object is checked and answers as its key (point ground queries).
  const coarse = world.chunk(KINDS.dry), wantC = world.scatter(KINDS.dry), gotC = world.scatter(core.decodeTile(core.encodeTile(coarse)));
  for (const f of ['center', 'positions', 'id']) sameArray(gotC[f], wantC[f], `coarse scatter ${f}`);
  // Altered float heights: decodeTile refuses the bytes, so nothing is scattered from them.
  const spoilt = bytes.slice();
  spoilt[72 + 6 * 66049 + 4 * 20000 + 2] ^= 1;
  assert.match(thrown(() => world.scatter(core.decodeTile(spoilt))).message, /height|checksum|digest/i);
  // A chunk object handed over doctored stands its instances on what it holds; the key keeps its own.
  const tile = core.decodeTile(bytes), raised = world.scatter({ ...tile, heightM: tile.heightM.map((h) => h + 100) });
  assert.ok(!Buffer.from(raised.heightM.buffer).equals(Buffer.from(want.heightM.buffer)), "doctored heights are read");
  sameArray(world.scatter(key).heightM, want.heightM, 'the key scatters as generated after');
  assert.match(thrown(() => world.scatter(other.chunk(key))).message, /generation/);
});

test('a .ctc decodes to the chunk with its codes; its heights are the codes', () => {
  const key = KINDS.dry, want = world.chunk(key), got = core.decodeCtc(world.chunkCtc(key));
  assert.is(got.source, 'ctc');
  for (const f of ['key', 'generation', 'digest', 'clipped', 'heightQuantumM', 'planetId']) assert.equal(got[f], want[f], f);
  for (const f of ['height', 'water', 'biome', 'palette']) sameArray(got[f], want[f], f);
  for (let i = 0; i < got.heightM.length; i += 997) {
    assert.is(got.heightM[i], Math.fround((got.height[i] - 32768) * got.heightQuantumM), `height ${i} is its code`);
  }
});

test('a chunk object never enters the buffer of the chunk generated last', () => {
  const a = KINDS.dry, b = KINDS.sea;
  const meshA = world.mesh(a, { digest: true }).digest;
  const tileB = core.decodeTile(core.encodeTile(world.chunk(b)));
  world.chunk(a);   // the buffer holds a
  const before = world.chunkCounters();
  world.mesh(tileB, { stride: 2 });
  world.collider(tileB, { stride: 8 });
  assert.equal(world.chunkCounters(), before, 'meshing a chunk object neither generates nor reuses');
  // The buffer still holds a (reused), and b is generated afresh, not taken from the tile.
  assert.is(world.mesh(a, { digest: true }).digest, meshA);
  assert.is(world.chunkCounters().reused, before.reused + 1);
  world.chunk(b);
  assert.is(world.chunkCounters().generated, before.generated + 1, 'b generated, not served from the decoded tile');
  // A doctored chunk object meshes as doctored, and the key still meshes as generated.
  const doctored = { ...tileB, heightM: tileB.heightM.map((h) => h + 500) };
  const wantB = world.mesh(b, { digest: true }).digest;
  assert.is.not(world.mesh(doctored, { digest: true }).digest, wantB);
  assert.is(world.mesh(b, { digest: true }).digest, wantB);
  assert.is(world.mesh(tileB, { digest: true }).digest, wantB);
});

test('bad tile bytes are refused with the reason', () => {
  const key = KINDS.lake, good = core.encodeTile(world.chunk(key));
  const cases = [
    [(t) => t.subarray(0, 1000), 'CT_ERR_TRUNCATED', /660562/],
    [(t) => { t[0] ^= 0x20; return t; }, null, /magic/i],
    [(t) => { t[72 + 6 * 1000] ^= 1; return t; }, 'CT_ERR_CHECKSUM', /digest/],
    [(t) => { t[72 + 6 * 66049 + 4 * 5000 + 1] ^= 1; return t; }, null, /height|checksum/i],
    [(t) => { t[44] = 9; return t; }, null, /face|corrupt/i],
  ];
  for (const [spoil, code, re] of cases) {
    const e = thrown(() => core.decodeTile(spoil(good.slice())));
    if (code) assert.is(e.code, code, e.message);
    assert.match(e.message, re);
  }
  assert.is(thrown(() => core.decodeTile('tile')).code, 'CT_ERR_NULL');
  assert.is(thrown(() => core.decodeTile(null)).code, 'CT_ERR_NULL');
  assert.match(thrown(() => core.decodeCtc(good)).message, /\.ctc/);
  // The good bytes still decode (nothing above touched them).
  sameChunk(core.decodeTile(good), world.chunk(key), 'good');
});

test('a chunk of another world or a malformed chunk object is refused', () => {
  const key = KINDS.dry, foreign = other.chunk(key);
  assert.match(thrown(() => world.mesh(foreign)).message, /generation/);
  assert.match(thrown(() => world.collider(foreign)).message, /generation/);
  const tile = core.decodeTile(core.encodeTile(world.chunk(key)));
  assert.match(thrown(() => world.mesh({ ...tile, heightM: new Float32Array(10) })).message, /heightM/);
  assert.match(thrown(() => world.mesh({ ...tile, key: { face: 9, lod: 0, x: 0, y: 0 } })).message, /face/);
  assert.match(thrown(() => core.encodeTile({ ...tile, planetId: undefined })).message, /planetId/);
  // The encoder writes what it is given; a wrong digest is caught when the tile is read.
  assert.match(thrown(() => core.decodeTile(core.encodeTile({ ...tile, digest: '0123456789abcdef' }))).message, /digest/);
});

test('memory: decoding and meshing chunk objects leaks nothing', () => {
  const tile = core.decodeTile(core.encodeTile(world.chunk(KINDS.sea)));
  world.mesh(tile);
  const before = core.heapInUse();
  for (let i = 0; i < 5; i++) { world.mesh(core.decodeTile(core.encodeTile(tile))); world.collider(tile); }
  try { core.decodeTile(new Uint8Array(10)); } catch { /* refused */ }
  assert.is(core.heapInUse(), before);
});

test.after(() => { world.free(); other.free(); });
test.run();
