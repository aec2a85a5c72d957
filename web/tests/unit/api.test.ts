// The TypeScript API over the wasm build, checked against the rules' worked
// examples (docs/rules.md), the native CLI and the library's own tables.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  JOIN_FILE_WRAP, JOIN_FOLD, JOIN_RANK_WRAP, JOIN_TWIST, TopochessError, type Topochess, type Variant,
} from '../../src/lib/topochess';
import { BIN, epdLines, native, page, ROOT, tc } from './helpers';

let T: Topochess;
beforeAll(async () => {
  T = await tc();
});

const PRESETS = ['chess', 'cylinder', 'monteiro-cylinder', 'torus', 'mobius', 'klein-bottle', 'folding'];

function withVariant<R>(name: string, fn: (v: Variant) => R): R {
  const v = T.variant({ preset: name });
  try {
    return fn(v);
  } finally {
    v.free();
  }
}

describe('variants', () => {
  it('lists the presets the CLI lists', () => {
    const names = T.presets().map((p) => p.name);
    const cli = native(['variants']).split('\n').slice(1).map((l) => l.split(/\s+/)[0]).filter((n) => n);
    expect(names).toEqual(cli);
    expect([...names].sort()).toEqual([...PRESETS].sort());
  });

  it.each(PRESETS)('%s: the page front matter gives the preset', (name) => {
    withVariant(name, (pv) => {
      const fv = T.variant({ frontmatter: page(name) });
      for (const k of ['name', 'width', 'height', 'files', 'ranks', 'seam', 'setup', 'startFen'] as const) {
        expect(fv.info[k], k).toEqual(pv.info[k]);
      }
      expect(fv.cells).toEqual(pv.cells);
      fv.free();
    });
  });

  it.each(PRESETS)('%s: start FEN, size and cells match the CLI', (name) => {
    withVariant(name, (v) => {
      expect(v.startFen).toBe(native(['fen', '--variant', name]).trim());
      expect(v.cells.length).toBe(v.width * v.height);
      expect(v.cells[0]).toBe('a1');
      expect(v.cellIndex(v.cells[v.cells.length - 1]!)).toBe(v.cells.length - 1);
      expect(v.cellIndex('z99')).toBe(-1);
      const g = v.game();
      expect(g.fen()).toBe(v.startFen);
      expect(g.legalMoves().length).toBe(g.perft(1));
      g.free();
    });
  });

  it('finds presets by alias', () => {
    withVariant('klein', (v) => expect(v.name).toBe('klein-bottle'));
  });

  it('reports bad presets and bad front matter with the library message', () => {
    expect(() => T.variant({ preset: 'no-such-board' })).toThrow(TopochessError);
    expect(() => T.variant({ preset: 'no-such-board' })).toThrow(/no-such-board/);
    const bad = page('torus').replace('rows: 14', 'rows: 99');
    expect(() => T.variant({ frontmatter: bad })).toThrow(/rows|height|99/);
    expect(() => T.variant({ frontmatter: '---\ntitle: [unclosed\n---\n' })).toThrow(TopochessError);
    expect(() => T.variant({ frontmatter: 'no front matter at all' })).toThrow(TopochessError);
  });

  it('reads a custom page in flow style', () => {
    const text = '---\n{title: "Tiny", slug: tiny, engine: {topology: {type: grid, rows: 6, cols: 6, '
      + 'wrap: cylinder, files: wrap, ranks: open}, setup: "rnbqkr/pppppp/6/6/PPPPPP/RNBQKR"}}\n---\nBody\n';
    const v = T.variant({ frontmatter: text });
    expect(v.name).toBe('tiny');
    expect([v.width, v.height, v.info.files, v.info.ranks]).toEqual([6, 6, 'wrap', 'open']);
    const g = v.game();
    expect(g.legalMoves().length).toBeGreaterThan(0);
    v.free();
    expect(() => g.fen()).toThrow(/freed/);
  });
});

describe('step tables', () => {
  // docs/rules.md section 2's worked examples
  function step(name: string, from: string, dir: number) {
    return withVariant(name, (v) => {
      const s = v.steps().step(v.cellIndex(from), dir);
      return { ...s, to: s.to < 0 ? null : v.cellName(s.to) };
    });
  }
  const N = 0, NE = 1, S = 4, NW = 7;

  it('mobius: a11 N -> h12 across the twist, mirrored', () => {
    expect(step('mobius', 'a11', N)).toEqual({ to: 'h12', dx: 0, dy: 1, sx: -1, sy: 1, joins: JOIN_TWIST });
    expect(step('mobius', 'b12', S)).toMatchObject({ to: 'g11', joins: JOIN_TWIST });
  });
  it('mobius: f11 NE -> b12, going NW', () => {
    expect(step('mobius', 'f11', NE)).toMatchObject({ to: 'b12', dx: -1, dy: 1, joins: JOIN_TWIST });
  });
  it('klein: h11 NE -> h12 (file wrap, then the twist)', () => {
    expect(step('klein-bottle', 'h11', NE)).toMatchObject({ to: 'h12', joins: JOIN_FILE_WRAP | JOIN_TWIST });
  });
  it('mobius: h11 NE leaves the board', () => {
    expect(step('mobius', 'h11', NE)).toMatchObject({ to: null, joins: 0 });
  });
  it('folding: e8 N -> d8 going S; e8 NE -> c8; e8 NW -> e8', () => {
    expect(step('folding', 'e8', N)).toEqual({ to: 'd8', dx: 0, dy: -1, sx: -1, sy: -1, joins: JOIN_FOLD });
    expect(step('folding', 'e8', NE)).toMatchObject({ to: 'c8', joins: JOIN_FOLD });
    expect(step('folding', 'e8', NW)).toMatchObject({ to: 'e8' });
  });
  it('torus: rank and file wraps are marked', () => {
    expect(step('torus', 'a14', N)).toMatchObject({ to: 'a1', joins: JOIN_RANK_WRAP });
    expect(step('torus', 'h14', NE)).toMatchObject({ to: 'a1', joins: JOIN_FILE_WRAP | JOIN_RANK_WRAP });
    expect(step('chess', 'e4', N)).toMatchObject({ to: 'e5', joins: 0, sx: 1, sy: 1 });
  });
  it.each(PRESETS)('%s: every step agrees with its reverse', (name) => {
    withVariant(name, (v) => {
      const t = v.steps();
      for (let c = 0; c < t.cells; c++) {
        for (let d = 0; d < 8; d++) {
          const s = t.step(c, d);
          if (s.to < 0) continue;
          // stepping back (the opposite of the direction reached) returns
          const back = (([0, 1, 1, 1, 0, -1, -1, -1].findIndex((dx, i) =>
            dx === -s.dx && [1, 1, 0, -1, -1, -1, 0, 1][i] === -s.dy)));
          const r = t.step(s.to, back);
          expect(r.to, `${v.cellName(c)} dir ${d}`).toBe(c);
          expect(r.joins).toBe(s.joins);
        }
      }
    });
  });
});

describe('lines of movement', () => {
  it.each(PRESETS)('%s: empty-board lines reach what the topology report counts', (name) => {
    withVariant(name, (v) => {
      const rep = v.report();
      const kinds = [['k', 'king'], ['n', 'knight'], ['b', 'bishop'], ['r', 'rook']] as const;
      for (let c = 0; c < v.cells.length; c++) {
        const cell = v.cellName(c);
        for (const [letter, key] of kinds) {
          const reach = new Set(v.lines(cell, letter).flatMap((l) => (l.kind === 'ray' ? l.cells.slice(1) : l.cells.slice(-1))));
          reach.delete(cell);
          expect(reach.size, `${key} on ${cell}`).toBe(rep.reach[key][c]);
        }
      }
    });
  });

  // The explorer's lines come from a walker in the export layer; the
  // library's own tc_piece_lines (a position with the two kings) must agree.
  it.each(PRESETS)('%s: empty-board lines agree with the library\'s piece lines', (name) => {
    withVariant(name, (v) => {
      const start = v.game().board();
      const kings = start.map((p, i) => (p === 'K' || p === 'k' ? i : -1)).filter((i) => i >= 0);
      let checked = 0;
      for (let c = 0; c < v.cells.length; c++) {
        if (kings.includes(c)) continue;
        for (const letter of ['P', 'p', 'N', 'B', 'R', 'Q']) {
          const board = start.map((p, i) => (kings.includes(i) ? p : i === c ? letter : null));
          const rows: string[] = [];
          for (let y = v.height - 1; y >= 0; y--) {
            let row = '', empty = 0;
            for (let x = 0; x < v.width; x++) {
              const p = board[y * v.width + x];
              if (!p) { empty++; continue; }
              row += (empty ? String(empty) : '') + p;
              empty = 0;
            }
            rows.push(row + (empty ? String(empty) : ''));
          }
          let g;
          try {
            // the other side to move: the piece may give check
            g = v.game(`${rows.join('/')} ${letter === letter.toUpperCase() ? 'b' : 'w'} - - 0 1`);
          } catch {
            continue; // a pawn on a rank the FEN reader refuses
          }
          const cell = v.cellName(c);
          const key = (l: { kind: string; cells: string[] }) => `${l.kind}:${l.cells.join(' ')}`;
          const mine = v.lines(cell, letter);
          // the kings are pieces in the library's position: compare up to them
          const theirs = g.lines(cell, 'attacks');
          const cut = (l: { kind: string; cells: string[] }) => {
            const k = l.kind !== 'ray' ? -1 : l.cells.findIndex((x, i) => i > 0 && kings.includes(v.cellIndex(x)));
            return { kind: l.kind, cells: k < 0 ? l.cells : l.cells.slice(0, k + 1) };
          };
          // (cut at a king, two rays can become one path: compare as sets)
          const mineCapt = [...new Set(mine.filter((l) => l.kind !== 'push').map((l) => key(cut(l))))].sort();
          expect(mineCapt, `${letter} on ${cell}`).toEqual([...new Set(theirs.map((l) => key(l)))].sort());
          const push = mine.find((l) => l.kind === 'push');
          const theirPush = g.lines(cell, 'moves').find((l) => l.kind === 'push');
          if (!push || !kings.includes(v.cellIndex(push.cells[1]!))) { // a king blocks the library's push
            expect(push?.cells[1], `${letter} push from ${cell}`).toBe(theirPush?.cells[1]);
          }
          g.free();
          checked++;
        }
      }
      expect(checked).toBeGreaterThan(v.cells.length * 5);
    });
  });

  it('a rook line on the Moebius strip crosses the twist and comes back mirrored', () => {
    withVariant('mobius', (v) => {
      const up = v.lines('a11', 'R').find((l) => l.cells[1] === 'h12')!;
      expect(up.joins[0]).toBe(JOIN_TWIST);
      expect(up.cells).toContain('h1');
      expect(up.cells[up.cells.length - 1]).toBe('a10'); // stops before its own cell
    });
  });

  it('knight leaps are two steps through a middle cell', () => {
    withVariant('chess', (v) => {
      const leaps = v.lines('g1', 'N');
      expect(leaps.map((l) => l.cells[2]).sort()).toEqual(['e2', 'f3', 'h3']);
      expect(leaps.every((l) => l.kind === 'leap' && l.cells.length === 3)).toBe(true);
    });
  });

  it('in a position, every legal move lies on one of its piece\'s lines', () => {
    for (const e of epdLines()) {
      withVariant(e.variant, (v) => {
        const g = v.game(e.fen);
        const byFrom = new Map<string, Set<string>>();
        for (const m of g.legalMoves()) {
          if (m.kind.startsWith('castle')) continue;
          if (!byFrom.has(m.from)) {
            byFrom.set(m.from, new Set(g.lines(m.from).flatMap((l) => (l.kind === 'leap' ? l.cells.slice(-1) : l.cells.slice(1)))));
          }
          expect(byFrom.get(m.from)!.has(m.to), `${e.file}:${e.line} ${m.uci}`).toBe(true);
        }
        g.free();
      });
    }
  });

  it('checks come with the checking line', () => {
    withVariant('chess', (v) => {
      const g = v.game();
      g.playMoves('1. f3 e5 2. g4 Qh4#');
      const st = g.status();
      expect(st).toMatchObject({ status: 'checkmate', result: '0-1', check: true, turn: 'w', king: 'e1' });
      expect(st.checkLines).toHaveLength(1);
      expect(st.checkLines[0]!.cells).toEqual(['h4', 'g3', 'f2', 'e1']);
      expect(g.attacks('e1', 'b').map((l) => l.cells[0])).toEqual(['h4']);
    });
  });
});

describe('games', () => {
  it('plays the Moebius sample game as the CLI does', () => {
    withVariant('mobius', (v) => {
      const g = v.game();
      const moves = '1. d12 e11 2. c12 exc12 3. e12 g11';
      g.play('d12');
      g.play('e11');
      g.play('c12');
      expect(g.movesFrom('e11').map((m) => m.to)).toContain('c12'); // across the twist
      g.play('exc12');
      g.play('e12');
      g.play('g11');
      expect(g.fen()).toBe(native(['fen', '--variant', 'mobius', '--play', moves]).trim());
      expect(g.history().map((m) => m.san)).toEqual(['d12', 'e11', 'c12', 'exc12', 'e12', 'g11']);
    });
  });

  it('plays by coordinates with promotion and reports it', () => {
    withVariant('chess', (v) => {
      const g = v.game('8/P6k/8/8/8/8/8/K7 w - - 0 1');
      const m = g.play({ from: 'a7', to: 'a8', promotion: 'n' });
      expect(m).toMatchObject({ san: 'a8=N', from: 'a7', to: 'a8', promotion: 'n', uci: 'a7a8n' });
      expect(g.fen()).toBe('N7/7k/8/8/8/8/8/K7 b - - 0 1');
      expect(g.undo()?.uci).toBe('a7a8n');
      expect(g.fen()).toBe('8/P6k/8/8/8/8/8/K7 w - - 0 1');
      expect(g.undo()).toBeNull();
    });
  });

  it('bad moves and FENs throw the library message and change nothing', () => {
    withVariant('klein-bottle', (v) => {
      const g = v.game();
      const fen = g.fen();
      expect(() => g.play('e5')).toThrow(TopochessError);
      expect(() => g.play('Qz9')).toThrow(/.+/);
      expect(() => g.play({ from: 'e1', to: 'e9' })).toThrow(TopochessError);
      expect(() => g.play('')).toThrow(TopochessError);
      expect(() => g.setFen('not a fen')).toThrow(/FEN/);
      expect(() => g.setFen('8/8/8/8/8/8/8/8 w - - 0 1')).toThrow(TopochessError);
      expect(() => v.game('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')).toThrow(/FEN/);
      expect(() => g.lines('z1')).toThrow(/z1/);
      expect(() => g.playMoves('d12 e11 Kxx9')).toThrow(/move 3 'Kxx9'/);
      expect(g.history().length).toBe(2); // the moves before the bad one stay
      g.undo();
      g.undo();
      expect(g.fen()).toBe(fen);
    });
  });

  it('statuses: stalemate, fifty moves, repetition, dead position', () => {
    withVariant('chess', (v) => {
      expect(v.game('7k/5Q2/6K1/8/8/8/8/8 b - - 0 1').status()).toMatchObject({
        status: 'stalemate', result: '1/2-1/2', check: false,
      });
      expect(v.game('7k/8/6K1/8/8/8/8/R7 b - - 100 80').status().status).toBe('fifty-move');
      expect(v.game('8/8/8/4k3/8/8/3K4/8 w - - 0 1').status().status).toBe('dead-position');
      const g = v.game();
      g.playMoves('Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1');
      expect(g.status().status).toBe('ongoing');
      g.play('Ng8');
      expect(g.status()).toMatchObject({ status: 'repetition', repetitions: 3, result: '1/2-1/2' });
    });
  });

  it('dead positions per position (docs/rules.md section 6), with the reason', () => {
    withVariant('chess', (v) => {
      // K+Q v K, Black's only move takes the queen: dead, though FIDE's list of materials misses it
      const st = v.game('k7/1Q6/8/8/8/8/8/7K b - - 0 1').status();
      expect(st).toMatchObject({ status: 'dead-position', result: '1/2-1/2' });
      expect(st.text).toContain('no sequence of legal moves by either side reaches a checkmate');
      expect(v.game('k7/8/8/8/8/8/1Q6/7K b - - 0 1').status().status).toBe('ongoing');
    });
    withVariant('klein-bottle', (v) => {
      // K+B v K has checkmates there, but no move reaches one
      expect(v.game('8/8/8/8/8/8/8/8/8/8/8/8/8/K3k1B1 w - - 0 1').status().status).toBe('dead-position');
      expect(v.game('8/8/8/8/8/8/8/8/8/8/8/8/8/K1k3B1 b - - 0 1').status().status).toBe('checkmate');
    });
  });

  it.each(epdLines().filter((e, i, all) => all.findIndex((f) => f.variant === e.variant) === i))(
    'FEN and SAN round trips ($variant)', (first) => {
      for (const e of epdLines().filter((x) => x.variant === first.variant)) {
        withVariant(e.variant, (v) => {
          const g = v.game(e.fen);
          const fen = g.fen();
          expect(v.game(fen).fen()).toBe(fen);
          expect(fen).toBe(native(['fen', '--variant', e.variant, '--fen', e.fen]).trim());
          for (const m of g.legalMoves()) {
            const a = g.clone(), b = g.clone(), c = g.clone();
            expect(a.play(m.san).uci).toBe(m.uci);
            b.play(m.uci);
            c.play({ from: m.from, to: m.to, promotion: m.promotion });
            expect(b.fen(), m.san).toBe(a.fen());
            expect(c.fen(), m.san).toBe(a.fen());
            a.free(); b.free(); c.free();
          }
          g.free();
        });
      }
    });
});

describe('PGN', () => {
  it('writes a game and reads it back', () => {
    withVariant('klein-bottle', (v) => {
      const g = v.game();
      g.playMoves('1. d12 e11 2. Nc3 Nf6');
      const pgn = g.pgn({ White: 'Ann', Black: 'Bob', Event: 'Unit test' });
      expect(pgn).toContain('[White "Ann"]');
      expect(pgn).toContain('[Variant "klein-bottle"]');
      expect(pgn).toMatch(/1\. d12 e11 2\. Nc3 Nf6 \*/);
      const h = v.game();
      const info = h.loadPgn(pgn);
      expect(info).toMatchObject({ plies: 4, result: '*' });
      expect(info.tags['White']).toBe('Ann');
      expect(h.fen()).toBe(g.fen());
      expect(h.history().map((m) => m.san)).toEqual(g.history().map((m) => m.san));
    });
  });

  it('keeps a FEN start and a result', () => {
    withVariant('chess', (v) => {
      const g = v.game('7k/8/6K1/8/8/8/8/R7 w - - 0 1');
      g.play('Ra8#');
      const pgn = g.pgn();
      expect(pgn).toContain('[FEN "7k/8/6K1/8/8/8/8/R7 w - - 0 1"]');
      expect(pgn).toContain('1-0');
      const h = v.game();
      h.loadPgn(pgn);
      expect(h.startFen()).toBe('7k/8/6K1/8/8/8/8/R7 w - - 0 1');
      expect(h.status().status).toBe('checkmate');
    });
  });

  it.each([['mobius', 'mobius.pgn'], ['klein-bottle', 'klein.pgn']])('%s: replays %s as the CLI does',
    (name, file) => {
      const path = resolve(ROOT, 'tests/data/pgn', file);
      withVariant(name, (v) => {
        const g = v.game();
        g.loadPgn(readFileSync(path, 'utf8'));
        const cli = native(['pgn', path, '--fen', '--variant', name]).split('\n');
        expect(cli).toContain(g.fen());
      });
    });

  it('finds the board of a custom-board game in its Topology tag and replays it there', () => {
    const path = resolve(ROOT, 'examples/rules/one-rook.pgn');
    const text = readFileSync(path, 'utf8');
    withVariant('chess', (v) => {
      const b = v.pgnBoard(text);
      expect(b.same).toBe(false);
      expect(b.name).toBe('one-rook');
      const cv = T.variant({ frontmatter: b.page });
      try {
        expect(cv.info).toMatchObject({ width: 11, height: 8, files: 'open', ranks: 'twist', seam: 3 });
        expect(cv.pgnBoard(text).same).toBe(true);
        const g = cv.game();
        g.loadPgn(text);
        expect(g.history().map((m) => m.san)).toEqual(['O-O-O', 'Kf8']);
        const cli = native(['pgn', path, '--fen']).split('\n');
        expect(cli).toContain(g.fen());
      } finally {
        cv.free();
      }
      // a preset's name gives the preset; a bad tag says why
      expect(v.pgnBoard('[Variant "torus"]\n\n1. e4 *\n')).toMatchObject({ same: false, name: 'torus' });
      expect(v.pgnBoard('1. e4 *\n').same).toBe(true);
      expect(() => v.pgnBoard('[Topology "{topology: {type: grid, rows: 99}}"]\n\n*\n')).toThrow(/Topology tag/);
    });
  });

  it('refuses bad PGN with the reader\'s message and keeps the game', () => {
    withVariant('chess', (v) => {
      const g = v.game();
      g.play('e4');
      expect(() => g.loadPgn('[Event "x"]\n\n1. e4 e5 2. Qxf9 *\n')).toThrow(/Qxf9/);
      expect(() => g.loadPgn('')).toThrow(/no game/);
      expect(() => g.loadPgn('[Variant "torus"]\n\n1. e4 *\n')).toThrow(/torus/);
      expect(g.history().map((m) => m.san)).toEqual(['e4']);
    });
  });
});

describe('topology report', () => {
  it.each(PRESETS)('%s: the report text is the CLI\'s and the figures match it', (name) => {
    withVariant(name, (v) => {
      // the CLI appends the solved endings (cli/topology_cmd.c) after the
      // library's report, which is what the module gives
      const cli = native(['topology', '--variant', name]);
      expect(cli).toContain('\nSolved endings');
      const text = cli.slice(0, cli.indexOf('\nSolved endings'));
      expect(v.reportText()).toBe(text);
      const r = v.report();
      expect(text).toContain(`Euler char.:       ${r.euler}`);
      expect(text).toContain(`surface:           ${r.surface}`);
      expect(text.includes('orientable:        yes')).toBe(r.orientable);
    });
  });

  it('the Klein bottle: not orientable, Euler characteristic 0', () => {
    withVariant('klein-bottle', (v) => {
      expect(v.report()).toMatchObject({ orientable: false, euler: 0, surface: 'Klein bottle' });
    });
  });
});

describe('explain (the library\'s attack paths and reasons)', () => {
  it('says why moves are illegal, with the cells and lines involved', () => {
    withVariant('chess', (v) => {
      const start = v.game();
      expect(start.explain('e4')).toMatchObject({ legal: true, why: 'legal', move: { san: 'e4', from: 'e2' } });
      const far = start.explain('e5');
      expect(far).toMatchObject({ legal: false, why: 'cannot-reach' });
      expect(far.message).toMatch(/e5/);
      expect(start.explain('zz9')).toMatchObject({ legal: false, why: 'syntax' });
      expect(start.explain('Ke2').why).toBe('cannot-reach');

      const pinned = v.game('4k3/4r3/8/8/8/8/4B3/4K3 w - - 0 1');
      const x = pinned.explain('Bd3');
      expect(x).toMatchObject({ legal: false, why: 'king-attacked', king: 'e1' });
      expect(x.attackers.map((l) => l.cells)).toContainEqual(['e7', 'e6', 'e5', 'e4', 'e3', 'e2', 'e1']);
      expect(x.attackers.every((l) => l.capture && l.end === 'target')).toBe(true);
      const walk = v.game('4k3/8/8/8/8/8/3r4/4K3 w - - 0 1').explain('Ke2');
      expect(walk).toMatchObject({ why: 'king-attacked', king: 'e2' });
      expect(walk.attackers.map((l) => [l.cells[0], l.cells.at(-1), l.capture])).toContainEqual(['d2', 'e2', true]);

      const two = v.game('4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1').explain('Nd2');
      expect(two.why).toBe('ambiguous');
      expect(two.candidates.map((m) => m.san).sort()).toEqual(['Nbd2', 'Nfd2']);

      const mated = v.game();
      mated.playMoves('f3 e5 g4 Qh4#');
      expect(mated.explain('Kf2')).toMatchObject({ why: 'game-over', status: 'checkmate' });
    });
  });

  // Issue 30: a typed move got only "illegal move 'Bb5'" in the browser,
  // where the terminal named the blocking pawn. Both now print the
  // library's tc_explain_line; the terminal's --play is the reference.
  it('a bad move text throws the sentence the terminal prints for it', () => {
    const terminal = (variant: string, moves: string): string => {
      const r = spawnSync(BIN, ['fen', '--variant', variant, '--play', moves], { encoding: 'utf8' });
      const m = /^topochess: --play: move \d+ \((?:white|black)\): (.*)$/m.exec(r.stderr);
      if (!m) throw new Error(`--play ${moves}: ${r.stderr}`);
      return m[1]!;
    };
    const cases: [string, string[], string][] = [
      ['torus', [], 'Bb5'],
      ['torus', [], 'nf3'],
      ['torus', [], 'f1b5'],
      ['torus', [], 'xyz'],
      ['torus', [], 'e5'],
      ['torus', ['e4', 'e5'], 'Ke3'],
      ['klein-bottle', ['d12'], 'Bb5'],
      ['chess', ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'd6', 'd4'], 'Nd4'],
      ['chess', ['f3', 'e5', 'g4', 'Qh4#'], 'Kf2'],
    ];
    for (const [variant, before, text] of cases) {
      const want = terminal(variant, [...before, text].join(' '));
      withVariant(variant, (v) => {
        const g = v.game();
        for (const m of before) g.play(m);
        const fen = g.fen();
        let got = '';
        try {
          g.play(text);
        } catch (e) {
          expect(e).toBeInstanceOf(TopochessError);
          got = (e as Error).message;
        }
        expect(got, `${variant} ${text}`).toBe(want);
        expect(g.explain(text).line).toBe(want);
        expect(g.fen()).toBe(fen);
      });
    }
    expect(terminal('torus', 'Bb5')).toMatch(/blocked by the white pawn on e2/);
    withVariant('torus', (v) => expect(v.game().explain('Nf3').line).toBeNull());
  });

  it('draws a move across the twist and lists attacks across joins', () => {
    withVariant('mobius', (v) => {
      const g = v.game();
      g.playMoves('d12 e11 c12');
      const path = g.movePath('exc12');
      expect(path.cells).toEqual(['e11', 'c12']);
      expect(path.joins).toEqual([JOIN_TWIST]);
      expect(() => g.movePath('Kd1')).toThrow(TopochessError);
      // the pawn on e11 attacks c12 and e12 across the twist
      const att = g.lines('e11', 'attacks').map((l) => l.cells.at(-1)).sort();
      expect(att).toEqual(['c12', 'e12']);
      expect(g.attacks('c12', 'b').some((l) => l.cells[0] === 'e11' && l.joins[0] === JOIN_TWIST)).toBe(true);
    });
  });
});

describe('solved endings', () => {
  // The same 3-piece positions through the CLI's `endgame` command.
  const cases: [string, string][] = [
    ['torus', 'k7/8/8/8/8/8/8/8/8/8/3Q4/8/8/4K3 w - - 0 1'],
    ['chess', 'k7/8/8/8/3Q4/8/8/4K3 w - - 0 1'],
    ['klein-bottle', 'k7/8/8/8/8/8/4K3/8/8/8/3Q4/8/8/8 b - - 0 1'],
    ['cylinder', 'k7/8/8/8/3R4/8/8/4K3 b - - 0 1'],
  ];
  for (const [name, fen] of cases) {
    it(`${name}: ${fen} as the CLI solves it`, () => {
      const out = native(['endgame', 'KQK'.replace('Q', /R/.test(fen) ? 'R' : 'Q'), '--variant', name, '--fen', fen]);
      withVariant(name, (v) => {
        const g = v.game(fen);
        try {
          const f = g.ending();
          expect(f).not.toBeNull();
          expect(f!.mates).toBe(/mate possible: yes/.test(out));
          const value = /to move mates in (\d+)/.exec(out) ? 1 : /is mated in/.test(out) ? -1 : 0;
          expect(f!.wdl).toBe(value);
          const moves = /(?:mates|is mated) in (\d+) moves/.exec(out);
          if (moves) expect(Math.ceil(f!.plies / 2)).toBe(Number(moves[1]));
        } finally {
          g.free();
        }
      });
    });
  }
  it('is null with pawns or more than 3 pieces', () => {
    withVariant('chess', (v) => {
      const g = v.game('k7/p7/8/8/8/8/8/4K3 w - - 0 1');
      expect(g.ending()).toBeNull();
      g.setFen('kq6/8/8/8/8/8/8/3QK3 w - - 0 1');
      expect(g.ending()).toBeNull();
      g.free();
    });
  });
});
