// This module is the thin WebGL2 wrapper: context creation with a readable failure, shader programs with their uniform locations, and vertex-array uploads that report their GPU bytes.

/**
 * WebGL2 context of a canvas, or an Error whose message a person can act on.
 * @param {HTMLCanvasElement} canvas
 * @returns {WebGL2RenderingContext}
 */
export function createContext(canvas) {
  let gl = null;
  try {
    gl = canvas.getContext('webgl2', { antialias: true, alpha: false, depth: true, powerPreference: 'high-performance' });
  } catch (e) {
    gl = null;
  }
  if (!gl) {
    throw new Error('WebGL2 is not available in this browser (or it is disabled). ' +
      'Try a current Chrome, Firefox or Safari with hardware acceleration on.');
  }
  return gl;
}

/**
 * Whether the context renders on the CPU (SwiftShader, Mesa's llvmpipe,
 * softpipe or lavapipe): where the browser names its renderer
 * (WEBGL_debug_renderer_info), else the plain RENDERER string. A browser that
 * names neither counts as a GPU.
 */
export function isSoftwareRenderer(gl) {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String((info && gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) || gl.getParameter(gl.RENDERER) || '');
  return /swiftshader|llvmpipe|softpipe|lavapipe|software/i.test(name);
}

function compile(gl, type, source, name) {
  const s = gl.createShader(type);
  gl.shaderSource(s, source);
  gl.compileShader(s);
  if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
    const log = gl.getShaderInfoLog(s);
    gl.deleteShader(s);
    throw new Error(`shader ${name} failed to compile: ${log}`);
  }
  return s;
}

/**
 * Links a program and collects its active uniform locations.
 * @returns {{program: WebGLProgram, u: Object<string, WebGLUniformLocation>}}
 */
export function createProgram(gl, vs, fs, name, attribs = {}) {
  const p = gl.createProgram();
  gl.attachShader(p, compile(gl, gl.VERTEX_SHADER, vs, `${name}.vs`));
  gl.attachShader(p, compile(gl, gl.FRAGMENT_SHADER, fs, `${name}.fs`));
  for (const [attr, loc] of Object.entries(attribs)) gl.bindAttribLocation(p, loc, attr);
  gl.linkProgram(p);
  if (!gl.getProgramParameter(p, gl.LINK_STATUS)) throw new Error(`program ${name} failed to link: ${gl.getProgramInfoLog(p)}`);
  const u = {};
  const n = gl.getProgramParameter(p, gl.ACTIVE_UNIFORMS);
  for (let i = 0; i < n; i++) {
    const info = gl.getActiveUniform(p, i);
    u[info.name.replace(/\[0\]$/, '')] = gl.getUniformLocation(p, info.name);
  }
  return { program: p, u };
}

/**
 * Uploads vertex attributes and indices into one vertex array.
 * @param {WebGL2RenderingContext} gl
 * @param {{loc:number, data:ArrayBufferView, size:number, type:number, normalized?:boolean, integer?:boolean}[]} attributes
 * @param {Uint16Array|Uint32Array} indices
 * @returns {{vao: WebGLVertexArrayObject, buffers: WebGLBuffer[], count: number, indexType: number, bytes: number}}
 */
export function createMesh(gl, attributes, indices) {
  const vao = gl.createVertexArray();
  gl.bindVertexArray(vao);
  const buffers = [];
  let bytes = 0;
  for (const a of attributes) {
    const b = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, b);
    gl.bufferData(gl.ARRAY_BUFFER, a.data, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(a.loc);
    if (a.integer) gl.vertexAttribIPointer(a.loc, a.size, a.type, 0, 0);
    else gl.vertexAttribPointer(a.loc, a.size, a.type, !!a.normalized, 0, 0);
    buffers.push(b);
    bytes += a.data.byteLength;
  }
  const ib = gl.createBuffer();
  gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, ib);
  gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, indices, gl.STATIC_DRAW);
  buffers.push(ib);
  bytes += indices.byteLength;
  gl.bindVertexArray(null);
  const indexType = indices instanceof Uint32Array ? gl.UNSIGNED_INT : gl.UNSIGNED_SHORT;
  return { vao, buffers, count: indices.length, indexType, bytes };
}

/** Frees a mesh made by createMesh. */
export function deleteMesh(gl, m) {
  if (!m) return;
  gl.deleteVertexArray(m.vao);
  for (const b of m.buffers) gl.deleteBuffer(b);
  m.buffers = [];
}

/** A width x 1 RGBA8 texture (palette lookup), nearest filtering. */
export function createPaletteTexture(gl, rgb, width = 64) {
  const t = gl.createTexture();
  updatePaletteTexture(gl, t, rgb, width);
  return t;
}

/** Rewrites a palette texture from RGB bytes (3 per entry). */
export function updatePaletteTexture(gl, t, rgb, width = 64) {
  const px = new Uint8Array(width * 4);
  for (let i = 0; i < width && 3 * i + 2 < rgb.length; i++) {
    px.set([rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 255], 4 * i);
  }
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, 1, 0, gl.RGBA, gl.UNSIGNED_BYTE, px);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
}

/**
 * A size x size RGBA16F texture from 4 floats per texel (the relief map: half
 * floats keep small normal leans and heights near sea level precise), bilinear.
 */
export function createReliefTexture(gl, data, size) {
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA16F, size, size, 0, gl.RGBA, gl.FLOAT, data);
  // Mipmaps: from orbit a texel is smaller than a pixel, and sampling the
  // full-resolution lean there would shade noise. WebGL2 makes them for
  // half floats only where they are renderable (EXT_color_buffer_float).
  const mips = !!gl.getExtension('EXT_color_buffer_float');
  if (mips) gl.generateMipmap(gl.TEXTURE_2D);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, mips ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return t;
}

/**
 * A size x size R16F texture of lake levels in metres (worker/maps/lake_map.js),
 * bilinear: the shader compares the filtered level with the filtered relief
 * height, so shores follow the full-resolution contour. No mipmaps: a level
 * averaged with the "no lake" value far below would drown the shore.
 */
export function createLakeTexture(gl, data, size) {
  return createMapTexture(gl, data, size, gl.R16F, gl.RED, gl.FLOAT, gl.LINEAR);
}

/**
 * A size x size R8UI texture of palette indices (worker/maps/relief.js paletteMap), read
 * with texelFetch: the shader looks up each of the four nearest samples in the
 * palette and blends the colours itself (integer textures do not filter, and
 * filtered indices would be meaningless).
 */
export function createPaletteMapTexture(gl, data, size) {
  return createMapTexture(gl, data, size, gl.R8UI, gl.RED_INTEGER, gl.UNSIGNED_BYTE, gl.NEAREST);
}

/** A size x size single-level texture of one of the per-sample maps, clamped at its edges. */
function createMapTexture(gl, data, size, internalFormat, format, type, filter) {
  const t = gl.createTexture();
  gl.bindTexture(gl.TEXTURE_2D, t);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  gl.texImage2D(gl.TEXTURE_2D, 0, internalFormat, size, size, 0, format, type, data);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, filter);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
  return t;
}
