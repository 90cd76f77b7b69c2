#!/usr/bin/env node
// cli.mjs - This module is the Node twin of the native ./terrain: the same
// arguments (--preset, --set, --config, --load, --out, --chunk, plus --locate,
// --sample and --knobs) run on the WebAssembly core and write byte-identical
// world.ctw, .ctc and .u16le files and the same stdout lines. Pictures
// (--preview, --diagnostics) stay with the native tool.
//
//   node wasm/cli.mjs --preset balanced --out out --chunk +Z 6 22 52
import { readFileSync, writeFileSync, renameSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { loadCore } from './ct.mjs';
import { fmtF, fmtG } from './cfmt.mjs';
import { paletteFromBmp, paletteText, BmpError } from './palette_bmp.mjs';
import { PRESET_NAMES, PRESET_DOCS } from './ct_constants.mjs';

const USAGE = `usage: node wasm/cli.mjs [options]   (the Node twin of ./terrain)
  --preset NAME         reset every knob to a preset (listed below); default balanced
  --set NAME=VALUE      override one knob (repeatable; applied in order)
  --config FILE         apply name=value lines from FILE ('#' comments)
  --load FILE           load a CTWORLD2 snapshot instead of building
  --out DIR             write DIR/world.ctw and DIR/chunk_<face>_<lod>_<x>_<y>.ctc/.u16le
  --chunk FACE LOD X Y  generate a chunk (repeatable); FACE as +Z or pz
  --palette FILE        40 RRGGBB lines (checked; only pictures use it)
  --palette-from-bmp F  read palette rows from a 24/32-bit BMP (row k = biome k) and
  --palette-out FILE    write them as the 40-line --palette file; nothing else runs
  --knobs               list every knob with default, range and description
  --locate X Y Z [LOD]  chunk key, local position and address of a direction
  --sample X Y Z        every sample field at a direction
  --help                this text
presets:
${PRESET_NAMES.map((name, i) => `  ${name.padEnd(21)} ${PRESET_DOCS[i]}\n`).join('')}`;

class Exit extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

const usage = (msg) => new Exit(2, `terrain: ${msg}\n${USAGE}`);
const fail = (status, msg) => new Exit(status, `terrain: ${msg}`);
const INT = /^[+-]?\d+$/;

function parseIntArg(s, lo, hi) {
  if (typeof s !== 'string' || !INT.test(s.trim()) || s.trim() !== s) return null;
  const v = Number(s);
  return v >= lo && v <= hi ? v : null;
}

function parseDoubleArg(s) {
  if (typeof s !== 'string' || s.trim() === '' || s.trim() !== s) return null;
  const v = Number(s);
  return Number.isFinite(v) ? v : null;
}

/** argv -> options, in the native tool's order and with its checks. */
function parseArgs(core, argv) {
  const o = { steps: [], echo: [], chunks: [], locate: null, locateLod: -1, sample: null };
  for (let a = 0; a < argv.length; a++) {
    const arg = argv[a], more = argv.length - a - 1;
    if (arg === '--help' || arg === '-h') o.help = true;
    else if (arg === '--knobs') o.knobs = true;
    else if (arg === '--diagnostics' || arg === '--preview' || arg === '--preview-width') {
      throw usage(`${arg} is not supported by the Node twin; use the native ./terrain`);
    } else if (arg === '--preset' || arg === '--set' || arg === '--config') {
      if (more < 1) throw usage(`${arg} needs an argument`);
      const val = argv[++a];
      if (arg === '--preset') o.steps.push(['preset', val]);
      else if (arg === '--set') {
        const eq = val.indexOf('=');
        if (eq <= 0 || eq >= 128) throw usage(`--set expects NAME=VALUE, got '${val}'`);
        o.steps.push(['set', val.slice(0, eq), val.slice(eq + 1)]);
      } else {
        let text;
        try { text = readFileSync(val, 'utf8'); } catch (e) {
          // Same words as the native tool: a directory opens there but does not read.
          throw fail(2, e.code === 'EISDIR' ? `--config: cannot read '${val}': Is a directory` : `--config: cannot open '${val}'`);
        }
        o.steps.push(['text', text]);
      }
      o.echo.push([arg, val]);
      // Each edit is checked as it comes; cross-knob rules only at the end.
      try { core.config({ steps: o.steps, validate: false }); } catch (e) {
        if (e.step === undefined) throw e;
        throw fail(2, `${arg} ${val}: ${e.message}`);
      }
    } else if (['--load', '--out', '--palette'].includes(arg)) {
      if (more < 1) throw usage(`${arg} needs an argument`);
      o[arg.slice(2)] = argv[++a];
    } else if (arg === '--palette-from-bmp' || arg === '--palette-out') {
      if (more < 1) throw usage(`${arg} needs a file name`);
      o[arg === '--palette-out' ? 'paletteOut' : 'paletteBmp'] = argv[++a];
    } else if (arg === '--chunk') {
      if (more < 4) throw usage('--chunk needs FACE LOD X Y');
      let face;
      try { face = core.faceParse(argv[a + 1]); } catch {
        throw usage(`--chunk: bad face '${argv[a + 1]}' (use +X -X +Y -Y +Z -Z or px nx py ny pz nz)`);
      }
      const lod = parseIntArg(argv[a + 2], 0, 16);
      if (lod === null) throw usage(`--chunk: LOD '${argv[a + 2]}' is not an integer 0..16`);
      const x = parseIntArg(argv[a + 3], 0, 65535), y = parseIntArg(argv[a + 4], 0, 65535);
      if (x === null || y === null) throw usage('--chunk: X and Y must be integers below 2^LOD');
      const key = { face, lod, x, y };
      try { core.keyDirection(key, 0, 0); } catch (e) { throw usage(`--chunk: ${e.message}`); }
      if (o.chunks.length >= 256) throw usage('too many --chunk options (max 256)');
      o.chunks.push(key);
      a += 4;
    } else if (arg === '--locate' || arg === '--sample') {
      if (more < 3) throw usage(`${arg} needs X Y Z`);
      const v = [];
      for (let c = 1; c <= 3; c++) {
        const d = parseDoubleArg(argv[a + c]);
        if (d === null) throw usage(`bad direction component '${argv[a + c]}'`);
        v.push(d);
      }
      a += 3;
      if (arg === '--locate') {
        o.locate = v;
        const lod = a + 1 < argv.length ? parseIntArg(argv[a + 1], 0, 16) : null;
        if (lod !== null) { o.locateLod = lod; a++; }
      } else {
        o.sample = v;
      }
    } else {
      throw usage(`unknown argument '${arg}'`);
    }
  }
  if (o.load && o.steps.length) throw usage('--load takes its config from the snapshot; drop --preset/--set/--config');
  if (!o.load) {
    let cfg;
    try { cfg = core.config({ steps: o.steps }); } catch (e) { throw fail(2, e.message); }
    checkLods(o, cfg.surface_lod);
  }
  return o;
}

function checkLods(o, surfaceLod) {
  for (const k of o.chunks) {
    if (k.lod > surfaceLod) throw fail(2, `--chunk LOD ${k.lod} is finer than surface_lod ${surfaceLod}`);
  }
  if (o.locate && o.locateLod > surfaceLod) {
    throw fail(2, `--locate LOD ${o.locateLod} is finer than surface_lod ${surfaceLod}`);
  }
}

/** Temporary file then rename, like ct_file_write_atomic: no half-written files. */
function writeAtomic(path, bytes) {
  const tmp = `${path}.tmp${process.pid}`;
  try {
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* nothing to clean */ }
    throw fail(1, `cannot write '${path}': ${e.message}`);
  }
}

function knobLines(core) {
  return core.knobs().map((k) => (k.kind === 'uint'
    ? `${k.name.padEnd(22)} uint default ${fmtF(k.def, 0)} range ${fmtF(k.min, 0)}..${fmtF(k.max, 0)}  ${k.doc}`
    : `${k.name.padEnd(22)} real default ${fmtG(k.def, 10)} range ${fmtG(k.min, 10)}..${fmtG(k.max, 10)}  ${k.doc}`));
}

/** The native CLI's statistics lines: one per row of ct_stats.def, as it prints them. */
function statLines(world) {
  const s = world.stats();
  const fmt = (st, v) => (st.conv === 'f' ? fmtF(v, st.digits) : st.conv === 'g' ? fmtG(v, st.digits) : String(v));
  return [`generation ${world.generation}`, ...world.statTable().map((st) => `${st.name} ${fmt(st, s[st.key])}`)];
}

/** --palette-from-bmp: the native importer's checks, messages and statuses. */
function importPalette(o, out) {
  if (!o.paletteBmp || !o.paletteOut) throw usage('--palette-from-bmp and --palette-out go together');
  let bytes, rgb;
  try { bytes = readFileSync(o.paletteBmp); } catch { throw fail(1, `--palette-from-bmp: cannot open '${o.paletteBmp}'`); }
  try { rgb = paletteFromBmp(bytes); } catch (e) {
    if (!(e instanceof BmpError)) throw e;
    throw fail(2, `--palette-from-bmp ${o.paletteBmp}: ${e.message}`);
  }
  writeAtomic(o.paletteOut, paletteText(rgb));
  out(`palette ${o.paletteOut} from ${o.paletteBmp}`);
  return 0;
}

/** Runs the tool; returns the exit status. out/err receive whole lines. */
export async function main(argv, out = (l) => process.stdout.write(`${l}\n`), err = (l) => process.stderr.write(`${l}\n`)) {
  let world = null;
  try {
    const core = await loadCore();
    const o = parseArgs(core, argv);
    if (o.help) { out(USAGE.trimEnd()); return 0; }
    if (o.knobs) { knobLines(core).forEach((l) => out(l)); return 0; }
    if (o.paletteBmp || o.paletteOut) return importPalette(o, out);
    if (o.palette) {
      let text;
      try { text = readFileSync(o.palette, 'utf8'); } catch { throw fail(1, `--palette: cannot open '${o.palette}'`); }
      try { core.palette(text); } catch (e) { throw fail(2, `--palette ${o.palette}: ${e.message}`); }
    }
    if (o.out) {
      try { statSync(o.out); } catch {
        try { mkdirSync(o.out); } catch { throw fail(1, `cannot create directory '${o.out}'`); }
      }
    }
    if (o.load) {
      let bytes;
      try { bytes = readFileSync(o.load); } catch { throw fail(1, `--load ${o.load}: cannot open '${o.load}'`); }
      try { world = core.loadWorld(bytes); } catch (e) { throw fail(1, `--load ${o.load}: ${e.message}`); }
      checkLods(o, world.config.surface_lod);
    } else {
      try { world = core.buildWorld({ steps: o.steps }); } catch (e) { throw fail(1, `build failed: ${e.message}`); }
    }
    if (!o.out && !o.locate && !o.sample) {
      for (const [arg, val] of o.echo) out(`# ${arg} ${val}`);
      if (o.load) out(`# --load ${o.load}`);
      world.configText().split('\n').filter((l, i, all) => l || i < all.length - 1).forEach((l) => out(l));
      statLines(world).forEach((l) => out(l));
    } else {
      out(`generation ${world.generation}`);
    }
    if (o.out) {
      const snap = world.snapshot(), path = `${o.out}/world.ctw`;
      writeAtomic(path, snap);
      out(`world ${path} bytes ${snap.length}`);
    }
    for (const key of o.chunks) {
      const name = `${core.faceName(key.face)} ${key.lod} ${key.x} ${key.y}`;
      let c;
      try { c = world.chunk(key); } catch (e) {
        throw fail(['CT_ERR_LOD', 'CT_ERR_CHUNK_XY', 'CT_ERR_FACE'].includes(e.code) ? 2 : 1, `chunk ${name}: ${e.message}`);
      }
      out(`chunk ${name} digest ${c.digest} clipped ${c.clipped} heights_m ${fnv1a64Hex(new Uint8Array(c.heightM.buffer))}`);
      if (!o.out) continue;
      const base = `${o.out}/chunk_${core.faceFileName(key.face)}_${key.lod}_${key.x}_${key.y}`;
      writeAtomic(`${base}.ctc`, world.chunkCtc(key));
      writeAtomic(`${base}.u16le`, world.chunkU16le(key));
    }
    if (o.locate) {
      const lod = o.locateLod >= 0 ? o.locateLod : world.config.surface_lod;
      let r;
      try { r = world.keyAt(o.locate, lod); } catch (e) { throw fail(2, `--locate: ${e.message}`); }
      const k = r.key;
      out(`locate face ${core.faceName(k.face)} lod ${k.lod} x ${k.x} y ${k.y} local_x ${fmtG(r.localX, 17)} ` +
        `local_y ${fmtG(r.localY, 17)} address ${world.address(k)}`);
    }
    if (o.sample) {
      let s;
      try { s = world.sampleAt(o.sample); } catch (e) { throw fail(2, `--sample: ${e.message}`); }
      out(`sample height_m ${fmtG(s.heightM, 17)} water_m ${fmtG(s.waterM, 17)} has_water ${s.hasWater} ` +
        `water_body ${s.waterBody} mask ${fmtG(s.mask, 17)} moisture ${fmtG(s.moisture, 17)} biome ${s.biome} ` +
        `material ${s.material} palette_index ${s.palette} biome_name ${s.biomeName}`);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    err(e.message.trimEnd());
    return e.status;
  } finally {
    if (world) world.free();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((status) => { process.exitCode = status; }, (e) => {
    process.stderr.write(`terrain: ${e.stack || e}\n`);
    process.exitCode = 1;
  });
}

/**
 * FNV-1a 64 of bytes as 16 hex digits, in four 16-bit limbs (exact in
 * doubles): the float heights' digest the native CLI prints beside the chunk
 * digest. Typed arrays are little endian on every host the core runs on.
 */
function fnv1a64Hex(bytes) {
  let v0 = 0x2325, v1 = 0x8422, v2 = 0x9ce4, v3 = 0xcbf2;   // 0xcbf29ce484222325
  for (let i = 0; i < bytes.length; i++) {
    v0 ^= bytes[i];
    // times 0x100000001b3: limb 0 x 0x1b3, limb 2 x 0x100
    const t0 = v0 * 0x1b3, t1 = v1 * 0x1b3, t2 = v2 * 0x1b3 + v0 * 0x100, t3 = v3 * 0x1b3 + v1 * 0x100;
    const c1 = t1 + Math.floor(t0 / 65536), c2 = t2 + Math.floor(c1 / 65536);
    v0 = t0 % 65536; v1 = c1 % 65536; v2 = c2 % 65536; v3 = (t3 + Math.floor(c2 / 65536)) % 65536;
  }
  return [v3, v2, v1, v0].map((v) => v.toString(16).padStart(4, '0')).join('');
}
