// This module is the worker's streams job: the stream network crossing a
// chunk key (world.streams, wasm/ct_streams.mjs), its arrays the reply's
// own, transferred.
import { parseKey } from './protocol.js';

/** {key} -> {key, generation, count, pointCount, center, positions, pointStart, waterM, width, order, level}. */
export function streamsJob(h, msg) {
  const w = h.needWorld(), key = parseKey(msg.key);
  return { ...w.streams(key), key, generation: w.generation };
}
