// previews.test.mjs - the committed previews/*.png (made by `make previews`)
// exist and are real pictures: valid PNG chunks and CRCs, 8-bit RGB, an
// IDAT that inflates (node:zlib) to exactly height * (1 + 3 * width) bytes
// with legal row filters, deflate-compressed (well under the raw size), and
// non-trivial content once unfiltered (many colours, little background).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, existsSync } from 'node:fs';
import { inflateSync, crc32 as zcrc32 } from 'node:zlib';
import path from 'node:path';
import { ROOT } from './ct_fixture.mjs';

const NAMES = ['correspondence', 'presets', 'regions', 'walk_coherence'];

function crc32(bytes) {
  if (zcrc32) return zcrc32(bytes) >>> 0;
  let c = ~0;
  for (const b of bytes) { c ^= b; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
  return ~c >>> 0;
}

/** PNG bytes -> {width, height, rgb} (8-bit RGB, no interlace) or throws. */
function decodePng(buf) {
  assert.equal([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  let p = 8, ihdr = null;
  const idat = [];
  let ended = false;
  while (p < buf.length) {
    const len = buf.readUInt32BE(p), type = buf.toString('latin1', p + 4, p + 8);
    const body = buf.subarray(p + 8, p + 8 + len);
    assert.is(buf.readUInt32BE(p + 8 + len), crc32(buf.subarray(p + 4, p + 8 + len)), `${type} CRC`);
    if (type === 'IHDR') ihdr = body;
    else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') { ended = true; break; }
    p += 12 + len;
  }
  assert.ok(ihdr && ended && idat.length, 'IHDR, IDAT and IEND present');
  const width = ihdr.readUInt32BE(0), height = ihdr.readUInt32BE(4);
  assert.equal([ihdr[8], ihdr[9], ihdr[12]], [8, 2, 0], '8-bit RGB, not interlaced');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = 1 + 3 * width;
  assert.is(raw.length, stride * height, 'inflated size matches the dimensions');
  const rgb = new Uint8Array(3 * width * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * stride];
    assert.ok(f <= 4, `row ${y} filter ${f}`);
    for (let i = 0; i < 3 * width; i++) {
      const o = y * 3 * width + i;
      const a = i >= 3 ? rgb[o - 3] : 0, b = y ? rgb[o - 3 * width] : 0, c = i >= 3 && y ? rgb[o - 3 * width - 3] : 0;
      let pred = 0;
      if (f === 1) pred = a;
      else if (f === 2) pred = b;
      else if (f === 3) pred = (a + b) >> 1;
      else if (f === 4) {
        const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
        pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      rgb[o] = (raw[y * stride + 1 + i] + pred) & 255;
    }
  }
  return { width, height, rgb, rawBytes: raw.length };
}

for (const name of NAMES) {
  test(`previews/${name}.png exists, decodes and shows something`, () => {
    const file = path.join(ROOT, 'previews', `${name}.png`);
    assert.ok(existsSync(file), `${file} is missing: run make previews`);
    const buf = readFileSync(file);
    const { width, height, rgb, rawBytes } = decodePng(buf);
    assert.ok(width >= 600 && height >= 300, `${width}x${height} is a real picture`);
    assert.ok(buf.length < rawBytes / 1.5, `compressed: ${buf.length} bytes for ${rawBytes} raw`);
    const colours = new Set();
    let background = 0;
    const bg = (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];   // top-left pixel is the background
    for (let i = 0; i < rgb.length; i += 3) {
      const c = (rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2];
      colours.add(c);
      if (c === bg) background++;
    }
    assert.ok(colours.size > 500, `${colours.size} distinct colours`);
    assert.ok(background < 0.5 * width * height, `background covers ${((100 * background) / (width * height)).toFixed(1)}%`);
  });
}

test.run();
