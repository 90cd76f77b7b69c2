// Tests of the relief map the worker adds to a mesh reply (mesh option relief): one texel per chunk sample with the core's height and a small lean of its normal, sent in the transfer list, and the option checked like the others.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadCore } from '../../wasm/ct.mjs';
import { createHandler } from '../../worker/handler.js';
import { MSG, ERR } from '../../worker/protocol.js';

const SMALL = { preset: 'alpine', set: { macro_resolution: 16, surface_lod: 2, seed: 11 } };
const KEYS = [{ face: 4, lod: 2, x: 1, y: 2 }, { face: 0, lod: 1, x: 0, y: 1 }];
let h, id = 1;

async function ask(type, args) {
  const posts = [];
  await h.handle({ id: id++, type, ...args }, (reply, transfer) => posts.push({ reply, transfer }));
  return posts.filter((p) => p.reply.type !== MSG.PROGRESS)[0];
}

test.before(async () => {
  h = createHandler(await loadCore());
  const r = await ask(MSG.BUILD, SMALL);
  assert.ok(r.reply.ok, JSON.stringify(r.reply.error));
});

test('relief: 257 x 257 texels of (normal - up, real height), the heights of the chunk', async () => {
  for (const key of KEYS) {
    for (const vex of [1, 3]) {
      const m = await ask(MSG.MESH, { key, options: { stride: 4, relief: true, verticalExaggeration: vex } });
      assert.ok(m.reply.ok, JSON.stringify(m.reply.error));
      const rel = m.reply.result.relief;
      assert.instance(rel, Float32Array);
      assert.is(rel.length, 257 * 257 * 4);
      assert.ok(m.transfer.includes(rel.buffer), 'relief travels in the transfer list');
      const c = (await ask(MSG.CHUNK, { key, format: 'arrays' })).reply.result;
      let maxLean = 0, maxErr = 0, varied = 0;
      for (let i = 0; i < 257 * 257; i++) {
        const hm = (c.height[i] - 32768) * c.heightQuantumM;
        maxErr = Math.max(maxErr, Math.abs(rel[4 * i + 3] - hm));
        const lean = Math.hypot(rel[4 * i], rel[4 * i + 1], rel[4 * i + 2]);
        maxLean = Math.max(maxLean, lean);
        if (lean > 1e-4) varied++;
      }
      // Heights come back through float32 positions 6,371 km out: within a few centimetres.
      assert.ok(maxErr < 0.1 * vex, `height error ${maxErr} m`);
      assert.ok(maxLean < 2, `lean ${maxLean}`);
      assert.ok(varied > 1000, `relief shows up in ${varied} texels`);
    }
  }
});

test('relief must be a boolean', async () => {
  const m = await ask(MSG.MESH, { key: KEYS[0], options: { relief: 'yes' } });
  assert.is(m.reply.ok, false);
  assert.is(m.reply.error.code, ERR.MESSAGE);
});

test.run();
