// The solved endings in the wasm module (Variant.solveEnding, deadMaterials)
// against the native command line, and the endings worker under Node (the
// editor's live endings): bundled by Vite as the page build does, run in a
// worker thread behind a small `self` shim, driven by the real
// EndingsSolver: passes reported as they happen, a new solve cancelling the
// running one by terminating its worker.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EndingsSolver, type EndingsWorkerLike } from '../../src/lib/endings';
import { deadCell, TopochessError, type DeadCount, type EndingPass, type SolvedEnding, type Topochess } from '../../src/lib/topochess';
import { native, tc } from './helpers';

let T: Topochess;
let dir: string;
let shim: string;

const MOBIUS = ['---', 'engine:', '  topology:', '    type: grid', '    rows: 14', '    cols: 8', '    wrap: mobius',
  '    seam: 11', '  setup: "8/8/8/8/8/8/4k3/8/8/8/8/8/8/4K3"', '---', ''].join('\n');

beforeAll(async () => {
  T = await tc();
  dir = mkdtempSync(join(tmpdir(), 'tc-endings-worker-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      lib: { entry: resolve(__dirname, '../../src/lib/endings-worker.ts'), formats: ['es'], fileName: () => 'worker.mjs' },
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

const live = new Set<Worker>();
function nodeWorker(): EndingsWorkerLike {
  const w = new Worker(shim, { workerData: { bundle: pathToFileURL(join(dir, 'worker.mjs')).href } });
  live.add(w);
  w.on('exit', () => live.delete(w));
  const like: EndingsWorkerLike = {
    postMessage: (m) => w.postMessage(m),
    terminate: () => { void w.terminate(); },
    onmessage: null,
    onerror: null,
  };
  w.on('message', (d) => like.onmessage?.({ data: d }));
  w.on('error', (e) => like.onerror?.(e));
  return like;
}

describe('Variant.solveEnding', () => {
  for (const [preset, ending] of [['mobius', 'KRK'], ['cylinder', 'KRK'], ['klein-bottle', 'KBK'], ['torus', 'KQK']] as const) {
    it(`${ending} on ${preset} gives the native solver's figures`, () => {
      const ref = JSON.parse(native(['endgame', ending, '--variant', preset, '--json'])) as {
        ending: string; symmetries: number; table_entries: number; mate_possible: boolean;
        white_to_move: { win: number; draw: number; loss: number; checkmated: number };
        black_to_move: { win: number; draw: number; loss: number; checkmated: number };
        longest_mate: { plies: number } | null;
      };
      const v = T.variant({ preset });
      const passes: EndingPass[] = [];
      const r = v.solveEnding(ending, { onPass: (p) => passes.push(p) });
      v.free();
      expect(r.ending).toBe(ref.ending);
      expect(r.symmetries).toBe(ref.symmetries);
      expect(r.entries).toBe(ref.table_entries);
      expect(r.win).toEqual([ref.white_to_move.win, ref.black_to_move.win]);
      expect(r.draw).toEqual([ref.white_to_move.draw, ref.black_to_move.draw]);
      expect(r.loss).toEqual([ref.white_to_move.loss, ref.black_to_move.loss]);
      expect(r.checkmates).toEqual([ref.white_to_move.checkmated, ref.black_to_move.checkmated]);
      expect(r.possible).toBe(ref.mate_possible);
      expect(r.longest[0]).toBe(ref.longest_mate?.plies ?? 0);
      // KK first, then the ending itself, plies 0, 2, 4, ... per table
      expect(passes[0]).toMatchObject({ ending: 'KK', plies: 0 });
      const own = passes.filter((p) => p.ending === r.ending);
      expect(own.map((p) => p.plies)).toEqual(own.map((_, i) => 2 * i));
      expect(own.every((p) => p.entries === r.entries)).toBe(true);
    });
  }

  it('refuses a bad ending and a board too large with the library message', () => {
    const v = T.variant({ preset: 'chess' });
    expect(() => v.solveEnding('KPK')).toThrow(/pawnless/);
    expect(() => v.solveEnding('KQK', { maxEntries: 1000 })).toThrow(TopochessError);
    v.free();
  });
});

// `topochess dead --variant P` prints a Markdown column: dead, partly (D of N), not
function column(preset: string, names: string[]): Map<string, string> {
  const rows = native(['dead', ...names, '--variant', preset]).trim().split('\n').slice(2);
  return new Map(rows.map((r) => r.split('|').map((c) => c.trim())).map((c) => [c[1]!, c[2]!]));
}

describe('Variant.deadMaterials', () => {
  it('agrees with `topochess dead`: the same counts, the same words', { timeout: 120000 }, () => {
    // 3-piece tables (a second each); the editor's browser test holds the
    // 4-piece ones of a 6x10 strip against the command
    const three = ['KK', 'KQK', 'KRK', 'KBK', 'KNK'];
    for (const preset of ['cylinder', 'klein-bottle']) {
      const want = column(preset, three);
      const v = T.variant({ preset });
      const got = v.deadMaterials(three);
      v.free();
      for (const n of three) expect(deadCell(got[n]!), `${n} on ${preset}`).toBe(want.get(n));
    }
    // the Klein bottle: K+B v K has 8,736 checkmates, and every other position is dead
    const t = T.variant({ preset: 'klein-bottle' });
    const kbk = t.deadMaterials(['KBK'])['KBK']!;
    t.free();
    expect(kbk.tables && kbk.total - kbk.dead).toBe(8736);
  });

  it('decides the flat board too, and names a bad material', () => {
    const v = T.variant({ preset: 'chess' });
    const got = v.deadMaterials(['KBK', 'KRK']);
    v.free();
    expect(deadCell(got['KBK']!)).toBe('dead');
    expect(got['KRK']!.dead).toBeGreaterThan(0);
    expect(got['KRK']!.dead).toBeLessThan(got['KRK']!.total);
    const t = T.variant({ preset: 'torus' });
    expect(() => t.deadMaterials(['KQK', 'KPK'])).toThrow(/KPK/);
    t.free();
  });
});

describe('Topochess.setDeadLimit', () => {
  it('the page module leaves a large 4-piece table undecided; the raised limit decides it as the terminal does', () => {
    // K+R v K+N on the Klein bottle: 5.6 million entries, over the page's
    // default limit and under the worker's (dead-worker.ts)
    const fen = '1n6/3R4/8/8/8/8/8/8/4k1K1/8/8/8/8/8 b - - 1 1';
    const want = native(['dead', '--variant', 'klein-bottle', '--fen', fen]).trim();
    expect(want).toMatch(/^dead: /);
    const v = T.variant({ preset: 'klein-bottle' });
    try {
      const g = v.game(fen);
      expect(g.status().status).toBe('ongoing');
      T.setDeadLimit(16_000_000);
      const s = g.status();
      expect(s.status).toBe('dead-position');
      expect(s.text).toBe(`draw: dead position: ${want.slice('dead: '.length)}`);
      g.free();
    } finally {
      T.setDeadLimit(0);
      v.free();
    }
  });
});

describe('the endings worker', () => {
  it('solves the 3-piece endings with progress, and a new solve cancels a long one', async () => {
    const s = new EndingsSolver(T.module, nodeWorker);
    const endings = ['KQK', 'KRK', 'KBK', 'KNK'];
    const results: (SolvedEnding | null)[] = [];
    const passes: number[] = [];
    let dead: Record<string, DeadCount> | null = null;
    const r = await s.solve({ frontmatter: MOBIUS, endings, dead: endings }, {
      onPass: (i) => passes.push(i),
      onEnding: (i, res) => (results[i] = res),
      onDead: (d) => (dead = d),
    });
    expect(r).toBe('done');
    expect(results.map((x) => x?.ending)).toEqual(endings);
    expect(results.map((x) => x?.possible)).toEqual([true, true, false, false]); // docs/endgames.md
    expect(passes.length).toBeGreaterThan(endings.length);
    expect(passes).toEqual([...passes].sort((a, b) => a - b)); // in order, ending by ending
    const want = column('mobius', endings);
    const counts = (dead ?? {}) as Record<string, DeadCount>;
    expect(Object.fromEntries(Object.entries(counts).map(([k, c]) => [k, deadCell(c)]))).toEqual(Object.fromEntries(want));

    // a 4-piece solve (tens of seconds in wasm) cancelled by the next solve
    const heard: EndingPass[] = [];
    const long = s.solve({ frontmatter: MOBIUS, endings: ['KQKR'] }, { onPass: (_, p) => heard.push(p) });
    while (!heard.length) await new Promise((res) => setTimeout(res, 20));
    const t0 = Date.now();
    const next = s.solve({ frontmatter: MOBIUS, endings: ['KRK'] }, { onEnding: (_, res) => (results[9] = res) });
    expect(await long).toBe('cancelled');
    expect(await next).toBe('done');
    expect(results[9]?.longest[0]).toBe(25); // KRK on mobius: 13 moves
    expect(Date.now() - t0).toBeLessThan(20000);
    s.terminate();
    for (let i = 0; i < 100 && live.size; i++) await new Promise((res) => setTimeout(res, 20));
    expect(live.size).toBe(0); // the cancelled solve's worker is gone
  }, 120000);
});
