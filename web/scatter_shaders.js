// This module holds the GLSL of the instanced scatter shapes and site markers: each instance stands at its foot (float32 metres from its tile's centre, drawn camera-relative like the terrain), upright on the local vertical, turned by its yaw from local north, sized by its scale, lit by the sun, hazed and faded out with distance (a screen-door dither, so no sorting or blending), with the terrain's logarithmic depth.
import { LOG_DEPTH_VS, LOG_DEPTH_FS } from '../stream/surface_glsl.js';

export const SCATTER_VS = `#version 300 es
precision highp float;
layout(location = 0) in vec3 aPos;       // the shape, unit size, y up from the foot
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec4 aInst;      // foot (metres from the batch's centre), size (metres)
layout(location = 3) in vec2 aTurn;      // yaw (radians from north), tint (-1..1)
uniform mat4 uViewProj;
uniform vec3 uOffset;                    // batch centre - eye
uniform vec3 uCenter;                    // batch centre, body-fixed (for the local frame only)
uniform vec2 uFade;                      // fade out between these distances (metres)
uniform float uMinPx;                    // markers: grow to stay this many pixels high (0: true size)
uniform float uPixelScale;
out vec3 vNormal; out vec3 vUp; out float vFade; out float vTint; out float vDist;
${LOG_DEPTH_VS}
void main() {
  vec3 foot = aInst.xyz + uOffset;
  float d = length(foot);
  vFade = 1.0 - smoothstep(uFade.x, uFade.y, d);
  vDist = d;
  vTint = aTurn.y;
  vec3 up = normalize(uCenter + aInst.xyz);
  // Local north: the body's +y projected on the tangent plane (+x near a pole).
  vec3 ref = abs(up.y) > 0.999 ? vec3(1.0, 0.0, 0.0) : vec3(0.0, 1.0, 0.0);
  vec3 north = normalize(ref - up * dot(ref, up));
  vec3 east = cross(north, up);
  float c = cos(aTurn.x), s = sin(aTurn.x);
  vec3 fwd = c * north + s * east, side = c * east - s * north;
  float size = max(aInst.w, uMinPx * d / uPixelScale);
  vec3 p = foot + (side * aPos.x + up * aPos.y - fwd * aPos.z) * size;
  vNormal = side * aNormal.x + up * aNormal.y - fwd * aNormal.z;
  vUp = up;
  gl_Position = vFade > 0.0 ? uViewProj * vec4(p, 1.0) : vec4(0.0, 0.0, 2.0, 1.0);
  sfLogDepth();
}`;

export const SCATTER_FS = `#version 300 es
precision highp float;
in vec3 vNormal; in vec3 vUp; in float vFade; in float vTint; in float vDist;
uniform vec3 uColor; uniform vec3 uSun; uniform vec3 uHaze; uniform float uHazeM;
out vec4 oColor;
${LOG_DEPTH_FS}
void main() {
  // Screen-door fade: a fixed pixel pattern drops more pixels as vFade falls.
  vec2 q = floor(mod(gl_FragCoord.xy, 4.0));
  float dither = (mod(q.x * 2.0 + q.y * 3.0, 4.0) * 4.0 + mod(q.x + q.y * 2.0, 4.0) + 0.5) / 16.0;
  if (dither > vFade) discard;
  vec3 n = normalize(vNormal);
  float day = smoothstep(-0.1, 0.25, dot(vUp, uSun));
  float lit = max(dot(n, uSun), 0.0) * 0.75 + 0.25 * (0.6 + 0.4 * dot(n, vUp));
  vec3 c = uColor * (1.0 + 0.25 * vTint) * (0.15 + 0.85 * day) * (0.35 + 0.9 * lit);
  // Thin haze towards the sky colour with distance, as the terrain's far ground.
  c = mix(c, uHaze * (0.2 + 0.8 * day), 1.0 - exp(-vDist / uHazeM));
  oColor = vec4(c, 1.0);
  sfLogDepth();
}`;
