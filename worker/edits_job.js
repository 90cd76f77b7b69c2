// This module is the worker's edits request (MSG.EDITS): the world becomes
// its base world with the edit set applied (wasm/ct_edits.mjs withEdits,
// which shares the base's field), replacing any edit set it had. Chunks,
// meshes and colliders asked after it come from the edited world, through a
// fresh World whose chunk buffer holds nothing yet, so nothing of the old
// world's is reused. Bad edits throw CT_ERR_CONFIG naming the edit's index
// and field, and the world stays as it was.
import { ERR, protocolError } from './protocol.js';

/**
 * @param {import('./jobs.js').JobHost} h
 * @param {{bytes?: Uint8Array|ArrayBuffer, edits?: object[], snapshot?: boolean}} msg
 */
export function editsJob(h, msg) {
  const w = h.needWorld();
  const bytes = msg.bytes instanceof ArrayBuffer ? new Uint8Array(msg.bytes) : msg.bytes;
  if (!(bytes instanceof Uint8Array) && !Array.isArray(msg.edits)) {
    throw protocolError(ERR.MESSAGE, 'edits needs bytes (Uint8Array, CTEDITS) or edits (an array of edit objects)');
  }
  const next = w.withEdits(bytes instanceof Uint8Array ? bytes : msg.edits);
  h.replaceWorld(next);
  const result = { generation: next.generation, config: next.config, stats: next.stats(), editSetId: next.editSetId };
  if (msg.snapshot) result.snapshot = next.snapshot();
  return result;
}
