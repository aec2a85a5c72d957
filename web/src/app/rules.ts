// The pages' view of the rules: the wasm module's API (web/src/lib/)
// turned into cell indices and the board's step-table shape. Nothing here
// decides legality; it only translates.
import { loadTopochess, type Game, type Line, type Move, type Topochess, type Variant } from '../lib/topochess';
import type { Step, Topology } from '../board/config';
import { DIRS } from '../board/config';
import type { GameRules, PlayedMove, Rules, Status, VariantDetail } from './types';

let loading: Promise<Topochess> | null = null;

/** The module, loaded once per page from the server's /topochess.wasm. */
export function topochess(): Promise<Topochess> {
  loading ??= loadTopochess('/topochess.wasm');
  return loading;
}

export function variantOf(tc: Topochess, detail: VariantDetail): Variant {
  return detail.frontmatter ? tc.variant({ frontmatter: detail.frontmatter }) : tc.variant({ preset: detail.slug });
}

/** The board's view of a variant: its size, rules and step tables. */
export function topologyOf(v: Variant, slug: string): Topology {
  const table = v.steps();
  const names = v.cells;
  const steps: (Step | null)[] = [];
  for (let cell = 0; cell < names.length; cell++) {
    for (let d = 0; d < 8; d++) {
      const s = table.step(cell, d);
      if (s.to < 0) {
        steps.push(null);
        continue;
      }
      steps.push({
        to: s.to,
        dir: DIRS.findIndex(([x, y]) => x === s.dx && y === s.dy),
        fileWrap: (s.joins & 1) !== 0,
        rankWrap: (s.joins & 2) !== 0,
        twist: (s.joins & 4) !== 0,
        fold: (s.joins & 8) !== 0,
      });
    }
  }
  return {
    slug,
    width: v.width,
    height: v.height,
    files: v.info.files,
    ranks: v.info.ranks,
    cellName: (cell) => names[cell] ?? '?',
    step: (cell, dir) => steps[cell * 8 + dir] ?? null,
  };
}

function gameRules(v: Variant, g: Game): GameRules {
  const idx = (name: string) => v.cellIndex(name);
  const move = (m: Move): PlayedMove => ({
    from: idx(m.from),
    to: idx(m.to),
    uci: m.uci,
    san: m.san,
    promotion: m.promotion ?? undefined,
    check: m.check,
    capture: m.capture,
  });
  const paths = (lines: Line[]) => lines.map((l) => l.cells.map(idx));
  return {
    fen: () => g.fen(),
    setFen: (fen) => g.setFen(fen),
    moves: () => g.legalMoves().map(move),
    play: (text) => move(g.play(text)),
    undo: () => g.undo() !== null,
    status(): Status {
      const s = g.status();
      return {
        status: s.status,
        text: s.text,
        result: s.result,
        check: s.check,
        turn: s.turn,
        king: s.king === null ? null : idx(s.king),
        checkLines: paths(s.checkLines),
      };
    },
    ending: () => g.ending(),
    lines: (cell) => paths(g.lines(v.cellName(cell))),
    movePath: (uci) => g.movePath(uci).cells.map(idx),
    explain: (from, to) => {
      const x = g.explain({ from: v.cellName(from), to: v.cellName(to) });
      return x.line ?? x.message;
    },
    pgn: (tags, result) => g.pgn(tags, result),
    loadPgn(text) {
      g.loadPgn(text);
      return { startFen: g.startFen(), moves: g.history().map(move) };
    },
    free: () => g.free(),
  };
}

export async function loadRules(detail: VariantDetail): Promise<Rules> {
  return rulesFrom(await topochess(), detail);
}

/** The rules of a variant in a loaded module (the tests load it from a file). */
export function rulesFrom(tc: Topochess, detail: VariantDetail): Rules {
  const v = variantOf(tc, detail);
  const topology = topologyOf(v, detail.slug);
  return {
    detail,
    topology,
    startFen: v.startFen,
    game: (fen) => gameRules(v, v.game(fen)),
    reach: (cell, letter) => v.lines(v.cellName(cell), letter).map((l) => l.cells.map((n) => v.cellIndex(n))),
    cellIndex: (name) => v.cellIndex(name),
  };
}
