// This module draws the river graph (pool.rivers(): the carved curves where it has them) as thin lines on the globe, a little above the water surface, with a filtered coverage so rivers narrower than a pixel fade instead of flickering, and fading out close up where the chunks' own water takes over.
import { createProgram } from './gl.js';
import { sub, length } from '../stream/geo.js';
import { LOG_DEPTH_VS, LOG_DEPTH_FS, logDepthFactor } from '../stream/surface_glsl.js';

/** Pieces per segment: node to node chords follow the sphere instead of sagging under it. */
const PIECES = 8;

/** Lowest coverage drawn: a river far thinner than a pixel stays a faint trace. */
const MIN_ALPHA = 0.05;

const VS = `#version 300 es
precision highp float;
layout(location = 0) in vec3 aPos;      // relative to the layer's anchor
layout(location = 1) in float aWidth;   // channel width, metres
uniform mat4 uViewProj; uniform vec3 uOffset; uniform vec3 uEye; uniform vec3 uSun;
uniform float uPixelScale; uniform float uSpacingM;
out float vAlpha; out float vLight;
${LOG_DEPTH_VS}
void main() {
  vec3 rel = aPos + uOffset;
  float d = max(length(rel), 1.0);
  vec3 up = normalize(rel + uEye);
  float mpp = d / uPixelScale;                 // metres one pixel spans here
  // Above the water by two pixels' worth and pulled a little towards the eye,
  // so valley walls and the tile's chords do not hide the line.
  rel = (rel + up * max(2.0 * mpp, 5.0)) * 0.997;
  // Coverage of the pixel by the channel; gone where the world's samples are
  // several pixels apart (the chunks draw the river as water there).
  float cover = clamp(aWidth / mpp, ${MIN_ALPHA.toFixed(2)}, 1.0);
  vAlpha = cover * (1.0 - smoothstep(2.0, 6.0, uSpacingM / mpp));
  // Lit like the ground under it: a river on the night side is as dark as its banks.
  vLight = smoothstep(-0.1, 0.3, dot(up, uSun));
  vAlpha *= vLight;
  gl_Position = uViewProj * vec4(rel, 1.0);
  sfLogDepth();
}`;

const FS = `#version 300 es
precision highp float;
in float vAlpha; in float vLight;
out vec4 oColor;
${LOG_DEPTH_FS}
void main() {
  if (vAlpha <= 0.0) discard;
  oColor = vec4(vec3(0.12, 0.38, 0.85) * vLight, vAlpha);
  sfLogDepth();
}`;

/**
 * Line vertices of a river graph (float64, world frame). With `g.curves` (the
 * polylines the samples carve, pool.rivers()): each segment's points joined
 * in order, at its water surface, so the lines run where the channels run and
 * a mouth reaches the sea; without them, each node to its downstream node in
 * PIECES chords, heights lerped between the two surfaces.
 * @returns {{pos: Float64Array, width: Float32Array, count: number}}
 */
export function riverLines(g, radiusM, exaggeration = 1) {
  if (g.curves) return curveLines(g.curves, radiusM, exaggeration);
  const n = g.downstream.length;
  let segs = 0;
  for (let i = 0; i < n; i++) if (g.downstream[i] >= 0) segs++;
  const pos = new Float64Array(segs * PIECES * 6), width = new Float32Array(segs * PIECES * 2);
  let v = 0;
  const at = (i, j, t) => {
    const a = 3 * i, b = 3 * j;
    const x = g.direction[a] + (g.direction[b] - g.direction[a]) * t;
    const y = g.direction[a + 1] + (g.direction[b + 1] - g.direction[a + 1]) * t;
    const z = g.direction[a + 2] + (g.direction[b + 2] - g.direction[a + 2]) * t;
    const h = g.surfaceM[i] + (g.surfaceM[j] - g.surfaceM[i]) * t;
    put(pos, v, x, y, z, h, radiusM, exaggeration);
  };
  for (let i = 0; i < n; i++) {
    const j = g.downstream[i];
    if (j < 0) continue;
    for (let k = 0; k < PIECES; k++) {
      at(i, j, k / PIECES); width[v++] = g.widthM[i];
      at(i, j, (k + 1) / PIECES); width[v++] = g.widthM[i];
    }
  }
  return { pos, width, count: v };
}

/** Vertex v at direction (x, y, z) and height h (sea-level radius, exaggerated). */
function put(pos, v, x, y, z, h, radiusM, exaggeration) {
  const r = (radiusM + Math.max(0, h) * exaggeration) / Math.hypot(x, y, z);
  pos[3 * v] = x * r; pos[3 * v + 1] = y * r; pos[3 * v + 2] = z * r;
}

/** Line pairs along each curve's polyline (its points are about 10 km apart: chords stay within metres of the sphere). */
function curveLines(c, radiusM, exaggeration) {
  const segs = c.widthM.length;
  let pairs = 0;
  for (let k = 0; k < segs; k++) pairs += Math.max(0, c.offset[k + 1] - c.offset[k] - 1);
  const pos = new Float64Array(pairs * 6), width = new Float32Array(pairs * 2), P = c.points;
  let v = 0;
  for (let k = 0; k < segs; k++) {
    for (let p = c.offset[k]; p + 1 < c.offset[k + 1]; p++) {
      for (const q of [p, p + 1]) {
        put(pos, v, P[3 * q], P[3 * q + 1], P[3 * q + 2], c.surfaceM[q], radiusM, exaggeration);
        width[v++] = c.widthM[k];
      }
    }
  }
  return { pos, width, count: v };
}

/** The river lines of one world on one WebGL2 context. */
export class RiversLayer {
  constructor(gl) {
    this.gl = gl;
    this.prog = createProgram(gl, VS, FS, 'rivers');
    this.vao = null;
    this.lines = null;
    this.anchor = null;
    this.key = null;
  }

  /** The world's river graph (as pool.rivers() answers); null clears it. */
  setGraph(graph, radiusM) {
    this.graph = graph && graph.downstream.length ? graph : null;
    this.radiusM = radiusM;
    this.key = null;
  }

  /** Rebuilds the buffers when the graph or exaggeration changed, or the eye moved far from the anchor. */
  _prepare(f) {
    const gl = this.gl, eye = f.view.eye, exag = f.exaggeration || 1;
    if (this.key !== exag) {
      this.lines = riverLines(this.graph, this.radiusM, exag);
      this.key = exag;
      this.anchor = null;
    }
    // Positions are stored relative to an anchor near the eye: float32 keeps
    // them precise near the eye, and the shader adds the small anchor - eye.
    const alt = Math.max(1, length(eye) - this.radiusM);
    if (this.anchor && length(sub(eye, this.anchor)) < 0.05 * alt) return;
    this.anchor = eye.slice();
    const { pos, width, count } = this.lines, rel = new Float32Array(3 * count);
    for (let i = 0; i < count; i++) {
      rel[3 * i] = pos[3 * i] - eye[0]; rel[3 * i + 1] = pos[3 * i + 1] - eye[1]; rel[3 * i + 2] = pos[3 * i + 2] - eye[2];
    }
    if (!this.vao) {
      this.vao = gl.createVertexArray();
      this.bufs = [gl.createBuffer(), gl.createBuffer()];
    }
    gl.bindVertexArray(this.vao);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.bufs[0]);
    gl.bufferData(gl.ARRAY_BUFFER, rel, gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, this.bufs[1]);
    gl.bufferData(gl.ARRAY_BUFFER, width, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 1, gl.FLOAT, false, 0, 0);
    gl.bindVertexArray(null);
  }

  /**
   * Draws the lines blended over the terrain (depth tested, not written).
   * @param {object} f the renderer's frame (view, sun, exaggeration)
   * @param {number} spacingM the world's finest sample spacing
   */
  draw(f, spacingM) {
    if (!this.graph) return;
    const gl = this.gl, u = this.prog.u, view = f.view;
    this._prepare(f);
    if (!this.lines.count) return;
    gl.useProgram(this.prog.program);
    gl.uniformMatrix4fv(u.uViewProj, false, Float32Array.from(view.viewProj));
    gl.uniform3fv(u.uOffset, sub(this.anchor, view.eye));
    gl.uniform3fv(u.uEye, Float32Array.from(view.eye));
    gl.uniform3fv(u.uSun, f.sun);
    gl.uniform1f(u.uPixelScale, view.pixelScale);
    gl.uniform1f(u.uSpacingM, spacingM);
    gl.uniform1f(u.uLogDepthF, logDepthFactor(view.far));
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
    gl.bindVertexArray(this.vao);
    gl.drawArrays(gl.LINES, 0, this.lines.count);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
  }
}
