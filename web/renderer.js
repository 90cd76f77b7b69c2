// This module draws a frame: the sky, space and limb glow, terrain tiles camera-relative with geomorph, per-pixel relief, colours (palette maps), sea and shores, lit by a sun fixed in the world, shadowed by the terrain (cascaded shadow maps, web/shadows.js) and hazed by the atmosphere, with sea and lakes laid on the terrain per pixel; a rebuild's old planet can be faded out over the new one.
import { isSoftwareRenderer, createProgram, createMesh, deleteMesh, createPaletteTexture, updatePaletteTexture, createReliefTexture, createLakeTexture, createPaletteMapTexture } from './gl.js';
import { sub, length, normalize, dot, sampleSpacingM, CHUNK_CORE, CHUNK_EDGE } from '../stream/geo.js';
import { surfaceAnchors, logDepthFactor } from '../stream/surface_glsl.js';
import { TERRAIN_VS, TERRAIN_FS, TERRAIN_FS_PLAIN } from './terrain_shaders.js';
import { SCREEN_VS, SKY_FS } from './sky_shaders.js';
import { GpuTimer } from './gputimer.js';
import { RiversLayer } from './rivers_layer.js';
import { ShadowMaps, SHADOW_SIZE, SOFTWARE_SHADOW_SIZE } from './shadows.js';

/** How far below sea level the hole check's sphere lies (more than a coarse tile's chord sags). */
const HOLE_MARGIN_M = 1500;

/** Scale height of the air in metres (drawn metres, like the eye's altitude). */
const ATMO_H_M = 8000;

/** Blinn-Phong exponent of the sun glint for an eye this high above sea level (metres). */
export function glintSharpness(eyeHeightM) {
  const t = Math.min(1, Math.max(0, Math.log10(Math.max(1, eyeHeightM) / 2000) / 3.5));
  return 900 - 780 * t;
}

/**
 * Shadows are drawn while the eye is at most this high (metres above the
 * ground): from further out a mountain's shadow is under a pixel.
 */
const SHADOW_MAX_ALTITUDE_M = 2e6;
/** ... and while the sun is at most this far below the eye's horizon (sine): beyond, the view is night. */
const SHADOW_MIN_SUN_MU = -0.2;

/** A terrain fragment shader with the shadow lookup compiled in (web/shadow_glsl.js). */
const withShadows = (fs) => fs.replace('#version 300 es\n', '#version 300 es\n#define SF_SHADOWS 1\n');

/** Renderer over a WebGL2 context. */
export class Renderer {
  /**
   * @param {WebGL2RenderingContext} gl
   * @param {{shadowSize?: number}} [o] texels per shadow cascade edge (default: 2048 on a GPU,
   *   1024 on a CPU renderer)
   */
  constructor(gl, o = {}) {
    this.gl = gl;
    /** Terrain programs by variant (surface detail or plain, with or without shadows), compiled on first use. */
    this.programs = new Map();
    this.shadows = new ShadowMaps(gl, o.shadowSize ?? (isSoftwareRenderer(gl) ? SOFTWARE_SHADOW_SIZE : SHADOW_SIZE));
    this.sky = createProgram(gl, SCREEN_VS, SKY_FS, 'sky');
    this.palette = createPaletteTexture(gl, new Uint8Array(120));
    this.seaColor = [0.02, 0.08, 0.2];
    this.shallowColor = [0.1, 0.55, 0.6];
    this.rockColor = [0.45, 0.42, 0.4];
    this.emptyVao = gl.createVertexArray();
    this.timer = new GpuTimer(gl);
    /** The world's river graph as lines (setGraph); drawn over the terrain unless f.rivers is false. */
    this.rivers = new RiversLayer(gl);
    /** More layers drawn after the terrain, each with draw(frame) (web/populate.js: scatter, site pins). */
    this.layers = [];
    /**
     * What this renderer draws beyond the mesh (stream/streamer.js asks the worker for it): relief
     * maps (per-pixel shading), palette maps (colour per pixel) and lakes as level maps on the terrain.
     */
    this.needs = { reliefMaps: true, paletteMaps: true, lakeLevels: true };
    // Meshes without palette indices leave location 3 disabled; its generic
    // value must then be an unsigned integer like the shader input.
    gl.vertexAttribI4ui(3, 0, 0, 0, 0);
  }

  /** New palette (120 RGB bytes): tiles recolour on the next frame, nothing is rebuilt. */
  setPalette(rgb) {
    updatePaletteTexture(this.gl, this.palette, rgb);
    const c = (i) => [rgb[3 * i] / 255, rgb[3 * i + 1] / 255, rgb[3 * i + 2] / 255];
    // Deep water: the darkest water shade, darker still; shelves: the lightest
    // water shade pulled towards turquoise; rock: the rock biome's mid shade (entries 20..24).
    this.seaColor = c(0).map((x) => x * 0.6);
    const light = c(4);
    this.shallowColor = [light[0] * 0.5 + 0.02, light[1] * 0.6 + 0.3, light[2] * 0.5 + 0.3];
    this.rockColor = c(22);
  }

  /**
   * Uploads a prepared terrain tile (tiledata.prepareTerrain); returns its GPU handle with .bytes.
   * Tiles carry the mesh's palette indices (t.pal) and take their colours from the palette
   * texture, so a palette switch needs no new meshes; without indices the vertex colours are drawn.
   * A relief map (t.relief, 257 x 257 x 4 floats) becomes a half-float texture; a palette
   * map (t.paletteMap, 257 x 257 indices) an R8UI texture that colours the tile per pixel
   * (only with palette indices: the colours come from the palette texture).
   */
  uploadTerrain(t) {
    const gl = this.gl;
    const attrs = [
      { loc: 0, data: t.posH, size: 4, type: gl.FLOAT },
      { loc: 1, data: t.morphH, size: 4, type: gl.FLOAT },
    ];
    if (t.pal) attrs.push({ loc: 3, data: t.pal, size: 1, type: gl.UNSIGNED_BYTE, integer: true });
    else attrs.push({ loc: 4, data: t.colors, size: 4, type: gl.UNSIGNED_BYTE, normalized: true });
    const m = createMesh(gl, attrs, t.indices);
    m.usePalette = !!t.pal;
    m.row = CHUNK_CORE / t.stride + 1;
    m.stride = t.stride;
    if (t.relief) {
      m.relief = createReliefTexture(gl, t.relief, CHUNK_EDGE);
      m.bytes += CHUNK_EDGE * CHUNK_EDGE * 8;
    }
    if (t.paletteMap && m.usePalette) {
      m.palMap = createPaletteMapTexture(gl, t.paletteMap, CHUNK_EDGE);
      m.bytes += CHUNK_EDGE * CHUNK_EDGE;
    }
    if (t.lakeLevels) {
      m.lakes = createLakeTexture(gl, t.lakeLevels, CHUNK_EDGE);
      m.bytes += CHUNK_EDGE * CHUNK_EDGE * 2;
    }
    return m;
  }

  /** The terrain program of a variant: with surface detail or plain, with shadows or without. */
  _program(detail, shadowed) {
    const key = `${detail ? 'terrain' : 'terrain-plain'}${shadowed ? '-shadowed' : ''}`;
    if (!this.programs.has(key)) {
      const fs = detail ? TERRAIN_FS : TERRAIN_FS_PLAIN;
      this.programs.set(key, { ...createProgram(this.gl, TERRAIN_VS, shadowed ? withShadows(fs) : fs, key), shadowed });
    }
    return this.programs.get(key);
  }

  release(m) {
    if (m?.relief) this.gl.deleteTexture(m.relief);
    if (m?.lakes) this.gl.deleteTexture(m.lakes);
    if (m?.palMap) this.gl.deleteTexture(m.palMap);
    deleteMesh(this.gl, m);
  }

  /** Uniforms every program shares: sun, eye and the air. */
  _common(u, f) {
    const gl = this.gl;
    gl.uniform3fv(u.uSun, f.sun);
    gl.uniform3fv(u.uEye, Float32Array.from(f.view.eye));
    gl.uniform1f(u.uR, f.radiusM);
    gl.uniform1f(u.uAtmoH, ATMO_H_M);
    gl.uniform1f(u.uEyeH, length(f.view.eye) - f.radiusM);
    // Glint lobe: sharp on calm water near the eye, broad from orbit, where a
    // pixel spans kilometres of waves (sun glitter) and the sphere's normal
    // alone would make a pin-point.
    if (u.uGlint) gl.uniform1f(u.uGlint, glintSharpness(length(f.view.eye) - f.radiusM));
    if (u.uSea) gl.uniform3fv(u.uSea, this.seaColor);
    if (u.uShallow) gl.uniform3fv(u.uShallow, this.shallowColor);
    if (u.uExag) gl.uniform1f(u.uExag, f.exaggeration || 1);
  }

  _sky(f) {
    const gl = this.gl, u = this.sky.u, view = f.view, R = f.radiusM;
    const d = length(view.eye);
    gl.useProgram(this.sky.program);
    this._common(u, f);
    gl.uniform3fv(u.uRight, view.right);
    gl.uniform3fv(u.uUp, view.up);
    gl.uniform3fv(u.uBack, view.forward.map((x) => -x));
    gl.uniform1f(u.uTanHalf, Math.tan(view.fovy / 2));
    gl.uniform1f(u.uAspect, view.aspect);
    // |eye|^2 - R^2 in float64, so the hit distance keeps its precision near the sea.
    // The hole check tests against a sphere HOLE_MARGIN_M lower: flat tiles are
    // chords that dip below the sea-level sphere between vertices, and a ray
    // grazing the horizon could pass between the two without any hole.
    const r = f.holes ? R - HOLE_MARGIN_M : R;
    gl.uniform1f(u.uC, (d - r) * (d + r));
    gl.uniform1i(u.uHoles, f.holes ? 1 : 0);
    gl.bindVertexArray(this.emptyVao);
    gl.drawArrays(gl.TRIANGLES, 0, 3);
  }

  /**
   * Uniforms of the surface detail and the depth: the eye's lattice anchors
   * (float64 split on the CPU, stream/surface_glsl.js), the world's finest
   * sample spacing and the logarithmic depth's scale for this far plane.
   */
  _surface(u, f, spacingM) {
    const gl = this.gl, a = surfaceAnchors(f.view.eye);
    if (u.uSfCell) {
      gl.uniform3iv(u.uSfCell, a.cell);
      gl.uniform3fv(u.uSfFine, a.fine);
      gl.uniformMatrix3fv(u.uSfRot, false, a.rot);
    }
    if (u.uSurfaceSpacingM) gl.uniform1f(u.uSurfaceSpacingM, spacingM);
    if (u.uDetail) gl.uniform1f(u.uDetail, f.detail === false ? 0 : 1);
    gl.uniform1f(u.uLogDepthF, logDepthFactor(f.view.far));
  }

  /** Draws terrain tiles (nearest first), water included; returns the triangle count. */
  _tiles(f, tiles, alpha, shadowed = false) {
    const view = f.view;
    const order = tiles.map((t) => ({ t, d: length(sub(t.center, view.eye)) })).sort((a, b) => a.d - b.d);
    // Tiles too far for any pixel of theirs to show surface detail take the
    // program compiled without it (the same pixels, at the cost the globe
    // always had): software GL runs both sides of a per-pixel branch.
    const spacingM = this._spacingM(f, tiles);
    const near = [], far = [];
    for (const o of order) (f.detail !== false && this._mayShowDetail(o, f, spacingM) ? near : far).push(o.t);
    let triangles = 0;
    if (near.length) triangles += this._drawWith(this._program(true, shadowed), f, near, alpha, spacingM);
    if (far.length) triangles += this._drawWith(this._program(false, shadowed), f, far, alpha, spacingM);
    this.gl.activeTexture(this.gl.TEXTURE0);
    return triangles;
  }

  /** The world's finest sample spacing: its surface_lod's, or without one the finest tile's. */
  _spacingM(f, tiles) {
    const lod = f.surfaceLod ?? tiles.reduce((l, t) => Math.max(l, t.key?.lod ?? 0), 0);
    return sampleSpacingM(f.radiusM, lod);
  }

  /**
   * Whether a tile's nearest pixel could have samples half a pixel apart (the
   * shader's fade starts there): its centre's distance less a generous tile
   * radius (two face widths over 2^lod) sets the smallest footprint.
   */
  _mayShowDetail({ t, d }, f, spacingM) {
    const lod = t.key?.lod ?? 0;
    const nearest = Math.max(1, d - (2 * f.radiusM) / 2 ** lod);
    return spacingM / (nearest / f.view.pixelScale) > 0.4;
  }

  /** Draws tiles (in the given order) with one terrain program; returns the triangle count. */
  _drawWith(p, f, tiles, alpha, spacingM) {
    const gl = this.gl, view = f.view, u = p.u;
    gl.useProgram(p.program);
    this._common(u, f);
    gl.uniformMatrix4fv(u.uViewProj, false, Float32Array.from(view.viewProj));
    gl.uniform3fv(u.uRock, this.rockColor);
    gl.uniform1f(u.uRelief, f.relief ?? 1);
    gl.uniform1f(u.uAlpha, alpha);
    this._surface(u, f, spacingM);
    if (p.shadowed) this.shadows.bind(u);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.palette);
    gl.uniform1i(u.uPalette, 0);
    gl.uniform1i(u.uReliefMap, 1);
    gl.uniform1i(u.uLakeMap, 2);
    gl.uniform1i(u.uPalMap, 3);
    let triangles = 0;
    gl.enable(gl.CULL_FACE);
    for (const t of tiles) {
      const m = t.gpu;
      gl.uniform3fv(u.uOffset, sub(t.center, view.eye));
      gl.uniform1f(u.uMorph, t.morph);
      gl.uniform1i(u.uUsePalette, m.usePalette ? 1 : 0);
      gl.uniform1i(u.uRow, m.row);
      gl.uniform1i(u.uGrid, m.row * m.row);
      gl.uniform1f(u.uStride, m.stride);
      gl.uniform1i(u.uHasRelief, m.relief ? 1 : 0);
      gl.uniform1i(u.uHasLakes, m.lakes ? 1 : 0);
      gl.uniform1i(u.uHasPalMap, m.palMap && f.paletteMaps !== false ? 1 : 0);
      gl.activeTexture(gl.TEXTURE1);
      gl.bindTexture(gl.TEXTURE_2D, m.relief ?? null);
      gl.activeTexture(gl.TEXTURE2);
      gl.bindTexture(gl.TEXTURE_2D, m.lakes ?? null);
      gl.activeTexture(gl.TEXTURE3);
      gl.bindTexture(gl.TEXTURE_2D, m.palMap ?? null);
      gl.bindVertexArray(m.vao);
      gl.drawElements(gl.TRIANGLES, m.count, m.indexType, 0);
      triangles += m.count / 3;
    }
    gl.disable(gl.CULL_FACE);
    return triangles;
  }


  /**
   * Draws one frame.
   * @param {object} f {view, radiusM, sun:number[3] (unit vector towards the sun, world frame),
   *   tiles:[{gpu, center, morph}], width, height, exaggeration=1 (of the meshes),
   *   relief=1 (how much the relief map's lean is strengthened), holes=false (debug: the ground
   *   sphere magenta behind the terrain, no sky), paletteMaps=true (false: debug, colour tiles
   *   by their vertices even where they have a palette map), surfaceLod (the world's: surface
   *   detail fades in where its samples are a few pixels apart), detail=true (false: no surface
   *   detail, the shading of a world seen from orbit everywhere), fade?: {tiles, alpha, exaggeration}
   *   (an old planet drawn over this one with alpha, for a crossfade), rivers=true (false: no river lines),
   *   shadows=true (false: no cast shadows; the old planet of a crossfade never has them),
   *   shadowRedraw=false (true: redraw every shadow cascade, as a moving camera does, for timing)}
   * @returns {{triangles: number, shadowTiles: number}} shadowTiles: tile draws into the shadow maps
   */
  draw(f) {
    const gl = this.gl;
    f = { ...f, sun: normalize(f.sun) };
    this.timer.begin();
    const shadowed = this._shadowed(f);
    if (shadowed) this.shadows.render(f, f.shadowRedraw === true);
    gl.viewport(0, 0, f.width, f.height);
    gl.clearColor(0, 0, 0, 1);
    gl.clearDepth(1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.disable(gl.DEPTH_TEST);
    gl.depthMask(false);
    gl.disable(gl.BLEND);
    this._sky(f);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.depthMask(true);
    gl.cullFace(gl.BACK);
    let triangles = this._tiles(f, f.tiles, 1, shadowed);
    if (f.rivers !== false) this.rivers.draw(f, this._spacingM(f, f.tiles));
    for (const l of this.layers) l.draw(f);
    if (f.fade && f.fade.alpha > 0) {
      // The old planet over the new one: its own depth, blended.
      gl.clear(gl.DEPTH_BUFFER_BIT);
      gl.enable(gl.BLEND);
      gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
      triangles += this._tiles({ ...f, exaggeration: f.fade.exaggeration ?? f.exaggeration }, f.fade.tiles, f.fade.alpha);
      gl.disable(gl.BLEND);
    }
    gl.depthMask(true);
    gl.bindVertexArray(null);
    this.timer.end();
    return { triangles, shadowTiles: shadowed ? this.shadows.casterTiles : 0 };
  }

  /** Whether this frame casts shadows: asked for, something to draw, low enough and not night at the eye. */
  _shadowed(f) {
    if (f.shadows === false || !f.tiles.length) return false;
    const above = f.view.altitudeM ?? length(f.view.eye) - f.radiusM;
    return above <= SHADOW_MAX_ALTITUDE_M && dot(normalize(f.view.eye), f.sun) >= SHADOW_MIN_SUN_MU;
  }

  /** GPU milliseconds of a recent frame (EXT_disjoint_timer_query_webgl2), or null without it. */
  gpuMs() {
    return this.timer.poll();
  }
}
