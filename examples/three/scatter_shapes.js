// This module is the example's low-poly model of each scatter kind: one
// BufferGeometry per kind, one metre tall (rocks one metre across), its foot
// at the origin and +y up, coloured per vertex, so that an instance scaled by
// its `scale` (metres) has the catalogue's size. A game maps kinds to its own
// models the same way.
import * as THREE from 'three';

const BARK = 0x6b4a2e;

/** A part: a three.js geometry moved to sit at (0, y, 0), scaled, with one colour. */
function part(geometry, y, colour, sx = 1, sy = 1) {
  const g = geometry.toNonIndexed();
  g.scale(sx, sy, sx);
  g.translate(0, y, 0);
  const c = new THREE.Color(colour), n = g.attributes.position.count, rgb = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) rgb.set([c.r, c.g, c.b], 3 * i);
  g.setAttribute('color', new THREE.BufferAttribute(rgb, 3));
  return g;
}

/** The parts as one geometry (positions, normals, colours concatenated). */
function merge(parts) {
  const out = new THREE.BufferGeometry();
  for (const name of ['position', 'normal', 'color']) {
    const arrays = parts.map((p) => p.attributes[name].array), all = new Float32Array(arrays.reduce((s, a) => s + a.length, 0));
    let at = 0;
    for (const a of arrays) { all.set(a, at); at += a.length; }
    out.setAttribute(name, new THREE.BufferAttribute(all, 3));
  }
  return out;
}

const trunk = (r, h) => part(new THREE.CylinderGeometry(r, r * 1.3, h, 6, 1, true), h / 2, BARK);

/** Geometry per kind name of the catalogue (SCATTER_KINDS); unknown names get a marker post. */
export function scatterGeometry(name) {
  switch (name) {
    case 'conifer': return merge([trunk(0.03, 0.3), part(new THREE.ConeGeometry(0.2, 0.8, 7), 0.6, 0x24502c)]);
    case 'broadleaf': return merge([trunk(0.04, 0.5), part(new THREE.IcosahedronGeometry(0.3, 1), 0.68, 0x3f7a2e, 1, 0.9)]);
    case 'palm': return merge([trunk(0.025, 0.92), part(new THREE.ConeGeometry(0.35, 0.15, 7), 0.93, 0x5f8d2c)]);
    case 'shrub': return part(new THREE.IcosahedronGeometry(0.5, 1), 0.4, 0x4d6b2a, 1, 0.8);
    case 'cactus': return merge([part(new THREE.CylinderGeometry(0.1, 0.12, 1, 7), 0.5, 0x5d8a3c),
      part(new THREE.CylinderGeometry(0.05, 0.05, 0.4, 5), 0.6, 0x5d8a3c, 1, 1).translate(0.18, 0, 0)]);
    case 'reed': return part(new THREE.ConeGeometry(0.12, 1, 5), 0.5, 0x9a9a4a);
    case 'grass_tuft': return part(new THREE.ConeGeometry(0.35, 1, 5), 0.5, 0x8aa848);
    case 'boulder': return part(new THREE.IcosahedronGeometry(0.5, 0), 0.3, 0x7d7a74, 1, 0.8);
    case 'rock': return part(new THREE.IcosahedronGeometry(0.5, 0), 0.25, 0x8e8a80, 1, 0.7);
    default: return part(new THREE.CylinderGeometry(0.05, 0.05, 1, 4), 0.5, 0xff00ff);
  }
}
