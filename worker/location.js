// This module says where the pool finds the worker script when the caller
// names none: worker.js next to this file, resolved from import.meta.url, so
// an installed package and a page serving it as plain ES modules both work.
// The browser bundle dist/browser/worker.js swaps this one module for one
// that starts the worker from code it carries (scripts/pack-dist.mjs).

/** @returns {URL|string} the default worker entry */
export function defaultWorkerUrl() {
  return new URL('./worker.js', import.meta.url);
}
