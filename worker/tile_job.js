// This module is the worker's side of baked tiles: a chunk, mesh or
// collider request whose message carries a tile entry ({url, bytes, sha256,
// format}, from the pool's verified index: worker/tiles.js) fetches that
// tile, refuses it unless its length and SHA-256 match the entry, decodes
// it (core.decodeTile or core.decodeCtc, which check the tile's own digest)
// and checks it holds the key asked for in this world's generation. A tile
// that fails any of that is never used: the key is generated here instead,
// and the reply says why in tileFallback ({kind, message}); the pool counts
// and reports it. Replies say where their chunk came from in `source`. In a
// world with an edit set, keys the set reaches are generated without a look
// at their tile (the bake is of the base world).
import { ERR, parseKey } from './protocol.js';
import { fetchVerified, tileError } from './tile_fetch.js';

/** The decoded chunk of msg.tile for world w, or a tileError saying why not. */
async function tileChunk(h, msg) {
  const t = msg.tile;
  if (!t || typeof t !== 'object' || typeof t.url !== 'string') throw tileError('bad', 'tile entry must be {url, bytes, sha256, format}');
  const bytes = await fetchVerified(new URL(t.url), t.bytes, t.sha256, 'tile');
  const key = parseKey(msg.key), w = h.needWorld();
  let chunk;
  try {
    chunk = t.format === 'ctc' ? h.core.decodeCtc(bytes) : h.core.decodeTile(bytes);
  } catch (e) {
    throw tileError('decode', `tile ${t.url}: ${e.message}`);
  }
  const got = chunk.key;
  if (got.face !== key.face || got.lod !== key.lod || got.x !== key.x || got.y !== key.y) {
    throw tileError('decode', `tile ${t.url} holds chunk ${got.face}/${got.lod}/${got.x}/${got.y}, not the key asked for`);
  }
  if (chunk.generation !== w.generation) {
    throw tileError('generation', `tile ${t.url} is of generation ${chunk.generation}, the world is ${w.generation}`);
  }
  return chunk;
}

const UNEDITED = '0000000000000000';
/** Per world with an edit set: per LOD, the 'face/x/y' of the keys it reaches (World.editedKeys). */
const reached = new WeakMap();

/**
 * Whether w's edit set reaches key. A baked tile is the base world's chunk,
 * so such a key is generated in the edited world; its other keys are
 * byte-identical to the base's and still come from their tiles.
 */
function editsReach(w, key) {
  if (w.editSetId === UNEDITED) return false;
  let byLod = reached.get(w);
  if (!byLod) reached.set(w, (byLod = new Map()));
  let keys = byLod.get(key.lod);
  if (!keys) byLod.set(key.lod, (keys = new Set(w.editedKeys(key.lod).map((k) => `${k.face}/${k.x}/${k.y}`))));
  return keys.has(`${key.face}/${key.x}/${key.y}`);
}

/**
 * Answers a request from its baked tile when the message carries one:
 * answer(world, chunk) with the decoded chunk, else answer(world, null),
 * which generates. Synchronous (answer's result) without a tile; a promise
 * with one, for worker/handler.js to wait on.
 */
export function withTile(h, msg, answer) {
  if (msg.tile === undefined || editsReach(h.needWorld(), parseKey(msg.key))) return answer(h.needWorld(), null);
  return tileChunk(h, msg).then(
    (chunk) => Object.assign(answer(h.needWorld(), chunk), { source: 'tile' }),
    (e) => {
      if (e.code !== ERR.TILES) throw e;
      return Object.assign(answer(h.needWorld(), null), { source: 'generated', tileFallback: { kind: e.kind, message: e.message } });
    },
  );
}
