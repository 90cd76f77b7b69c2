// This module draws the scatter round the character: the surface_lod chunks
// within RANGE_M of it, each asked once from the worker pool (pool.scatter),
// drawn as one THREE.InstancedMesh per kind (scatter_shapes.js) and dropped
// when the character has walked away. Instance matrices are float32 offsets
// from a float64 anchor near the character; the meshes sit at (anchor - eye)
// each frame, like the tiles, so trees stay put to the millimetre. It also
// lists the instances near a point for the physics (scatter_colliders.js).
import * as THREE from 'three';
import { keysAround, keyId, enuFrame, SCATTER_KINDS } from 'cubesphere-terrain/stream';
import { scatterGeometry } from './scatter_shapes.js';

const RANGE_M = 1500, MAX_IN_FLIGHT = 4, REANCHOR_M = 2000, RECHECK_M = 50;

export class ScatterLayer {
  constructor(scene) {
    this.scene = scene;
    this.material = new THREE.MeshLambertMaterial({ vertexColors: true });
    this.meshes = SCATTER_KINDS.map((k) => ({ geometry: scatterGeometry(k.name), mesh: null }));
    this.chunks = new Map();   // keyId -> {key, state: 'pending'|'ready', scatter}
    this.anchor = null;        // float64 body-fixed point the instance matrices are relative to
    this.at = null;            // the character's direction when the wanted keys were made
    this.dirty = false;
    this.drawn = 0;
    this.version = 0;         // bumped when the held instances change
    this.errors = [];
  }

  /** One frame in walk mode: asks for missing chunks round dir, drops far ones, rebuilds the instances when the set changed. */
  update(pool, radiusM, surfaceLod, dir) {
    const moved = this.at ? Math.acos(Math.min(1, dir[0] * this.at[0] + dir[1] * this.at[1] + dir[2] * this.at[2])) * radiusM : Infinity;
    if (moved > RECHECK_M) {
      this.at = dir.slice();
      const want = keysAround(dir, radiusM, surfaceLod, RANGE_M), ids = new Set(want.map((w) => keyId(w.key)));
      for (const id of this.chunks.keys()) if (!ids.has(id)) { this.chunks.delete(id); this.dirty = true; }
      let inFlight = [...this.chunks.values()].filter((c) => c.state === 'pending').length;
      for (const { key, distM } of want) {
        const id = keyId(key);
        if (inFlight >= MAX_IN_FLIGHT || this.chunks.has(id)) continue;
        const entry = { key, state: 'pending', scatter: null };
        this.chunks.set(id, entry);
        inFlight++;
        pool.scatter(key, { priority: distM }).then((s) => {
          if (this.chunks.get(id) !== entry) return;
          entry.scatter = s; entry.state = 'ready'; this.dirty = true;
          this.at = null;   // ask for the next ones on the next frame
        }, (e) => { this.errors.push(e.message); if (this.chunks.get(id) === entry) this.chunks.delete(id); });
      }
    }
    const far = this.anchor && Math.hypot(...dir.map((v, i) => v * radiusM - this.anchor[i])) > REANCHOR_M;
    if (this.dirty || far) this._rebuild(dir.map((v) => v * radiusM));
  }

  /** Every instance again relative to a new anchor, one InstancedMesh per kind. */
  _rebuild(anchor) {
    this.anchor = anchor;
    this.dirty = false;
    this.version++;
    const counts = SCATTER_KINDS.map(() => 0);
    for (const c of this.chunks.values()) if (c.scatter) for (const k of c.scatter.kind) counts[k]++;
    this.meshes.forEach((m, k) => {
      if (!m.mesh || m.mesh.instanceMatrix.count < counts[k]) {
        if (m.mesh) { this.scene.remove(m.mesh); m.mesh.dispose(); }
        m.mesh = new THREE.InstancedMesh(m.geometry, this.material, Math.max(16, counts[k] * 2));
        m.mesh.frustumCulled = false;
        this.scene.add(m.mesh);
      }
      m.mesh.count = 0;
    });
    const mat = new THREE.Matrix4(), x = new THREE.Vector3(), y = new THREE.Vector3(), z = new THREE.Vector3();
    for (const foot of this.instances()) {
      // +y radial up; +z the yaw's direction from local north, counter-clockwise seen from above.
      const { east, north } = enuFrame(foot.up), c = Math.cos(foot.yaw), s = Math.sin(foot.yaw), sc = foot.scale;
      y.fromArray(foot.up);
      z.set(north[0] * c - east[0] * s, north[1] * c - east[1] * s, north[2] * c - east[2] * s);
      x.crossVectors(y, z);
      mat.makeBasis(x.multiplyScalar(sc), y.multiplyScalar(sc), z.multiplyScalar(sc));
      mat.setPosition(foot.at[0] - anchor[0], foot.at[1] - anchor[1], foot.at[2] - anchor[2]);
      const m = this.meshes[foot.kind].mesh;
      m.setMatrixAt(m.count++, mat);
    }
    this.drawn = 0;
    for (const m of this.meshes) { m.mesh.instanceMatrix.needsUpdate = true; this.drawn += m.mesh.count; }
  }

  /**
   * The held instances (or those within withinM of the body-fixed point near):
   * {id, kind, at (body-fixed float64 foot), up, yaw, scale}.
   */
  *instances(near = null, withinM = Infinity) {
    for (const c of this.chunks.values()) {
      const s = c.scatter;
      if (!s) continue;
      for (let i = 0; i < s.count; i++) {
        const at = [s.center[0] + s.positions[3 * i], s.center[1] + s.positions[3 * i + 1], s.center[2] + s.positions[3 * i + 2]];
        if (near && Math.hypot(at[0] - near[0], at[1] - near[1], at[2] - near[2]) > withinM) continue;
        const r = Math.hypot(...at);
        yield { id: s.id[i], kind: s.kind[i], at, up: at.map((v) => v / r), yaw: s.yaw[i], scale: s.scale[i] };
      }
    }
  }

  /** Places the meshes relative to the eye (float64 subtraction). */
  show(eye, visible) {
    for (const m of this.meshes) {
      if (!m.mesh) continue;
      m.mesh.visible = visible;
      if (this.anchor) m.mesh.position.set(this.anchor[0] - eye[0], this.anchor[1] - eye[1], this.anchor[2] - eye[2]);
    }
  }

  /** Forgets every chunk (walk mode ended). */
  clear() {
    this.chunks.clear();
    this.at = null;
    this.dirty = true;
    this.version++;
    for (const m of this.meshes) if (m.mesh) m.mesh.count = 0;
    this.drawn = 0;
  }

  stats() {
    let held = 0;
    for (const c of this.chunks.values()) held += c.state === 'ready';
    return { chunks: held, drawn: this.drawn, perKind: Object.fromEntries(SCATTER_KINDS.map((k, i) => [k.name, this.meshes[i].mesh?.count ?? 0])),
      errors: this.errors.slice() };
  }
}
