// ct_location.mjs - This module says where loadCore() finds ct.wasm when the
// caller names no source: inside the package, next to this file's folder
// (build/wasm/ct.wasm), resolved from import.meta.url so an installed package
// and a page serving the package as plain ES modules both work unchanged.
// The browser bundles in dist/browser/ swap this one module for one that
// carries the bytes (scripts/pack-dist.mjs), because a bundler moves this code
// away from the file it would point at.

/** @returns {URL} the package's own ct.wasm */
export function defaultWasmSource() {
  return new URL('../build/wasm/ct.wasm', import.meta.url);
}
