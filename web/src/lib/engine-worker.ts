// The engine in a Web Worker. The wasm search is single-threaded and runs to
// its end without returning to this worker's event loop, so a 'stop' message
// could not be read while it thinks. Instead the search polls a host
// function every thousand nodes or so, which reads a SharedArrayBuffer slot
// that the page writes (EngineClient.stop) when the page is
// crossOriginIsolated; otherwise the page stops a search by terminating this
// worker and starting a new one. Time limits are kept by the search itself.

import type { FromWorker, SearchResult, ToWorker } from './engine-protocol';
import { loadTopochess, type Topochess, type Variant } from './topochess';

interface Scope {
  postMessage(msg: FromWorker): void;
  addEventListener(type: 'message', fn: (ev: { data: ToWorker }) => void): void;
}

interface State {
  tc: Topochess;
  variant: Variant;
  engine: number;
  stop: Int32Array | null;
}

export function serveEngine(scope: Scope): void {
  let state: State | null = null;
  let pending: Promise<void> = Promise.resolve();

  const post = (m: FromWorker): void => scope.postMessage(m);

  async function init(msg: Extract<ToWorker, { type: 'init' }>): Promise<{ netPreset: string | null; netError: string | null }> {
    const src = msg.module ?? msg.bytes ?? msg.url;
    if (!src) throw new Error('init: no wasm module given');
    const tc = await loadTopochess(src);
    const variant = tc.variant(msg.variant);
    const engine = tc.m.x.tcw_engine_new(variant.ptr, msg.hashMb);
    if (!engine) throw new Error('cannot make the engine (out of memory)');
    state = { tc, variant, engine, stop: msg.stop ? new Int32Array(msg.stop) : null };
    const nets = msg.nets ?? [];
    const pick = nets.length ? tc.m.withStrs([nets.join('\n')], (n) => tc.m.x.tcw_net_pick(variant.ptr, n.ptr)) : -1;
    const netError = msg.net ? loadNet(msg.net) : null;
    return { netPreset: nets[pick] ?? null, netError };
  }

  /** Loads a net file's bytes into the engine; the library's refusal or null. */
  function loadNet(bytes: ArrayBuffer): string | null {
    if (!state) throw new Error('net before init');
    const { tc, engine } = state;
    const x = tc.m.x;
    const ptr = x.tcw_malloc(bytes.byteLength);
    if (!ptr) return 'out of wasm memory for the net';
    new Uint8Array(x.memory.buffer, ptr, bytes.byteLength).set(new Uint8Array(bytes));
    const r = x.tcw_engine_load_net(engine, ptr, bytes.byteLength, tc.m.err);
    x.tcw_free(ptr);
    return r ? tc.m.error() : null;
  }

  const evaluation = (): string => (state ? state.tc.m.take(state.tc.m.x.tcw_engine_evaluation(state.engine)) : null) ?? 'unknown';

  function search(msg: Extract<ToWorker, { type: 'search' }>): void {
    if (!state) throw new Error('search before init');
    const { tc, variant, engine, stop } = state;
    const game = variant.game(msg.fen || undefined);
    try {
      for (const mv of msg.moves) game.play(mv);
      const hooks = tc.m.hooks;
      hooks.onInfo = (json) => post({ type: 'info', id: msg.id, info: JSON.parse(json) });
      hooks.poll = stop ? () => Atomics.load(stop, 0) >= msg.id : null;
      const l = msg.limits;
      const out = tc.m.x.tcw_engine_search(engine, game.live(), l.depth ?? 0, l.movetime ?? 0, l.nodes ?? 0,
        l.level ?? 0, stop ? 1 : 0, l.multipv ?? 1);
      hooks.onInfo = null;
      hooks.poll = null;
      const result = tc.m.takeJson<SearchResult>(out);
      if (!result) throw new Error('search failed');
      if (stop && Atomics.load(stop, 0) >= msg.id) result.stopped = true;
      post({ type: 'done', id: msg.id, result });
    } finally {
      game.free();
    }
  }

  scope.addEventListener('message', (ev) => {
    const msg = ev.data;
    // messages are handled in order; a search blocks this worker until done
    pending = pending.then(async () => {
      try {
        if (msg.type === 'init') {
          const { netPreset, netError } = await init(msg);
          post({ type: 'ready', netPreset, evaluation: evaluation(), netError });
        } else if (msg.type === 'search') {
          search(msg);
        } else if (msg.type === 'net') {
          const error = loadNet(msg.bytes);
          post({ type: 'evaluation', evaluation: evaluation(), error });
        } else if (msg.type === 'newgame') {
          if (state) state.tc.m.x.tcw_engine_new_game(state.engine);
        }
      } catch (e) {
        post({ type: 'error', id: msg.type === 'search' ? msg.id : null, message: (e as Error).message });
      }
    });
  });
}

// Started as a worker (a worker scope has postMessage and no document).
declare const self: unknown;
if (typeof self !== 'undefined' && typeof (self as { postMessage?: unknown }).postMessage === 'function' &&
    typeof (globalThis as { document?: unknown }).document === 'undefined') {
  serveEngine(self as Scope);
}
