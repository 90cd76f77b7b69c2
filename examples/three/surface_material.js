// This module patches a three.js MeshLambertMaterial with the package's render-only surface detail (stream/surface_glsl.js): world-anchored solid noise for albedo grain and detail normals, strength per biome from a per-vertex attribute, fading in where the world's samples are a few pixels apart, and albedo patches a few hundred metres wide seen from a few kilometres. Tiles must be drawn camera-relative (the camera at the origin), as ThreeTiles does.
import * as THREE from 'three';
import { SURFACE_NOISE_GLSL, surfaceAnchors, sampleSpacingM } from 'cubesphere-terrain/stream';

/** Bump strength and albedo contrast per biome (the demo's materials, in two numbers each). */
const BIOME_DETAIL = [[0.1, 0.16], [0.1, 0.16], [0.22, 0.35], [0.3, 0.45], [0.55, 0.45], [0.06, 0.05], [0.1, 0.2], [0.28, 0.35]];

/** Per-vertex (roughness, contrast) from the mesh's palette indices (biome = index / 5). */
export function detailAttribute(pal, vertexCount) {
  const out = new Float32Array(2 * vertexCount);
  for (let v = 0; v < vertexCount; v++) {
    const d = BIOME_DETAIL[pal ? Math.min(7, pal[v] / 5 | 0) : 2];
    out[2 * v] = d[0]; out[2 * v + 1] = d[1];
  }
  return out;
}

/**
 * A Lambert material with vertex colours and surface detail.
 * @returns {{material: THREE.MeshLambertMaterial, update: (eye: number[], radiusM: number, surfaceLod: number) => void}}
 *   call update each frame with the float64 eye before rendering
 */
export function createSurfaceMaterial() {
  const uniforms = {
    uSfCell: { value: new Int32Array(9) }, uSfFine: { value: new Float32Array(9) }, uSfRot: { value: new Float32Array(27) },
    uSurfaceSpacingM: { value: 100 },
  };
  const material = new THREE.MeshLambertMaterial({ vertexColors: true });
  material.onBeforeCompile = (shader) => {
    Object.assign(shader.uniforms, uniforms);
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', '#include <common>\nin vec2 sfDetail; out vec3 vSfRel; out vec2 vSfDetail;')
      .replace('#include <begin_vertex>', '#include <begin_vertex>\nvSfRel = (modelMatrix * vec4(transformed, 1.0)).xyz; vSfDetail = sfDetail;');
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', `#include <common>
precision highp int;
in vec3 vSfRel; in vec2 vSfDetail; uniform float uSurfaceSpacingM;
${SURFACE_NOISE_GLSL}
float sfFp() { return max(max(length(dFdx(vSfRel)), length(dFdy(vSfRel))), 1e-3); }
`)
      .replace('#include <color_fragment>', `#include <color_fragment>
diffuseColor.rgb *= 1.0 + 0.16 * sfPatches(vSfRel, sfFp());
float sfFade = smoothstep(0.5, 2.0, uSurfaceSpacingM / sfFp());
SfDetail sfD = SfDetail(vec3(0.0), vec3(0.0));
if (sfFade > 0.0) {
  sfD = sfDetail(vSfRel, sfFp(), exp2(floor(log2(clamp(uSurfaceSpacingM * 4.0, 0.0625, 512.0)))), 0x1a2b3c4du);
  diffuseColor.rgb *= 1.0 + sfFade * vSfDetail.y * (sfD.v.x - 0.8 * sfD.v.y);
}`)
      .replace('#include <normal_fragment_maps>', `#include <normal_fragment_maps>
if (sfFade > 0.0) normal = sfBump(normal, mat3(viewMatrix) * sfD.grad, sfFade * vSfDetail.x);`);
  };
  const update = (eye, radiusM, surfaceLod) => {
    const a = surfaceAnchors(eye);
    uniforms.uSfCell.value.set(a.cell);
    uniforms.uSfFine.value.set(a.fine);
    uniforms.uSfRot.value.set(a.rot);
    uniforms.uSurfaceSpacingM.value = sampleSpacingM(radiusM, surfaceLod);
  };
  return { material, update };
}
