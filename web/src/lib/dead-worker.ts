// Dead positions the page's own module leaves undecided, decided in a Web
// Worker (docs/rules.md section 6). The page's module marks only the
// materials whose tables take about a second; the 4-piece materials of the
// large boards take seconds each, so this worker's module, which may take
// its time, raises the limit to the server's and answers one position at a
// time, keeping the board's marks between questions.

import { loadTopochess, type GameStatus, type Topochess, type Variant } from './topochess';

/** The most entries a material's marks may have here: the hosted games'
 * limit (games/dead_share.h), so that both decide the same positions. */
export const WORKER_DEAD_LIMIT = 16_000_000;

/** Is this position of this board dead? */
export interface DeadRequest {
  type: 'dead-status';
  id: number;
  module: WebAssembly.Module;
  board: { preset: string } | { frontmatter: string };
  fen: string;
}

export type DeadReply =
  | { type: 'dead-status'; id: number; status: GameStatus['status']; text: string }
  | { type: 'error'; id: number; message: string };

interface Scope {
  postMessage(msg: DeadReply): void;
  addEventListener(type: 'message', fn: (ev: { data: DeadRequest }) => void): void;
}

export function serveDead(scope: Scope): void {
  let tc: Promise<Topochess> | null = null;
  let board: { key: string; v: Variant } | null = null;
  let pending: Promise<void> = Promise.resolve();

  async function answer(req: DeadRequest): Promise<void> {
    if (!tc) {
      tc = loadTopochess(req.module);
      (await tc).setDeadLimit(WORKER_DEAD_LIMIT);
    }
    const key = JSON.stringify(req.board);
    if (board?.key !== key) {
      board?.v.free();
      board = { key, v: (await tc).variant(req.board) };
    }
    const g = board.v.game(req.fen);
    try {
      const s = g.status();
      scope.postMessage({ type: 'dead-status', id: req.id, status: s.status, text: s.text });
    } finally {
      g.free();
    }
  }

  scope.addEventListener('message', (ev) => {
    const req = ev.data;
    pending = pending.then(() => answer(req)).catch((e: unknown) => {
      scope.postMessage({ type: 'error', id: req.id, message: (e as Error).message });
    });
  });
}

// Started as a worker (a worker scope has postMessage and no document).
declare const self: unknown;
if (typeof self !== 'undefined' && typeof (self as { postMessage?: unknown }).postMessage === 'function' &&
    typeof (globalThis as { document?: unknown }).document === 'undefined') {
  serveDead(self as Scope);
}
