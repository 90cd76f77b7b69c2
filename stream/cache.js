// This module keeps ready tiles under a GPU memory budget: least recently used tiles go first, tiles in use this frame never (no DOM, no GL: the caller frees buffers in the release callback).

export class TileCache {
  /**
   * @param {object} o
   * @param {number} o.budgetBytes GPU bytes the cache may hold before evicting
   * @param {(tile:object)=>void} o.release frees a tile's GPU buffers
   */
  constructor({ budgetBytes, release }) {
    this.budgetBytes = budgetBytes;
    this.release = release;
    /** id -> {tile, bytes, lastUsed} ; Map order is insertion order, not recency. */
    this.entries = new Map();
    this.bytes = 0;
    this.evictions = 0;
  }

  /** Adds (or replaces) a tile of the given byte size, marked used in frame. */
  add(id, tile, bytes, frame) {
    this.remove(id);
    this.entries.set(id, { tile, bytes, lastUsed: frame });
    this.bytes += bytes;
  }

  has(id) {
    return this.entries.has(id);
  }

  get(id) {
    return this.entries.get(id)?.tile;
  }

  /** Marks tiles as used in frame (so they survive eviction this frame). */
  touch(ids, frame) {
    for (const id of ids) {
      const e = this.entries.get(id);
      if (e) e.lastUsed = frame;
    }
  }

  /** Removes one tile and releases it. */
  remove(id) {
    const e = this.entries.get(id);
    if (!e) return false;
    this.entries.delete(id);
    this.bytes -= e.bytes;
    this.release(e.tile);
    return true;
  }

  /**
   * Evicts least recently used tiles not used in frame until the budget holds
   * (tiles used in this frame stay even over budget: a hole is worse). Returns
   * the evicted ids.
   */
  evict(frame) {
    if (this.bytes <= this.budgetBytes) return [];
    const old = [...this.entries.entries()].filter(([, e]) => e.lastUsed < frame).sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    const gone = [];
    for (const [id] of old) {
      if (this.bytes <= this.budgetBytes) break;
      this.remove(id);
      gone.push(id);
      this.evictions++;
    }
    return gone;
  }

  /** Releases everything (new world). */
  clear() {
    for (const id of [...this.entries.keys()]) this.remove(id);
  }

  get size() {
    return this.entries.size;
  }
}
