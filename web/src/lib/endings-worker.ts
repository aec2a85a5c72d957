// The solved endings of a board in a Web Worker (the editor's live
// endings): a solve runs in this worker's thread and does not return to
// its event loop until it ends, so the page cancels one by terminating
// the worker (EndingsSolver.cancel) and starts a fresh one for the next.
// Every pass over a table is posted as it happens (the progress bar).

import { loadTopochess, type DeadCount, type EndingPass, type SolvedEnding, type Topochess } from './topochess';

/** The page asks: solve these endings on the board of this front matter,
 * and say which of these materials are dead there. */
export interface EndingsRequest {
  type: 'solve';
  id: number;
  module: WebAssembly.Module;
  frontmatter: string;
  endings: string[];
  dead: string[];
  /** Refuse a main table larger than this (0: the library's limit). */
  maxEntries: number;
}

export type EndingsReply =
  | { type: 'pass'; id: number; index: number; pass: EndingPass }
  | { type: 'ending'; id: number; index: number; result: SolvedEnding | null; error: string | null }
  | { type: 'dead'; id: number; dead: Record<string, DeadCount> | null; error: string | null }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string };

interface Scope {
  postMessage(msg: EndingsReply): void;
  addEventListener(type: 'message', fn: (ev: { data: EndingsRequest }) => void): void;
}

export function serveEndings(scope: Scope): void {
  let tc: Promise<Topochess> | null = null;
  let pending: Promise<void> = Promise.resolve();
  const post = (m: EndingsReply): void => scope.postMessage(m);

  async function solve(req: EndingsRequest): Promise<void> {
    tc ??= loadTopochess(req.module);
    const v = (await tc).variant({ frontmatter: req.frontmatter });
    try {
      if (req.dead.length) {
        try {
          post({ type: 'dead', id: req.id, dead: v.deadMaterials(req.dead), error: null });
        } catch (e) {
          post({ type: 'dead', id: req.id, dead: null, error: (e as Error).message });
        }
      }
      req.endings.forEach((name, index) => {
        try {
          const result = v.solveEnding(name, {
            maxEntries: req.maxEntries,
            onPass: (pass) => post({ type: 'pass', id: req.id, index, pass }),
          });
          post({ type: 'ending', id: req.id, index, result, error: null });
        } catch (e) {
          post({ type: 'ending', id: req.id, index, result: null, error: (e as Error).message });
        }
      });
      post({ type: 'done', id: req.id });
    } finally {
      v.free();
    }
  }

  scope.addEventListener('message', (ev) => {
    const req = ev.data;
    pending = pending.then(() => solve(req)).catch((e: unknown) => {
      post({ type: 'error', id: req.id, message: (e as Error).message });
    });
  });
}

// Started as a worker (a worker scope has postMessage and no document).
declare const self: unknown;
if (typeof self !== 'undefined' && typeof (self as { postMessage?: unknown }).postMessage === 'function' &&
    typeof (globalThis as { document?: unknown }).document === 'undefined') {
  serveEndings(self as Scope);
}
