// native_client.mjs - This module drives build/native/bench_native as a
// long-running child: one command line out, one JSON line back. Keeping one
// process alive lets scripts/bench.mjs put a native repetition right next to
// the WebAssembly one, so both see the same machine load.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Starts the native bench server.
 * @param {string} binary  path of build/native/bench_native
 * @returns {{send: (cmd: string) => Promise<object>, close: () => Promise<void>}}
 */
export function startNative(binary) {
  const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  let failure = null;
  lines.on('line', (line) => {
    const w = waiting.shift();
    if (!w) return;
    try { w.resolve(JSON.parse(line)); } catch (e) { w.reject(new Error(`bench_native: bad reply ${line}`)); }
  });
  child.on('exit', (code) => {
    failure = new Error(`bench_native exited (${code})`);
    while (waiting.length) waiting.shift().reject(failure);
  });
  return {
    /** Sends one command; resolves with its reply, rejects on ok: false. */
    send(cmd) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        waiting.push({ resolve: (r) => (r.ok ? resolve(r) : reject(new Error(`bench_native ${cmd}: ${r.error}`))), reject });
        child.stdin.write(`${cmd}\n`);
      });
    },
    close() {
      return new Promise((resolve) => {
        if (failure) { resolve(); return; }
        child.on('exit', () => resolve());
        child.stdin.end('quit\n');
      });
    },
  };
}
