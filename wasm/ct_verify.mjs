// ct_verify.mjs - This module checks .ctc chunk files and CTWORLD2 snapshots
// with the core's own readers (the JS twin of `terrain --verify`): a file is
// "verified" when the core would accept it, and the answer says what it
// vouches for (kind, generation, key, digest).
import { ctError } from './ct_heap.mjs';

const CTC_MAGIC = 'CTCHUNK';
const CTW_MAGIC = 'CTWORLD';

function startsWith(bytes, text) {
  if (bytes.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** Little-endian u64 at the end of bytes as 16 hex digits (a snapshot's checksum). */
function trailingHex64(bytes) {
  let hex = '';
  for (let i = bytes.length - 1; i >= bytes.length - 8; i--) hex += bytes[i].toString(16).padStart(2, '0');
  return hex;
}

function verifyCtc(core, bytes) {
  const { heap } = core, x = heap.x;
  const chunk = x.ctw_chunk_new() >>> 0;
  if (!chunk) throw ctError('CT_ERR_MEMORY', 'out of WebAssembly memory for a chunk');
  let buf = 0;
  try {
    buf = heap.allocBytes(bytes);
    heap.check(x.ctw_chunk_decode_ctc(buf, bytes.length, chunk, ...heap.errArgs()));
    const hex = heap.slot(5), keyOut = heap.slot(2);
    x.ctw_chunk_key(chunk, keyOut);
    const k = heap.u32().slice(keyOut / 4, keyOut / 4 + 5);
    x.ctw_chunk_digest_hex(chunk, hex);
    const digest = heap.str(hex);
    x.ctw_chunk_generation_hex(chunk, hex);
    return {
      kind: 'ctc', generation: heap.str(hex), key: { face: k[0], lod: k[1], x: k[2], y: k[3] },
      digest, planetId: k[4],
    };
  } finally {
    heap.free(buf);
    x.ctw_chunk_free(chunk);
  }
}

function verifyCtw(core, bytes) {
  const world = core.loadWorld(bytes);
  try {
    return {
      kind: 'ctw', generation: world.generation, key: null, digest: trailingHex64(bytes),
      planetId: world.config.planet_id,
    };
  } finally {
    world.free();
  }
}

/**
 * @param {import('./ct.mjs').Core} core
 * @param {Uint8Array|ArrayBuffer} bytes
 */
export function verifyFile(core, bytes) {
  if (bytes instanceof ArrayBuffer) bytes = new Uint8Array(bytes);
  if (!(bytes instanceof Uint8Array)) throw ctError('CT_ERR_NULL', 'verifyFile: bytes must be a Uint8Array or ArrayBuffer');
  if (startsWith(bytes, CTC_MAGIC)) return verifyCtc(core, bytes);
  if (startsWith(bytes, CTW_MAGIC)) return verifyCtw(core, bytes);
  throw ctError(bytes.length < 8 ? 'CT_ERR_TRUNCATED' : 'CT_ERR_FORMAT',
    'neither a .ctc chunk nor a CTWORLD2 snapshot (bad magic)');
}
