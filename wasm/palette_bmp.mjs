// palette_bmp.mjs - This module is the JS twin of core/cli/palette_bmp.c: it
// reads the rows of an uncompressed 24- or 32-bit BMP (row k from the top is
// biome k, five shades taken evenly across the row, first and last pixel
// included) and formats the 40-line RRGGBB palette file. It refuses the same
// files with the same messages as the native importer; pure JS, no core.

const FILE_HEADER = 14;
const MAX_SIDE = 65536;

export class BmpError extends Error {}

/** Bytes of a BMP -> Uint8Array(120): 40 RGB triples, biome * 5 + shade. */
export function paletteFromBmp(bytes) {
  const buf = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const len = buf.length;
  const bad = (msg) => { throw new BmpError(msg); };
  if (len < FILE_HEADER + 40 || buf[0] !== 0x42 || buf[1] !== 0x4d) {
    bad("not a BMP file (no 'BM' signature and 54-byte header)");
  }
  const declared = dv.getUint32(2, true), offset = dv.getUint32(10, true), dib = dv.getUint32(14, true);
  if (![40, 52, 56, 108, 124].includes(dib)) bad('unsupported BMP header (need BITMAPINFOHEADER or V4/V5)');
  if (declared !== 0 && declared !== len) bad("wrong size: the BMP header's file size does not match the file");
  let width = dv.getInt32(18, true), height = dv.getInt32(22, true);
  const bpp = dv.getUint16(28, true), compression = dv.getUint32(30, true), colorsUsed = dv.getUint32(46, true);
  if (dv.getUint16(26, true) !== 1) bad('malformed BMP: planes must be 1');
  if (bpp <= 8 || colorsUsed !== 0) bad('palettised BMP (colour table); save it as 24-bit or 32-bit RGB');
  // Bitfields only with the plain blue-green-red byte layout of 32-bit exports.
  const at = FILE_HEADER + 40;
  const plainBitfields = bpp === 32 && len >= at + 12 && (dib === 40 || dib >= 52) &&
    dv.getUint32(at, true) === 0x00ff0000 && dv.getUint32(at + 4, true) === 0x0000ff00 &&
    dv.getUint32(at + 8, true) === 0x000000ff;
  if (compression !== 0 && !(compression === 3 && plainBitfields)) {
    bad('compressed BMP (RLE, bitfields or embedded image); save it uncompressed');
  }
  if (bpp !== 24 && bpp !== 32) bad('unsupported BMP depth; need 24 or 32 bits per pixel');
  const topDown = height < 0;
  if (topDown) height = -height;
  if (width < 5 || width > MAX_SIDE) bad('a palette BMP needs at least 5 columns (5 shades per biome)');
  if (height < 8 || height > MAX_SIDE) bad('a palette BMP needs at least 8 rows (one per biome)');
  const stride = Math.floor((width * bpp + 31) / 32) * 4;
  if (offset < FILE_HEADER + dib || offset + stride * height > len) {
    bad('wrong size: the BMP is truncated (pixel rows end past the file)');
  }
  const rgb = new Uint8Array(120);
  for (let biome = 0; biome < 8; biome++) {
    const row = topDown ? biome : height - 1 - biome;   // bottom-up files store the top row last
    for (let shade = 0; shade < 5; shade++) {
      const col = Math.floor((2 * shade * (width - 1) + 4) / 8);   // round(shade*(w-1)/4)
      const p = offset + stride * row + col * (bpp / 8), o = 3 * (biome * 5 + shade);
      rgb[o] = buf[p + 2];
      rgb[o + 1] = buf[p + 1];
      rgb[o + 2] = buf[p];
    }
  }
  return rgb;
}

/** 40 RGB triples -> the palette file text, one lowercase rrggbb per line. */
export function paletteText(rgb) {
  let s = '';
  for (let k = 0; k < 40; k++) {
    for (let c = 0; c < 3; c++) s += rgb[3 * k + c].toString(16).padStart(2, '0');
    s += '\n';
  }
  return s;
}
