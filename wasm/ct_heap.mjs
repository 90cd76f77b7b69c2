// ct_heap.mjs - This module loads build/wasm/ct.wasm without Emscripten glue and
// wraps its linear memory: fresh typed views, strings, scratch space, errors.
//
// The module is built with STANDALONE_WASM and no entry point, so its imports
// are few and known: env.emscripten_notify_memory_growth, env.ctw_progress
// (build progress, see wasm/ct_wasm.c) and possibly a handful of WASI calls
// from libc (clock_time_get for the build timer, fd_write if something
// prints). We supply small shims for exactly what the module asks for, after
// reading WebAssembly.Module.imports, and refuse to start on anything else.
import { ctError } from './ct_error.mjs';

export { ctError };

const IS_NODE = typeof process !== 'undefined' && !!(process.versions && process.versions.node);
const WASI_ENOSYS = 52;
const ERR_BYTES = 1024;        // message buffer handed to every fallible call
const SCRATCH_BYTES = 16384;   // small in/out arguments (directions, keys, stats)


/** Reads the bytes of a module source (see loadCore) or returns a compiled Module. */
async function fetchSource(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) {
    return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  }
  let url = source;
  if (typeof source === 'string') {
    if (IS_NODE && !/^[a-z][a-z0-9+.-]*:/i.test(source)) {
      const fs = await import('node:fs/promises');
      return new Uint8Array(await fs.readFile(source));
    }
    url = new URL(source, typeof location !== 'undefined' ? location.href : undefined);
  }
  if (!(url instanceof URL)) throw ctError('CT_ERR_NULL', 'loadCore: unsupported module source');
  if (IS_NODE && url.protocol === 'file:') {
    const fs = await import('node:fs/promises');
    return new Uint8Array(await fs.readFile(url));
  }
  const response = await fetch(url);
  if (!response.ok) throw ctError('CT_ERR_IO', `loadCore: ${url.href}: HTTP ${response.status}`);
  return response;
}

/**
 * Compiles the core module once, e.g. to share one WebAssembly.Module between workers.
 * @param {URL|string|ArrayBuffer|ArrayBufferView|WebAssembly.Module|Response} source
 * @returns {Promise<WebAssembly.Module>}
 */
export async function compileCore(source) {
  const got = await fetchSource(source);
  if (got instanceof WebAssembly.Module) return got;
  if (typeof Response !== 'undefined' && got instanceof Response) {
    const type = got.headers.get('content-type') || '';
    if (WebAssembly.compileStreaming && type.startsWith('application/wasm')) {
      return WebAssembly.compileStreaming(got);
    }
    return WebAssembly.compile(await got.arrayBuffer());
  }
  return WebAssembly.compile(got);
}

/** WASI shims for what a reactor built from our C can import. */
function wasiShims(heap) {
  const decoder = new TextDecoder();
  const lines = ['', ''];
  return {
    clock_time_get(id, _precision, outPtr) {
      // Only the build timer (stats.buildMs) reads the clock; never generation.
      const ms = id === 0 ? Date.now() : (globalThis.performance ? performance.now() : Date.now());
      heap.view().setBigUint64(outPtr, BigInt(Math.round(ms * 1e6)), true);
      return 0;
    },
    fd_write(fd, iovs, iovsLen, nwrittenPtr) {
      const v = heap.view();
      let n = 0, text = '';
      for (let i = 0; i < iovsLen; i++) {
        const ptr = v.getUint32(iovs + 8 * i, true), len = v.getUint32(iovs + 8 * i + 4, true);
        text += decoder.decode(heap.u8().subarray(ptr, ptr + len));
        n += len;
      }
      const slot = fd === 2 ? 1 : 0;
      const parts = (lines[slot] + text).split('\n');
      lines[slot] = parts.pop();
      for (const line of parts) (slot ? console.error : console.log)(line);
      v.setUint32(nwrittenPtr, n, true);
      return 0;
    },
    proc_exit(code) { throw ctError('CT_ERR_IO', `ct.wasm called exit(${code})`); },
  };
}

/**
 * Linear-memory helper around one instance. Views are re-created whenever the
 * memory has grown (old ArrayBuffers detach), so always call u8()/f64()/...
 * after any export that may allocate instead of keeping a view.
 */
export class Heap {
  constructor() {
    this.x = null;          // instance exports
    this.progress = null;   // current build's (stage, fraction) => cancel?
    this._buf = null;
    this._views = {};
    this.err = 0;
    this.scratch = 0;
    this.encoder = new TextEncoder();
    this.decoder = new TextDecoder();
  }

  _refresh() {
    const buf = this.x.memory.buffer;
    if (buf !== this._buf) {
      this._buf = buf;
      this._views = {};
    }
    return this._views;
  }

  _get(name, Ctor) {
    const views = this._refresh();
    return views[name] || (views[name] = new Ctor(this._buf));
  }

  u8() { return this._get('u8', Uint8Array); }
  u16() { return this._get('u16', Uint16Array); }
  u32() { return this._get('u32', Uint32Array); }
  i32() { return this._get('i32', Int32Array); }
  f32() { return this._get('f32', Float32Array); }
  f64() { return this._get('f64', Float64Array); }
  view() { return this._get('dv', DataView); }
  bytes() { return this.x.memory.buffer.byteLength; }

  /** malloc that throws CT_ERR_MEMORY instead of returning 0. */
  malloc(n) {
    const p = this.x.malloc(Math.max(1, n)) >>> 0;
    if (!p) throw ctError('CT_ERR_MEMORY', `out of WebAssembly memory allocating ${n} bytes`);
    return p;
  }

  free(p) { if (p) this.x.free(p); }

  /** NUL-terminated UTF-8 string at ptr ('' for NULL). */
  str(ptr) {
    if (!ptr) return '';
    const u8 = this.u8();
    let end = ptr >>> 0;
    while (u8[end]) end++;
    return this.decoder.decode(u8.subarray(ptr >>> 0, end));
  }

  /**
   * Copies a JS string into a fresh malloc'd NUL-terminated buffer. A NUL
   * inside the string would end it early for C ('5\u0000junk' read as '5'),
   * so it is refused with `code` and a message naming `what`.
   */
  allocStr(s, what = 'string', code = 'CT_ERR_CONFIG') {
    s = String(s);
    const at = s.indexOf('\u0000');
    if (at >= 0) throw ctError(code, `${what} holds a NUL character at offset ${at}: ${JSON.stringify(s.slice(0, 40))}`);
    const bytes = this.encoder.encode(s);
    const p = this.malloc(bytes.length + 1);
    const u8 = this.u8();
    u8.set(bytes, p);
    u8[p + bytes.length] = 0;
    return p;
  }

  /** Runs fn(ptr) with a temporary C string, freeing it afterwards. */
  withStr(s, fn, what, code) {
    const p = this.allocStr(s, what, code);
    try { return fn(p); } finally { this.free(p); }
  }

  /** Copies bytes into a fresh malloc'd buffer. */
  allocBytes(bytes) {
    const p = this.malloc(bytes.length);
    this.u8().set(bytes, p);
    return p;
  }

  /** Result code -> 'CT_ERR_...' name from the C table. */
  codeName(code) { return this.str(this.x.ctw_result_name(code)); }

  /**
   * Throws an Error for a non-zero ct_result, with the message the C call left
   * in the shared error buffer (cleared before every call by check()).
   */
  check(code) {
    if (code === 0) return;
    let msg = this.str(this.err);
    if (!msg) msg = this.str(this.x.ctw_result_message(code));
    throw ctError(this.codeName(code), msg);
  }

  /** Clears the error buffer and returns its pointer, for (err, errlen) pairs. */
  errArgs() {
    this.u8()[this.err] = 0;
    return [this.err, ERR_BYTES];
  }

  /** Byte offset of scratch slot i (8-byte aligned, 256 bytes each). */
  slot(i) { return this.scratch + 256 * i; }
}

/**
 * Instantiates the core and returns its Heap.
 * @param {URL|string|ArrayBuffer|ArrayBufferView|WebAssembly.Module} source
 */
export async function instantiate(source) {
  const module = await compileCore(source);
  const heap = new Heap();
  const wasi = wasiShims(heap);
  const env = {
    emscripten_notify_memory_growth() { heap._refresh(); },
    ctw_progress(stagePtr, fraction) {
      if (!heap.progress) return 0;
      return heap.progress(heap.str(stagePtr), fraction) ? 1 : 0;
    },
  };
  const imports = { env: {}, wasi_snapshot_preview1: {} };
  for (const imp of WebAssembly.Module.imports(module)) {
    if (imp.kind !== 'function') throw ctError('CT_ERR_FORMAT', `ct.wasm: unexpected import ${imp.module}.${imp.name}`);
    if (imp.module === 'env' && env[imp.name]) {
      imports.env[imp.name] = env[imp.name];
    } else if (imp.module === 'wasi_snapshot_preview1') {
      imports.wasi_snapshot_preview1[imp.name] = wasi[imp.name] || (() => WASI_ENOSYS);
    } else {
      throw ctError('CT_ERR_FORMAT', `ct.wasm: unknown import ${imp.module}.${imp.name}`);
    }
  }
  const instance = await WebAssembly.instantiate(module, imports);
  heap.x = instance.exports;
  if (heap.x._initialize) heap.x._initialize();   // reactor: static constructors
  heap.err = heap.malloc(ERR_BYTES);
  heap.scratch = heap.malloc(SCRATCH_BYTES);
  return heap;
}
