// This module holds the GLSL of the page's terrain shadows (web/shadows.js renders the maps): the depth-only caster program drawn from the sun, and the lookup the terrain fragment shader calls, which finds the finest cascade holding a pixel and compares its depth there.

/** Cascades in the shadow atlas (2 x 2 squares of one depth texture). */
export const SHADOW_CASCADES = 4;

/**
 * Texture unit of the shadow atlas in the terrain programs (0..3 hold the
 * palette, relief, lake and palette maps).
 */
export const SHADOW_UNIT = 4;

/**
 * Caster vertex shader: the terrain mesh (the same attributes and geomorph as
 * web/terrain_shaders.js) in one cascade's orthographic box. Casters between
 * the sun and the box's sunward face are flattened onto it ("pancaking"), so
 * the box need not reach up to every mountain that may shade it.
 */
export const SHADOW_CASTER_VS = `#version 300 es
layout(location=0) in vec4 aPosH;
layout(location=1) in vec4 aMorphH;
uniform mat4 uLightMat; uniform vec3 uOffset; uniform float uMorph;
void main() {
  vec4 p = mix(aMorphH, aPosH, uMorph);
  gl_Position = uLightMat * vec4(p.xyz + uOffset, 1.0);
  gl_Position.z = max(gl_Position.z, -1.0);
}`;

/** Caster fragment shader: depth only. */
export const SHADOW_CASTER_FS = `#version 300 es
precision mediump float;
void main() {}`;

/**
 * The terrain fragment shader's lookup: shadowSun(rel, up) is 1 in sunlight
 * and 0 in a cast shadow (soft over about a texel: the comparison sampler's
 * bilinear filter). rel: the pixel's camera-relative position (metres), up:
 * its local vertical. With SF_SHADOWS 0 it is the constant 1 and the program
 * pays nothing.
 */
export const SHADOW_GLSL = `
#ifndef SF_SHADOWS
#define SF_SHADOWS 0
#endif
#if SF_SHADOWS
uniform highp sampler2DShadow uShadowMap;
// Per cascade: camera-relative metres to the cascade's unit cube (xy across
// the map, z depth from the sunward face), and x: its texel in metres,
// y: the depth bias in depth units, z: the map's texel in uv.
uniform mat4 uShadowMat[${SHADOW_CASCADES}];
uniform vec4 uShadowTexel[${SHADOW_CASCADES}];
float shadowSun(vec3 rel, vec3 up) {
  for (int i = 0; i < ${SHADOW_CASCADES}; i++) {
    // Normal offset: look up a point a couple of texels above the ground. At
    // a low sun that moves the lookup a long way along the ray (the offset
    // over the sine of the sun's height), which is what a grazing light
    // needs to keep the ground from shadowing itself.
    vec4 q = uShadowMat[i] * vec4(rel + up * (2.0 * uShadowTexel[i].x), 1.0);
    float m = 1.5 * uShadowTexel[i].z;
    if (any(lessThan(q.xy, vec2(m))) || any(greaterThan(q.xy, vec2(1.0 - m))) || q.z > 1.0) continue;
    vec2 uv = (q.xy + vec2(float(i & 1), float(i >> 1))) * 0.5;
    float lit = texture(uShadowMap, vec3(uv, q.z - uShadowTexel[i].y));
    // The last cascade fades out towards its rim: no line where shadows end.
    if (i == ${SHADOW_CASCADES - 1}) lit = mix(lit, 1.0, smoothstep(0.8, 1.0, 2.0 * max(abs(q.x - 0.5), abs(q.y - 0.5))));
    return lit;
  }
  return 1.0;
}
#else
float shadowSun(vec3 rel, vec3 up) { return 1.0; }
#endif
`;
