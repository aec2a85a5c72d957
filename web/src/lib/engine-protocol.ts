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
  }
  | { type: 'search'; id: number; fen: string; moves: string[]; limits: SearchLimits }
  | { type: 'newgame' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'info'; id: number; info: SearchInfo }
  | { type: 'done'; id: number; result: SearchResult }
  | { type: 'error'; id: number | null; message: string };

export type { WasmSource };
