// The page's side of the endings worker (endings-worker.ts):
//   const s = new EndingsSolver(tc.module);
//   await s.solve({ frontmatter, endings: ['KQK', 'KRK'], dead: ['KBK'] }, { onEnding: show });
//   s.cancel();   // the running solve ends at once: its worker is terminated
// One solve at a time: a new solve cancels the running one. A cancelled
// solve's promise resolves with 'cancelled' and nothing more is reported.

import type { EndingsReply, EndingsRequest } from './endings-worker';
import type { DeadCount, EndingPass, SolvedEnding } from './topochess';

export interface EndingsWorkerLike {
  postMessage(msg: EndingsRequest): void;
  terminate(): void;
  onmessage: ((ev: { data: EndingsReply }) => void) | null;
  onerror?: ((ev: unknown) => void) | null;
}

export interface EndingsJob {
  frontmatter: string;
  endings: string[];
  dead?: string[];
  maxEntries?: number;
}

export interface EndingsListener {
  /** A pass over a table of endings[index] (or of one it captures into). */
  onPass?: (index: number, pass: EndingPass) => void;
  /** endings[index] solved (result), or refused (error: the library's message). */
  onEnding?: (index: number, result: SolvedEnding | null, error: string | null) => void;
  /** The dead materials, or why they are not decided by material here. */
  onDead?: (dead: Record<string, DeadCount> | null, error: string | null) => void;
}

function defaultWorker(): EndingsWorkerLike {
  return new Worker(new URL('./endings-worker.ts', import.meta.url), { type: 'module' }) as unknown as EndingsWorkerLike;
}

export class EndingsSolver {
  private worker: EndingsWorkerLike | null = null;
  private nextId = 1;
  private running: { id: number; finish: (r: 'done' | 'cancelled') => void; fail: (e: Error) => void } | null = null;

  constructor(
    private readonly module: WebAssembly.Module,
    private readonly createWorker: () => EndingsWorkerLike = defaultWorker,
  ) {}

  /** True while a solve runs. */
  get busy(): boolean {
    return this.running !== null;
  }

  solve(job: EndingsJob, on: EndingsListener = {}): Promise<'done' | 'cancelled'> {
    this.cancel();
    const w = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.running = { id, finish: resolve, fail: reject };
      w.onmessage = (ev) => {
        const m = ev.data;
        if (!this.running || m.id !== id) return;
        if (m.type === 'pass') on.onPass?.(m.index, m.pass);
        else if (m.type === 'ending') on.onEnding?.(m.index, m.result, m.error);
        else if (m.type === 'dead') on.onDead?.(m.dead, m.error);
        else {
          this.running = null;
          if (m.type === 'done') resolve('done');
          else reject(new Error(m.message));
        }
      };
      w.onerror = (ev) => {
        const r = this.running;
        this.running = null;
        this.worker?.terminate();
        this.worker = null;
        r?.fail(new Error((ev as { message?: string })?.message ?? 'the endings worker failed'));
      };
      w.postMessage({
        type: 'solve', id, module: this.module, frontmatter: job.frontmatter, endings: job.endings,
        dead: job.dead ?? [], maxEntries: job.maxEntries ?? 0,
      });
    });
  }

  /** Ends the running solve now (its worker is terminated; the next solve
   * starts a fresh one from the same compiled module). */
  cancel(): void {
    const r = this.running;
    if (!r) return;
    this.running = null;
    this.worker?.terminate();
    this.worker = null;
    r.finish('cancelled');
  }

  terminate(): void {
    this.cancel();
    this.worker?.terminate();
    this.worker = null;
  }

  private spawn(): EndingsWorkerLike {
    return this.createWorker();
  }
}
