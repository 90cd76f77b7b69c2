// This module draws a frame: sky and space backdrop, terrain tiles camera-relative with geomorph and sun lighting, the sea as a ray-cast sphere at sea level, and lake surfaces from water meshes.
import { createProgram, createMesh, deleteMesh, createPaletteTexture, updatePaletteTexture } from './gl.js';
import { sub, length, normalize } from './geo.js';

const TERRAIN_VS = `#version 300 es
layout(location=0) in vec4 aPosH;
layout(location=1) in vec4 aMorphH;
layout(location=2) in vec3 aNormal;
layout(location=3) in uint aPal;
layout(location=4) in vec4 aColor;
uniform mat4 uViewProj;
uniform vec3 uOffset;
uniform float uMorph;
uniform int uUsePalette;
uniform sampler2D uPalette;
uniform vec3 uEye;
out vec3 vNormal; out vec3 vColor; out vec3 vRel; out float vH;
void main() {
  vec4 p = mix(aMorphH, aPosH, uMorph);
  vRel = p.xyz + uOffset;
  vH = p.w;
  // Sea beds next to the coast lie only metres below sea level, closer than
  // depth precision at a distance: drawn as they are, bed and sea surface
  // win the depth test in blotches. Beds (never the shore pins at exactly 0)
  // are drawn a little deeper, more with distance, so the sea always covers them.
  if (p.w < 0.0) vRel -= normalize(uEye + vRel) * max(20.0, 0.002 * length(vRel));
  vNormal = aNormal;
  vColor = uUsePalette == 1 ? texelFetch(uPalette, ivec2(int(aPal), 0), 0).rgb : aColor.rgb;
  gl_Position = uViewProj * vec4(vRel, 1.0);
}`;

const TERRAIN_FS = `#version 300 es
precision highp float;
in vec3 vNormal; in vec3 vColor; in vec3 vRel; in float vH;
uniform vec3 uSun; uniform vec3 uEye; uniform vec3 uSea; uniform vec3 uHaze; uniform float uHazeDist; uniform float uExag;
out vec4 outColor;
void main() {
  vec3 n = normalize(vNormal);
  vec3 col = vColor * (0.22 + 0.9 * max(dot(n, uSun), 0.0));
  if (vH < 0.0) {
    // Under sea level: the water column tints the bed by depth, lit like a flat sea.
    vec3 up = normalize(uEye + vRel);
    // vH is exaggerated with the mesh: the tint follows the real depth.
    float a = clamp(0.8 + -vH / (400.0 * uExag), 0.8, 0.95);
    col = mix(col, uSea * (0.25 + 0.8 * max(dot(up, uSun), 0.0)), a);
  }
  float d = length(vRel);
  col = mix(col, uHaze, (1.0 - exp(-d / uHazeDist)) * 0.45);
  outColor = vec4(col, 1.0);
}`;

const SCREEN_VS = `#version 300 es
out vec2 vNdc;
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  vNdc = p;
  gl_Position = vec4(p, 0.0, 1.0);
}`;

// Shared by the backdrop and the sea: the world ray of a pixel and the
// planet-sphere terms. uC = |eye|^2 - R^2 comes from the CPU in float64, so
// the hit distance keeps its precision a few metres above the sea.
const RAY = `
in vec2 vNdc;
uniform vec3 uRight, uUp, uBack; uniform float uTanHalf, uAspect;
uniform vec3 uEye; uniform float uC; uniform float uR; uniform vec3 uSun;
vec3 viewVec() { return vec3(vNdc.x * uTanHalf * uAspect, vNdc.y * uTanHalf, -1.0); }
vec3 worldDir(vec3 dv) { return normalize(uRight * dv.x + uUp * dv.y + uBack * dv.z); }
`;

const SKY_FS = `#version 300 es
precision highp float;
${RAY}
uniform float uAtmoH;
out vec4 outColor;
float hash(vec3 p) { p = fract(p * 0.3183099 + 0.1); p *= 17.0; return fract(p.x * p.y * p.z * (p.x + p.y + p.z)); }
void main() {
  vec3 dir = worldDir(viewVec());
  float b = dot(uEye, dir);
  // Height of the ray's closest approach above the sea sphere (the eye itself when looking away).
  float dc2mR2 = b < 0.0 ? uC - b * b : uC;
  float dc = sqrt(max(dc2mR2 + uR * uR, 0.0));
  float hc = dc2mR2 / (dc + uR);
  float glow = exp(-max(hc, 0.0) / uAtmoH);
  vec3 toward = normalize(uEye + dir * max(-b, 0.0));
  float lit = clamp(dot(toward, uSun) * 0.8 + 0.35, 0.05, 1.0);
  vec3 col = vec3(0.004, 0.006, 0.02);
  float star = step(0.9975, hash(floor(dir * 420.0)));
  col += vec3(star) * 0.8 * (1.0 - clamp(glow * 3.0, 0.0, 1.0));
  col = mix(col, vec3(0.36, 0.58, 0.95) * lit, clamp(glow, 0.0, 1.0));
  outColor = vec4(col, 1.0);
}`;

const SEA_FS = `#version 300 es
precision highp float;
${RAY}
uniform mat4 uProj; uniform float uBias; uniform vec3 uSea;
out vec4 outColor;
void main() {
  vec3 dv = viewVec();
  vec3 dir = worldDir(dv);
  float b = dot(uEye, dir);
  float disc = b * b - uC;
  if (disc < 0.0 || (uC > 0.0 && b >= 0.0)) discard;
  float t = uC > 0.0 ? uC / (-b + sqrt(disc)) : -b + sqrt(disc);
  if (t <= 0.0) discard;
  // Pushed back a little so terrain at (nearly) sea level wins: coarse
  // tiles sag below the sphere between their vertices.
  float z = -(t / length(dv)) * (1.0 + uBias);
  vec4 clip = uProj * vec4(0.0, 0.0, z, 1.0);
  gl_FragDepth = clamp(clip.z / clip.w * 0.5 + 0.5, 0.0, 1.0);
  vec3 n = normalize(uEye + dir * t);
  float diff = max(dot(n, uSun), 0.0);
  vec3 h = normalize(uSun - dir);
  float spec = pow(max(dot(n, h), 0.0), 120.0) * 0.6;
  float fres = pow(1.0 - max(dot(n, -dir), 0.0), 4.0);
  vec3 col = uSea * (0.25 + 0.8 * diff) + vec3(spec) + vec3(0.25, 0.35, 0.5) * fres * diff;
  outColor = vec4(col, 0.42 + 0.4 * fres);
}`;

const LAKE_FS = `#version 300 es
precision highp float;
in vec3 vNormal; in vec3 vColor; in vec3 vRel; in float vH;
uniform vec3 uSun; uniform vec3 uEye; uniform vec3 uSea; uniform vec3 uHaze; uniform float uHazeDist;
out vec4 outColor;
void main() {
  vec3 n = normalize(uEye + vRel);
  vec3 v = normalize(-vRel);
  float spec = pow(max(dot(n, normalize(uSun + v)), 0.0), 120.0) * 0.5;
  vec3 col = uSea * 1.1 * (0.3 + 0.8 * max(dot(n, uSun), 0.0)) + vec3(spec);
  col = mix(col, uHaze, (1.0 - exp(-length(vRel) / uHazeDist)) * 0.55);
  outColor = vec4(col, 0.82);
}`;

/** Renderer over a WebGL2 context. */
export class Renderer {
  constructor(gl) {
    this.gl = gl;
    this.terrain = createProgram(gl, TERRAIN_VS, TERRAIN_FS, 'terrain');
    this.lake = createProgram(gl, TERRAIN_VS, LAKE_FS, 'lake');
    this.sky = createProgram(gl, SCREEN_VS, SKY_FS, 'sky');
    this.sea = createProgram(gl, SCREEN_VS, SEA_FS, 'sea');
    this.palette = createPaletteTexture(gl, new Uint8Array(120));
    this.seaColor = [0.1, 0.25, 0.45];
    this.emptyVao = gl.createVertexArray();
    // Meshes without palette indices (lakes) leave location 3 disabled; its
    // generic value must then be an unsigned integer like the shader input.
    gl.vertexAttribI4ui(3, 0, 0, 0, 0);
  }

  /** New palette (120 RGB bytes): tiles recolour on the next frame, nothing is rebuilt. */
  setPalette(rgb) {
    updatePaletteTexture(this.gl, this.palette, rgb);
    // The sea takes the mid shade of the water biome (entries 0..4).
    this.seaColor = [rgb[6] / 255, rgb[7] / 255, rgb[8] / 255];
  }

  /**
   * Uploads a prepared terrain tile (tiledata.prepareTerrain); returns its GPU handle with .bytes.
   * Tiles carry the mesh's palette indices (t.pal) and take their colours from the palette
   * texture, so a palette switch needs no new meshes; without indices the vertex colours are drawn.
   */
  uploadTerrain(t) {
    const gl = this.gl;
    const attrs = [
      { loc: 0, data: t.posH, size: 4, type: gl.FLOAT },
      { loc: 1, data: t.morphH, size: 4, type: gl.FLOAT },
      { loc: 2, data: t.normals, size: 3, type: gl.FLOAT },
    ];
    if (t.pal) attrs.push({ loc: 3, data: t.pal, size: 1, type: gl.UNSIGNED_BYTE, integer: true });
    else attrs.push({ loc: 4, data: t.colors, size: 4, type: gl.UNSIGNED_BYTE, normalized: true });
    const m = createMesh(gl, attrs, t.indices);
    m.usePalette = !!t.pal;
    return m;
  }

  /** Uploads a lake surface (tiledata.prepareWater). */
  uploadWater(w) {
    const gl = this.gl;
    return createMesh(gl, [
      { loc: 0, data: w.posH, size: 4, type: gl.FLOAT },
      { loc: 1, data: w.posH, size: 4, type: gl.FLOAT },
      { loc: 2, data: w.normals, size: 3, type: gl.FLOAT },
    ], w.indices);
  }

  release(m) {
    deleteMesh(this.gl, m);
  }

  _rayUniforms(u, view, R) {
    const gl = this.gl;
    const eye = view.eye, d = length(eye);
    gl.uniform3fv(u.uRight, view.right);
    gl.uniform3fv(u.uUp, view.up);
    gl.uniform3fv(u.uBack, view.forward.map((x) => -x));
    gl.uniform1f(u.uTanHalf, Math.tan(view.fovy / 2));
    gl.uniform1f(u.uAspect, view.aspect);
    gl.uniform3fv(u.uEye, eye);
    gl.uniform1f(u.uC, (d - R) * (d + R));
    gl.uniform1f(u.uR, R);
  }

  /** Binds a terrain-style program (terrain or lakes) and its shared lighting and haze uniforms. */
  _litMeshProgram(p, viewProj, sun, eye32, haze, hazeDist) {
    const gl = this.gl, u = p.u;
    gl.useProgram(p.program);
    gl.uniformMatrix4fv(u.uViewProj, false, viewProj);
    gl.uniform3fv(u.uSun, sun);
    gl.uniform3fv(u.uEye, eye32);
    gl.uniform3fv(u.uSea, this.seaColor);
    gl.uniform3fv(u.uHaze, haze);
    gl.uniform1f(u.uHazeDist, hazeDist);
  }

  /**
   * Draws one frame.
   * @param {object} f {view, radiusM, sun:number[3], tiles:[{gpu, water?, center, morph}], width, height,
   *   exaggeration=1 (vertical exaggeration the meshes were built with)}
   */
  draw(f) {
    const gl = this.gl, view = f.view, R = f.radiusM;
    const alt = length(view.eye) - R;
    const sun = normalize(f.sun);
    const hazeDist = Math.max(1.5e5, alt * 12);
    const haze = [0.55, 0.68, 0.88];
    gl.viewport(0, 0, f.width, f.height);
    gl.clearColor(0, 0, 0, 1);
    gl.clearDepth(1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.bindVertexArray(this.emptyVao);

    // Backdrop: space, stars and the atmosphere's glow.
    gl.disable(gl.DEPTH_TEST);
    gl.depthMask(false);
    gl.disable(gl.BLEND);
    gl.useProgram(this.sky.program);
    this._rayUniforms(this.sky.u, view, R);
    gl.uniform3fv(this.sky.u.uSun, sun);
    gl.uniform1f(this.sky.u.uAtmoH, 60000);
    gl.drawArrays(gl.TRIANGLES, 0, 3);

    // Terrain, nearest first so early depth rejection helps.
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LEQUAL);
    gl.depthMask(true);
    gl.enable(gl.CULL_FACE);
    gl.cullFace(gl.BACK);
    const viewProj = Float32Array.from(view.viewProj);
    const eye32 = Float32Array.from(view.eye);
    const p = this.terrain, u = p.u;
    this._litMeshProgram(p, viewProj, sun, eye32, haze, hazeDist);
    gl.uniform1f(u.uExag, f.exaggeration || 1);
    gl.activeTexture(gl.TEXTURE0);
    gl.bindTexture(gl.TEXTURE_2D, this.palette);
    gl.uniform1i(u.uPalette, 0);
    const order = f.tiles.map((t) => ({ t, d: length(sub(t.center, view.eye)) })).sort((a, b) => a.d - b.d);
    let triangles = 0;
    for (const { t } of order) {
      const m = t.gpu;
      gl.uniform3fv(u.uOffset, sub(t.center, view.eye));
      gl.uniform1f(u.uMorph, t.morph);
      gl.uniform1i(u.uUsePalette, m.usePalette ? 1 : 0);
      gl.bindVertexArray(m.vao);
      gl.drawElements(gl.TRIANGLES, m.count, m.indexType, 0);
      triangles += m.count / 3;
    }
    gl.disable(gl.CULL_FACE);

    // The sea: one full-screen pass, blended over the sea bed.
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
    gl.bindVertexArray(this.emptyVao);
    gl.useProgram(this.sea.program);
    this._rayUniforms(this.sea.u, view, R);
    gl.uniform3fv(this.sea.u.uSun, sun);
    gl.uniform3fv(this.sea.u.uSea, this.seaColor);
    gl.uniformMatrix4fv(this.sea.u.uProj, false, view.proj);
    gl.uniform1f(this.sea.u.uBias, 2e-4);
    gl.drawArrays(gl.TRIANGLES, 0, 3);

    // Lakes at their own level.
    const lp = this.lake, lu = lp.u;
    this._litMeshProgram(lp, viewProj, sun, eye32, haze, hazeDist);
    gl.uniform1f(lu.uMorph, 1);
    gl.uniform1i(lu.uUsePalette, 0);
    gl.enable(gl.POLYGON_OFFSET_FILL);
    gl.polygonOffset(-1, -2);
    for (const { t } of order) {
      if (!t.water) continue;
      gl.uniform3fv(lu.uOffset, sub(t.center, view.eye));
      gl.bindVertexArray(t.water.vao);
      gl.drawElements(gl.TRIANGLES, t.water.count, t.water.indexType, 0);
    }
    gl.disable(gl.POLYGON_OFFSET_FILL);
    gl.disable(gl.BLEND);
    gl.depthMask(true);
    gl.bindVertexArray(null);
    return { triangles };
  }
}
