// This module holds the stream layer's shaders (web/stream_layer.js): each segment instance becomes a flat ribbon in the local ground plane, its half-width the stream's or three quarters of a pixel, whichever is more, lifted above the water by the key's lift and a pixel and a half, lit like the ground.
import { LOG_DEPTH_VS, LOG_DEPTH_FS } from '../stream/surface_glsl.js';

/**
 * Lowest coverage drawn: a creek far narrower than its pixel (a fine-level
 * head is about 0.1 m wide) stays a faint trace, a wider stream shows
 * stronger, so the network reads by size rather than as an even net.
 */
const MIN_ALPHA = 0.25;

export const STREAM_VS = `#version 300 es
precision highp float;
layout(location = 0) in vec3 aP0;      // segment start, relative to the key's centre
layout(location = 1) in vec3 aP1;      // segment end
layout(location = 2) in float aWidth;  // stream width, metres
uniform mat4 uViewProj; uniform vec3 uOffset; uniform vec3 uEye; uniform vec3 uSun;
uniform float uPixelScale; uniform float uLiftM;
out float vAlpha; out float vLight;
${LOG_DEPTH_VS}
const int CORNER[6] = int[6](0, 1, 2, 2, 1, 3);   // two triangles: (start, end) x (left, right)
void main() {
  int c = CORNER[gl_VertexID % 6];
  vec3 a = aP0 + uOffset, b = aP1 + uOffset;      // relative to the eye
  vec3 rel = c >= 2 ? b : a;
  float d = max(length(rel), 1.0);
  vec3 up = normalize(rel + uEye);
  float mpp = d / uPixelScale;                    // metres one pixel spans here
  vec3 side = cross(up, b - a);
  side = dot(side, side) > 0.0 ? normalize(side) : vec3(0.0);
  float halfW = max(0.5 * aWidth, 0.75 * mpp);
  rel += side * (c == 1 || c == 3 ? halfW : -halfW) + up * (uLiftM + 1.5 * mpp);
  rel *= 0.999;                                   // a little towards the eye, over the valley walls' chords
  vAlpha = clamp(aWidth / mpp, ${MIN_ALPHA.toFixed(2)}, 1.0);
  vLight = smoothstep(-0.1, 0.3, dot(up, uSun));
  gl_Position = uViewProj * vec4(rel, 1.0);
  sfLogDepth();
}`;

export const STREAM_FS = `#version 300 es
precision highp float;
in float vAlpha; in float vLight;
out vec4 oColor;
${LOG_DEPTH_FS}
void main() {
  oColor = vec4(vec3(0.16, 0.42, 0.80) * max(vLight, 0.08), vAlpha * max(vLight, 0.3));
  sfLogDepth();
}`;
