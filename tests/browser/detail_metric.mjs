// detail_metric.mjs - This module measures how much surface detail a frame shows: over 32x32-pixel blocks of the lower part of a ctDemo.pixels() readback, the share of blocks whose luminance standard deviation reaches 2 of 255 (a flat, textureless sheet scores near 0, a textured ground near 1). Pure: no browser, no DOM.

/** Luminance (0..255) of 8-bit sRGB values, Rec. 709 weights. */
export function luminance(r, g, b) {
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/**
 * Detail share of a frame.
 * @param {{width: number, height: number, step?: number, rgb: ArrayLike<number>}} px
 *   a readback, rows top to bottom, 3 values per pixel (ctDemo.pixels(1): step must be 1,
 *   or blocks are counted in readback pixels, not screen pixels)
 * @param {object} [o]
 * @param {number} [o.block=32] block edge in pixels
 * @param {number} [o.from=0.5] first row of the measured part, as a share of the height (the lower half by default)
 * @param {number} [o.minStd=2] luminance standard deviation (of 255) a block needs to count as detailed
 * @param {(mean: number[]) => boolean} [o.counts] which blocks show ground or water, from the
 *   block's mean [r, g, b]; the default counts every block that is not black (space, or a hole)
 * @returns {{share: number, blocks: number, detailed: number, flat: number[][]}}
 *   share: detailed / blocks (0 when no block counts); flat: [x, y, std] of the blocks under minStd
 */
export function detailShare(px, o = {}) {
  const block = o.block ?? 32, minStd = o.minStd ?? 2;
  const counts = o.counts ?? ((m) => m[0] + m[1] + m[2] > 24);
  const { width, height, rgb } = px;
  const y0 = Math.ceil((o.from ?? 0.5) * height);
  let blocks = 0, detailed = 0;
  const flat = [];
  for (let by = y0; by + block <= height; by += block) {
    for (let bx = 0; bx + block <= width; bx += block) {
      let s = 0, s2 = 0;
      const mean = [0, 0, 0];
      for (let y = by; y < by + block; y++) {
        for (let x = bx; x < bx + block; x++) {
          const i = 3 * (y * width + x);
          const l = luminance(rgb[i], rgb[i + 1], rgb[i + 2]);
          s += l; s2 += l * l;
          mean[0] += rgb[i]; mean[1] += rgb[i + 1]; mean[2] += rgb[i + 2];
        }
      }
      const n = block * block;
      if (!counts(mean.map((v) => v / n))) continue;
      const std = Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
      blocks++;
      if (std >= minStd) detailed++;
      else flat.push([bx, by, Math.round(std * 100) / 100]);
    }
  }
  return { share: blocks ? detailed / blocks : 0, blocks, detailed, flat };
}
