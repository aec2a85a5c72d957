// The page's side of the dead-position worker (dead-worker.ts):
//   const d = new DeadCheck(tc.module, { preset: 'torus' });
//   if (DeadCheck.wanted(fen)) d.check(fen).then((text) => text && endDrawn(text));
// One worker per page, started on the first question; questions are
// answered in order. Only pawnless positions of at most four pieces can
// be dead by the tables and not be decided by the page's own module.

import type { DeadReply, DeadRequest } from './dead-worker';

export interface DeadWorkerLike {
  postMessage(msg: DeadRequest): void;
  terminate(): void;
  onmessage: ((ev: { data: DeadReply }) => void) | null;
}

function defaultWorker(): DeadWorkerLike {
  return new Worker(new URL('./dead-worker.ts', import.meta.url), { type: 'module' }) as unknown as DeadWorkerLike;
}

export class DeadCheck {
  private worker: DeadWorkerLike | null = null;
  private nextId = 1;
  private waiting = new Map<number, (r: DeadReply) => void>();

  constructor(
    private readonly module: WebAssembly.Module,
    private readonly board: { preset: string } | { frontmatter: string },
    private readonly createWorker: () => DeadWorkerLike = defaultWorker,
  ) {}

  /** A pawnless position of 3 or 4 pieces (kings included): the ones whose
   * verdict comes from the solved tables. */
  static wanted(fen: string): boolean {
    const field = fen.trim().split(/\s+/)[0] ?? '';
    const pieces = field.replace(/[^A-Za-z]/g, '');
    return pieces.length >= 3 && pieces.length <= 4 && !/[pP]/.test(pieces);
  }

  /** The status text when the position is dead, else null (not dead, or
   * the worker failed: a position is never declared dead on an error). */
  check(fen: string): Promise<string | null> {
    const w = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (r) => resolve(r.type === 'dead-status' && r.status === 'dead-position' ? r.text : null));
      w.postMessage({ type: 'dead-status', id, module: this.module, board: this.board, fen });
    });
  }

  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const done of this.waiting.values()) done({ type: 'error', id: 0, message: 'stopped' });
    this.waiting.clear();
  }

  private spawn(): DeadWorkerLike {
    const w = this.createWorker();
    w.onmessage = (ev) => {
      const done = this.waiting.get(ev.data.id);
      this.waiting.delete(ev.data.id);
      done?.(ev.data);
    };
    return w;
  }
}
