// This module is the world-request half of the pool's public face: chunk,
// mesh, sample, snapshot and any other request type, each turned into one
// scheduled request (a collapse key so repeats share one reply, the chunk's
// key id so it goes to the worker that holds the chunk, and a message maker
// that copies what it transfers, so a retry after a crash can send it again).
import { MSG, parseKey, keyId } from './protocol.js';
import { stableJson, toDirs } from './pool_util.js';

/**
 * A request about one chunk with options (mesh, collider): (key, options,
 * {priority}, extra?) -> Promise. Repeats with equal options share one
 * reply; it goes to the worker that holds the chunk. extra() adds fields to
 * the message each time it is sent (a baked tile's entry: worker/tiles.js).
 */
function chunkWithOptions(request, type) {
  return (key, options = {}, { priority = 0 } = {}, extra = null) => {
    let k;
    try { k = parseKey(key); } catch (e) { return Promise.reject(e); }
    const opts = { ...options };
    return request(type, () => ({ msg: { key: k, options: opts, ...(extra ? extra() : {}) }, transfer: [] }),
      { key: `${type}:${keyId(k)}:${stableJson(opts)}`, priority, info: { key: k, options: opts }, affinity: keyId(k) });
  };
}

/**
 * @param {(type: string, make: () => {msg: object, transfer: ArrayBuffer[]},
 *   o?: {key?: string, priority?: number, info?: object, affinity?: string}) => Promise<any>} request
 *   the pool's scheduler entry point (worker/client.js)
 */
export function worldRequests(request) {
  return {
    chunk(key, { priority = 0, format = 'arrays' } = {}, extra = null) {
      let k;
      try { k = parseKey(key); } catch (e) { return Promise.reject(e); }
      return request(MSG.CHUNK, () => ({ msg: { key: k, format, ...(extra ? extra() : {}) }, transfer: [] }),
        { key: `chunk:${keyId(k)}:${format}`, priority, info: { key: k }, affinity: keyId(k) });
    },

    mesh: chunkWithOptions(request, MSG.MESH),

    /** A physics collider of a chunk (world.collider in a worker; its arrays are transferred). */
    collider: chunkWithOptions(request, MSG.COLLIDER),

    /** A chunk key's scatter (world.scatter in a worker; its arrays are transferred; extra as chunk's). */
    scatter(key, { priority = 0 } = {}, extra = null) {
      let k;
      try { k = parseKey(key); } catch (e) { return Promise.reject(e); }
      return request(MSG.SCATTER, () => ({ msg: { key: k, ...(extra ? extra() : {}) }, transfer: [] }),
        { key: `scatter:${keyId(k)}`, priority, info: { key: k }, affinity: keyId(k) });
    },

    /** The stream network crossing a chunk key (world.streams in a worker; its arrays are transferred). */
    streams(key, { priority = 0 } = {}) {
      let k;
      try { k = parseKey(key); } catch (e) { return Promise.reject(e); }
      return request(MSG.STREAMS, () => ({ msg: { key: k }, transfer: [] }),
        { key: `streams:${keyId(k)}`, priority, info: { key: k }, affinity: keyId(k) });
    },

    sample(dirs, { priority = 0 } = {}) {
      let own;
      try { own = toDirs(dirs); } catch (e) { return Promise.reject(e); }
      return request(MSG.SAMPLE, () => { const c = own.slice(); return { msg: { dirs: c }, transfer: [c.buffer] }; }, { priority });
    },

    /** The world's river graph (typed arrays, transferred). */
    rivers({ priority = 0 } = {}) {
      return request(MSG.RIVERS, () => ({ msg: {}, transfer: [] }), { key: 'rivers', priority });
    },

    snapshot({ priority = 0 } = {}) {
      return request(MSG.SNAPSHOT, () => ({ msg: {}, transfer: [] }), { key: 'snapshot', priority }).then((r) => r.bytes);
    },

    /** Any request type (e.g. a test hook), scheduled like the others. */
    request(type, args = {}, { priority = 0, key, transfer } = {}) {
      return request(type, () => ({ msg: { ...args }, transfer: transfer || [] }), { priority, key });
    },

    /** The core's address of a key in the pool's world, 'planet/generation/face/lod/x/y' (ct_address_format). */
    address(key, { priority = 0 } = {}) {
      let k;
      try { k = parseKey(key); } catch (e) { return Promise.reject(e); }
      return request(MSG.ADDRESS, () => ({ msg: { key: k }, transfer: [] }), { key: `address:${keyId(k)}`, priority })
        .then((r) => r.address);
    },
  };
}
