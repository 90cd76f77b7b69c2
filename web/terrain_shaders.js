// This module holds the page's terrain shaders: per-pixel relief, colours from the palette map, sea, lakes and shorelines, surface detail close up (stream/surface_glsl.js), lit and hazed by the atmosphere of web/sky_shaders.js.
import { SURFACE_NOISE_GLSL, SURFACE_MATERIAL_GLSL, SURFACE_WATER_GLSL, SURFACE_BLEND_GLSL, LOG_DEPTH_VS, LOG_DEPTH_FS } from '../stream/surface_glsl.js';
import { CHUNK_CORE, CHUNK_EDGE } from '../stream/geo.js';
import { ATMOSPHERE } from './sky_shaders.js';
import { SHADOW_GLSL } from './shadow_glsl.js';

export const TERRAIN_VS = `#version 300 es
layout(location=0) in vec4 aPosH;
layout(location=1) in vec4 aMorphH;
layout(location=3) in uint aPal;
layout(location=4) in vec4 aColor;
uniform mat4 uViewProj;
uniform vec3 uOffset;
uniform float uMorph;
uniform int uUsePalette;
uniform sampler2D uPalette;
uniform vec3 uEye;
uniform int uRow; uniform int uGrid; uniform float uStride;
uniform sampler2D uLakeMap; uniform int uHasLakes; uniform float uExag;
out vec3 vRel; out float vH; out vec3 vColor; out vec2 vUv;
${LOG_DEPTH_VS}
void main() {
  vec4 p = mix(aMorphH, aPosH, uMorph);
  vRel = p.xyz + uOffset;
  vH = p.w;
  int v = gl_VertexID, i, j;
  if (v < uGrid) { i = v % uRow; j = v / uRow; }
  else {
    // Skirts: 4 edges (top, bottom, left, right) of uRow vertices each.
    int e = (v - uGrid) / uRow, k = (v - uGrid) % uRow, n = uRow - 1;
    i = e == 0 ? k : e == 1 ? k : e == 2 ? 0 : n;
    j = e == 0 ? 0 : e == 1 ? n : k;
  }
  vUv = (vec2(float(i), float(j)) * uStride + 0.5) / ${CHUNK_EDGE}.0;
  // Under the sea, and under a lake, the terrain is drawn at the water's
  // level: one surface, so water and bed never fight for a pixel; the
  // fragment shader puts the water on it where the relief map says the
  // ground is below that level. Skirts move with their edge vertex.
  float level = 0.0;
  if (uHasLakes == 1) level = max(level, texelFetch(uLakeMap, ivec2(vec2(float(i), float(j)) * uStride), 0).r * uExag);
  if (p.w < level) vRel += normalize(uEye + vRel) * (level - p.w);
  int pal = int(aPal);
  // Sea-bed vertices take the sand colour: the water is laid over them per pixel.
  if (uUsePalette == 1 && pal < 5) pal += 5;
  vColor = uUsePalette == 1 ? texelFetch(uPalette, ivec2(pal, 0), 0).rgb : aColor.rgb;
  gl_Position = uViewProj * vec4(vRel, 1.0);
  sfLogDepth();
}`;

export const TERRAIN_FS = `#version 300 es
precision highp float;
precision highp int;   // uHasLakes is shared with the vertex shader, whose ints are highp
// SF_DETAIL 0 compiles the shader without surface detail (for tiles too far to show any).
#ifndef SF_DETAIL
#define SF_DETAIL 1
#endif
in vec3 vRel; in float vH; in vec3 vColor; in vec2 vUv;
uniform vec3 uEye; uniform vec3 uSea; uniform vec3 uShallow; uniform vec3 uRock;
uniform float uExag; uniform float uRelief; uniform float uAlpha; uniform int uHasRelief;
uniform sampler2D uReliefMap; uniform sampler2D uLakeMap; uniform int uHasLakes;
uniform sampler2D uPalette; uniform highp usampler2D uPalMap; uniform int uHasPalMap;
// Surface detail: the world's finest sample spacing (detail fades in as it
// spans more than half a pixel) and a master switch.
uniform float uSurfaceSpacingM; uniform float uDetail;
${ATMOSPHERE}
${LOG_DEPTH_FS}
${SURFACE_NOISE_GLSL}
${SURFACE_MATERIAL_GLSL}
// The sky along dir for a point whose up is up, as the sky shader draws it from inside the air.
vec3 sfSky(vec3 dir, vec3 up) {
  float od = exp(-max(uEyeH, 0.0) / uAtmoH) * airmass(dot(dir, up));
  return (1.0 - exp(-BETA * od)) * sunlightAt(dot(up, uSun)) * phase(dot(dir, uSun)) * SKY_GAIN;
}
${SURFACE_WATER_GLSL}
${SHADOW_GLSL}
out vec4 outColor;
int mapIndex(ivec2 p) { return int(texelFetch(uPalMap, clamp(p, ivec2(0), ivec2(${CHUNK_CORE})), 0).r); }
// One sample of the palette map: its colour (sea-bed samples in sand, as in
// the vertex shader: the water is laid over them per pixel) in rgb, and in a
// whether the core calls it wet (palette entries below 5 are water).
vec4 mapSample(ivec2 p) {
  int k = mapIndex(p);
  float wet = k < 5 ? 1.0 : 0.0;
  if (k < 5) k += 5;
  return vec4(texelFetch(uPalette, ivec2(k, 0), 0).rgb, wet);
}
// The palette map at texel coordinate t (sample i at t = i), blended
// bilinearly from the four nearest samples. rgb: the ground colour, so biome
// boundaries follow the full-resolution data whatever the mesh stride, not
// the triangles. a: the share of wet samples; where sea beds lie within a
// height quantum of the surface (shelves at 0 m) the heights alone cannot
// tell water from sand, and comparing them drew a sand-and-blue mosaic.
vec4 mapAt(vec2 t) {
  vec2 f = fract(t);
  ivec2 a = ivec2(floor(t));
  return mix(mix(mapSample(a), mapSample(a + ivec2(1, 0)), f.x),
             mix(mapSample(a + ivec2(0, 1)), mapSample(a + ivec2(1, 1)), f.x), f.y);
}
${SURFACE_BLEND_GLSL}
// The relief map's height at texel t, bilinear from the full-resolution level.
float heightAt(vec2 t) {
  vec2 f = fract(t);
  ivec2 a = ivec2(floor(t)), hi = ivec2(${CHUNK_CORE});
  float h00 = texelFetch(uReliefMap, clamp(a, ivec2(0), hi), 0).w, h10 = texelFetch(uReliefMap, clamp(a + ivec2(1, 0), ivec2(0), hi), 0).w;
  float h01 = texelFetch(uReliefMap, clamp(a + ivec2(0, 1), ivec2(0), hi), 0).w, h11 = texelFetch(uReliefMap, clamp(a + ivec2(1, 1), ivec2(0), hi), 0).w;
  return mix(mix(h00, h10, f.x), mix(h01, h11, f.x), f.y);
}
// The mean depth below level of the wet samples among the four around texel
// t (heights from the relief map), for a pixel the map calls wet where its
// interpolated height is not below the level. A coarse tile's samples lie
// kilometres apart, and land between two wet samples drawn as the 2 m the
// shoreline gets shone as bright shallow-water boxes and wedges from orbit.
float wetDepthAt(vec2 t, float level) {
  vec2 f = fract(t);
  ivec2 a = ivec2(floor(t));
  float sum = 0.0, wsum = 0.0;
  for (int i = 0; i < 4; i++) {
    ivec2 p = clamp(a + ivec2(i & 1, i >> 1), ivec2(0), ivec2(${CHUNK_CORE}));
    if (mapIndex(p) >= 5) continue;
    float b = ((i & 1) == 1 ? f.x : 1.0 - f.x) * ((i >> 1) == 1 ? f.y : 1.0 - f.y);
    sum += b * max(level - texelFetch(uReliefMap, p, 0).w, 0.0);
    wsum += b;
  }
  return wsum > 0.0 ? sum / wsum : 0.0;
}
// A biome's palette colour at a continuous shade (0 darkest .. 4 lightest):
// the five shades as one ramp, so no contour bands where they meet.
vec3 shadeRamp(int b, float s) {
  s = clamp(s, 0.0, 4.0);
  int lo = int(floor(s));
  vec3 a = texelFetch(uPalette, ivec2(b * 5 + lo, 0), 0).rgb;
  vec3 c = texelFetch(uPalette, ivec2(b * 5 + min(lo + 1, 4), 0), 0).rgb;
  return mix(a, c, s - float(lo));
}
// The textured ground near texel t: the four nearest samples' materials
// height-blended (boundaries shaped by the noise, not by the sample grid),
// each in its biome's shade ramp at the shade the samples around it share.
// rgb: albedo, a: bump strength. Sea-bed samples are sand.
vec4 groundAt(vec2 t, SfDetail d, float blot, vec3 rel, float fpM) {
  vec2 f = fract(t);
  ivec2 a = ivec2(floor(t));
  int bi[4]; float sh[4], beta[4], score[4];
  beta[0] = (1.0 - f.x) * (1.0 - f.y); beta[1] = f.x * (1.0 - f.y); beta[2] = (1.0 - f.x) * f.y; beta[3] = f.x * f.y;
  float top = -9.0, rip = 0.0;
  bool sandy = false;
  for (int i = 0; i < 4; i++) {
    int k = mapIndex(a + ivec2(i & 1, i >> 1));
    if (k < 5) k += 5;
    bi[i] = k / 5; sh[i] = float(k - 5 * (k / 5));
    sandy = sandy || bi[i] == 1 || bi[i] == 6;
    score[i] = beta[i] + sfMaterialHeight(bi[i], d, blot);
    top = max(top, score[i]);
  }
  if (sandy) rip = sfRipples(rel, fpM, 0x5a4d0001u);
  vec3 albedo = vec3(0.0);
  float rough = 0.0, wsum = 0.0;
  for (int i = 0; i < 4; i++) {
    float w = max(score[i] - top + 0.12, 0.0);
    if (w <= 0.0) continue;
    float s = 0.0, n = 0.0;
    for (int q = 0; q < 4; q++) if (bi[q] == bi[i]) { s += beta[q] * sh[q]; n += beta[q]; }
    vec3 base = shadeRamp(bi[i], s / max(n, 1e-4) + 0.8 * blot + 0.25 * d.v.x);
    albedo += w * sfMaterial(bi[i], base, d, blot, rip);
    rough += w * sfRoughness(bi[i]);
    wsum += w;
  }
  return vec4(albedo, rough) / wsum;
}
// Largest power of two at or below x metres, within the octave range.
float pow2Below(float x) { return exp2(floor(log2(clamp(x, 1.0 / 16.0, 512.0)))); }
void main() {
  sfLogDepth();
  vec3 up = normalize(uEye + vRel);
  vec4 rel = uHasRelief == 1 ? texture(uReliefMap, vUv) : vec4(0.0, 0.0, 0.0, vH / uExag);
  vec2 tx = vUv * ${CHUNK_EDGE}.0 - 0.5;
  // Real metres, per pixel, from the full-resolution samples: the filtered
  // map's coarser mips (from orbit) average land and sea across a coast into
  // a bed a few metres deep, which drew bright shallow-water boxes and
  // wedges on land the core calls dry.
  float h = uHasRelief == 1 ? heightAt(tx) : rel.w;
  // The water surface here: the sea at 0 m, or a lake's level where the lake
  // map has one (spread past the shore, so the filtered level holds up to the
  // line where the filtered ground rises above it: a per-pixel shoreline).
  // The lake counts only between samples of which one at least is wet: from
  // a coarse tile the two samples of spread reach 10-20 km onto the shore,
  // and low land there, below the lake, was drawn as bright shallow water in
  // boxes with fading edges.
  vec4 map = uHasPalMap == 1 ? mapAt(tx) : vec4(vColor, 0.0);
  float level = 0.0;
  if (uHasLakes == 1 && (uHasPalMap == 0 || map.a > 0.0)) level = max(level, texture(uLakeMap, vUv).r);
  // The relief map's lean, strengthened from far away so relief reads like a hillshade.
  vec3 n = normalize(up + rel.xyz * uRelief);
  float steep = 1.0 - dot(normalize(up + rel.xyz), up);
  // Colour per pixel from the palette map where the tile has one. Where a
  // pixel spans a sample or more both ways (far away) the map aliases (from
  // orbit, with the switch at 1.5-4 samples, the land was a grainy speckle of
  // single samples' shades), and the vertex colours take over: a triangle
  // there is a few pixels at most. The narrower axis decides: at grazing
  // angles the ground is squeezed only in depth, and switching there brought
  // back the triangles' teeth.
  float texelsPerPx = min(length(dFdx(tx)), length(dFdy(tx)));
  // The pixel's footprint on the ground (metres, its longer axis) and how
  // much surface detail it shows: none while the world's finest samples are
  // under half a pixel apart (the globe from orbit is drawn as it always was).
  float fpM = max(max(length(dFdx(vRel)), length(dFdy(vRel))), 1e-3);
#if SF_DETAIL
  float detail = uHasPalMap == 1 ? uDetail * smoothstep(0.5, 2.0, uSurfaceSpacingM / fpM) : 0.0;
#else
  float detail = 0.0;
#endif
  // The softened map (sfMapSoft): colour steps between samples become ramps.
  vec3 base = uHasPalMap == 1 ? mix(sfMapSoft(tx), vColor, smoothstep(0.75, 1.5, texelsPerPx)) : vColor;
  float wetMap = map.a;
  float rough = 0.0;
  SfDetail d = SfDetail(vec3(0.0), vec3(0.0));
#if SF_DETAIL
  if (detail > 0.0) {
    // Octaves start a few samples wide: the data's own variation at that
    // scale is smooth (bilinear), and flat biomes would otherwise stay a
    // sheet out to where the detail fades.
    float topM = pow2Below(uSurfaceSpacingM);
    d = sfDetail(vRel, fpM, min(4.0 * topM, 512.0), 0x1a2b3c4du);
    float bc = min(2.0 * topM, 512.0);
    float b1 = sfNoise(vRel, 1, ivec3(int(SF_ANCHOR_M / bc)), 0x9a7c4001u).x;
    float b2 = sfNoise(vRel, 2, ivec3(int(SF_ANCHOR_M / topM)), 0x9a7c4002u).x;
    float bw1 = sfOctaveWeight(bc, fpM), bw2 = sfOctaveWeight(topM, fpM);
    float blot = bw1 * b1 * 0.7 + bw2 * b2 * 0.3;
    // Biome boundaries wander by up to about half a sample (the same two
    // noises, as a vector), fading to none at the tile's edge so neighbours
    // still agree there.
    vec2 warp = vec2(b1 * bw1, b2 * bw2);
    vec2 edge = min(tx, ${CHUNK_CORE}.0 - tx);
    warp *= 0.6 * smoothstep(0.0, 1.5, min(edge.x, edge.y));
    vec4 g = groundAt(tx + warp, d, blot, vRel, fpM);
    base = mix(base, g.rgb, detail);
    rough = g.a * detail;
    // The shore wanders with the same noise (render-only: the ground's
    // heights and the core's water never change).
    wetMap += detail * 0.25 * blot * (1.0 - abs(2.0 * wetMap - 1.0));
    h += detail * clamp(0.1 * d.v.z, -0.4, 0.4);
  }
#endif
  // Ground cover (grasses, soil, stones) by the nearest sample's biome, and
  // damp ground within a few metres above the water or next to wet samples
  // (sea, lakes, rivers), in both variants of the shader (0 from orbit).
  int coverBiome = uHasPalMap == 1 ? mapIndex(ivec2(floor(tx + 0.5))) / 5 : -1;
  float damp = (1.0 - smoothstep(0.3, 2.5, h - level)) * step(level, h) + smoothstep(0.0, 0.45, wetMap);
  base = sfGroundCover(coverBiome == 0 ? 1 : coverBiome, base, vRel, fpM, clamp(damp, 0.0, 1.0) * step(wetMap, 0.5));
  // Rock on steep ground (the palette's rock shade), not on beaches or under water.
  vec3 rockCol = uRock;
#if SF_DETAIL
  if (detail > 0.0) rockCol = mix(uRock, sfMaterial(4, uRock, d, 0.0, 0.0), detail);
#endif
  float rockW = smoothstep(0.09, 0.22, steep / max(uExag, 1.0)) * step(level + 2.0, h);
  base = mix(base, rockCol, rockW);
  // Patches a few hundred metres wide, in both variants of the shader (they
  // show from a few kilometres, where a sample is under a pixel and the
  // detail above has faded; from orbit they are 0).
  float patches = sfPatches(vRel, fpM);
  base *= 1.0 + 0.16 * patches;
#if SF_DETAIL
  if (detail > 0.0) n = sfBump(n, d.grad, mix(rough, sfRoughness(4) * detail, rockW));
#endif
  float sunMu = dot(up, uSun);
  // Sunlight, less where the terrain casts a shadow (web/shadows.js).
  vec3 sunL = sunlightAt(sunMu) * shadowSun(vRel, up);
  vec3 sky = vec3(0.05, 0.09, 0.16) * daylight(sunMu) + vec3(0.004, 0.005, 0.01);
  // Ground albedo under full sun stays below white (snow must not clip).
  vec3 col = base * (sunL * max(dot(n, uSun), 0.0) * 0.6 + sky);
  // Water where the full-resolution height is below the surface, or where
  // the core's own wet samples say so (its shoreline: half way between a wet
  // and a dry sample); those read as at least two metres deep.
  if (h < level || wetMap > 0.5) {
    // Water, decided per pixel from the full-resolution height: colour and
    // opacity follow the depth (turquoise shelves, dark deep water).
    float wetDepth = uHasRelief == 1 && uHasPalMap == 1 && h >= level ? wetDepthAt(tx, level) : 0.0;
    float depth = max(level - h, max(2.0, wetDepth) * smoothstep(0.5, 1.0, wetMap));
    // The shallow tint (sand seen through clear water): at most half the
    // colour, fading over the first ten metres or so. The sea walk leaves
    // some macro vertices by the coast 1-3 m deep, so whole macro triangles
    // are flat banks that shallow; with the full tint over 25 m, seen through
    // 30-50% opacity onto sand-coloured beds, they shone as bright cyan
    // wedges and streaks from orbit.
    vec3 water = mix(uSea, uShallow, 0.5 * exp(-depth / 10.0)) * mix(1.0, 0.45, 1.0 - exp(-depth / 900.0));
    // Sediment and plankton patches: the same field as the land's (0 from orbit).
    water *= 1.0 + 0.08 * patches;
    // Under water the bed is wet sediment, darker than the beach's dry sand.
    col *= mix(1.0, 0.6, smoothstep(0.0, 1.0, depth));
    float opacity = 1.0 - exp(-depth / 3.0) * 0.55;
    vec3 v = normalize(-vRel);
    // Reflections and glint only where there is water to reflect: they fade
    // in over the first metre of depth, so wet sand at the line stays sand.
    float wet = smoothstep(0.0, 1.0, depth);
    // Swell and slicks from a distance (both variants; up itself from orbit).
    float calm = level > 0.5 ? 1.0 : 0.0;
    vec3 wn0 = sfBump(up, sfSwellGrad(vRel, fpM, calm), 1.0);
    float fres = 0.02 + 0.98 * pow(1.0 - max(dot(wn0, v), 0.0), 5.0);
    vec3 wFar = mix(col, water * (sunL * max(dot(wn0, uSun), 0.0) + sky * 2.0), opacity);
    wFar = mix(wFar, sky * 4.0 + sunL * 0.05, fres * 0.6 * wet) + glint(wn0, v, sunMu, uGlint) * wet;
#if SF_DETAIL
    // Waves fade over a wider range than the ground's detail: the open sea
    // has no texture of its own to hide a change of look in.
    float wd = uHasPalMap == 1 ? uDetail * smoothstep(0.02, 2.0, uSurfaceSpacingM / fpM) : 0.0;
    if (wd > 0.0) {
      // Close up: waves (calmer on lakes), the sky mirrored in them by
      // Fresnel, the sun's glitter on each facet, and foam at the line.
      vec3 wn = sfWaveNormal(vRel, wn0, fpM, calm);
      vec4 refl = sfWaterReflect(v, wn, up);
      vec3 wNear = mix(col, water * (sunL * max(dot(wn, uSun), 0.0) + sky * 2.0), opacity);
      wNear = mix(wNear, refl.rgb, refl.a * wet) + glint(wn, v, sunMu, uGlint) * wet;
      float foam = sfFoam(vRel, depth, fpM);
      wNear = mix(wNear, vec3(0.85, 0.88, 0.9) * (sunL * max(sunMu, 0.0) * 0.6 + sky), foam * 0.85);
      col = mix(wFar, wNear, wd);
    } else {
      col = wFar;
    }
#else
    col = wFar;
#endif
  }
  vec3 tr;
  vec3 ins = aerial(uEye, normalize(vRel), length(vRel), max(h, level) * uExag, up, tr);
  outColor = vec4(tone(col * tr + ins), uAlpha);
}`;

/** The terrain shader without surface detail: the same pixels where detail is 0, cheaper. */
export const TERRAIN_FS_PLAIN = TERRAIN_FS.replace('#version 300 es\n', '#version 300 es\n#define SF_DETAIL 0\n');
