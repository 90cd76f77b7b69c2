// integrity.test.mjs - Hostile input through the JavaScript API and the
// worker handler: NUL characters in knob names, values, presets,
// config and palette text; mesh strides beyond 32 bits; verifyFile/verifyCtc
// on good and tampered .ctc and snapshot bytes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freshCore, thrown } from './ct_fixture.mjs';
import { createHandler } from '../../worker/handler.js';

const core = await freshCore();
const SMALL = { preset: 'balanced', set: { macro_resolution: 8, surface_lod: 2 } };
const world = core.buildWorld(SMALL);

test('a NUL inside a knob value, knob name, preset or config text is refused, not truncated', () => {
  const cases = [
    [{ set: { seed: '5\u0000junk' } }, 'CT_ERR_KNOB_VALUE'],
    [{ set: ['seed=5\u0000junk'] }, 'CT_ERR_KNOB_VALUE'],
    [{ set: { 'seed\u0000x': 5 } }, 'CT_ERR_KNOB_UNKNOWN'],
    [{ preset: 'alpine\u0000' }, 'CT_ERR_PRESET'],
    [{ text: 'seed=5\u0000\nplanet_id=2\n' }, 'CT_ERR_CONFIG'],
    [{ steps: [['set', 'seed', '5\u00007']] }, 'CT_ERR_KNOB_VALUE'],
  ];
  for (const [opts, code] of cases) {
    const e = thrown(() => core.config(opts));
    assert.ok(e, `${JSON.stringify(opts)} accepted`);
    assert.is(e.code, code, JSON.stringify(opts));
    assert.match(e.message, /NUL/);
  }
  assert.is(core.config({ set: { seed: '5' } }).seed, 5, 'the same value without the NUL is fine');
  const pal = thrown(() => core.palette('000000\u0000\n'));
  assert.is(pal && pal.code, 'CT_ERR_PALETTE');
});

test('the worker handler answers a NUL in a build config with an error reply', async () => {
  const handler = createHandler(core, { defer: (fn) => setTimeout(fn, 0) });
  const replies = [];
  await handler.handle({ id: 1, type: 'build', preset: 'balanced', set: { seed: '5\u0000junk', macro_resolution: 8 } },
    (r) => replies.push(r));
  const last = replies[replies.length - 1];
  assert.is(last.id, 1);
  assert.ok(last.error, `expected an error reply, got ${JSON.stringify(last).slice(0, 200)}`);
  assert.is(last.error.code, 'CT_ERR_KNOB_VALUE');
  handler.dispose();
});

test('mesh stride is range-checked before it is narrowed to 32 bits', () => {
  const key = { face: 4, lod: 1, x: 0, y: 1 };
  for (const stride of [2 ** 32 + 4, 2 ** 32 + 1, -(2 ** 32) + 4, 512, 0]) {
    const e = thrown(() => world.mesh(key, { stride }));
    assert.is(e && e.code, 'CT_ERR_MESH', `stride ${stride}`);
  }
  assert.ok(world.mesh(key, { stride: 4 }).vertexCount > 0, 'stride 4 still works');
});

test('verifyFile / verifyCtc: what a good file vouches for', () => {
  const key = { face: 4, lod: 2, x: 1, y: 3 };
  const ctc = world.chunkCtc(key);
  const v = core.verifyCtc(ctc);
  assert.is(v.kind, 'ctc');
  assert.is(v.generation, world.generation);
  assert.equal(v.key, key);
  assert.is(v.digest, world.chunk(key).digest);
  const snap = world.snapshot();
  const w = core.verifyFile(snap);
  assert.is(w.kind, 'ctw');
  assert.is(w.generation, world.generation);
  assert.is(w.key, null);
  assert.match(w.digest, /^[0-9a-f]{16}$/);
  assert.is(thrown(() => core.verifyCtc(snap)).code, 'CT_ERR_FORMAT');
});

test('verifyFile: every header byte of a .ctc and a tampered snapshot are refused with a reason', () => {
  const ctc = world.chunkCtc({ face: 0, lod: 1, x: 1, y: 0 });
  let accepted = 0;
  for (let pos = 0; pos < 60; pos++) {
    const bad = ctc.slice();
    bad[pos] ^= 0x10;   // byte 46 is in the height quantum
    if (!thrown(() => core.verifyFile(bad))) accepted++;
  }
  assert.is(accepted, 0, `${accepted} header flips accepted`);
  const old = ctc.slice();
  new DataView(old.buffer).setUint32(8, 1, true);
  const e = thrown(() => core.verifyFile(old));
  assert.is(e.code, 'CT_ERR_VERSION');
  assert.match(e.message, /version 1/);
  const snap = world.snapshot();
  snap[200] ^= 1;
  assert.is(thrown(() => core.verifyFile(snap)).code, 'CT_ERR_CHECKSUM');
  assert.is(thrown(() => core.verifyFile(new Uint8Array([1, 2, 3]))).code, 'CT_ERR_TRUNCATED');
  assert.is(thrown(() => core.verifyFile(new TextEncoder().encode('hello, this is text'))).code, 'CT_ERR_FORMAT');
});

test.run();
