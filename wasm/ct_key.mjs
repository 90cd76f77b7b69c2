// ct_key.mjs - This module is the one place a chunk key is checked and
// spelled in JavaScript. A key travels as {face, lod, x, y}; parseKey is its
// only validator (the core, the worker protocol, the pool and the streaming
// library all call it, so a bad key gets the same error code wherever it is
// caught); keyId is its only text id (request collapsing, caches, tile ids),
// the tail of the core's address. The address a person reads
// (planet/generation/face/lod/x/y) is the core's own ct_address_format,
// World.address(key), never rebuilt here.
import { FACE_NAMES, FACE_FILE_NAMES, MAX_LOD } from './ct_constants.mjs';
import { ctError } from './ct_error.mjs';

const KEY_SHAPE = "a key is {face, lod, x, y} or its id 'pz/6/22/52'";

/** Face number of 0..5, "+X" or "px" in either case (as ct_face_parse); -1 for anything else. */
function faceNumber(face) {
  if (Number.isInteger(face)) return face >= 0 && face < FACE_NAMES.length ? face : -1;
  if (typeof face !== 'string' || face.length !== 2) return -1;
  const lower = face.toLowerCase();
  for (let f = 0; f < FACE_NAMES.length; f++) {
    if (lower === FACE_NAMES[f].toLowerCase() || lower === FACE_FILE_NAMES[f]) return f;
  }
  return -1;
}

/**
 * Checks a chunk key and returns it with a numeric face. Accepts an object
 * {face: 0..5|'+X'|'px', lod, x, y} or a key id 'face/lod/x/y' (keyId's
 * text, or any face spelling). Errors carry the C codes: CT_ERR_NULL (not a
 * key at all), CT_ERR_FACE, CT_ERR_LOD (outside 0..MAX_LOD), CT_ERR_CHUNK_XY
 * (outside the LOD's 2^lod x 2^lod grid). Whether the LOD exceeds a world's
 * surface_lod is the core's check.
 * @param {{face: number|string, lod: number, x: number, y: number}|string} key
 * @returns {{face: number, lod: number, x: number, y: number}}
 */
export function parseKey(key) {
  if (typeof key === 'string') {
    const parts = key.split('/');
    if (parts.length !== 4) throw ctError('CT_ERR_NULL', `not a chunk key: ${JSON.stringify(key)} (${KEY_SHAPE})`);
    const num = (t) => (/^\d+$/.test(t) ? Number(t) : NaN);
    key = { face: /^\d+$/.test(parts[0]) ? Number(parts[0]) : parts[0], lod: num(parts[1]), x: num(parts[2]), y: num(parts[3]) };
  }
  if (key === null || typeof key !== 'object' || Array.isArray(key)) throw ctError('CT_ERR_NULL', `not a chunk key (${KEY_SHAPE})`);
  // Integers out of range get ct_key_validate's own words, so the JS and native tools print the same line.
  const face = faceNumber(key.face);
  if (face < 0) {
    throw ctError('CT_ERR_FACE', Number.isInteger(key.face) ? `face ${key.face} out of range 0..5`
      : `face ${JSON.stringify(key.face) ?? 'undefined'} out of range (0..5, +X..-Z or px..nz)`);
  }
  const { lod, x, y } = key;
  if (!Number.isInteger(lod)) throw ctError('CT_ERR_LOD', `LOD ${String(lod)} is not an integer level`);
  if (lod < 0 || lod > MAX_LOD) throw ctError('CT_ERR_LOD', `LOD ${lod} out of range 0..${MAX_LOD}`);
  for (const [name, v] of [['x', x], ['y', y]]) {
    if (!Number.isInteger(v) || v < 0) throw ctError('CT_ERR_CHUNK_XY', `chunk ${name} ${String(v)} is not a valid coordinate`);
  }
  const n = 2 ** lod;
  if (x >= n || y >= n) throw ctError('CT_ERR_CHUNK_XY', `chunk (${x},${y}) out of range at LOD ${lod}: x and y must be below ${n}`);
  return { face, lod, x, y };
}

/**
 * The text id of a key, 'pz/6/22/52': the face as the core spells it in
 * addresses and file names, then lod, x, y. The key must be valid (parseKey).
 * @param {{face: number, lod: number, x: number, y: number}} key
 */
export function keyId(key) {
  return `${FACE_FILE_NAMES[key.face]}/${key.lod}/${key.x}/${key.y}`;
}
