// ct.d.mts - TypeScript looks for this name next to ct.mjs; the declarations live in ct.d.ts.
export * from './ct.js';
