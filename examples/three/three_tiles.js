// This module is the three.js side of the streamer's renderer adapter: it
// turns prepared chunk meshes into BufferGeometry over the arrays the worker
// transferred (normals, colours, indices as they arrived; positions from the
// streamer's interleaved x,y,z,height copy), and places every tile relative
// to the camera so float32 vertices stay precise at planet scale. Terrain
// gets the package's surface detail close up (surface_material.js).
import * as THREE from 'three';
import { createSurfaceMaterial, detailAttribute } from './surface_material.js';

export class ThreeTiles {
  /** @param {THREE.Group} group where tile meshes live */
  constructor(group) {
    this.group = group;
    this.surface = createSurfaceMaterial();
    this.terrain = this.surface.material;
    this.water = new THREE.MeshLambertMaterial({ color: 0x2a5d8f, transparent: true, opacity: 0.85 });
    this.triangles = 0;
    /**
     * What the streamer should ask the worker for beyond the mesh: nothing. Tiles are lit by
     * their vertex normals and coloured by vertex colours, and lakes arrive as water meshes.
     */
    this.needs = { reliefMaps: false, paletteMaps: false, lakeLevels: false };
  }

  _mesh(t, material, colors) {
    const g = new THREE.BufferGeometry();
    // posH holds x, y, z (metres from the tile centre) and the height: an
    // interleaved buffer reads the first three without another copy.
    g.setAttribute('position', new THREE.InterleavedBufferAttribute(new THREE.InterleavedBuffer(t.posH, 4), 3, 0));
    g.setAttribute('normal', new THREE.BufferAttribute(t.normals, 3));
    if (colors) g.setAttribute('color', new THREE.BufferAttribute(colors, 4, true));
    g.setIndex(new THREE.BufferAttribute(t.indices, 1));
    const m = new THREE.Mesh(g, material);
    m.frustumCulled = false;   // the streamer's LOD selection already culled
    m.matrixAutoUpdate = true;
    m.visible = false;
    // Terrain shades itself and the character (the sun's shadow map, sun_shadow.js); lakes only receive.
    m.castShadow = material === this.terrain;
    m.receiveShadow = true;
    m.userData.center = t.center;
    m.userData.bytes = t.posH.byteLength + t.normals.byteLength + t.indices.byteLength + (colors ? colors.byteLength : 0);
    this.group.add(m);
    return m;
  }

  /** Streamer adapter: a terrain tile (skirts included in the mesh). */
  uploadTerrain(t) {
    const m = this._mesh(t, this.terrain, t.colors);
    m.geometry.setAttribute('sfDetail', new THREE.BufferAttribute(detailAttribute(t.pal, t.vertexCount), 2));
    m.bytes = m.userData.bytes;
    return m;
  }

  /** Streamer adapter: a lake surface. */
  uploadWater(w) {
    const m = this._mesh({ ...w, center: w.center }, this.water, null);
    m.bytes = m.userData.bytes;
    return m;
  }

  /** Streamer adapter: a tile left the cache. */
  release(m) {
    if (!m) return;
    this.group.remove(m);
    m.geometry.dispose();
  }

  /**
   * Shows exactly the tiles of this frame, each at (centre - eye), computed
   * in float64 before it becomes a float32 matrix.
   */
  show(tiles, eye, radiusM, surfaceLod) {
    this.surface.update(eye, radiusM, surfaceLod);
    for (const m of this.group.children) m.visible = false;
    let tri = 0;
    for (const t of tiles) {
      for (const m of [t.gpu, t.water]) {
        if (!m) continue;
        const c = m.userData.center;
        m.position.set(c[0] - eye[0], c[1] - eye[1], c[2] - eye[2]);
        m.visible = true;
        tri += m.geometry.index.count / 3;
      }
    }
    this.triangles = tri;
  }
}
