// This module holds the page's sky: the shared atmosphere model (a cheap single-scattering approximation, also used by the terrain shaders of web/terrain_shaders.js to light and haze the ground) and the full-screen backdrop of space, stars, sun, limb glow and sky.

/**
 * Atmosphere, in the units of one vertical air column (optical depth 1 straight
 * up from sea level). Rayleigh only, exponential density with scale height
 * uAtmoH, no multiple scattering: the sky takes the colour of sunlight that
 * reached the scattering point (reddened by its own path through the air)
 * times the share the path scattered. Good enough for a limb glow, a sky that
 * darkens with altitude and a sunset band, and haze between the eye and the
 * ground; each pixel pays a few exps, no loops.
 */
export const ATMOSPHERE = `
uniform vec3 uSun; uniform float uR; uniform float uAtmoH; uniform float uEyeH; uniform float uGlint;
const vec3 BETA = vec3(0.05, 0.11, 0.26);     // zenith optical depth per colour (blue scatters most)
const float SUN_I = 1.7;                       // sunlight scale, so a noon zenith sky is a mid blue
const float TOP = 12.0;                        // atmosphere top in scale heights
const float SKY_GAIN = 0.7;                    // single scattering overshoots without the light lost on the way out
// Air mass along a ray with cosine mu against the local up (capped at the horizon's).
float airmass(float mu) { return 1.0 / (max(mu, 0.0) + 0.028 * exp(-9.0 * max(mu, 0.0))); }
// 0 in the night, 1 in daylight, a soft band around the terminator.
float daylight(float sunMu) { return smoothstep(-0.16, 0.06, sunMu); }
// Sunlight that reaches a point whose up has cosine sunMu with the sun.
vec3 sunlightAt(float sunMu) { return exp(-BETA * airmass(sunMu)) * daylight(sunMu) * SUN_I; }
// Mean density (sea level 1) along a straight stretch between heights ha and hb.
float meanDensity(float ha, float hb) {
  float d = hb - ha;
  if (abs(d) < 1.0) return exp(-ha / uAtmoH);
  return uAtmoH * (exp(-ha / uAtmoH) - exp(-hb / uAtmoH)) / d;
}
// Rayleigh phase, normalised to 1 on average.
float phase(float cosA) { return 0.75 * (1.0 + cosA * cosA); }
// Soft tone curve: bright skies and glints roll off instead of clipping.
vec3 tone(vec3 c) { return c / (1.0 + 0.15 * c); }
// Sun glint on water: a Blinn-Phong lobe normalised so its energy stays put
// as it sharpens, weighted by Schlick's Fresnel at the half vector (2% of
// the light at normal incidence, more at grazing angles), and capped below
// the sun's own colour so it never clips to a white blob. up: surface
// normal, v: towards the eye; 'sharp' is the lobe's exponent (calm water
// near the eye, broader from orbit where one pixel averages many waves).
vec3 glint(vec3 up, vec3 v, float sunMu, float sharp) {
  vec3 hv = normalize(uSun + v);
  float nh = max(dot(up, hv), 0.0);
  float f = 0.02 + 0.98 * pow(1.0 - max(dot(v, hv), 0.0), 5.0);
  float d = (sharp + 8.0) / 25.1 * pow(nh, sharp);
  return sunlightAt(sunMu) * min(f * d * max(sunMu, 0.0), 0.55);
}
// Haze between the eye and a ground point: returns the in-scattered light and
// sets tr to what survives of the ground colour. eyeDir: unit ray, t: distance,
// hp: height of the point, pUp: its up.
vec3 aerial(vec3 eye, vec3 eyeDir, float t, float hp, vec3 pUp, out vec3 tr) {
  // Start where the ray enters the air (eyes in space see only the last part).
  float top = TOP * uAtmoH, ha = uEyeH, t0 = 0.0;
  if (ha > top) {
    float b = dot(eye, eyeDir), rt = uR + top;
    float c = (length(eye) - rt) * (length(eye) + rt);
    t0 = clamp(-b - sqrt(max(b * b - c, 0.0)), 0.0, t);
    ha = top;
  }
  float od = meanDensity(max(ha, 0.0), max(hp, 0.0)) * (t - t0) / uAtmoH;
  tr = exp(-BETA * od);
  vec3 light = sunlightAt(dot(pUp, uSun)) * phase(dot(eyeDir, uSun)) * SKY_GAIN;
  return (1.0 - tr) * light;
}
`;

export const SCREEN_VS = `#version 300 es
out vec2 vNdc;
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2) - 1.0, float((gl_VertexID & 2) << 1) - 1.0);
  vNdc = p;
  gl_Position = vec4(p, 0.0, 1.0);
}`;

/**
 * The backdrop: space with stars, the sun, the limb glow seen from orbit and
 * the sky seen from inside the air. Rays that hit the planet get the hazed
 * sea colour, so a pixel the terrain misses never shows space.
 */
export const SKY_FS = `#version 300 es
precision highp float;
in vec2 vNdc;
uniform vec3 uRight, uUp, uBack; uniform float uTanHalf, uAspect;
uniform vec3 uEye; uniform float uC; uniform vec3 uSea; uniform int uHoles;
${ATMOSPHERE}
out vec4 outColor;
float hash(vec3 p) { p = fract(p * 0.3183099 + 0.1); p *= 17.0; return fract(p.x * p.y * p.z * (p.x + p.y + p.z)); }
void main() {
  vec3 dv = vec3(vNdc.x * uTanHalf * uAspect, vNdc.y * uTanHalf, -1.0);
  vec3 dir = normalize(uRight * dv.x + uUp * dv.y + uBack * dv.z);
  float b = dot(uEye, dir);
  float disc = b * b - uC;
  bool hits = disc >= 0.0 && (uC <= 0.0 || b < 0.0);
  vec3 eyeUp = normalize(uEye);
  // Hole check (debug=holes): rays that reach the ground sphere are magenta,
  // a colour nothing else draws, the rest black; the terrain covers the magenta
  // unless a pixel between tiles is missing.
  if (uHoles == 1) { outColor = hits ? vec4(1.0, 0.0, 1.0, 1.0) : vec4(0.0, 0.0, 0.0, 1.0); return; }
  vec3 col;
  if (hits) {
    float t = uC > 0.0 ? uC / (-b + sqrt(disc)) : -b + sqrt(disc);
    vec3 pUp = normalize(uEye + dir * t);
    float sunMu = dot(pUp, uSun);
    vec3 tr;
    vec3 ins = aerial(uEye, dir, t, 0.0, pUp, tr);
    col = uSea * sunlightAt(sunMu) * max(sunMu, 0.0) * tr + ins;
  } else {
    // Height of the ray's closest approach (the eye itself when looking up).
    float dc2mR2 = b < 0.0 ? uC - b * b : uC;
    float dc = sqrt(max(dc2mR2 + uR * uR, 0.0));
    float hc = max(dc2mR2 / (dc + uR), 0.0);
    vec3 pUp = normalize(uEye + dir * max(-b, 0.0));
    float od;
    if (uEyeH < TOP * uAtmoH) {
      // Inside the air: the air mass above the eye along the ray, measured
      // from the horizon's dip so that it grows smoothly down to the ground line.
      float r = uR / (uR + uEyeH);
      float dip = -sqrt(max(1.0 - r * r, 0.0));
      od = exp(-uEyeH / uAtmoH) * airmass((dot(eyeUp, dir) - dip) / (1.0 - dip));
      pUp = eyeUp;
    } else {
      // From space: a grazing path through the shell, about sqrt(2 pi R / H)
      // vertical columns at the ray's closest point.
      od = sqrt(6.2832 * uR / uAtmoH) * exp(-hc / uAtmoH);
    }
    vec3 light = sunlightAt(dot(pUp, uSun)) * phase(dot(dir, uSun)) * SKY_GAIN;
    col = (1.0 - exp(-BETA * od)) * light;
    vec3 tr = exp(-BETA * od);
    float star = step(0.9975, hash(floor(dir * 420.0)));
    float cs = dot(dir, uSun);
    col += tr * (vec3(star) * 0.7 * (1.0 - clamp(dot(col, vec3(3.0)), 0.0, 1.0)) + vec3(1.0, 0.95, 0.85) * smoothstep(0.99995, 0.99999, cs) * 8.0);
    col += tr * vec3(1.0, 0.9, 0.7) * pow(max(cs, 0.0), 400.0) * 0.6 * (1.0 - exp(-od));
  }
  outColor = vec4(tone(col), 1.0);
}`;
