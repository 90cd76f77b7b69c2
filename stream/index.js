// This module is the package's "./stream" entry: the renderer-independent
// streaming library the WebGL2 demo (web/) and the three.js example
// (examples/three/) are both built on. Nothing here touches the DOM or a GL
// context: a renderer adapter ({uploadTerrain, uploadWater, release, needs})
// receives prepared vertex data and returns whatever handle it likes; its
// `needs` ({reliefMaps, paletteMaps, lakeLevels}) say which per-sample maps
// the worker should build for it (none by default). Types: stream/index.d.ts.
//   TileStreamer   LOD selection + tile request queue + GPU-budget cache per frame
//   computeView    orbit pose -> float64 eye, camera-relative view/projection
//   selectTiles    the quadtree choice on its own (screen-space error, culling)
//   prepareTerrain a worker mesh -> interleaved x,y,z,height with geomorph targets
//   pose           the ground pose {dir, forward}: moved by parallel transport, read in chunk axes
//   surface_glsl   render-only surface detail as GLSL chunks + the float64 eye anchors they need
export { TileStreamer, HEIGHT_RANGE_M } from './streamer.js';
export { selectTiles, tileId, meshTriangles } from './lod.js';
export { computeView, defaultPose, clampPose, moveLatLonPose, autoTilt, perspective, screenRay, raySphere } from './camera.js';
export { prepareTerrain, prepareWater, parsePalette, colourToIndex } from './tiledata.js';
export {
  FACE_NAMES, FACE_FILE_NAMES, CHUNK_CORE, parseKey, keyId, keyAt, keyDirection, keyBounds,
  latLonToDir, dirToLatLon, enuFrame, sampleSpacingM,
} from './geo.js';
export {
  POSE_TOLERANCE, movePose, headingInKey, poseFromKeyHeading, groundPoseFromLatLon, latLonFromGroundPose,
} from './pose.js';
export {
  SURFACE_ANCHOR_M, surfaceAnchors, logDepthFactor,
  SURFACE_NOISE_GLSL, SURFACE_MATERIAL_GLSL, SURFACE_WATER_GLSL, LOG_DEPTH_VS, LOG_DEPTH_FS,
} from './surface_glsl.js';
// GroundNeighbourhood: physics colliders round a player (pool.collider, cut into patches), with groundAt and raycast.
export { GroundNeighbourhood } from './neighbourhood.js';
// Minimap: top-down RGBA pixels round the player from held chunks; MinimapChunks keeps those chunks from the pool.
export { renderMinimap } from './minimap.js';
export { MinimapChunks, keysAround } from './minimap_chunks.js';
// The scatter catalogue (core.scatterKinds()'s table, generated from core/include/ct_scatter.def), for pages without the core.
export { SCATTER_KINDS } from '../wasm/ct_constants.mjs';
