// This module turns Natural Earth 1:10m land (the npm package world-atlas,
// land-10m.json, TopoJSON) into a land/water raster on the tool's
// equirectangular grid, and caches it under build/terrain_stats/.
//
// TopoJSON is decoded here (quantised, delta-coded arcs; a negative arc index
// ~i means arc i reversed) rather than through topojson-client: it is a few
// lines and one dependency fewer. Land polygons in that file are disjoint and
// lakes are holes, so one even-odd fill over every ring of every polygon
// gives land exactly.
import { readFileSync, writeFileSync, existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { bandRows, LAND, OCEAN } from './coast_measure.mjs';

/** Absolute arcs of a TopoJSON topology: arrays of [lon, lat] in degrees. */
export function decodeArcs(topology) {
  const t = topology.transform;
  return topology.arcs.map((arc) => {
    if (!t) return arc.map((p) => [p[0], p[1]]);
    let x = 0;
    let y = 0;
    return arc.map((p) => {
      x += p[0];
      y += p[1];
      return [x * t.scale[0] + t.translate[0], y * t.scale[1] + t.translate[1]];
    });
  });
}

/** Rings ([lon, lat] closed paths) of every polygon in a TopoJSON object. */
export function objectRings(topology, object) {
  const arcs = decodeArcs(topology);
  const ring = (ids) => {
    const out = [];
    for (const id of ids) {
      const a = id < 0 ? arcs[~id].slice().reverse() : arcs[id];
      // Consecutive arcs share their joining point; keep it once.
      for (let k = out.length ? 1 : 0; k < a.length; k++) out.push(a[k]);
    }
    return out;
  };
  const rings = [];
  const visit = (g) => {
    if (g.type === 'GeometryCollection') g.geometries.forEach(visit);
    else if (g.type === 'Polygon') g.arcs.forEach((r) => rings.push(ring(r)));
    else if (g.type === 'MultiPolygon') g.arcs.forEach((p) => p.forEach((r) => rings.push(ring(r))));
  };
  visit(object);
  return rings;
}

/** A ring with continuous longitudes: a step of more than 180 degrees is
 * taken as a crossing of the antimeridian (Fiji, Chukotka in land-10m) and
 * unwrapped, so the ring may reach past +-180 and wraps when filled. */
function unwrapRing(r) {
  const out = [];
  let shift = 0;
  for (let k = 0; k < r.length; k++) {
    if (k) {
      const d = r[k][0] - r[k - 1][0];
      if (d > 180) shift -= 360;
      else if (d < -180) shift += 360;
    }
    out.push([r[k][0] + shift, r[k][1]]);
  }
  return out;
}

/**
 * Even-odd fill of rings onto the band rows of a W x H full-globe grid: a
 * pixel is land when its centre lies inside an odd number of rings. Each
 * ring's interior is XORed in on its own, so rings crossing the antimeridian
 * wrap without disturbing the others. Returns the band raster (rows
 * row0..row1-1, one byte per pixel, LAND or OCEAN) and the number of
 * ring-rows whose crossings came out odd (0 for clean input).
 */
export function rasteriseRings(rings, grid) {
  const { width: W, height: H } = grid;
  const { row0, row1 } = bandRows(grid);
  const rows = row1 - row0;
  const inside = new Uint8Array(rows * W);
  const latOf = (y) => 90 - ((y + 0.5) * 180) / H;
  let oddRows = 0;
  for (const raw of rings) {
    const r = unwrapRing(raw);
    const cross = new Map();
    for (let k = 0; k + 1 < r.length; k++) {
      const [lon0, lat0] = r[k];
      const [lon1, lat1] = r[k + 1];
      if (lat0 === lat1) continue;
      // Rows whose centre latitude c satisfies min < c <= max (half-open, so
      // a vertex exactly on a row centre is crossed once, not twice).
      const lo = Math.min(lat0, lat1);
      const hi = Math.max(lat0, lat1);
      const yTop = Math.max(row0, Math.ceil(((90 - hi) * H) / 180 - 0.5));
      const yBot = Math.min(row1 - 1, Math.floor(((90 - lo) * H) / 180 - 0.5));
      for (let y = yTop; y <= yBot; y++) {
        const c = latOf(y);
        if (!(c > lo && c <= hi)) continue;
        if (!cross.has(y)) cross.set(y, []);
        cross.get(y).push(lon0 + ((c - lat0) * (lon1 - lon0)) / (lat1 - lat0));
      }
    }
    for (const [y, list] of cross) {
      const c = list.sort((a, b) => a - b);
      if (c.length % 2) oddRows++;
      const base = (y - row0) * W;
      for (let k = 0; k + 1 < c.length; k += 2) {
        // Pixel x has its centre at lon -180 + (x + 0.5) * 360 / W.
        const x0 = Math.ceil(((c[k] + 180) * W) / 360 - 0.5);
        const x1 = Math.ceil(((c[k + 1] + 180) * W) / 360 - 0.5) - 1;
        for (let x = x0; x <= x1; x++) inside[base + (((x % W) + W) % W)] ^= 1;
      }
    }
  }
  const raster = new Uint8Array(rows * W);
  for (let k = 0; k < raster.length; k++) raster[k] = inside[k] ? LAND : OCEAN;
  return { raster, row0, row1, oddRows };
}

/** The Earth raster for a grid, from the cache under dir or made and cached. */
export function earthRaster(grid, dir) {
  const { row0, row1 } = bandRows(grid);
  const file = path.join(dir, `earth_land10m_${grid.width}x${grid.height}_lat${grid.latMax}.bin`);
  if (existsSync(file)) {
    const raster = new Uint8Array(readFileSync(file));
    if (raster.length === (row1 - row0) * grid.width) return { raster, row0, row1, file, cached: true };
  }
  const require = createRequire(import.meta.url);
  const topo = JSON.parse(readFileSync(require.resolve('world-atlas/land-10m.json'), 'utf8'));
  const out = rasteriseRings(objectRings(topo, topo.objects.land), grid);
  if (out.oddRows) throw new Error(`land-10m rasterised with ${out.oddRows} odd rows`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${file}.tmp`, out.raster);
  renameSync(`${file}.tmp`, file);
  return { ...out, file, cached: false };
}
