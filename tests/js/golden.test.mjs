// golden.test.mjs - This module checks the WebAssembly core against the frozen
// generation IDs and chunk digests in tests/golden/digests.txt, the same file
// the native suite (tests/c/test_golden.c) checks, so both targets are pinned
// to one set of values.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, freshCore } from './ct_fixture.mjs';

const lines = readFileSync(path.join(ROOT, 'tests/golden/digests.txt'), 'utf8')
  .split('\n').filter((l) => l && !l.startsWith('#'));

test('WASM reproduces every golden generation ID and chunk digest', async () => {
  const core = await freshCore();
  let world = null;
  let worlds = 0;
  let chunks = 0;
  try {
    for (const line of lines) {
      const f = line.split(/\s+/);
      if (f[0] === 'world') {
        if (world) world.free();
        world = core.buildWorld({ preset: f[1] });
        assert.is(world.generation, f[3], `preset ${f[1]} generation`);
        worlds++;
      } else if (f[0] === 'chunk') {
        const key = { face: f[2], lod: +f[3], x: +f[4], y: +f[5] };
        assert.is(world.chunk(key).digest, f[7], `${f[1]} chunk ${f.slice(2, 6).join(' ')}`);
        chunks++;
      } else {
        assert.unreachable(`unreadable golden line: ${line}`);
      }
    }
  } finally {
    if (world) world.free();
  }
  assert.ok(worlds >= 3 && chunks >= 12, `covers ${worlds} worlds, ${chunks} chunks`);
});

test.run();
