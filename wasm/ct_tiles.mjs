// ct_tiles.mjs - This module turns tile files into chunk objects and back:
// core.decodeTile (.ctt, float heights included), core.decodeCtc (the
// reference's .ctc: 16-bit height codes only) and core.encodeTile, over the
// core's own codec (core/src/surface/io_tile.c, wasm/ct_wasm_tiles.c). It
// also puts a chunk object the caller holds into a C chunk buffer, which is
// how world.mesh, world.collider and world.groundInChunk serve a decoded
// chunk exactly as the generated one: the same C code reads the same bytes.
//
// A chunk object never enters the World's buffer of the chunk generated last
// (wasm/ct_world.mjs _generate): it is copied into a buffer of its own each
// time, so a key's generated samples are only ever the core's.
import { ctError } from './ct_error.mjs';
import { CHUNK_SAMPLES as SAMPLES } from './ct_constants.mjs';
import { parseKey } from './ct_key.mjs';

const HEX16 = /^[0-9a-f]{16}$/;

/** The fields of a C chunk as the object world.chunk(key) returns (copies). */
export function readChunk(heap, c) {
  const x = heap.x, hex = heap.slot(5), keyOut = heap.slot(2);
  x.ctw_chunk_key(c, keyOut);
  const k = heap.u32().slice(keyOut / 4, keyOut / 4 + 5);
  x.ctw_chunk_digest_hex(c, hex);
  const digest = heap.str(hex);
  x.ctw_chunk_generation_hex(c, hex);
  const generation = heap.str(hex);
  x.ctw_chunk_edit_set_hex(c, hex);
  const editSet = heap.str(hex);   // '0000000000000000' for a chunk no edit reaches
  const h = x.ctw_chunk_height(c) >>> 0, w = x.ctw_chunk_water(c) >>> 0;
  const b = x.ctw_chunk_biome(c) >>> 0, p = x.ctw_chunk_palette(c) >>> 0, hm = x.ctw_chunk_height_m(c) >>> 0;
  return {
    key: { face: k[0], lod: k[1], x: k[2], y: k[3] }, generation, digest, editSet, clipped: x.ctw_chunk_clipped(c) >>> 0,
    heightQuantumM: x.ctw_chunk_quantum(c),
    height: heap.u16().slice(h / 2, h / 2 + SAMPLES), heightM: heap.f32().slice(hm / 4, hm / 4 + SAMPLES),
    water: heap.u16().slice(w / 2, w / 2 + SAMPLES),
    biome: heap.u8().slice(b, b + SAMPLES), palette: heap.u8().slice(p, p + SAMPLES),
    planetId: k[4],
  };
}

/** true for a chunk object (world.chunk, core.decodeTile), false for a key. */
export function isChunkObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && 'heightM' in v && 'key' in v;
}

/** A 16-hex-digit field as [low, high] uint32 halves. */
function halves(chunk, name) {
  const v = chunk[name];
  if (typeof v !== 'string' || !HEX16.test(v)) throw ctError('CT_ERR_NULL', `chunk ${name} must be 16 lower-case hex digits`);
  return [parseInt(v.slice(8), 16) >>> 0, parseInt(v.slice(0, 8), 16) >>> 0];
}

const ARRAYS = [
  ['height', Uint16Array, 'ctw_chunk_height', 'u16', 2], ['heightM', Float32Array, 'ctw_chunk_height_m', 'f32', 4],
  ['water', Uint16Array, 'ctw_chunk_water', 'u16', 2], ['biome', Uint8Array, 'ctw_chunk_biome', 'u8', 1],
  ['palette', Uint8Array, 'ctw_chunk_palette', 'u8', 1],
];

/**
 * Copies a chunk object into the C chunk c (every field). Checks its shape,
 * so a wrong object gets an error naming the field, never a mesh of garbage.
 * planetId may be absent where only meshing follows (the mesh never reads it).
 */
export function writeChunk(heap, c, chunk) {
  if (!isChunkObject(chunk)) throw ctError('CT_ERR_NULL', 'not a chunk object (world.chunk(key) or core.decodeTile(bytes))');
  const k = parseKey(chunk.key);
  for (const [name, Ctor] of ARRAYS) {
    const a = chunk[name];
    if (!(a instanceof Ctor) || a.length !== SAMPLES) throw ctError('CT_ERR_NULL', `chunk ${name} must be a ${Ctor.name} of ${SAMPLES} samples`);
  }
  const [gLo, gHi] = halves(chunk, 'generation'), [dLo, dHi] = halves(chunk, 'digest');
  const [eLo, eHi] = chunk.editSet === undefined ? [0, 0] : halves(chunk, 'editSet');
  const q = chunk.heightQuantumM, clipped = chunk.clipped, planet = chunk.planetId ?? 0;
  if (typeof q !== 'number' || !(q > 0)) throw ctError('CT_ERR_NULL', 'chunk heightQuantumM must be a positive number');
  if (!Number.isInteger(clipped) || clipped < 0) throw ctError('CT_ERR_NULL', 'chunk clipped must be a count');
  if (!Number.isInteger(planet) || planet < 0 || planet > 0xffffffff) throw ctError('CT_ERR_NULL', 'chunk planetId must be a uint32');
  heap.check(heap.x.ctw_chunk_set_meta(c, k.face, k.lod, k.x, k.y, planet, gLo, gHi, dLo, dHi, clipped, q, eLo, eHi, ...heap.errArgs()));
  for (const [name, , fn, view, size] of ARRAYS) heap[view]().set(chunk[name], (heap.x[fn](c) >>> 0) / size);
  return k;
}

/** Runs fn(chunkPtr) with a temporary C chunk. */
function withChunk(heap, fn) {
  const c = heap.x.ctw_chunk_new() >>> 0;
  if (!c) throw ctError('CT_ERR_MEMORY', 'out of WebAssembly memory for a chunk');
  try { return fn(c); } finally { heap.x.ctw_chunk_free(c); }
}

function asBytes(bytes, what) {
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  if (bytes instanceof Uint8Array) return bytes;
  throw ctError('CT_ERR_NULL', `${what}: bytes must be a Uint8Array or ArrayBuffer`);
}

/** Decodes file bytes with the C decoder fn into a chunk object marked with source. */
function decodeWith(core, bytes, fn, source) {
  const heap = core.heap, u8 = asBytes(bytes, source === 'tile' ? 'decodeTile' : 'decodeCtc');
  return withChunk(heap, (c) => {
    const buf = heap.allocBytes(u8);
    try {
      heap.check(heap.x[fn](buf, u8.length, c, ...heap.errArgs()));
    } finally {
      heap.free(buf);
    }
    return { ...readChunk(heap, c), source };
  });
}

export const tileMethods = {
  /**
   * A .ctt tile file (format version 1) as a chunk object of the shape of
   * world.chunk(key), with source: 'tile'. Every field, float heights
   * included, equals the generated chunk's, so its mesh, collider and ground
   * are the generated ones bit for bit. Bad bytes throw with the core's reason.
   */
  decodeTile(bytes) { return decodeWith(this, bytes, 'ctw_chunk_decode_tile', 'tile'); },

  /**
   * A .ctc chunk file as a chunk object (source: 'ctc'). The file holds
   * 16-bit height codes only, so heightM is the decoded codes: a mesh of it
   * is up to half a quantum off the generated one.
   */
  decodeCtc(bytes) { return decodeWith(this, bytes, 'ctw_chunk_decode_ctc', 'ctc'); },

  /**
   * A chunk object (world.chunk(key) or a decoded tile; planetId required)
   * as .ctt tile bytes (CT_TILE_FILE_BYTES). The encoder writes the fields
   * as given: a chunk whose digest or heights were altered makes a tile
   * that decodeTile refuses.
   */
  encodeTile(chunk) {
    const heap = this.heap, n = heap.x.ctw_tile_file_bytes() >>> 0;
    if (isChunkObject(chunk) && chunk.planetId === undefined) throw ctError('CT_ERR_NULL', 'encodeTile: chunk has no planetId');
    return withChunk(heap, (c) => {
      writeChunk(heap, c, chunk);
      const buf = heap.malloc(n);
      try {
        heap.check(heap.x.ctw_chunk_encode_tile(c, buf, n, ...heap.errArgs()));
        return heap.u8().slice(buf, buf + n);
      } finally {
        heap.free(buf);
      }
    });
  },

  /** Bytes of a .ctt tile file (CT_TILE_FILE_BYTES from ct.h). */
  tileFileBytes() { return this.heap.x.ctw_tile_file_bytes() >>> 0; },
};

/**
 * The C chunk a World request reads for keyOrChunk: the key generated (or
 * reused) in the World's own buffer, or a chunk object of this World's
 * generation copied into the World's tile buffer, which nothing else reads.
 * @returns {{k: {face: number, lod: number, x: number, y: number}, c: number}}
 */
export function chunkSource(world, keyOrChunk) {
  if (!isChunkObject(keyOrChunk)) return { k: world._generate(keyOrChunk), c: world._chunk };
  const heap = world._live();
  if (keyOrChunk.generation !== world.generation) {
    throw ctError('CT_ERR_MESH', `chunk of generation ${String(keyOrChunk.generation)} is not this world's (${world.generation})`);
  }
  if (!world._tileChunk) {
    world._tileChunk = heap.x.ctw_chunk_new() >>> 0;
    if (!world._tileChunk) throw ctError('CT_ERR_MEMORY', 'out of WebAssembly memory for a chunk');
  }
  return { k: writeChunk(heap, world._tileChunk, keyOrChunk), c: world._tileChunk };
}

/** Frees a World's tile buffer (its free() calls this). */
export function freeTileChunk(world) {
  if (world._tileChunk) world.heap.x.ctw_chunk_free(world._tileChunk);
  world._tileChunk = 0;
}
