// Messages between the page (EngineClient, engine.ts) and the engine worker
// (engine-worker.ts). Types only.

import type { WasmSource } from './wasm';

export type VariantSpec = { preset: string } | { frontmatter: string };

/** One progress report, sent after each completed iteration (and after an
 * aspiration fail, bound "lower"/"upper"). */
export interface SearchInfo {
  /** Which line (1: the best) when several are searched (multipv). */
  multipv: number;
  depth: number;
  seldepth: number;
  /** Centipawns from the side to move's view. */
  score: number;
  /** 0, or moves to mate: > 0 the side to move mates, < 0 it is mated. */
  mate: number;
  bound: 'exact' | 'lower' | 'upper';
  nodes: number;
  nps: number;
  timeMs: number;
  /** Principal variation in SAN. */
  pv: string[];
  /** The same line in coordinate form, space separated. */
  pvUci: string;
}

export interface SearchResult {
  /** Best move in coordinate form (null only when there is no legal move). */
  best: string | null;
  bestSan: string | null;
  ponder: string | null;
  score: number;
  mate: number;
  depth: number;
  nodes: number;
  timeMs: number;
  /** The search was cut short by stop() (the result is the best so far). */
  stopped?: boolean;
}

export interface SearchLimits {
  /** Iterations to complete. */
  depth?: number;
  /** Milliseconds for this move. */
  movetime?: number;
  /** About this many nodes. */
  nodes?: number;
  /** 1..19: the CLI's levels, Elo 800 + 80 (N - 1); 0 or 20 full strength. */
  level?: number;
  /** Lines to search and report (1..64; default 1). */
  multipv?: number;
}

export type ToWorker =
  | {
    type: 'init';
    /** A compiled module (preferred: no second download), or where to get one. */
    module?: WebAssembly.Module;
    url?: string;
    bytes?: ArrayBuffer;
    variant: VariantSpec;
    hashMb: number;
    /** Int32 slot 0: the highest search id to stop (crossOriginIsolated only). */
    stop?: SharedArrayBuffer;
    /** The presets that have a net the page can fetch (the manifest's). */
    nets?: string[];
    /** A net's bytes to load at once (a restarted worker's, loaded before). */
    net?: ArrayBuffer;
  }
  | { type: 'net'; bytes: ArrayBuffer }
  | { type: 'search'; id: number; fen: string; moves: string[]; limits: SearchLimits }
  | { type: 'newgame' };

export type FromWorker =
  /** netPreset: which of init's nets applies to the variant (the wasm
   * module's rule), or null; evaluation: the engine's own words for the
   * evaluation in use ("hand-written", "net 'NAME' (...)"); netError: the
   * refusal of init's net, or null. */
  | { type: 'ready'; netPreset: string | null; evaluation: string; netError: string | null }
  /** The answer to 'net': error is the library's refusal, or null. */
  | { type: 'evaluation'; evaluation: string; error: string | null }
  | { type: 'info'; id: number; info: SearchInfo }
  | { type: 'done'; id: number; result: SearchResult }
  | { type: 'error'; id: number | null; message: string };

export type { WasmSource };
