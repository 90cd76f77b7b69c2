// handler_fixture.mjs - This module is shared set-up for tests that talk to the worker's message handler directly (no worker thread): a handler over a freshly loaded core, and `ask`, which sends one message and returns its reply (progress posts left out).
import { loadCore } from '../../wasm/ct.mjs';
import { createHandler } from '../../worker/handler.js';
import { MSG } from '../../worker/protocol.js';

/** A handler over its own core; ask(type, args) resolves with the message's final reply. */
export async function handlerFixture() {
  const h = createHandler(await loadCore());
  let id = 1;
  const ask = async (type, args) => {
    const posts = [];
    await h.handle({ id: id++, type, ...args }, (reply, transfer) => posts.push({ reply, transfer }));
    return posts.filter((p) => p.reply.type !== MSG.PROGRESS)[0].reply;
  };
  return { h, ask };
}
