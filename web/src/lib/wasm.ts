// The raw module: instantiation with the few host functions it imports, and
// helpers to move strings and arrays across its memory. The typed API over it
// is topochess.ts; nothing outside web/src/lib should need this file.

import { wasiHost } from './wasi-host.js';

/** Functions the module exports (wasm/tc_wasm.c). Pointers are byte offsets. */
export interface TcExports {
  memory: WebAssembly.Memory;
  _initialize(): void;
  tcw_malloc(n: number): number;
  tcw_free(p: number): void;
  tcw_error_new(): number;
  tcw_preset_count(): number;
  tcw_presets_json(): number;
  tcw_variant_preset(name: number, err: number): number;
  tcw_variant_frontmatter(text: number, len: number, err: number): number;
  tcw_variant_free(v: number): void;
  tcw_variant_json(v: number): number;
  tcw_cell_parse(v: number, name: number): number;
  tcw_variant_steps(v: number): number;
  tcw_variant_lines(v: number, cell: number, letter: number): number;
  tcw_variant_report(v: number): number;
  tcw_variant_report_text(v: number): number;
  tcw_game_new(v: number): number;
  tcw_game_clone(p: number): number;
  tcw_game_free(p: number): void;
  tcw_game_set_fen(p: number, fen: number, err: number): number;
  tcw_game_fen(p: number): number;
  tcw_game_board(p: number): number;
  tcw_game_legal(p: number): number;
  tcw_game_legal_count(p: number): number;
  tcw_game_play(p: number, text: number, err: number): number;
  tcw_game_undo(p: number): number;
  tcw_game_status(p: number): number;
  tcw_game_ending(p: number): number;
  tcw_variant_ending(v: number, ending: number, maxEntries: number, poll: number, err: number): number;
  tcw_variant_dead(v: number, names: number, err: number): number;
  tcw_dead_limit(maxEntries: number): void;
  tcw_game_lines(p: number, cell: number, mode: number): number;
  tcw_game_move_path(p: number, text: number, err: number): number;
  tcw_game_explain(p: number, text: number): number;
  tcw_game_attacks(p: number, cell: number, by: number): number;
  tcw_game_history(p: number): number;
  tcw_game_review(p: number, values: number, err: number): number;
  tcw_puzzle_set(v: number, material: number, maxEntries: number, err: number): number;
  tcw_puzzle_set_free(t: number): void;
  tcw_puzzles(t: number, count: number, seed: number, minMate: number, maxMate: number, err: number): number;
  tcw_puzzle_check(t: number, p: number, text: number, err: number): number;
  tcw_game_review_pgn(p: number, values: number, tags: number, result: number, err: number): number;
  tcw_game_pgn(p: number, tags: number, result: number): number;
  tcw_game_load_pgn(p: number, text: number, len: number, err: number): number;
  tcw_pgn_board(v: number, text: number, len: number, err: number): number;
  tcw_game_perft(p: number, depth: number): number;
  tcw_game_divide(p: number, depth: number): number;
  tcw_engine_new(v: number, hashMb: number): number;
  tcw_engine_free(e: number): void;
  tcw_engine_new_game(e: number): void;
  tcw_engine_set_position(e: number, p: number): number;
  tcw_engine_search(e: number, p: number, depth: number, movetimeMs: number, nodes: number, level: number,
    poll: number, multipv: number): number;
  tcw_engine_evaluate(e: number, p: number): number;
  tcw_engine_load_net(e: number, data: number, len: number, err: number): number;
  tcw_engine_clear_net(e: number): void;
  tcw_engine_has_net(e: number): number;
  tcw_engine_evaluation(e: number): number;
  tcw_net_pick(v: number, names: number): number;
  tcw_nnue_random(v: number, hidden: number, seed: number, len: number): number;
}

/** What the host lets a running search do: report progress, be stopped. */
export interface HostHooks {
  /** One progress report from a search (JSON text of a SearchInfo). */
  onInfo: ((json: string) => void) | null;
  /** Asked every thousand nodes or so; true stops the search. */
  poll: (() => boolean) | null;
}

/** Anything the module can be loaded from. */
export type WasmSource = string | URL | ArrayBuffer | Uint8Array | WebAssembly.Module | Response;

/** A failure the library reported; message is the library's own text. */
export class TopochessError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopochessError';
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The raw module plus string and memory helpers. */
export class TcModule {
  readonly x: TcExports;
  readonly hooks: HostHooks;
  /** A tc_error buffer the calls that can fail write their message into. */
  readonly err: number;

  constructor(instance: WebAssembly.Instance, hooks: HostHooks) {
    this.x = instance.exports as unknown as TcExports;
    this.hooks = hooks;
    this.x._initialize();
    this.err = this.x.tcw_error_new();
  }

  private bytes(): Uint8Array {
    return new Uint8Array(this.x.memory.buffer);
  }

  /** Copies a string into a fresh NUL-terminated buffer; free it with free(). */
  str(s: string): { ptr: number; len: number } {
    if (s.includes('\0')) throw new TopochessError('text contains a NUL character');
    const b = encoder.encode(s);
    const ptr = this.x.tcw_malloc(b.length + 1);
    if (!ptr) throw new Error('topochess: out of wasm memory');
    const m = this.bytes();
    m.set(b, ptr);
    m[ptr + b.length] = 0;
    return { ptr, len: b.length };
  }

  /** Reads a NUL-terminated string at ptr. */
  read(ptr: number): string {
    const m = this.bytes();
    let end = ptr;
    while (m[end] !== 0) end++;
    return decoder.decode(m.subarray(ptr, end));
  }

  readLen(ptr: number, len: number): string {
    return decoder.decode(this.bytes().subarray(ptr, ptr + len));
  }

  /** Reads and frees a malloc'd string result; null for a NULL pointer. */
  take(ptr: number): string | null {
    if (!ptr) return null;
    const s = this.read(ptr);
    this.x.tcw_free(ptr);
    return s;
  }

  /** Reads and frees a malloc'd JSON result. */
  takeJson<T>(ptr: number): T | null {
    const s = this.take(ptr);
    return s === null ? null : (JSON.parse(s) as T);
  }

  /** Copies and frees a malloc'd int32 array of n entries. */
  takeInt32(ptr: number, n: number): Int32Array {
    if (!ptr) throw new Error('topochess: out of wasm memory');
    const out = new Int32Array(n);
    out.set(new Int32Array(this.x.memory.buffer, ptr, n));
    this.x.tcw_free(ptr);
    return out;
  }

  /** The message the last failing call wrote. */
  error(): string {
    return this.read(this.err) || 'unknown error';
  }

  /** Runs fn with strings copied in, freeing them afterwards. */
  withStrs<T>(strs: string[], fn: (...ptrs: { ptr: number; len: number }[]) => T): T {
    const bufs: { ptr: number; len: number }[] = [];
    try {
      for (const s of strs) bufs.push(this.str(s));
      return fn(...bufs);
    } finally {
      for (const b of bufs) this.x.tcw_free(b.ptr);
    }
  }
}

/** The host functions: the WASI shims shared with the bench (wasi-host.js)
 * and the module's two "env" imports. */
function imports(hooks: HostHooks, getModule: () => TcModule | null): WebAssembly.Imports {
  const memory = (): WebAssembly.Memory => {
    const m = getModule();
    if (!m) throw new Error('topochess: module not ready');
    return m.x.memory;
  };
  const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());
  return {
    env: {
      tc_host_info: (ptr: number, len: number): void => {
        const m = getModule();
        if (m && hooks.onInfo) hooks.onInfo(m.readLen(ptr, len));
      },
      tc_host_poll: (): number => (hooks.poll && hooks.poll() ? 1 : 0),
    },
    wasi_snapshot_preview1: wasiHost(memory, now),
  };
}

async function toModule(src: WasmSource): Promise<WebAssembly.Module> {
  if (src instanceof WebAssembly.Module) return src;
  if (src instanceof ArrayBuffer) return WebAssembly.compile(src);
  if (src instanceof Uint8Array) return WebAssembly.compile(src.slice().buffer);
  const res = typeof Response !== 'undefined' && src instanceof Response ? src : await fetch(String(src));
  if (!res.ok) throw new Error(`topochess: cannot load the wasm module (${res.status} ${res.statusText})`);
  if (typeof WebAssembly.compileStreaming === 'function' &&
      (res.headers.get('content-type') ?? '').startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

/** Compiles (if needed) and instantiates the module. */
export async function instantiate(src: WasmSource): Promise<{ mod: TcModule; module: WebAssembly.Module }> {
  const module = await toModule(src);
  const hooks: HostHooks = { onInfo: null, poll: null };
  let mod: TcModule | null = null;
  const instance = await WebAssembly.instantiate(module, imports(hooks, () => mod));
  mod = new TcModule(instance, hooks);
  return { mod, module };
}
