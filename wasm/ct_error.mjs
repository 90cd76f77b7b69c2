// ct_error.mjs - This module makes the JS API's errors: an Error whose `.code`
// is the C result name. It stands alone (no WebAssembly, no Node modules) so
// that the key check (ct_key.mjs), and with it the worker protocol and the
// streaming library, bundle for a page without the core's loader.

/**
 * An Error carrying the C result name in `.code` (e.g. 'CT_ERR_LOD').
 * @param {string} code
 * @param {string} message
 * @returns {Error & {code: string}}
 */
export function ctError(code, message) {
  const e = /** @type {Error & {code: string}} */ (new Error(message));
  e.name = 'CtError';
  e.code = code;
  return e;
}
