// The engine worker under Node: engine-worker.ts is bundled (Vite, as the
// page build does) and run in a worker thread behind a small `self` shim,
// driven by the real EngineClient. Both ways of stopping are exercised.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineClient, type SearchInfo, type StopMode, type WorkerLike } from '../../src/lib/engine';
import type { Topochess } from '../../src/lib/topochess';
import { BIN, randomNet, tc, WASM } from './helpers';

let T: Topochess;
let dir: string;
let shim: string;

beforeAll(async () => {
  T = await tc();
  dir = mkdtempSync(join(tmpdir(), 'tc-engine-worker-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      lib: { entry: resolve(__dirname, '../../src/lib/engine-worker.ts'), formats: ['es'], fileName: () => 'worker.mjs' },
      outDir: dir,
      emptyOutDir: false,
      minify: false,
      write: true,
    },
  });
  shim = join(dir, 'shim.mjs');
  writeFileSync(shim, [
    "import { parentPort, workerData } from 'node:worker_threads';",
    'globalThis.self = {',
    '  postMessage: (m) => parentPort.postMessage(m),',
    "  addEventListener: (t, f) => { if (t === 'message') parentPort.on('message', (d) => f({ data: d })); },",
    '};',
    'await import(workerData.bundle);',
  ].join('\n'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let spawned = 0;
function nodeWorker(): WorkerLike {
  spawned++;
  const w = new Worker(shim, { workerData: { bundle: pathToFileURL(join(dir, 'worker.mjs')).href } });
  const like: WorkerLike = {
    postMessage: (m) => w.postMessage(m),
    terminate: () => { void w.terminate(); },
    onmessage: null,
    onerror: null,
  };
  w.on('message', (d) => like.onmessage?.({ data: d }));
  w.on('error', (e) => like.onerror?.(e));
  return like;
}

function engine(preset: string, stopMode?: StopMode): Promise<EngineClient> {
  return EngineClient.create({ module: T.module, variant: { preset }, createWorker: nodeWorker, stopMode });
}

/** A native UCI search: the info lines and the bestmove line. */
function nativeSearch(variant: string, go: string): Promise<string[]> {
  return new Promise((res, rej) => {
    const p = spawn(BIN, ['uci']);
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (/^bestmove/m.test(out)) p.stdin.end('quit\n');
    });
    p.on('error', rej);
    p.on('close', () => res(out.split('\n')));
    // The wasm module links no nets (the pages fetch them), so the worker
    // here searches with the hand-written evaluation; the native engine is
    // told to do the same (nnue.test.ts compares the two with a net loaded).
    p.stdin.write(`uci\nsetoption name UCI_Variant value ${variant}\nsetoption name Hash value 16\n`
      + `setoption name EvalFile value <none>\nisready\nposition startpos\n${go}\n`);
  });
}

describe('engine worker', () => {
  it('searches to a depth with info lines whose PVs are legal', async () => {
    const e = await engine('klein-bottle');
    const infos: SearchInfo[] = [];
    const r = await e.search({ depth: 5, onInfo: (i) => infos.push(i) });
    e.terminate();
    const v = T.variant({ preset: 'klein-bottle' });
    const g = v.game();
    expect(g.legalMoves().map((m) => m.uci)).toContain(r.best);
    expect(r.depth).toBe(5);
    expect(infos.filter((i) => i.bound === 'exact').map((i) => i.depth)).toEqual([1, 2, 3, 4, 5]);
    for (const i of infos) {
      const h = g.clone();
      const sans = i.pv.map((s) => h.play(s).san); // throws if a PV move is illegal
      expect(sans).toEqual(i.pv);
      expect(i.pvUci.split(' ')).toHaveLength(i.pv.length);
      h.free();
    }
    expect(infos.at(-1)!.pvUci.split(' ')[0]).toBe(r.best);
    expect(r.stopped).toBeUndefined();
    v.free();
  });

  it('searches exactly as the native engine does (same nodes, same move)', async () => {
    const e = await engine('klein-bottle');
    const r = await e.search({ depth: 6 });
    e.terminate();
    const lines = await nativeSearch('klein-bottle', 'go depth 6');
    const last = lines.filter((l) => l.startsWith('info depth 6 ')).at(-1)!;
    expect(Number(/ nodes (\d+)/.exec(last)![1])).toBe(r.nodes);
    expect(lines.find((l) => l.startsWith('bestmove'))!.split(' ')[1]).toBe(r.best);
  });

  it('searches from a FEN and moves, and by time', async () => {
    const e = await engine('chess');
    const r = await e.search({ fen: '7k/8/6K1/8/8/8/8/R7 w - - 0 1', depth: 3 });
    expect(r).toMatchObject({ best: 'a1a8', bestSan: 'Ra8#' });
    const t = await e.search({ moves: ['e2e4', 'e7e5'], movetime: 200 });
    const v = T.variant({ preset: 'chess' });
    const g = v.game();
    g.playMoves('e4 e5');
    expect(g.legalMoves().map((m) => m.uci)).toContain(t.best);
    const none = await e.search({ fen: '7k/5Q2/6K1/8/8/8/8/8 b - - 0 1', depth: 3 });
    expect(none.best).toBeNull();
    e.terminate();
    v.free();
  });

  it('reports bad input as a rejected search', async () => {
    const e = await engine('chess');
    await expect(e.search({ fen: 'garbage', depth: 2 })).rejects.toThrow(/FEN/);
    await expect(e.search({ moves: ['e2e5'], depth: 2 })).rejects.toThrow(/e2e5/);
    const r = await e.search({ depth: 2 }); // still usable
    expect(r.best).not.toBeNull();
    e.terminate();
  });

  it('a bad variant fails create, a closed engine refuses searches', async () => {
    await expect(EngineClient.create({ module: T.module, variant: { preset: 'nowhere' }, createWorker: nodeWorker }))
      .rejects.toThrow(/nowhere/);
    const e = await engine('chess');
    e.terminate();
    await expect(e.search({ depth: 1 })).rejects.toThrow(/closed/);
  });

  // The searches below can only end by stop(), which a timer on this thread
  // calls: that the promise settles shows this thread ran while it thought.
  it.each(['shared-flag', 'respawn'] as const)('stops a search that would not end (%s)', async (mode) => {
    const e = await engine('torus', mode);
    expect(e.stopMode).toBe(mode);
    const before = spawned;
    let infos = 0;
    const r = await new Promise<Awaited<ReturnType<EngineClient['search']>>>((res, rej) => {
      e.search({ depth: 100, onInfo: () => { if (++infos === 3) e.stop(); } }).then(res, rej);
    });
    expect(r.stopped).toBe(true);
    const v = T.variant({ preset: 'torus' });
    expect(v.game().legalMoves().map((m) => m.uci)).toContain(r.best);
    expect(spawned - before).toBe(mode === 'respawn' ? 1 : 0);
    // and the engine answers the next search
    const next = await e.search({ depth: 2 });
    expect(next.stopped).toBeUndefined();
    expect(next.best).not.toBeNull();
    e.terminate();
    v.free();
  });

  it('a new search stops the running one', async () => {
    const e = await engine('cylinder');
    const first = e.search({ depth: 100 });
    await new Promise((r) => setTimeout(r, 50));
    const second = await e.search({ depth: 3 });
    expect((await first).stopped).toBe(true);
    expect(second.depth).toBe(3);
    e.terminate();
  });
});

it('the wasm file the tests use is the one built', () => {
  expect(readFileSync(WASM).subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
});

describe('engine worker: the learned evaluation', () => {
  function net(preset: string, hidden: number, seed: number): ArrayBuffer {
    const v = T.variant({ preset });
    const b = randomNet(T, v.ptr, hidden, seed);
    v.free();
    return b.buffer as ArrayBuffer;
  }

  it('names the net that applies, evaluates with it once given, and keeps it in a restarted worker', async () => {
    const e = await EngineClient.create({
      module: T.module, variant: { preset: 'chess' }, createWorker: nodeWorker, stopMode: 'respawn', nets: ['torus', 'chess'],
    });
    expect(e.netPreset).toBe('chess');
    expect(e.evaluation).toBe('hand-written');
    const s = await e.loadNet(net('chess', 32, 5));
    expect(s.error).toBeNull();
    expect(s.evaluation).toMatch(/^net 'random' \(from memory, 8x8, H 32, /);
    expect(e.evaluation).toBe(s.evaluation);
    // a stop in respawn mode ends the worker; the next one loads the net at init
    const before = spawned;
    const running = e.search({ depth: 40 });
    await new Promise((r) => setTimeout(r, 300));
    e.stop();
    expect((await running).stopped).toBe(true);
    const r = await e.search({ depth: 2 });
    expect(spawned).toBe(before + 1);
    expect(r.best).not.toBeNull();
    expect(e.evaluation).toMatch(/^net 'random' \(from memory, 8x8, H 32, /);
    e.terminate();
  });

  it('refuses a net for another board with the library\'s reason and evaluates by hand', async () => {
    const e = await EngineClient.create({ module: T.module, variant: { preset: 'torus' }, createWorker: nodeWorker, nets: ['chess'] });
    expect(e.netPreset).toBeNull(); // no preset listed has the torus's board
    const s = await e.loadNet(net('chess', 32, 6));
    expect(s.error).toMatch(/8x8/);
    expect(s.evaluation).toBe('hand-written');
    const r = await e.search({ depth: 2 });
    expect(r.best).not.toBeNull();
    e.terminate();
  });

  it('answers a net still waiting when the engine is closed', async () => {
    const e = await engine('chess');
    const running = e.search({ depth: 40 }).catch((err: Error) => err.message);
    const waiting = e.loadNet(net('chess', 32, 7)); // queued behind the search
    await new Promise((r) => setTimeout(r, 100));
    e.terminate();
    expect((await waiting).error).toBe('engine closed');
    expect(await running).toBe('engine closed');
  });
});
