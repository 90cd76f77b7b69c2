// This module renders the page's terrain shadows: cascaded shadow maps drawn from the terrain meshes already on the GPU, four orthographic views from the sun fitted to slices of the camera's view and kept in one depth texture, which the terrain shader reads (web/shadow_glsl.js). A cascade is redrawn only when its box or the tiles in it changed: the sun is fixed in the world, so a still camera pays for the lookups alone, and a moving one mostly for the nearest cascade (its box moves with every texel the eye moves; the far ones' texels are tens of metres).
import { createProgram } from './gl.js';
import { SHADOW_CASCADES, SHADOW_UNIT, SHADOW_CASTER_VS, SHADOW_CASTER_FS } from './shadow_glsl.js';
import { sub, length, normalize, dot, cross } from '../stream/geo.js';

/** Texels per cascade edge on a GPU, and on a CPU renderer (SwiftShader), where each texel costs time. */
export const SHADOW_SIZE = 2048;
export const SOFTWARE_SHADOW_SIZE = 1024;

/**
 * How far shadows reach from the eye: SHADOW_REACH times the height above the
 * ground, at least SHADOW_REACH_MIN_M, never past the view's far plane. From
 * 300 m that is 36 km (the ranges across the valley); from 30 km the whole
 * view to the horizon.
 */
const SHADOW_REACH = 120;
const SHADOW_REACH_MIN_M = 20000;

/**
 * The cascades' split distances from the eye: logarithmic from where the
 * ground can first be seen (the near plane, or half the height above the
 * ground) to the reach, so each cascade's texels are about as large as the
 * pixels of the ground it covers.
 * @returns {number[]} SHADOW_CASCADES + 1 distances (metres)
 */
export function cascadeSplits(view, aboveM) {
  const far = Math.min(view.far, Math.max(SHADOW_REACH * aboveM, SHADOW_REACH_MIN_M));
  const near = Math.min(far / 8, Math.max(view.near, 0.5 * aboveM));
  const out = [];
  for (let i = 0; i <= SHADOW_CASCADES; i++) out.push(near * (far / near) ** (i / SHADOW_CASCADES));
  return out;
}

/**
 * The smallest sphere around the slice of the view frustum between distances
 * a and b along the view (camera-relative centre, radius in metres): a sphere,
 * so the cascade's box does not change size as the camera turns.
 */
export function sliceSphere(view, a, b) {
  const t = Math.tan(view.fovy / 2);
  const k2 = t * t * (1 + view.aspect * view.aspect);
  const z = Math.min(b, ((a + b) / 2) * (1 + k2));
  const r = Math.max(Math.hypot(b - z, b * Math.sqrt(k2)), Math.hypot(z - a, a * Math.sqrt(k2)));
  return { center: view.forward.map((x) => x * z), radius: r };
}

/**
 * The sun's frame: L towards the sun, R and U across its beams, fixed while
 * the sun is (so texel snapping holds from frame to frame).
 */
export function sunFrame(sun) {
  const L = normalize(sun);
  const a = Math.abs(L[0]) < 0.6 ? [1, 0, 0] : [0, 1, 0];
  const R = normalize(cross(a, L));
  return { L, R, U: cross(L, R) };
}

/**
 * One cascade's box for a sphere around the view slice, in the world's frame
 * (float64): its radius rounded up to one of a fixed ladder of sizes, its
 * centre across the sun's beams snapped to whole texels, and
 * its depth origin to an eighth of the radius, so that the map does not
 * shimmer as the camera moves and stays valid (kept, not redrawn) while the
 * camera moves less than that. Sunward the box reaches two radii past its
 * centre; casters beyond are flattened onto its face. Far side: 1.25 radii,
 * the sphere's far side with the snapping's slack.
 * @returns {{x: number, y: number, z: number, radius: number, texelM: number, depthM: number}}
 */
export function cascadeBox(frame, eye, sphere, size) {
  // The radius rounded up to a step of a quarter octave: the splits follow the
  // height above the ground, which changes as the camera flies level.
  const r = 2 ** (Math.ceil(4 * Math.log2(sphere.radius)) / 4), texel = (2 * r) / size;
  const snap = (axis, q) => Math.round((dot(eye, axis) + dot(sphere.center, axis)) / q) * q;
  return { x: snap(frame.R, texel), y: snap(frame.U, texel), z: snap(frame.L, r / 8), radius: r, texelM: texel, depthM: 3.25 * r };
}

/**
 * A box's matrix for an eye (column-major, camera-relative metres to the
 * box's unit cube: x, y across the beams, z 0 at the sunward face and 1 at
 * the far one).
 */
export function boxMatrix(frame, box, eye) {
  const { L, R, U } = frame, r = box.radius, m = new Float32Array(16);
  for (let k = 0; k < 3; k++) {
    m[4 * k] = R[k] / (2 * r);
    m[4 * k + 1] = U[k] / (2 * r);
    m[4 * k + 2] = -L[k] / box.depthM;
  }
  m[12] = 0.5 - (box.x - dot(eye, R)) / (2 * r);
  m[13] = 0.5 - (box.y - dot(eye, U)) / (2 * r);
  m[14] = (box.z - dot(eye, L) + 2 * r) / box.depthM;
  m[15] = 1;
  return m;
}

/** The unit-cube matrix as clip space (x, y, z from 0..1 to -1..1) for drawing the cascade. */
function clipOf(m) {
  const c = new Float32Array(16);
  for (let col = 0; col < 4; col++) {
    for (let row = 0; row < 3; row++) c[4 * col + row] = 2 * m[4 * col + row] - (col === 3 ? 1 : 0);
    c[4 * col + 3] = m[4 * col + 3];
  }
  return c;
}

/** Whether a tile (world centre, bounding radius) may cast into a cascade's box. */
function tileInBox(box, frame, center, boundM) {
  const { L, R, U } = frame, r = box.radius + boundM;
  return Math.abs(dot(center, R) - box.x) < r && Math.abs(dot(center, U) - box.y) < r && dot(center, L) - box.z > -1.25 * r - boundM;
}

/**
 * A map is kept while its tiles' geomorph stays within the same of this many
 * steps: a morphing tile moves by less than its LOD's error (about a pixel),
 * and redrawing every map on every frame of a flight costs more than a
 * shadow edge a fraction of a pixel late.
 */
const MORPH_STEPS = 4;

/** Whether a cascade's map drawn from a would be drawn the same from b (same sun, box, tiles and geomorph steps). */
function sameSource(a, b) {
  if (!a || a.tiles.length !== b.tiles.length || a.sun.some((x, k) => x !== b.sun[k])) return false;
  if (['x', 'y', 'z', 'radius'].some((k) => a.box[k] !== b.box[k])) return false;
  return a.tiles.every((t, k) => t === b.tiles[k] && a.morph[k] === b.morph[k]);
}

/** Cascaded shadow maps over a WebGL2 context. */
export class ShadowMaps {
  /** @param {WebGL2RenderingContext} gl  @param {number} size texels per cascade edge */
  constructor(gl, size) {
    this.gl = gl;
    this.caster = createProgram(gl, SHADOW_CASTER_VS, SHADOW_CASTER_FS, 'shadow-caster');
    this.fbo = gl.createFramebuffer();
    this.texture = null;
    this.size = 0;
    this.setSize(size);
    this.mats = new Float32Array(16 * SHADOW_CASCADES);
    this.texels = new Float32Array(4 * SHADOW_CASCADES);
    /** Tiles drawn into the maps last frame, summed over cascades (0 when every cascade was kept). */
    this.casterTiles = 0;
    /** Per cascade, what its map was drawn from (matrix and tiles), to keep it while that holds. */
    this.drawnFrom = [];
  }

  /** Texels per cascade edge (the atlas is twice that each way); a new size makes a new texture. */
  setSize(size) {
    if (size === this.size) return;
    const gl = this.gl;
    this.drawnFrom = [];
    if (this.texture) gl.deleteTexture(this.texture);
    this.size = size;
    this.texture = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.texStorage2D(gl.TEXTURE_2D, 1, gl.DEPTH_COMPONENT32F, 2 * size, 2 * size);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_COMPARE_MODE, gl.COMPARE_REF_TO_TEXTURE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_COMPARE_FUNC, gl.LEQUAL);
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.fbo);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.DEPTH_ATTACHMENT, gl.TEXTURE_2D, this.texture, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.bindTexture(gl.TEXTURE_2D, null);
  }

  /**
   * Fits the cascades to this frame's view and draws the tiles into those
   * whose box or tiles changed (every one with redraw). Leaves the default
   * framebuffer bound; the caller sets its viewport.
   * @param {object} f the frame (Renderer.draw's: view, sun, radiusM, tiles)
   * @param {boolean} [redraw] draw every cascade (what a moving camera costs)
   */
  render(f, redraw = false) {
    const gl = this.gl, view = f.view, frame = sunFrame(f.sun);
    const above = view.altitudeM ?? length(view.eye) - f.radiusM;
    const splits = cascadeSplits(view, Math.max(1, above));
    const rel = f.tiles.map((t) => sub(t.center, view.eye));
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.fbo);
    gl.depthMask(true);
    gl.clearDepth(1);
    gl.enable(gl.SCISSOR_TEST);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    // Slope-scaled offset: steep faces seen edge-on from the sun sit a little further back.
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(2, 4);
    gl.useProgram(this.caster.program);
    const u = this.caster.u;
    this.casterTiles = 0;
    for (let i = 0; i < SHADOW_CASCADES; i++) {
      const box = cascadeBox(frame, view.eye, sliceSphere(view, splits[i], splits[i + 1]), this.size);
      const matrix = boxMatrix(frame, box, view.eye);
      this.mats.set(matrix, 16 * i);
      this.texels.set([box.texelM, (0.5 * box.texelM) / box.depthM, 1 / this.size, 0], 4 * i);
      const inside = [];
      for (let k = 0; k < f.tiles.length; k++) {
        if (tileInBox(box, frame, f.tiles[k].center, (2 * f.radiusM) / 2 ** (f.tiles[k].key?.lod ?? 0))) inside.push(k);
      }
      const from = { box, sun: frame.L, tiles: inside.map((k) => f.tiles[k].gpu), morph: inside.map((k) => Math.round(f.tiles[k].morph * MORPH_STEPS)) };
      if (!redraw && sameSource(this.drawnFrom[i], from)) continue;
      this.drawnFrom[i] = from;
      gl.viewport((i & 1) * this.size, (i >> 1) * this.size, this.size, this.size);
      gl.scissor((i & 1) * this.size, (i >> 1) * this.size, this.size, this.size);
      gl.clear(gl.DEPTH_BUFFER_BIT);
      gl.uniformMatrix4fv(u.uLightMat, false, clipOf(matrix));
      for (const k of inside) {
        const t = f.tiles[k], m = t.gpu;
        gl.uniform3fv(u.uOffset, rel[k]);
        gl.uniform1f(u.uMorph, t.morph);
        gl.bindVertexArray(m.vao);
        gl.drawElements(gl.TRIANGLES, m.count, m.indexType, 0);
        this.casterTiles++;
      }
    }
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.disable(gl.SCISSOR_TEST);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  /** Binds the atlas and this frame's cascades to a terrain program compiled with SF_SHADOWS 1. */
  bind(u) {
    const gl = this.gl;
    gl.activeTexture(gl.TEXTURE0 + SHADOW_UNIT);
    gl.bindTexture(gl.TEXTURE_2D, this.texture);
    gl.uniform1i(u.uShadowMap, SHADOW_UNIT);
    gl.uniformMatrix4fv(u.uShadowMat, false, this.mats);
    gl.uniform4fv(u.uShadowTexel, this.texels);
  }

  dispose() {
    this.gl.deleteTexture(this.texture);
    this.gl.deleteFramebuffer(this.fbo);
  }
}
