// This module reads and writes the page state carried in the address bar: the world spec (preset and knob overrides, as pool.build takes it), its expected generation, the view and display options (no DOM: strings in, strings out).

/** Hash keys that are not knob overrides. */
export const RESERVED = ['preset', 'gen', 'view', 'palette', 'tau', 'geopx', 'stride', 'budget', 'tpp', 'exaggeration', 'sun', 'debug', 'walk',
  'shadows',
  // tiles=URL: a bake's manifest (or its folder): the workers stream its verified tiles (docs/worker.md).
  'tiles',
  // scatter=0: no trees, shrubs and rocks drawn (web/scatter_layer.js).
  'scatter',
  // streams=0: no streams drawn as water (web/stream_layer.js).
  'streams'];

/**
 * The page's finest chunk LOD when the address names none: 12 m samples, a
 * world a player can land and walk on (docs/web.md says why 12). The core's
 * and the CLI's default stays 6, the reference model's 1 km-cell scale.
 */
export const PAGE_SURFACE_LOD = '12';

/** The world spec the page builds: the address bar's, with the page's surface_lod unless it names one. */
export function pageWorld(world) {
  const set = { ...(world.set || {}) };
  if (set.surface_lod === undefined || set.surface_lod === '') set.surface_lod = PAGE_SURFACE_LOD;
  return { preset: world.preset || 'balanced', set };
}

/**
 * Default sub-solar point (degrees): with the default view (20N 10E from
 * space) the sun stands 55 degrees east of the centre, so the first picture
 * holds day, the terminator and night.
 */
export const DEFAULT_SUN = Object.freeze({ lat: 15, lon: 65 });

/**
 * The sun option "LAT,LON" (the sub-solar point in degrees): latitude clamped
 * to +-90, longitude wrapped to (-180, 180]; the default when unreadable.
 */
export function parseSun(text) {
  const v = String(text ?? '').split(',').map((x) => Number.parseFloat(x));
  if (v.length !== 2 || !v.every(Number.isFinite)) return { ...DEFAULT_SUN };
  const lon = ((((v[1] + 180) % 360) + 360) % 360) - 180;
  return { lat: Math.max(-90, Math.min(90, v[0])), lon: lon === -180 ? 180 : lon };
}

/** "LAT,LON" for the address bar, or undefined for the default sun. */
export function formatSun(sun) {
  if (sun.lat === DEFAULT_SUN.lat && sun.lon === DEFAULT_SUN.lon) return undefined;
  return `${round(sun.lat, 2)},${round(sun.lon, 2)}`;
}

/**
 * The sub-solar point ({lat, lon} degrees) that puts the sun elevationDeg
 * over the horizon of [lat, lon], shining from bearingDeg (clockwise from
 * north): the point 90 - elevationDeg degrees away along that great circle.
 */
export function subSolarPoint([lat, lon], elevationDeg, bearingDeg) {
  const rad = Math.PI / 180, p = lat * rad, b = bearingDeg * rad, d = (90 - elevationDeg) * rad;
  const p2 = Math.asin(Math.sin(p) * Math.cos(d) + Math.cos(p) * Math.sin(d) * Math.cos(b));
  const l2 = lon * rad + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p), Math.cos(d) - Math.sin(p) * Math.sin(p2));
  return { lat: p2 / rad, lon: ((((l2 / rad + 180) % 360) + 360) % 360) - 180 };
}

/** Range of the vertical exaggeration display option. */
export const EXAGGERATION_RANGE = [1, 10];

/**
 * The vertical exaggeration option ("3", "2.5x") clamped to 1..10 and rounded
 * to 0.1; 1 when missing or unreadable. A display option: the world is the same.
 */
export function parseExaggeration(text) {
  const v = Number.parseFloat(String(text ?? '').replace(/x$/i, ''));
  if (!Number.isFinite(v)) return 1;
  const [lo, hi] = EXAGGERATION_RANGE;
  return Math.round(Math.min(hi, Math.max(lo, v)) * 10) / 10;
}

/** Texels per shadow cascade edge the address bar may ask for (shadows=SIZE). */
export const SHADOW_SIZE_RANGE = [256, 4096];

/**
 * The shadows option: "0" (or "off") turns the terrain's cast shadows off;
 * a number of 256..4096 keeps them on with that many texels per cascade edge
 * (rounded to a power of two); anything else, or nothing, keeps them on at
 * the renderer's default size (size null).
 * @returns {{on: boolean, size: number|null}}
 */
export function parseShadows(text) {
  const t = String(text ?? '').trim().toLowerCase();
  if (t === '0' || t === 'off' || t === 'false') return { on: false, size: null };
  const v = Number.parseInt(t, 10);
  if (!Number.isFinite(v) || v < 2) return { on: true, size: null };
  const [lo, hi] = SHADOW_SIZE_RANGE;
  return { on: true, size: 2 ** Math.round(Math.log2(Math.min(hi, Math.max(lo, v)))) };
}

/**
 * Parses a location hash ("#preset=alpine&seed=7&view=10,20,5000,0,60").
 * @returns {{world:{preset:string, set:Object<string,string>}, gen:string|null,
 *   view:{lat:number,lon:number,alt:number,heading:number,tilt:number}|null, options:Object<string,string>}}
 *   Values stay strings; the core validates knobs and reports errors itself.
 */
export function parseHash(hash) {
  const out = { world: { preset: 'balanced', set: {} }, gen: null, view: null, options: {} };
  const text = String(hash || '').replace(/^#/, '');
  if (!text) return out;
  for (const part of text.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const name = decodeURIComponent(eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1)).trim();
    if (!name) continue;
    if (name === 'preset') out.world.preset = value || 'balanced';
    else if (name === 'gen') out.gen = /^[0-9a-f]{16}$/i.test(value) ? value.toLowerCase() : null;
    else if (name === 'view') out.view = parseView(value);
    else if (RESERVED.includes(name)) out.options[name] = value;
    else out.world.set[name] = value;
  }
  return out;
}

function parseView(text) {
  const v = text.split(',').map(Number);
  if (v.length < 3 || v.slice(0, 3).some((x) => !Number.isFinite(x))) return null;
  return { lat: v[0], lon: v[1], alt: v[2], heading: Number.isFinite(v[3]) ? v[3] : 0, tilt: Number.isFinite(v[4]) ? v[4] : null };
}

const round = (x, d) => {
  const s = x.toFixed(d);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
};

/**
 * Formats the state back into a hash. Knob overrides keep their order.
 * @param {{world:{preset:string,set:Object}, gen?:string|null, view?:object|null, options?:Object}} s
 */
export function formatHash(s) {
  const parts = [`preset=${encodeURIComponent(s.world.preset || 'balanced')}`];
  for (const [k, v] of Object.entries(s.world.set || {})) {
    if (RESERVED.includes(k)) continue;
    parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  }
  if (s.gen) parts.push(`gen=${s.gen}`);
  if (s.view) {
    const v = s.view;
    parts.push(`view=${[round(v.lat, 5), round(v.lon, 5), round(v.alt, 0), round(v.heading ?? 0, 1), round(v.tilt ?? 0, 1)].join(',')}`);
  }
  for (const [k, v] of Object.entries(s.options || {})) {
    if (v !== undefined && v !== null && v !== '') parts.push(`${k}=${encodeURIComponent(String(v))}`);
  }
  return `#${parts.join('&')}`;
}

/** True when two world specs describe the same build (same preset and overrides). */
export function sameWorld(a, b) {
  if ((a.preset || 'balanced') !== (b.preset || 'balanced')) return false;
  const ka = Object.keys(a.set || {}).filter((k) => a.set[k] !== '');
  const kb = Object.keys(b.set || {}).filter((k) => b.set[k] !== '');
  if (ka.length !== kb.length) return false;
  return ka.every((k) => String(a.set[k]) === String(b.set?.[k]));
}
