// example_stream.ts - a renderer adapter over the streaming library, type-checked
// (never run) by tests/js/types.test.mjs against stream/index.d.ts.
import { createPool } from '../../../worker/client.js';
import { TileStreamer, computeView, defaultPose, parseKey, keyId, keyAt, movePose, headingInKey, poseFromKeyHeading,
  groundPoseFromLatLon, latLonFromGroundPose, renderMinimap, MinimapChunks } from '../../../stream/index.js';
import type { GroundPose } from '../../../stream/index.js';
import type { RendererAdapter, PreparedTerrain } from '../../../stream/index.js';

interface Handle { bytes: number; vertices: number }
const adapter: RendererAdapter<Handle> = {
  uploadTerrain: (t: PreparedTerrain) => ({ bytes: t.posH.byteLength, vertices: t.vertexCount }),
  uploadWater: (w) => ({ bytes: w.posH.byteLength, vertices: w.vertexCount }),
  release: () => {},
  needs: { reliefMaps: false },
};
const pool = await createPool({ workers: 1 });
const info = await pool.build({ preset: 'balanced' });
const streamer = new TileStreamer({ pool, renderer: adapter, radiusM: info.config.radius_m as number,
  surfaceLod: info.config.surface_lod as number, generation: info.generation });
const view = computeView(defaultPose(6371000), { radiusM: 6371000, width: 800, height: 500, ...streamer.heightRange() });
const frame = streamer.update(view, 0);
const vertices: number = frame.tiles.reduce((n, t) => n + t.gpu.vertices, 0);
const id: string = keyId(parseKey('pz/2/1/1'));
const address: string = await pool.address({ face: 4, lod: 2, x: 1, y: 1 });
const walker: GroundPose = movePose(groundPoseFromLatLon(89.995, 30, 0), 1000, 0, 6371000);
const at = keyAt(walker.dir, 12);
const heading: number = headingInKey(walker, at.key);
const again: GroundPose = poseFromKeyHeading(at.key, at.localX, at.localY, heading);
const { lat, lon }: { lat: number; lon: number } = latLonFromGroundPose(again);
// A minimap from the pool's chunks round the walker.
const mapChunks = new MinimapChunks({ pool, radiusM: info.config.radius_m as number, surfaceLod: 12, rangeM: 800 });
mapChunks.update(walker);
const map = renderMinimap({ pose: walker, radiusM: info.config.radius_m as number, chunks: mapChunks.chunks(),
  palette: new Uint8Array(120), headingUp: true, sites: [{ dir: walker.dir }] });
const rgba: Uint8ClampedArray = map.pixels;
console.log(vertices, id, address, lat, lon, rgba.length, map.headingUp);
