// This module answers the worker's mesh request (worker/handler.js runs it):
// the terrain or water mesh of a chunk, copied out of WebAssembly memory,
// plus what renderers asked for beside it, all read from the chunk the mesh
// was built from while it is still in the world's buffer: stride errors and
// the drawn height range (always, for tile selection), the lake mesh, and the
// per-sample maps of worker/maps/ (relief, palette, lake levels), with thin
// water and lone biomes hidden in the mesh and the maps alike.
import { ERR, SEA_LEVEL_CODE, protocolError, parseKey } from './protocol.js';
import { reliefMap, paletteMap } from './maps/relief.js';
import { lakeLevelMap } from './maps/lake_map.js';
import { thinWater, withoutThinWater, recolourMesh, liftHidden } from './maps/thin_water.js';
import { loneBiomes } from './maps/lone_biomes.js';
import { strideErrorsM, drawnHeightRangeM } from './maps/stride_errors.js';

/** Mesh options the worker adds to the world's; each must be a boolean when given. */
const EXTRAS = ['lakes', 'lakeLevels', 'relief', 'paletteMap', 'thinWater', 'loneBiomes'];

/**
 * The mesh reply for a request {key, options}.
 * @param {object} w the handler's world (wasm/ct_world.mjs)
 * @param {{key: object, options?: object}} msg
 * @param {object|null} [tile] the key's chunk decoded from a baked tile
 *   (worker/tile_job.js): meshed and mapped instead of generating the key
 */
export function meshReply(w, msg, tile = null) {
  const key = parseKey(msg.key), src = tile || key;
  const { extras, options } = meshOptions(msg.options);
  // One copy out of WebAssembly memory into one ArrayBuffer, which the reply transfers.
  const result = { ...w.mesh(src, { ...options, copy: true }), key, generation: w.generation };
  if (options.water) return result;
  // The chunk the mesh was built from (still in the world's buffer): every map below reads it.
  const chunk = tile || w.chunk(key);
  const hide = hiddenSamples(chunk, extras);
  if (hide) recolourMesh(result, options.stride ?? 1, hide, w.palette());
  const vex = options.verticalExaggeration ?? 1;
  // Every terrain mesh says how far its coarser strides lie from the full surface:
  // tile selection needs that whatever the renderer draws. From the chunk's own
  // heights, so no stride-1 mesh is built for it.
  result.strideErrorsM = strideErrorsM(chunk, vex);
  // The drawn height range bounds the tile for refinement distances (stream/lod.js).
  result.heightRangeM = drawnHeightRangeM(chunk, vex);
  if (extras.lakes) result.lakes = lakeMesh(w, src, chunk, options);
  // Per-sample lake levels of the same chunk, for shores decided per pixel (null without a lake).
  if (extras.lakeLevels) result.lakeLevels = lakeLevelMap(withoutThinWater(chunk, hide));
  if (extras.relief || extras.paletteMap) addPixelMaps(result, w, src, { chunk, hide, vex, extras, stride: options.stride ?? 1 });
  return result;
}

/** Splits mesh options into the worker's extras and the world's own, checking both. */
function meshOptions(given) {
  if (given !== undefined && (given === null || typeof given !== 'object')) {
    throw protocolError(ERR.MESSAGE, 'mesh options must be an object');
  }
  const { lakes, lakeLevels, relief, paletteMap: palMap, thinWater: thin, loneBiomes: lone, ...options } = given || {};
  const extras = { lakes, lakeLevels, relief, paletteMap: palMap, thinWater: thin, loneBiomes: lone };
  for (const name of EXTRAS) {
    if (extras[name] !== undefined && typeof extras[name] !== 'boolean') throw protocolError(ERR.MESSAGE, `mesh option ${name} must be a boolean`);
  }
  if (options.copy !== undefined) throw protocolError(ERR.MESSAGE, 'mesh option copy is not for the worker: replies always own their arrays');
  return { extras, options };
}

/**
 * Samples drawn in another colour: inland water narrower than the samples as
 * land (thin_water.js), and land samples of a biome no neighbour has in a
 * neighbour's colour (lone_biomes.js); null when none.
 */
function hiddenSamples(chunk, extras) {
  let hide = extras.thinWater ? thinWater(chunk) : null;
  if (extras.loneBiomes) hide = loneBiomes(chunk, hide);
  return hide;
}

/**
 * The relief and palette maps. The relief map reads the same chunk (still in
 * the world's buffer) meshed at full resolution, whose normals match the
 * neighbours' at the edges, so per-pixel shading is seamless: a stride-1
 * reply is that mesh already (skirts come after its grid and change no grid
 * vertex), so only coarser strides build a second one. The palette map is
 * the chunk's own palette indices, the stride-1 mesh's colours, whatever the
 * tile's stride.
 */
function addPixelMaps(result, w, src, { chunk, hide, vex, extras, stride }) {
  if (extras.relief) {
    // Views, not a copy: the map is read out before the next mesh() call.
    const full = stride === 1 ? result : w.mesh(src, { stride: 1, verticalExaggeration: vex });
    result.relief = reliefMap(full, w.config.radius_m, vex);
    if (hide) liftHidden(result.relief, hide, chunk);
  }
  if (extras.paletteMap) result.paletteMap = paletteMap(chunk, hide);
}

/**
 * The water mesh of the chunk just meshed (still in the world's chunk buffer,
 * so nothing is generated), or null when none of its water lies off sea level:
 * the sea is drawn on its own, so only lakes make the water mesh worth sending.
 */
function lakeMesh(w, src, chunk, terrain) {
  const water = chunk.water;
  let lake = false;
  for (let i = 0; i < water.length && !lake; i++) lake = water[i] !== 0 && water[i] !== SEA_LEVEL_CODE;
  if (!lake) return null;
  const m = w.mesh(src, { stride: terrain.stride, verticalExaggeration: terrain.verticalExaggeration, water: true, copy: true });
  return m.indexCount ? m : null;
}
