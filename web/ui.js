// This module builds the page's DOM around the canvas: the world panel from the knob table (seed, preset, main knobs, Rebuild, progress) and the display options (palette, vertical exaggeration, sun, shadows), the HUD, download buttons and readable error and warning banners.
import { sliderScale } from './sliders.js';

/** Knobs shown as sliders (the rest stay reachable through the URL). */
export const MAIN_KNOBS = ['surface_lod', 'land_bias', 'continent_frequency', 'relief_amplitude_m', 'max_macro_slope',
  'walk_coherence', 'region_strength', 'moisture_bias', 'detail_amplitude_m', 'lake_max_vertices'];

const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};

/** Shows a blocking, readable error over the canvas (never a blank page). */
export function showError(title, detail) {
  let box = document.getElementById('error');
  if (!box) {
    box = el('div', { id: 'error', role: 'alert' });
    document.body.append(box);
  }
  box.replaceChildren(el('h2', {}, title), el('p', {}, String(detail || '')));
  box.hidden = false;
}

export function hideError() {
  const box = document.getElementById('error');
  if (box) box.hidden = true;
}

/** Replaces the panel's "starting" text when the page cannot run at all. */
export function showPanelFailure(text) {
  const panel = document.getElementById('panel');
  panel.replaceChildren(el('h1', {}, 'Cube-sphere planet'), el('p', {}, text));
}

/** A dismissable warning line at the top of the page. */
export function showWarning(text) {
  const w = document.getElementById('warning');
  w.replaceChildren(el('span', {}, text), el('button', { type: 'button', onclick: () => { w.hidden = true; } }, 'dismiss'));
  w.hidden = false;
}

/**
 * A slider with a number field beside it; both show and hold the same value.
 * @param {object} k knob-like {name, kind, min, max, def, doc}
 * @param {object} o {value, sliderMax?, onInput(value), onChange?(value), id?}
 * @returns {{row: HTMLElement, set(value): void, get(): number}}
 */
function numberControl(k, o) {
  const scale = sliderScale(k, o.sliderMax ?? k.max);
  const slider = el('input', { type: 'range', min: '0', max: String(scale.steps), step: '1', title: `${k.doc}${scale.log ? ' (log scale)' : ''}` });
  const field = el('input', { type: 'number', min: String(k.min), max: String(k.max), step: k.kind === 'uint' ? '1' : 'any', class: 'num', title: k.doc });
  if (o.id) { slider.id = o.id; field.id = `${o.id}-value`; }
  let value = Number(o.value);
  const show = () => { slider.value = String(scale.toPos(value)); field.value = String(value); };
  show();
  slider.addEventListener('input', () => { value = scale.toValue(Number(slider.value)); field.value = String(value); o.onInput(value); });
  slider.addEventListener('change', () => o.onChange?.(value));
  field.addEventListener('change', () => {
    const v = Number(field.value);
    // Typed values are kept as typed (within the range), the slider follows.
    value = Number.isFinite(v) && field.value !== '' ? Math.min(k.max, Math.max(k.min, k.kind === 'uint' ? Math.round(v) : v)) : value;
    show();
    o.onInput(value);
    o.onChange?.(value);
  });
  return {
    row: el('label', { title: k.doc }, el('span', {}, k.name), slider, field),
    set(v) { value = Number(v); show(); },
    get: () => value,
  };
}

/**
 * The world panel.
 * @param {object} o {knobs, presets, world:{preset,set}, palettes:string[], palette:string,
 *   resolvePreset(name) -> Promise<config>, exaggeration:number, exaggerationRange:[min,max],
 *   sun:{lat,lon}, onSun({lat,lon}), shadows:boolean, onShadows(on), onRebuild(world), onPalette(name), onExaggeration(factor),
 *   onSnapshot(), onChunk(), onReset()}
 */
export function buildPanel(o) {
  const panel = document.getElementById('panel');
  const byName = new Map(o.knobs.map((k) => [k.name, k]));
  const set = { ...o.world.set };
  const controls = new Map();

  const preset = el('select', { id: 'preset' }, ...o.presets.map((p) => el('option', { value: p }, p)));
  preset.value = o.world.preset;
  const seedKnob = byName.get('seed');
  const seed = el('input', { id: 'seed', type: 'number', min: '0', max: String(seedKnob?.max ?? 4294967295), step: '1' });
  seed.value = set.seed ?? String(seedKnob?.def ?? 42);
  seed.addEventListener('input', () => { set.seed = seed.value; });
  const random = el('button', { type: 'button', title: 'random seed', onclick: () => {
    seed.value = String(Math.floor(Math.random() * 1e6));
    set.seed = seed.value;
  } }, 'random');

  const rows = [];
  for (const name of MAIN_KNOBS) {
    const k = byName.get(name);
    if (!k) continue;
    const c = numberControl(k, {
      value: set[name] ?? k.def, sliderMax: name === 'surface_lod' ? Math.min(k.max, 10) : k.max, id: `knob-${name}`,
      onInput: (v) => { set[name] = String(v); },
    });
    controls.set(name, c);
    rows.push(c.row);
  }
  /** Every control to a config's values (a preset's, or the built world's). */
  const showConfig = (config) => {
    for (const [name, c] of controls) if (config[name] !== undefined) c.set(config[name]);
    if (config.seed !== undefined) seed.value = String(config.seed);
  };
  preset.addEventListener('change', async () => {
    // A preset resets every knob: keep only the seed and the finest LOD, and
    // show the preset's own values in every control.
    for (const k of Object.keys(set)) if (k !== 'seed' && k !== 'surface_lod') delete set[k];
    const asked = preset.value;
    try {
      const config = await o.resolvePreset(asked);
      if (preset.value !== asked) return;
      showConfig({ ...config, seed: set.seed ?? config.seed, surface_lod: set.surface_lod ?? config.surface_lod });
      preset.dataset.shown = asked;
    } catch (e) {
      console.warn('preset values unavailable:', e.message);
    }
  });

  const rebuild = el('button', { id: 'rebuild', type: 'button', class: 'primary', onclick: () => o.onRebuild({ preset: preset.value, set: { ...set } }) }, 'Rebuild');
  const progress = el('progress', { id: 'progress', max: '1', value: '0' });
  const stage = el('span', { id: 'stage' }, '');
  const { palette, vex, sun, sunLat, sunLon, shadows } = displayControls(o);

  panel.replaceChildren(
    el('h1', {}, 'Cube-sphere planet'),
    el('label', {}, el('span', {}, 'preset'), preset),
    el('label', {}, el('span', {}, 'seed'), seed, random),
    ...rows,
    el('div', { class: 'row' }, rebuild, progress),
    stage,
    el('h2', {}, 'display'),
    el('label', {}, el('span', {}, 'palette'), palette),
    vex.row, sunLat.row, sunLon.row, shadows.row,
    el('div', { class: 'row' },
      el('button', { type: 'button', id: 'dl-chunk', onclick: () => o.onChunk() }, '.ctc under cursor'),
      el('button', { type: 'button', id: 'dl-world', onclick: () => o.onSnapshot() }, 'world snapshot')),
    el('div', { class: 'row' }, el('button', { type: 'button', onclick: () => o.onReset() }, 'reset view')),
    el('p', { class: 'help' }, 'drag: orbit · right/shift-drag: turn and tilt · wheel/pinch: zoom · WASD/arrows: fly · Q/E turn · R/F climb · Z/X tilt · Home: reset'),
  );

  return {
    /** Shows the built world's values (after a build returns its config). */
    setConfig(config, world) {
      preset.value = world.preset;
      showConfig(config);
    },
    setProgress(stageName, fraction) {
      progress.value = fraction;
      stage.textContent = stageName ? `${stageName} ${(fraction * 100).toFixed(0)}%` : '';
    },
    /** Shows an exaggeration set elsewhere (address bar, ctDemo). */
    setExaggeration(v) { vex.set(v); },
    setSun(s) { sun.lat = s.lat; sun.lon = s.lon; sunLat.set(s.lat); sunLon.set(s.lon); },
    /** Shows the shadows switch set elsewhere (address bar). */
    setShadows(on) { shadows.box.checked = on; },
    setPalette(name) {
      palette.value = name;
    },
    setBusy(busy) {
      rebuild.disabled = busy;
      rebuild.textContent = busy ? 'Building…' : 'Rebuild';
    },
  };
}

/**
 * The panel's display controls (buildPanel's options): the palette, the
 * vertical exaggeration and the sun, with the sub-solar point they share.
 */
function displayControls(o) {
  const palette = el('select', { id: 'palette' }, ...o.palettes.map((p) => el('option', { value: p }, p)));
  palette.value = o.palette;
  palette.addEventListener('change', () => o.onPalette(palette.value));
  // Vertical exaggeration: a display option (new meshes, same world), asked
  // for when the slider is let go or the field is changed.
  const [xLo, xHi] = o.exaggerationRange ?? [1, 10];
  const vex = numberControl({ name: 'exaggeration', kind: 'real', min: xLo, max: xHi, def: 1,
    doc: 'vertical exaggeration of the terrain meshes (display only: the world does not change)' },
  { value: o.exaggeration ?? 1, id: 'exaggeration', onInput: () => {}, onChange: (v) => o.onExaggeration?.(v) });
  // The sun: the sub-solar point, fixed in the world.
  const sun = { ...(o.sun ?? { lat: 0, lon: 0 }) };
  const sunLat = numberControl({ name: 'sun latitude', kind: 'real', min: -90, max: 90, def: sun.lat, doc: 'latitude of the sub-solar point (degrees)' },
    { value: sun.lat, id: 'sun-lat', onInput: (v) => { sun.lat = v; o.onSun?.({ ...sun }); } });
  const sunLon = numberControl({ name: 'sun longitude', kind: 'real', min: -180, max: 180, def: sun.lon, doc: 'longitude of the sub-solar point (degrees): the time of day' },
    { value: sun.lon, id: 'sun-lon', onInput: (v) => { sun.lon = v; o.onSun?.({ ...sun }); } });
  // Cast shadows of the terrain (display only), shadows=0 in the address when off.
  const box = el('input', { type: 'checkbox', id: 'shadows', title: 'terrain casts shadows (shadows=0 in the address turns them off)' });
  box.checked = o.shadows !== false;
  box.addEventListener('change', () => o.onShadows?.(box.checked));
  const shadows = { box, row: el('label', { title: box.title }, el('span', {}, 'shadows'), box) };
  return { palette, vex, sun, sunLat, sunLon, shadows };
}

/** Writes HUD lines: frame stats and what is under the cursor. */
export function updateHud(stats, cursor) {
  const hud = document.getElementById('hud');
  const lines = [
    `frame ${stats.frameMs.toFixed(0)} ms apart · draw ${stats.drawMs.toFixed(1)} ms · GPU ${stats.gpuMs === null || stats.gpuMs === undefined ? 'n/a' : `${stats.gpuMs.toFixed(1)} ms`}`,
    `tiles ${stats.tilesDrawn} (lod ≤ ${stats.maxLodDrawn}) · ${stats.triangles.toLocaleString()} tris`,
    `in flight ${stats.inFlight} · cached ${stats.cached} (${(stats.cachedBytes / 1048576).toFixed(0)} MB)`,
    `generation ${stats.generation ?? '—'} · alt ${(stats.altitudeM / 1000).toFixed(stats.altitudeM < 1e4 ? 2 : 0)} km` +
      (stats.exaggeration && stats.exaggeration !== 1 ? ` · relief ${stats.exaggeration}×` : ''),
  ];
  if (cursor) lines.push(...cursorLines(cursor));
  else lines.push('cursor: point at the globe');
  hud.textContent = lines.join('\n');
}

/**
 * HUD lines for what is under the cursor: position, chunk address at
 * surface_lod, height (real metres, whatever the exaggeration), water, biome.
 */
export function cursorLines(c) {
  const ns = c.lat >= 0 ? 'N' : 'S', ew = c.lon >= 0 ? 'E' : 'W';
  const lines = [`cursor ${Math.abs(c.lat).toFixed(4)}°${ns} ${Math.abs(c.lon).toFixed(4)}°${ew}`, `chunk ${c.address}`];
  if (c.heightM !== undefined) {
    const body = c.waterBody === 0 || (c.waterBody === undefined && c.waterM === 0) ? 'sea' : 'lake';
    const water = c.hasWater ? `${body}, surface ${c.waterM.toFixed(0)} m` : 'dry';
    lines.push(`height ${c.heightM.toFixed(0)} m · ${water} · biome ${c.biome}`);
  }
  return lines;
}

/** Offers bytes as a file download. */
export function download(bytes, name) {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/octet-stream' }));
  const a = el('a', { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
