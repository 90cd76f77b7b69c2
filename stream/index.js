// This module is the package's "./stream" entry: the renderer-independent
// streaming pieces the WebGL2 demo (web/) is built from, for pages that draw
// with their own engine (examples/three/). Nothing here touches the DOM or a
// GL context: a renderer adapter ({uploadTerrain, uploadWater, release})
// receives prepared vertex data and returns whatever handle it likes.
//   TileStreamer   LOD selection + request scheduling + GPU-budget cache per frame
//   computeView    orbit pose -> float64 eye, camera-relative view/projection
//   selectTiles    the quadtree choice on its own (screen-space error, culling)
//   prepareTerrain a worker mesh -> interleaved x,y,z,height with geomorph targets
//   surface_glsl   render-only surface detail as GLSL chunks + the float64 eye anchors they need
export { TileStreamer, HEIGHT_RANGE_M } from '../web/streamer.js';
export { selectTiles, tileId } from '../web/lod.js';
export { computeView, defaultPose, clampPose, autoTilt, perspective } from '../web/camera.js';
export { prepareTerrain, prepareWater, parsePalette, paletteLookup } from '../web/tiledata.js';
export {
  FACE_NAMES, keyId, keyAt, keyDirection, keyBounds, latLonToDir, dirToLatLon, enuFrame, sampleSpacingM,
} from '../web/geo.js';
export {
  SURFACE_ANCHOR_M, surfaceAnchors, logDepthFactor,
  SURFACE_NOISE_GLSL, SURFACE_MATERIAL_GLSL, SURFACE_WATER_GLSL, LOG_DEPTH_VS, LOG_DEPTH_FS,
} from './surface_glsl.js';
