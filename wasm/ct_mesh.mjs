// ct_mesh.mjs - This module hands out the arrays of a World's mesh: views
// into the World's mesh buffer in WebAssembly memory that refuse to be read
// once the buffer has been reused, or one copy of them in a fresh ArrayBuffer.
import { ctError } from './ct_error.mjs';

const MESH_PARTS = ['pos', 'nrm', 'col', 'pal', 'idx'];   // order inside the mesh buffer
const MESH_FIELDS = { pos: 'positions', nrm: 'normals', col: 'colors', pal: 'paletteIndex', idx: 'indices' };
function align8(n) { return (n + 7) & ~7; }

/**
 * The World's grow-only mesh buffer {ptr, bytes, pos, nrm, ...}: mesh, kept
 * while it holds need (bytes per part), else freed and made for need.
 */
export function meshBuffers(heap, mesh, need) {
  const total = MESH_PARTS.reduce((s, k) => s + align8(need[k]), 0);
  if (mesh && mesh.bytes >= total) return mesh;
  if (mesh) heap.free(mesh.ptr);
  const ptr = heap.malloc(total), m = { ptr, bytes: total };
  let at = ptr;
  for (const k of MESH_PARTS) { m[k] = at; at += align8(need[k]); }
  return m;
}

/** Typed array of a mesh part over buffer at byte offset off, bytes long. */
function meshArray(part, ib, buffer, off, bytes) {
  if (part === 'pos' || part === 'nrm') return new Float32Array(buffer, off, bytes / 4);
  if (part === 'idx') return ib === 2 ? new Uint16Array(buffer, off, bytes / 2) : new Uint32Array(buffer, off, bytes / 4);
  return new Uint8Array(buffer, off, bytes);
}

/** One copy of the used bytes of every part into one fresh ArrayBuffer. */
export function copyParts(heap, m, bytes, ib) {
  const total = MESH_PARTS.reduce((s, k) => s + align8(bytes[k]), 0);
  const buffer = new ArrayBuffer(total), dst = new Uint8Array(buffer), src = heap.u8(), out = {};
  let off = 0;
  for (const k of MESH_PARTS) {
    dst.set(src.subarray(m[k], m[k] + bytes[k]), off);
    out[MESH_FIELDS[k]] = meshArray(k, ib, buffer, off, bytes[k]);
    off += align8(bytes[k]);
  }
  return out;
}

/**
 * Enumerable getters over the World's mesh buffer: each read makes a fresh
 * view (so memory growth never leaves a detached one) after checking that no
 * later mesh() or free() has reused the buffer.
 */
export function viewGetters(world, seq, m, bytes, ib) {
  const props = {};
  for (const k of MESH_PARTS) {
    props[MESH_FIELDS[k]] = {
      enumerable: true,
      get() {
        if (!world.ptr || world._meshSeq !== seq) {
          throw ctError('CT_ERR_MESH', `mesh ${MESH_FIELDS[k]} is stale: the World has meshed again or was freed ` +
            '(read the arrays before the next mesh() call, or pass {copy: true})');
        }
        return meshArray(k, ib, world.heap.u8().buffer, m[k], bytes[k]);
      },
    };
  }
  return props;
}

