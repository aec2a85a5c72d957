// The page's side of the engine worker:
//   const engine = await EngineClient.create({ module: tc.module, variant: { preset: 'klein-bottle' } });
//   const r = await engine.search({ fen, moves, movetime: 1000, onInfo: (i) => show(i.pv) });
//   engine.stop();   // the running search answers with the best move so far
// The learned evaluation: given `nets` (the presets whose net files the page
// can fetch), the worker names the one that applies (engine.netPreset, by
// the wasm module's rule); the page fetches it and hands it over with
// loadNet(bytes). Until then, and when it is refused, the engine evaluates
// by hand; engine.evaluation says which.
// The worker does the thinking, so the page stays responsive. How stop works
// depends on the page (see engine-worker.ts): 'shared-flag' when a
// SharedArrayBuffer can be shared (crossOriginIsolated, or Node), else
// 'respawn' (the worker is terminated, the search answers with the last
// completed iteration's move, and a fresh worker is started for the next).

import type {
  FromWorker, SearchInfo, SearchLimits, SearchResult, ToWorker, VariantSpec,
} from './engine-protocol';

export type { SearchInfo, SearchLimits, SearchResult, VariantSpec } from './engine-protocol';

/** What EngineClient needs of a worker (a Web Worker, or an adapter). */
export interface WorkerLike {
  postMessage(msg: ToWorker): void;
  terminate(): void;
  onmessage: ((ev: { data: FromWorker }) => void) | null;
  onerror?: ((ev: unknown) => void) | null;
}

export type StopMode = 'shared-flag' | 'respawn';

export interface EngineOptions {
  /** The compiled module (Topochess.module), or its URL or bytes. */
  module?: WebAssembly.Module;
  url?: string;
  bytes?: ArrayBuffer;
  variant: VariantSpec;
  /** Hash table size, MiB (default 16). */
  hashMb?: number | undefined;
  /** Default: a module Web Worker running engine-worker.ts. */
  createWorker?: (() => WorkerLike) | undefined;
  /** Default: 'shared-flag' when SharedArrayBuffer can be shared. */
  stopMode?: StopMode | undefined;
  /** The presets that have a net the page can fetch. */
  nets?: string[] | undefined;
}

/** The evaluation in use after loadNet: the engine's own words for it, and
 * the library's reason when the net was refused (null when it was taken). */
export interface EvaluationStatus {
  evaluation: string;
  error: string | null;
}

export interface SearchRequest extends SearchLimits {
  /** Position to search from (default: the variant's start). */
  fen?: string;
  /** Moves played from fen (coordinate form or SAN), so repetitions count. */
  moves?: string[];
  onInfo?: ((info: SearchInfo) => void) | undefined;
}

function defaultWorker(): WorkerLike {
  return new Worker(new URL('./engine-worker.ts', import.meta.url), { type: 'module' }) as unknown as WorkerLike;
}

function canShare(): boolean {
  if (typeof SharedArrayBuffer !== 'function') return false;
  const coi = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return coi === undefined ? true : coi; // undefined: not a browser (Node)
}

interface Running {
  id: number;
  resolve: (r: SearchResult) => void;
  reject: (e: Error) => void;
  onInfo: ((info: SearchInfo) => void) | undefined;
  last: SearchInfo | null;
}

export class EngineClient {
  readonly stopMode: StopMode;
  private readonly opts: EngineOptions;
  private worker: WorkerLike | null = null;
  private ready: Promise<void> = Promise.resolve();
  private readonly stopFlag: Int32Array | null;
  private nextId = 1;
  /** Searches sent and not answered yet (a stopped one still answers). */
  private pending = new Map<number, Running>();
  /** The search asked for last, while it runs. */
  private current: number | null = null;
  private closed = false;
  /** The net loaded (kept for a restarted worker). */
  private net: ArrayBuffer | null = null;
  /** loadNet calls waiting for the worker's answer, in order. */
  private netWaiters: ((s: EvaluationStatus) => void)[] = [];
  /** Which of opts.nets applies to the variant (null: none). */
  netPreset: string | null = null;
  /** The evaluation in use, as the engine words it. */
  evaluation = 'hand-written';

  private constructor(opts: EngineOptions) {
    this.opts = opts;
    this.stopMode = opts.stopMode ?? (canShare() ? 'shared-flag' : 'respawn');
    this.stopFlag = this.stopMode === 'shared-flag' ? new Int32Array(new SharedArrayBuffer(4)) : null;
  }

  /** Starts the worker and loads the variant in it. */
  static async create(opts: EngineOptions): Promise<EngineClient> {
    const c = new EngineClient(opts);
    c.spawn();
    try {
      await c.ready;
    } catch (e) {
      c.terminate();
      throw e;
    }
    return c;
  }

  private spawn(): void {
    const w = (this.opts.createWorker ?? defaultWorker)();
    this.worker = w;
    let readyOk!: () => void;
    let readyFail!: (e: Error) => void;
    this.ready = new Promise<void>((res, rej) => {
      readyOk = res;
      readyFail = rej;
    });
    this.ready.catch(() => undefined); // a respawn nobody awaits yet must not go unhandled
    w.onmessage = (ev) => {
      const m = ev.data;
      if (m.type === 'ready') {
        this.netPreset = m.netPreset;
        this.evaluation = m.evaluation;
        // a worker ended while a net was on its way got it with init
        this.settleNets({ evaluation: m.evaluation, error: m.netError });
        readyOk();
      } else if (m.type === 'evaluation') {
        this.evaluation = m.evaluation;
        this.netWaiters.shift()?.({ evaluation: m.evaluation, error: m.error });
      } else if (m.type === 'error' && m.id === null) readyFail(new Error(m.message));
      else this.onMessage(m);
    };
    w.onerror = (ev) => {
      const msg = (ev as { message?: string })?.message ?? 'engine worker failed';
      readyFail(new Error(msg));
      for (const r of this.pending.values()) r.reject(new Error(msg));
      this.pending.clear();
      this.current = null;
      this.settleNets({ evaluation: this.evaluation, error: msg });
    };
    const init: ToWorker = {
      type: 'init',
      variant: this.opts.variant,
      hashMb: this.opts.hashMb ?? 16,
      ...(this.opts.module ? { module: this.opts.module } : {}),
      ...(this.opts.url ? { url: this.opts.url } : {}),
      ...(this.opts.bytes ? { bytes: this.opts.bytes } : {}),
      ...(this.stopFlag ? { stop: this.stopFlag.buffer as SharedArrayBuffer } : {}),
      ...(this.opts.nets?.length ? { nets: this.opts.nets } : {}),
      ...(this.net ? { net: this.net } : {}),
    };
    w.postMessage(init);
  }

  private onMessage(m: FromWorker): void {
    if (!('id' in m) || m.id === null) return;
    const r = this.pending.get(m.id);
    if (!r) return; // a search answered already (respawn mode)
    if (m.type === 'info') {
      if ((m.info.multipv ?? 1) === 1) r.last = m.info;
      r.onInfo?.(m.info);
      return;
    }
    this.pending.delete(m.id);
    if (this.current === m.id) this.current = null;
    if (m.type === 'done') r.resolve(m.result);
    else r.reject(new Error(m.message));
  }

  /** True while a search runs. */
  get thinking(): boolean {
    return this.current !== null;
  }

  /** Searches within the limits (with none, a depth cap of the engine: give
   * one). A search asked for while another runs stops that one first. */
  async search(req: SearchRequest = {}): Promise<SearchResult> {
    if (this.closed) throw new Error('engine closed');
    if (this.current !== null) this.stop();
    await this.ready;
    if (this.closed || !this.worker) throw new Error('engine closed');
    const id = this.nextId++;
    const fen = req.fen ?? ''; // '': the variant's start position
    return new Promise<SearchResult>((resolve, reject) => {
      this.pending.set(id, { id, resolve, reject, onInfo: req.onInfo, last: null });
      this.current = id;
      const limits: SearchLimits = {};
      if (req.depth) limits.depth = req.depth;
      if (req.movetime) limits.movetime = req.movetime;
      if (req.nodes) limits.nodes = req.nodes;
      if (req.level) limits.level = req.level;
      if (req.multipv && req.multipv > 1) limits.multipv = req.multipv;
      this.worker?.postMessage({ type: 'search', id, fen, moves: req.moves ?? [], limits });
    });
  }

  /** Stops the running search: it answers with its best move so far. */
  stop(): void {
    const r = this.current === null ? undefined : this.pending.get(this.current);
    if (!r) return;
    if (this.stopFlag) {
      Atomics.store(this.stopFlag, 0, r.id); // the search polls it and answers
      return;
    }
    // no shared memory: end the worker, answer from the last iteration
    this.pending.delete(r.id);
    this.current = null;
    this.worker?.terminate();
    const last = r.last;
    const best = last?.pvUci ? last.pvUci.split(' ')[0] ?? null : null;
    r.resolve({
      best,
      bestSan: last?.pv[0] ?? null,
      ponder: last?.pvUci ? last.pvUci.split(' ')[1] ?? null : null,
      score: last?.score ?? 0,
      mate: last?.mate ?? 0,
      depth: last?.depth ?? 0,
      nodes: last?.nodes ?? 0,
      timeMs: last?.timeMs ?? 0,
      stopped: true,
    });
    if (!this.closed) this.spawn();
  }

  /** Gives the engine a net file's bytes (for netPreset's board); resolves
   * with the evaluation then in use and the refusal, if any (the engine then
   * evaluates by hand). A search running meanwhile finishes first. */
  async loadNet(bytes: ArrayBuffer): Promise<EvaluationStatus> {
    await this.ready;
    if (this.closed || !this.worker) throw new Error('engine closed');
    this.net = bytes; // a worker started again meanwhile loads it with init
    const status = await new Promise<EvaluationStatus>((resolve) => {
      this.netWaiters.push(resolve);
      this.worker?.postMessage({ type: 'net', bytes }); // copied by postMessage
    });
    if (status.error && this.net === bytes) this.net = null;
    return status;
  }

  private settleNets(s: EvaluationStatus): void {
    const waiting = this.netWaiters;
    this.netWaiters = [];
    for (const w of waiting) w(s);
  }

  /** Clears the hash table and move-ordering history. */
  newGame(): void {
    this.worker?.postMessage({ type: 'newgame' });
  }

  /** Ends the worker. A running search is rejected ("engine closed"), or in
   * respawn mode answered as stopped with its last iteration's move. */
  terminate(): void {
    this.closed = true;
    if (!this.stopFlag) this.stop();
    for (const r of this.pending.values()) r.reject(new Error('engine closed'));
    this.pending.clear();
    this.current = null;
    this.worker?.terminate();
    this.worker = null;
    this.settleNets({ evaluation: this.evaluation, error: 'engine closed' });
  }
}
