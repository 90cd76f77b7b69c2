// This module offers the page's palette choices: the core's palette.txt as loaded, plus a few alternatives built from eight biome colours (water, sand, grass, forest, rock, snow, desert, tundra) in five shades each.

const ALTERNATIVES = {
  mars: ['2a1410', 'c98a5a', 'a0522d', '7a3b22', '8c5a44', 'e8d8c8', 'd08a4a', '9a7060'],
  ice: ['0b2a4a', 'c8d4dc', '9fb8b0', '5f7f78', '8a96a0', 'f4f8fb', 'd8e0e4', 'b8c4c8'],
  atlas: ['1d4e89', 'f2e3a0', '8cc084', '3f7d3a', 'a08868', 'ffffff', 'e8c87a', 'b0b89a'],
};

function shadeRamp(hex) {
  const r = parseInt(hex.slice(0, 2), 16), g = parseInt(hex.slice(2, 4), 16), b = parseInt(hex.slice(4, 6), 16);
  const out = [];
  for (let s = 0; s < 5; s++) {
    const f = 0.72 + s * 0.13;
    out.push(Math.min(255, Math.round(r * f)), Math.min(255, Math.round(g * f)), Math.min(255, Math.round(b * f)));
  }
  return out;
}

/** Palette names offered in the panel ("default" first). */
export function paletteNames() {
  return ['default', ...Object.keys(ALTERNATIVES)];
}

/**
 * 120 RGB bytes of a named palette.
 * @param {string} name
 * @param {Uint8Array} defaultRgb the core's palette (palette.txt)
 */
export function paletteRgb(name, defaultRgb) {
  const base = ALTERNATIVES[name];
  if (!base) return defaultRgb;
  return Uint8Array.from(base.flatMap(shadeRamp));
}

/** Biome names in core order (ct_biome_name, generated from the C header). */
export { BIOME_NAMES as BIOMES } from '../worker/protocol.js';
