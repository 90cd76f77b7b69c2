// This module is the render-only surface detail as GLSL chunks (plain strings, no GL calls) and the float64 maths that anchors them to the planet: solid noise in world-anchored lattices, per-biome materials with detail normals, close-up water (waves, sky reflection, shore foam) and logarithmic depth, for the demo's shaders and for three.js materials alike.
//
// Precision. A point on a 6371 km planet has float32 steps of half a metre,
// so no world coordinate ever reaches the GPU. The CPU splits the eye (in
// float64) into an integer lattice cell of SURFACE_ANCHOR_M metres and a
// remainder; the shader adds the camera-relative position (which is small
// exactly where detail is visible) to that remainder, and an octave of
// cell size c = SURFACE_ANCHOR_M / m finds its lattice index as
// cell * m + floor(...), in integers. The pattern is therefore a function of
// the world position alone: it does not move with the camera, and tiles,
// LODs and cube faces all read the same field, so it is continuous across
// their borders by construction. Three lattice frames, rotated against each
// other, take turns by octave so the cubic lattice never shows its axes.
//
// Solid noise instead of triplanar mapping: a 3D field cut by the ground has
// no projection, so it cannot stretch on cliffs, the artefact triplanar
// blending exists to hide, and it costs one lookup per octave instead of three.

/** Metres per anchor lattice cell: a power of two so that every octave's cell divides it. */
export const SURFACE_ANCHOR_M = 1024;

/** Rotations of the three lattice frames (row-major), irrational-looking angles about skew axes. */
// Rounded to float32 here, so the CPU's anchors and the GPU's rotation use
// the very same matrix (a float64 anchor with a float32 rotation would be
// 6e-8 of the planet's radius, 0.4 m, apart).
const FRAMES = [[1, 0, 0], [0.6, 0.48, 0.64], [-0.36, 0.8, 0.48]].map((axis, k) => rotation(axis, [0, 0.71, 1.37][k]).map(Math.fround));

function rotation(axis, angle) {
  const l = Math.hypot(...axis), [x, y, z] = axis.map((a) => a / l);
  const c = Math.cos(angle), s = Math.sin(angle), t = 1 - c;
  return [t * x * x + c, t * x * y - s * z, t * x * z + s * y,
    t * x * y + s * z, t * y * y + c, t * y * z - s * x,
    t * x * z - s * y, t * y * z + s * x, t * z * z + c];
}

/**
 * The eye's place in the three lattice frames, for the uniforms uSfCell[3]
 * (ivec3), uSfFine[3] (vec3) and uSfRot[3] (mat3, column-major as GL wants).
 * @param {number[]} eye float64 world position of the camera (metres)
 * @returns {{cell: Int32Array, fine: Float32Array, rot: Float32Array}}
 */
export function surfaceAnchors(eye) {
  const cell = new Int32Array(9), fine = new Float32Array(9), rot = new Float32Array(27);
  FRAMES.forEach((r, k) => {
    for (let a = 0; a < 3; a++) {
      const p = r[3 * a] * eye[0] + r[3 * a + 1] * eye[1] + r[3 * a + 2] * eye[2];
      const c = Math.floor(p / SURFACE_ANCHOR_M);
      cell[3 * k + a] = c;
      fine[3 * k + a] = p - c * SURFACE_ANCHOR_M;
      for (let b = 0; b < 3; b++) rot[9 * k + 3 * b + a] = r[3 * a + b];
    }
  });
  return { cell, fine, rot };
}

/**
 * Noise: integer-hashed value noise with analytic derivatives in the anchored
 * lattices, and the octave sums every material reads. Needs highp floats and ints.
 */
export const SURFACE_NOISE_GLSL = `
uniform ivec3 uSfCell[3]; uniform vec3 uSfFine[3]; uniform mat3 uSfRot[3];
const float SF_ANCHOR_M = ${SURFACE_ANCHOR_M.toFixed(1)};
uint sfMix(uint h) { h ^= h >> 16; h *= 0x7feb352du; h ^= h >> 15; h *= 0x846ca68bu; h ^= h >> 16; return h; }
float sfLat(ivec3 c, uint salt) {
  uvec3 u = uvec3(c);
  return float(sfMix(u.x * 0x8da6b343u + u.y * 0xd8163841u + u.z * 0xcb1ab31fu + salt) >> 8) * (1.0 / 8388608.0) - 1.0;
}
// Value noise in frame j at rel (metres from the eye), m cells per anchor
// cell along each axis: (value in [-1,1], gradient per metre in world axes).
vec4 sfNoise(vec3 rel, int j, ivec3 m, uint salt) {
  vec3 k = vec3(m) / SF_ANCHOR_M;
  vec3 x = (uSfFine[j] + uSfRot[j] * rel) * k;
  vec3 fl = floor(x), f = x - fl;
  ivec3 c = uSfCell[j] * m + ivec3(fl);
  vec3 u = f * f * f * (f * (f * 6.0 - 15.0) + 10.0);
  vec3 du = 30.0 * f * f * (f * (f - 2.0) + 1.0);
  float a = sfLat(c, salt), b = sfLat(c + ivec3(1, 0, 0), salt);
  float cc = sfLat(c + ivec3(0, 1, 0), salt), d = sfLat(c + ivec3(1, 1, 0), salt);
  float e = sfLat(c + ivec3(0, 0, 1), salt), g = sfLat(c + ivec3(1, 0, 1), salt);
  float h = sfLat(c + ivec3(0, 1, 1), salt), i = sfLat(c + ivec3(1, 1, 1), salt);
  float k1 = b - a, k2 = cc - a, k3 = e - a, k4 = a - b - cc + d;
  float k5 = a - cc - e + h, k6 = a - b - e + g, k7 = -a + b + cc - d + e - g - h + i;
  float v = a + k1 * u.x + k2 * u.y + k3 * u.z + k4 * u.x * u.y + k5 * u.y * u.z + k6 * u.z * u.x + k7 * u.x * u.y * u.z;
  vec3 dv = du * vec3(k1 + k4 * u.y + k6 * u.z + k7 * u.y * u.z,
                      k2 + k5 * u.z + k4 * u.x + k7 * u.z * u.x,
                      k3 + k6 * u.x + k5 * u.y + k7 * u.x * u.y);
  return vec4(v, transpose(uSfRot[j]) * (dv * k));
}
// How much of an octave of cell size cellM a pixel of footprint fpM can show:
// 0 once a cell spans under 1.5 pixels (it would alias), 1 from 3 pixels.
float sfOctaveWeight(float cellM, float fpM) { return smoothstep(1.5, 3.0, cellM / fpM); }
// The shared detail of the land: octaves from topM (a power of two, at most
// the anchor cell) down to the pixel footprint, at most SF_OCTAVES of them:
// where more would show (near the eye of a coarse world) the coarsest are
// left out, the last one kept fading, so the finest detail is never lost.
// Each octave's salt and frame follow its cell size, not its place in the
// loop, so leaving coarse octaves out never changes the finer ones.
//   v.x: albedo variation (about [-1,1], fine octaves nearly as strong as
//   coarse ones), v.y: cracks (0..1, ridged: thin dark lines), v.z: bump
//   height in metres for unit roughness; grad: the bump's gradient (metres
//   per metre, world axes).
const int SF_OCTAVES = 7;
struct SfDetail { vec3 v; vec3 grad; };
SfDetail sfDetail(vec3 rel, float fpM, float topM, uint salt) {
  SfDetail s; s.v = vec3(0.0); s.grad = vec3(0.0);
  float skip = max(log2(topM / (1.5 * fpM)) - float(SF_OCTAVES - 1), 0.0);
  float first = 1.0 - fract(skip);
  float cell = topM * exp2(-floor(skip));
  int m = int(SF_ANCHOR_M / cell + 0.5);
  float amp = 1.0, norm = 0.0;
  for (int o = 0; o < SF_OCTAVES; o++) {
    float w = sfOctaveWeight(cell, fpM) * (o == 0 ? first : 1.0);
    if ((w <= 0.0 && o > 0) || m > 65536) break;
    int a = int(log2(float(m)) + 0.5);
    vec4 n = sfNoise(rel, a - 3 * (a / 3), ivec3(m), salt + uint(a) * 0x9e3779b9u);
    float r = 1.0 - abs(n.x);
    s.v += w * vec3(amp * n.x, amp * r * r * r * r, 0.5 * cell * n.x);
    s.grad += w * 0.5 * cell * n.yzw;
    norm += w * amp;
    amp *= 0.85;
    cell *= 0.5; m *= 2;
  }
  s.v.xy /= max(norm, 0.5);
  return s;
}
// Patches of the ground's albedo a few hundred metres wide (vegetation,
// soil, weathering) for ground seen from a distance; about [-1, 1] times
// their weight, 0 where the top octave spans under 1.5 pixels (from orbit).
const float SF_PATCH_TOP_M = 256.0;
float sfPatches(vec3 rel, float fpM) {
  if (fpM * 1.5 >= SF_PATCH_TOP_M) return 0.0;
  float v = 0.0, cell = SF_PATCH_TOP_M;
  int m = int(SF_ANCHOR_M / cell);
  for (int o = 0; o < 3; o++) {
    float w = sfOctaveWeight(cell, fpM);
    if (w <= 0.0) break;
    v += w * sfNoise(rel, o, ivec3(m), 0x9a7c0100u + uint(o)).x * (o == 0 ? 0.5 : o == 1 ? 0.3 : 0.2);
    cell *= 0.5; m *= 2;
  }
  return v;
}
// Bends normal nrm by a bump gradient (metres per metre) scaled by strength.
vec3 sfBump(vec3 nrm, vec3 grad, float strength) {
  vec3 t = grad - dot(grad, nrm) * nrm;
  return normalize(nrm - t * strength);
}
`;

/**
 * Materials of the core's eight biomes (palette entries biome * 5 + shade):
 * 0 sea bed, 1 sand, 2 grass, 3 forest floor, 4 rock, 5 snow, 6 desert, 7 tundra.
 * Needs SURFACE_NOISE_GLSL first. sfMaterial turns a palette colour into the
 * biome's textured albedo; sfRoughness is its bump strength; sfMaterialHeight
 * is the height-blend score that shapes boundaries between materials.
 */
export const SURFACE_MATERIAL_GLSL = `
// Bump strength per biome (unit-roughness bump times this).
float sfRoughness(int b) {
  return b == 4 ? 0.55 : b == 3 ? 0.3 : b == 7 ? 0.28 : b == 2 ? 0.22 : b == 5 ? 0.06 : 0.1;
}
// Height-blend score (about -0.5..0.5): where two materials meet, the one
// whose score is higher shows through, so boundaries follow the noise (rock
// outcrops through grass, snow in hollows) instead of the sample grid.
float sfMaterialHeight(int b, SfDetail d, float blot) {
  if (b == 4) return 0.35 * blot + 0.25 * d.v.x + 0.1;
  if (b == 5) return -0.35 * blot - 0.15 * d.v.x;
  if (b == 3) return 0.3 * blot + 0.2 * d.v.y;
  return 0.25 * blot + 0.15 * d.v.x * (b == 2 ? -1.0 : 1.0);
}
// Sand ripples: ridged noise stretched across one lattice axis, two scales.
float sfRipples(vec3 rel, float fpM, uint salt) {
  float r = 0.0;
  for (int o = 0; o < 2; o++) {
    float cell = o == 0 ? 0.5 : 0.125;
    float w = sfOctaveWeight(cell, fpM);
    if (w <= 0.0) break;
    int m = int(SF_ANCHOR_M / cell);
    float n = sfNoise(rel, 1 + o, ivec3(m, m / 4, m / 4), salt + uint(o)).x;
    r += w * (1.0 - abs(n)) * (o == 0 ? 0.7 : 0.3);
  }
  return r;
}
// Albedo of biome b at a pixel: base is the palette colour (continuous shade),
// d the shared detail, blot a blotch noise of a few samples' size, rip ripples.
vec3 sfMaterial(int b, vec3 base, SfDetail d, float blot, float rip) {
  float v = d.v.x, cr = d.v.y;
  vec3 c = base;
  if (b == 4) {           // rock: strong grain, dark cracks, lichen tints
    c *= 1.0 + 0.45 * v - 0.45 * cr;
    c = mix(c, c * vec3(1.06, 1.0, 0.86), smoothstep(0.2, 0.6, blot));
  } else if (b == 2) {    // grass: tufts, yellowed and lush patches
    c *= 1.0 + 0.35 * v;
    c = mix(c, c * vec3(1.25, 1.1, 0.6), smoothstep(-0.1, 0.6, blot) * 0.6);
    c = mix(c, c * vec3(0.7, 0.95, 0.75), smoothstep(0.1, 0.7, -blot) * 0.5);
  } else if (b == 3) {    // forest floor: litter, moss, deep shade between roots
    c *= 1.0 + 0.45 * v - 0.35 * cr;
    c = mix(c, c * vec3(1.35, 1.05, 0.7), smoothstep(0.0, 0.6, blot) * 0.5);
  } else if (b == 5) {    // snow: nearly smooth, wind-packed in faint sheets
    c *= 1.0 + 0.05 * v + 0.03 * blot;
  } else if (b == 7) {    // tundra: lichen, moss and bare stones in mottles
    c *= 1.0 + 0.35 * v;
    c = mix(c, c * vec3(1.2, 1.15, 0.8), smoothstep(0.2, 0.5, v + 0.3 * blot) * 0.6);
    c = mix(c, vec3(dot(c, vec3(0.33))), smoothstep(0.35, 0.7, cr) * 0.6);
  } else {                // sand, sea bed, desert: fine grain and ripples
    c *= 1.0 + 0.16 * v + 0.14 * (rip - 0.5) + 0.05 * blot;
    if (b == 6) c = mix(c, c * vec3(1.1, 0.92, 0.8), smoothstep(0.0, 0.6, blot) * 0.5);
  }
  return c;
}
// Ground cover below the sample spacing on vegetated (b 2, 3, 7) and sandy
// (1, 6) ground: meadows of drier, yellowed and lusher, blue-green grass
// (cells of 128 and 64 m), bare soil in patches (32 and 16 m), stones (2 m),
// each octave fading in once its cells span 1.5-3 pixels (so 0 from orbit);
// and on any ground, damp (0..1: near water) darkens it. Render-only and
// world-anchored like the rest: b -1 (unknown) gets only the damp term.
vec3 sfGroundCover(int b, vec3 c, vec3 rel, float fpM, float damp) {
  bool veg = b == 2 || b == 3 || b == 7, sandy = b == 1 || b == 6;
  float wm = sfOctaveWeight(128.0, fpM), ws = sfOctaveWeight(16.0, fpM), wt = sfOctaveWeight(2.0, fpM);
  if ((veg || sandy) && wm > 0.0) {
    float meadow = wm * (0.65 * sfNoise(rel, 1, ivec3(8), 0xc0fe0001u).x + 0.35 * sfNoise(rel, 2, ivec3(16), 0xc0fe0002u).x);
    if (veg) {
      c = mix(c, c * vec3(1.3, 1.12, 0.55), smoothstep(0.05, 0.5, meadow) * 0.75);
      c = mix(c, c * vec3(0.72, 1.0, 0.9), smoothstep(0.1, 0.55, -meadow) * 0.6);
    } else {
      c *= 1.0 + 0.12 * meadow;
    }
  }
  if ((veg || sandy) && ws > 0.0) {
    float soil = sfNoise(rel, 0, ivec3(64), 0xc0fe0003u).x + 0.5 * sfNoise(rel, 1, ivec3(32), 0xc0fe0004u).x;
    vec3 dirt = veg ? vec3(0.34, 0.28, 0.19) : c * vec3(0.82, 0.76, 0.7);
    c = mix(c, dirt * (1.0 + 0.2 * soil), ws * smoothstep(0.6, 0.95, soil) * (b == 3 ? 0.35 : 0.6));
  }
  if ((veg || sandy) && wt > 0.0) {
    float st = sfNoise(rel, 2, ivec3(512), 0xc0fe0005u).x;
    c = mix(c, vec3(0.42, 0.41, 0.39) * (1.0 + 0.3 * st), wt * smoothstep(0.62, 0.8, st) * 0.8);
  }
  return mix(c, c * vec3(0.55, 0.6, 0.62), 0.8 * damp);
}
`;

/**
 * The palette map softened: four bilinear taps PALETTE_SOFT_TAPS[k] = [dx, dy,
 * weight] (in samples) around a texel, so a colour step between two samples
 * (a biome edge or a shade step) becomes a ramp about 2.5 samples wide,
 * which also narrows the difference between a tile and a coarser neighbour
 * where they meet. tests/js/surface_glsl.test.mjs runs the same taps in JS.
 */
export const PALETTE_SOFT_TAPS = [[-0.75, -0.75, 0.25], [0.75, -0.75, 0.25], [-0.75, 0.75, 0.25], [0.75, 0.75, 0.25]];

/** GLSL of the softened palette map; the including shader defines vec4 mapAt(vec2 t) (bilinear). */
export const SURFACE_BLEND_GLSL = `
vec3 sfMapSoft(vec2 t) {
  return ${PALETTE_SOFT_TAPS.map(([x, y, w]) => `${w.toFixed(4)} * mapAt(t + vec2(${x.toFixed(4)}, ${y.toFixed(4)})).rgb`).join('\n       + ')};
}
`;

/**
 * Water close up: wave normals (static, world-anchored, so the surface is
 * stable over time and to the camera), Schlick Fresnel against the sky and a
 * foam line at the shore. Needs SURFACE_NOISE_GLSL first, and the including
 * shader defines vec3 sfSky(vec3 dir, vec3 up): the sky seen along dir.
 */
export const SURFACE_WATER_GLSL = `
// Wave normal at rel: octaves from 16 m down to the pixel footprint; calm
// (0..1) flattens them (lakes, sheltered water).
vec3 sfWaveNormal(vec3 rel, vec3 up, float fpM, float calm) {
  vec3 g = vec3(0.0);
  float cell = 16.0;
  int m = int(SF_ANCHOR_M / cell);
  for (int o = 0; o < 9; o++) {
    float w = sfOctaveWeight(cell, fpM);
    if (w <= 0.0) break;
    // Stretched across the wind (one lattice axis twice as fine) so waves read as crests.
    g += w * 0.5 * cell * sfNoise(rel, o - 3 * (o / 3), ivec3(m * 2, m, m), 0x51f15eedu + uint(o)).yzw;
    cell *= 0.5; m *= 2;
  }
  return sfBump(up, g, 0.16 * (1.0 - 0.6 * calm));
}
// Swell and wind slicks, for water seen from a distance (a pixel 2-100 m
// wide): octaves from SF_SWELL_TOP_M down to 16 m, where sfWaveNormal takes
// over, each fading as its cell shrinks under 1.5-3 pixels, their strength
// varied by a slick field (patches of calmer and rougher water, as the sea
// shows from a plane). Returns the bump gradient (metres per metre); zero
// once the top octave spans under 1.5 pixels, so the globe from orbit and
// the shader without surface detail (whose tiles are that far) agree.
const float SF_SWELL_TOP_M = 256.0;
vec3 sfSwellGrad(vec3 rel, float fpM, float calm) {
  vec3 g = vec3(0.0);
  if (fpM * 1.5 >= SF_SWELL_TOP_M) return g;
  float cell = SF_SWELL_TOP_M;
  int m = int(SF_ANCHOR_M / cell);
  for (int o = 0; o < 4; o++) {
    float w = sfOctaveWeight(cell, fpM);
    if (w <= 0.0) break;
    g += w * 0.5 * cell * sfNoise(rel, (o + 1) - 3 * ((o + 1) / 3), ivec3(m * 2, m, m), 0x5e11000u + uint(o)).yzw;
    cell *= 0.5; m *= 2;
  }
  float slick = sfNoise(rel, 0, ivec3(2), 0x511c4u).x;
  return g * (0.09 + 0.07 * slick) * (1.0 - 0.3 * calm);
}
// Foam at the shore: depthM is the water's depth there (0 at the line); the
// noise breaks the band into streaks; 0..1.
float sfFoam(vec3 rel, float depthM, float fpM) {
  float band = 1.0 - smoothstep(0.0, 0.35, depthM);
  float n = sfOctaveWeight(0.5, fpM) * sfNoise(rel, 2, ivec3(2048), 0xf0a11u).x + sfOctaveWeight(2.0, fpM) * sfNoise(rel, 1, ivec3(512), 0xf0a12u).x;
  return band * smoothstep(-0.3, 0.4, n + 0.6 * band - 0.3);
}
// The water's reflection: Fresnel-weighted sky along the mirrored view ray.
// v: towards the eye; nrm: the wave normal. rgb: reflected light, a: Fresnel.
vec4 sfWaterReflect(vec3 v, vec3 nrm, vec3 up) {
  vec3 r = reflect(-v, nrm);
  r = normalize(r + up * max(0.02 - dot(r, up), 0.0));   // never below the horizon
  float f = 0.02 + 0.98 * pow(1.0 - max(dot(v, nrm), 0.0), 5.0);
  return vec4(sfSky(r, up), f);
}
`;

/**
 * Logarithmic depth: the vertex shader passes 1 + w, the fragment shader
 * writes log2(1 + w) / log2(1 + far), so relative depth resolution is the
 * same near and far (24 bits: about 1e-6 of the distance, 2 mm at 2 km).
 */
export const LOG_DEPTH_VS = `
out float vSfLogW;
void sfLogDepth() { vSfLogW = 1.0 + gl_Position.w; }
`;
export const LOG_DEPTH_FS = `
in float vSfLogW; uniform float uLogDepthF;   // 1 / log2(1 + far)
void sfLogDepth() { gl_FragDepth = log2(max(vSfLogW, 1.0)) * uLogDepthF; }
`;

/** uLogDepthF for a far plane distance in metres. */
export function logDepthFactor(farM) {
  return 1 / Math.log2(1 + farM);
}
