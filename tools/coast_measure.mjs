// This module measures coasts on a land/water raster of a full-globe
// equirectangular grid, restricted to the rows whose centre has
// |lat| <= latMax (the "band"). The same code measures Earth and every world,
// so their ratio compares like with like. Definitions (docs/generation.md,
// "Measured terrain"):
//   - coast length: every pixel edge between a land and a water pixel inside
//     the band (longitude wraps), at its physical length on a sphere of
//     radius R: a meridian edge is R*pi/H, a parallel edge at latitude phi is
//     R*cos(phi)*2*pi/W. Pixel edges are axis-aligned steps, so a smooth coast
//     at angle a reads |cos a| + |sin a| times too long; Earth pays the same.
//   - land area: the sum of the spherical areas of the land pixels.
//   - box-counting dimension: coast pixels are land pixels with a water
//     4-neighbour; N(s) counts the s x s pixel boxes (anchored at the band's
//     top-left) holding at least one, for s = 1, 2, 4, ...; the dimension is
//     minus the least-squares slope of ln N(s) against ln s over the fit range.

export const LAND = 0;
export const OCEAN = 1;
export const INLAND = 2;

/** Default box sizes of the fit, in pixels (10 to 160 km on the 8192 grid). */
export const FIT_MIN = 2;
export const FIT_MAX = 32;

/** First and one-past-last row of the band of grid {width, height, latMax}. */
export function bandRows(grid) {
  const H = grid.height;
  let row0 = H;
  let row1 = 0;
  for (let y = 0; y < H; y++) {
    const lat = 90 - ((y + 0.5) * 180) / H;
    if (Math.abs(lat) <= grid.latMax) {
      row0 = Math.min(row0, y);
      row1 = y + 1;
    }
  }
  return { row0, row1 };
}

/** 1 where the pixel is land under the chosen water rule. */
function landMask(raster, inlandIsWater) {
  const m = new Uint8Array(raster.length);
  for (let k = 0; k < raster.length; k++) {
    const c = raster[k];
    m[k] = c === LAND || (c === INLAND && !inlandIsWater) ? 1 : 0;
  }
  return m;
}

/** Coast length (km), land area (km^2) and the coast-pixel mask. */
export function coastAndArea(land, grid, radiusKm) {
  const { width: W, height: H } = grid;
  const { row0, row1 } = bandRows(grid);
  const rows = row1 - row0;
  const dLon = (2 * Math.PI) / W;
  const dLat = Math.PI / H;
  const latEdge = (y) => Math.PI / 2 - y * dLat; // latitude of the top edge of row y
  const coastPx = new Uint8Array(rows * W);
  let coast = 0;
  let area = 0;
  for (let r = 0; r < rows; r++) {
    const y = row0 + r;
    const rowArea = radiusKm * radiusKm * dLon * (Math.sin(latEdge(y)) - Math.sin(latEdge(y + 1)));
    const below = Math.cos(latEdge(y + 1)) * radiusKm * dLon;
    for (let x = 0; x < W; x++) {
      const k = r * W + x;
      const a = land[k];
      const right = land[r * W + ((x + 1) % W)];
      if (a) area += rowArea;
      if (a !== right) {
        coast += radiusKm * dLat;
        coastPx[a ? k : r * W + ((x + 1) % W)] = 1;
      }
      if (r + 1 < rows && a !== land[k + W]) {
        coast += below;
        coastPx[a ? k : k + W] = 1;
      }
    }
  }
  return { coastKm: coast, landKm2: area, coastPx, rows };
}

/** N(s) for s = 1, 2, 4, ... up to maxSize, by OR-pyramid of the mask. */
export function boxCounts(mask, width, rows, maxSize) {
  const out = [];
  let m = mask;
  let w = width;
  let h = rows;
  for (let s = 1; s <= maxSize; s *= 2) {
    let n = 0;
    for (let k = 0; k < m.length; k++) n += m[k];
    out.push({ size: s, boxes: n });
    const w2 = Math.ceil(w / 2);
    const h2 = Math.ceil(h / 2);
    const next = new Uint8Array(w2 * h2);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) if (m[y * w + x]) next[(y >> 1) * w2 + (x >> 1)] = 1;
    m = next;
    w = w2;
    h = h2;
  }
  return out;
}

/** Minus the least-squares slope of ln N against ln s over [fitMin, fitMax]. */
export function boxDimension(counts, fitMin = FIT_MIN, fitMax = FIT_MAX) {
  const pts = counts.filter((c) => c.size >= fitMin && c.size <= fitMax && c.boxes > 0);
  if (pts.length < 2) return null;
  const xs = pts.map((c) => Math.log(c.size));
  const ys = pts.map((c) => Math.log(c.boxes));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  for (let k = 0; k < xs.length; k++) {
    sxy += (xs[k] - mx) * (ys[k] - my);
    sxx += (xs[k] - mx) ** 2;
  }
  return -sxy / sxx;
}

/**
 * Every coast figure of a band raster. options: radiusKm (6371), inlandIsWater
 * (true: lake and inland-sea shores are coasts too), fitMin/fitMax (pixels).
 */
export function measureCoast(raster, grid, options = {}) {
  const radiusKm = options.radiusKm ?? 6371;
  const fitMin = options.fitMin ?? FIT_MIN;
  const fitMax = options.fitMax ?? FIT_MAX;
  const land = landMask(raster, options.inlandIsWater ?? true);
  const { coastKm, landKm2, coastPx, rows } = coastAndArea(land, grid, radiusKm);
  const boxes = boxCounts(coastPx, grid.width, rows, Math.max(fitMax, 256));
  let landPx = 0;
  for (let k = 0; k < land.length; k++) landPx += land[k];
  return {
    coastKm,
    landKm2,
    coastPerLandArea: landKm2 > 0 ? coastKm / landKm2 : 0, // 1/km
    dimension: boxDimension(boxes, fitMin, fitMax),
    // Coast pixels per land pixel, unweighted: a cruder second measure, kept
    // because it is what an earlier figure (0.48x Earth) most likely used.
    coastPixelShare: landPx ? boxes[0].boxes / landPx : 0,
    fit: [fitMin, fitMax],
    boxes,
  };
}
