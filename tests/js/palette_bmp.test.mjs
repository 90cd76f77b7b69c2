// palette_bmp.test.mjs - the BMP palette importer, native (./terrain) and the
// Node twin (wasm/cli.mjs) side by side: a palette drawn into BMP rows comes
// back as the same 40-line file (24- and 32-bit, bottom-up and top-down, odd
// widths, extra rows), the file is one `--palette` accepts, and every kind of
// unusable BMP is refused with exit 2 and the same message in both tools.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from './ct_fixture.mjs';
import { native, node } from './cli_runs.mjs';

const work = mkdtempSync(path.join(tmpdir(), 'ct-palbmp-'));
const PALETTE_TXT = readFileSync(path.join(ROOT, 'core/palette.txt'), 'utf8');
const PALETTE = PALETTE_TXT.trim().split('\n').map((l) => parseInt(l, 16));

/**
 * A BMP whose row k (from the top) holds biome k's five shades at the columns
 * the importer reads, and a deterministic clutter colour everywhere else.
 * opts: width, height, bpp (24|32), topDown, compression, bitfields, planes.
 */
function makeBmp({ width = 9, height = 8, bpp = 24, topDown = false, compression = 0, bitfields = false } = {}) {
  const stride = Math.floor((width * bpp + 31) / 32) * 4;
  const extra = bitfields ? 12 : 0, offset = 54 + extra, size = offset + stride * height;
  const b = new Uint8Array(size), dv = new DataView(b.buffer);
  b[0] = 0x42; b[1] = 0x4d;
  dv.setUint32(2, size, true); dv.setUint32(10, offset, true); dv.setUint32(14, 40, true);
  dv.setInt32(18, width, true); dv.setInt32(22, topDown ? -height : height, true);
  dv.setUint16(26, 1, true); dv.setUint16(28, bpp, true); dv.setUint32(30, compression, true);
  dv.setUint32(34, stride * height, true);
  if (bitfields) { dv.setUint32(54, 0xff0000, true); dv.setUint32(58, 0xff00, true); dv.setUint32(62, 0xff, true); }
  const cols = [0, 1, 2, 3, 4].map((i) => Math.round((i * (width - 1)) / 4 + 1e-9));
  for (let k = 0; k < height; k++) {
    const row = topDown ? k : height - 1 - k;
    for (let x = 0; x < width; x++) {
      const shade = cols.indexOf(x);
      const rgb = k < 8 && shade >= 0 ? PALETTE[k * 5 + shade] : (0x9e3779 * (k * 31 + x + 7)) & 0xffffff;
      const p = offset + row * stride + x * (bpp / 8);
      b[p] = rgb & 255; b[p + 1] = (rgb >> 8) & 255; b[p + 2] = rgb >> 16;
      if (bpp === 32) b[p + 3] = 255;
    }
  }
  return b;
}

let serial = 0;
/** Imports bytes with both tools: [{status, stderr, text}] native then twin. */
async function importBoth(bytes) {
  const bmp = path.join(work, `in${serial++}.bmp`);
  writeFileSync(bmp, bytes);
  const results = [];
  for (const [tool, run] of [['native', native], ['twin', node]]) {
    const outPath = path.join(work, `out_${tool}_${serial}.txt`);
    const r = await run(['--palette-from-bmp', bmp, '--palette-out', outPath]);
    let text = null;
    try { text = readFileSync(outPath, 'utf8'); } catch { /* not written */ }
    results.push({ ...r, text, tool });
  }
  return results;
}

const ROUND_TRIPS = {
  '24-bit bottom-up, width 9': {},
  '24-bit width 7 (rounded columns, row padding)': { width: 7 },
  '24-bit top-down with extra rows': { topDown: true, height: 11, width: 5 },
  '32-bit bottom-up, width 13': { bpp: 32, width: 13 },
  '32-bit plain bitfields': { bpp: 32, compression: 3, bitfields: true, width: 6 },
};

for (const [name, opts] of Object.entries(ROUND_TRIPS)) {
  test(`round trip: ${name}`, async () => {
    for (const r of await importBoth(makeBmp(opts))) {
      assert.is(r.status, 0, `${r.tool}: ${r.stderr}`);
      assert.is(r.text, PALETTE_TXT, `${r.tool} wrote core/palette.txt back`);
    }
  });
}

test('the written file is one --palette accepts', async () => {
  const [nat] = await importBoth(makeBmp({ width: 8 }));
  assert.is(nat.status, 0);
  const outPath = path.join(work, 'check.txt');
  writeFileSync(outPath, nat.text);
  const r = native(['--preset', 'balanced', '--set', 'macro_resolution=16', '--palette', outPath,
    '--preview', path.join(work, 'p.ppm'), '--preview-width', '16']);
  assert.is(r.status, 0, r.stderr);
});

/** Mutations of a good 24-bit BMP, each one the importer must refuse. */
function rejects() {
  const good = () => makeBmp();
  const set32 = (b, at, v) => { new DataView(b.buffer).setUint32(at, v, true); return b; };
  const set16 = (b, at, v) => { new DataView(b.buffer).setUint16(at, v, true); return b; };
  return {
    'not a BMP': [new TextEncoder().encode('P6\n9 8\n255\n'.padEnd(80, 'x')), /not a BMP file/],
    'RLE compressed': [set32(good(), 30, 1), /compressed BMP/],
    'bitfields with another layout': [(() => { const b = makeBmp({ bpp: 32, compression: 3, bitfields: true }); return set32(b, 54, 0xff); })(), /compressed BMP/],
    'palettised (8-bit)': [set16(good(), 28, 8), /palettised BMP/],
    'colour table declared': [set32(good(), 46, 16), /palettised BMP/],
    '16-bit': [set16(good(), 28, 16), /unsupported BMP depth/],
    'truncated': [(() => { const b = good().slice(0, 100); return set32(b, 2, 100); })(), /wrong size: the BMP is truncated/],
    'declared size disagrees': [set32(good(), 2, 9999), /wrong size: the BMP header's file size/],
    'seven rows': [makeBmp({ height: 7 }), /at least 8 rows/],
    'four columns': [makeBmp({ width: 4 }), /at least 5 columns/],
    'OS/2 core header': [set32(good(), 14, 12), /unsupported BMP header/],
  };
}

for (const [name, [bytes, re]] of Object.entries(rejects())) {
  test(`rejects: ${name}`, async () => {
    const [nat, js] = await importBoth(bytes);
    for (const r of [nat, js]) {
      assert.is(r.status, 2, `${r.tool} exit status (${r.stderr})`);
      assert.ok(re.test(r.stderr), `${r.tool} message: ${r.stderr}`);
      assert.is(r.text, null, `${r.tool} wrote no palette file`);
    }
    assert.is(js.stderr.replace(/in\d+\.bmp/, ''), nat.stderr.replace(/in\d+\.bmp/, ''), 'same message');
  });
}

test('missing file and missing partner option', async () => {
  for (const run of [native, node]) {
    const r1 = await run(['--palette-from-bmp', path.join(work, 'nope.bmp'), '--palette-out', path.join(work, 'x.txt')]);
    assert.is(r1.status, 1);
    assert.match(r1.stderr, /cannot open/);
    const r2 = await run(['--palette-from-bmp', path.join(work, 'nope.bmp')]);
    assert.is(r2.status, 2);
    assert.match(r2.stderr, /go together/);
  }
});

test.after(() => rmSync(work, { recursive: true, force: true }));
test.run();
