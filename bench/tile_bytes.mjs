// tile_bytes.mjs - This module measures what a renderer adapter receives per
// tile: the package's TileStreamer runs under Node with a real worker pool
// (worker_threads) and a stand-in for the three.js example's adapter (it
// draws vertex colours and lake meshes, no per-pixel maps), streams the
// example's two views (the default orbit, then 25 km above a coast) until
// they settle, and adds up the typed-array bytes of every mesh reply.
//
//   node bench/tile_bytes.mjs [--demo]   (--demo: an adapter that needs what the WebGL2 demo needs)
import { createPool } from '../worker/client.js';
import { TileStreamer, computeView, defaultPose, clampPose, autoTilt } from '../stream/index.js';

const WORLD = { preset: 'balanced', set: { seed: 42, surface_lod: 5 } };
const COAST = [16, 34];
const demo = process.argv.includes('--demo');

function bytesOf(v, depth = 0) {
  if (!v || typeof v !== 'object') return 0;
  if (ArrayBuffer.isView(v)) return v.byteLength;
  if (depth > 1) return 0;
  let n = 0;
  for (const k of Object.keys(v)) n += bytesOf(v[k], depth + 1);
  return n;
}

/** The adapter: what ThreeTiles (examples/three) declares, or the demo's needs with --demo. */
const adapter = {
  needs: demo ? { reliefMaps: true, paletteMaps: true, lakeLevels: true } : {},
  lakeLevels: demo,
  uploadTerrain: (t) => ({ bytes: t.posH.byteLength + t.normals.byteLength + t.indices.byteLength }),
  uploadWater: (w) => ({ bytes: w.posH.byteLength }),
  release() {},
};

const pool = await createPool({ workers: 1 });
const info = await pool.build(WORLD);
const replies = [];
const mesh = pool.mesh.bind(pool);
pool.mesh = (key, opts, o) => {
  const p = mesh(key, opts, o);
  const q = p.then((m) => { replies.push({ bytes: bytesOf(m), keys: Object.keys(m).filter((k) => ArrayBuffer.isView(m[k]) || (m[k] && typeof m[k] === 'object')) }); return m; });
  q.id = p.id;
  q.catch(() => {});
  return q;
};
const radiusM = info.config.radius_m;
const streamer = new TileStreamer({ pool, renderer: adapter, radiusM, surfaceLod: info.config.surface_lod,
  generation: info.generation, maxInFlight: 4 });

async function settle(pose) {
  for (let i = 0; i < 4000; i++) {
    const view = computeView(pose, { radiusM, width: 800, height: 500, ...streamer.heightRange() });
    const r = streamer.update(view, performance.now());
    if (r.settled && r.tiles.length) return r;
    await new Promise((res) => setTimeout(res, 5));
  }
  throw new Error('did not settle');
}

await settle(defaultPose(radiusM));
const space = replies.length;
await settle(clampPose({ ...defaultPose(radiusM), lat: COAST[0], lon: COAST[1], alt: 25000, tilt: autoTilt(25000) }, radiusM));
const total = replies.reduce((s, r) => s + r.bytes, 0);
console.log(JSON.stringify({
  adapter: demo ? 'demo needs' : 'three.js example', tiles: replies.length, fromSpace: space,
  bytesPerTile: Math.round(total / replies.length), totalBytes: total,
  fields: [...new Set(replies.flatMap((r) => r.keys))].sort(),
}));
await pool.terminate();
