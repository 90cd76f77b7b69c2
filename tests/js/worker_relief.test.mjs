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
        const hm = c.heightM[i];   // meshes (and their relief) use the float heights
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

test('palette map: the stride-1 mesh colour of every sample, byte for byte, and the coarse mesh agrees at its vertices', async () => {
  for (const key of KEYS) {
    const full = (await ask(MSG.MESH, { key, options: { stride: 1 } })).reply.result;
    const m = await ask(MSG.MESH, { key, options: { stride: 4, paletteMap: true } });
    assert.ok(m.reply.ok, JSON.stringify(m.reply.error));
    const map = m.reply.result.paletteMap;
    assert.instance(map, Uint8Array);
    assert.is(map.length, 257 * 257);
    assert.ok(m.transfer.includes(map.buffer), 'palette map travels in the transfer list');
    assert.is(m.reply.result.relief, undefined, 'no relief map unless asked');
    // The colour each index stands for, from the stride-1 mesh's own RGBA bytes.
    const rgb = new Map();
    for (let v = 0; v < 257 * 257; v++) {
      assert.is(map[v], full.paletteIndex[v], `index of sample ${v}`);
      const c = (full.colors[4 * v] << 16) | (full.colors[4 * v + 1] << 8) | full.colors[4 * v + 2];
      if (rgb.has(map[v])) assert.is(rgb.get(map[v]), c, `palette entry ${map[v]} is one colour`);
      rgb.set(map[v], c);
    }
    assert.ok(rgb.size >= 2, `more than one colour in the chunk (${rgb.size})`);
    // The stride-4 mesh's grid vertex (i, j) is sample (4i, 4j): same index, same colour bytes.
    const coarse = m.reply.result;
    for (let j = 0; j <= 64; j++) {
      for (let i = 0; i <= 64; i++) {
        const v = j * 65 + i, s = 4 * j * 257 + 4 * i;
        assert.is(coarse.paletteIndex[v], map[s]);
        assert.is((coarse.colors[4 * v] << 16) | (coarse.colors[4 * v + 1] << 8) | coarse.colors[4 * v + 2], rgb.get(map[s]));
      }
    }
  }
});

test('relief and paletteMap must be booleans', async () => {
  for (const options of [{ relief: 'yes' }, { paletteMap: 1 }]) {
    const m = await ask(MSG.MESH, { key: KEYS[0], options });
    assert.is(m.reply.ok, false);
    assert.is(m.reply.error.code, ERR.MESSAGE);
  }
});

test.run();
