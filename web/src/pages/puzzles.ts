// /puzzles?variant=SLUG (docs/puzzles.md): mate puzzles from the board's
// solved endings, made in the browser by the wasm module (the library's
// tc_puzzles_generate and tc_puzzle_check, as `topochess puzzles` and
// `topochess puzzle` use them). Every move is judged by the tables: a move
// that keeps the shortest mate is played and the tables answer with the
// longest defence; a slower win or a move that lets the win go is named
// and taken back. The day's puzzle comes first (the seed is the date, so
// every visitor gets the same one that day).
import { el } from '../app/dom';
import { createBoardView } from '../app/boardview';
import { GameController } from '../app/game';
import { createArena } from '../app/layout';
import { loadRules, topochess, variantOf } from '../app/rules';
import type { VariantDetail } from '../app/types';
import type { Game, Puzzle, PuzzleSet, Variant } from '../lib/topochess';
import { ratedPuzzlesPage, type HubPuzzles } from './puzzles-rated';

export interface PuzzlesData {
  variant: VariantDetail;
  /** the hub's puzzle table (a server with a database), or absent */
  hub?: HubPuzzles | null;
}

/** The materials offered, the 3-piece ones first (they solve at once). */
const MATERIALS = ['KRK', 'KQK', 'KBNK', 'KRRK', 'KQKR'];
const PER_SET = 20;
/** The largest table solved here (the dead-position worker's limit). */
const MAX_ENTRIES = 16_000_000;

/** Today's seed (UTC date): the same puzzles for everyone that day. */
export function daySeed(d = new Date()): number {
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

export async function puzzlesPage(app: HTMLElement, data: PuzzlesData): Promise<void> {
  if (data.hub?.puzzle) return ratedPuzzlesPage(app, data.variant, data.hub);
  const rules = await loadRules(data.variant);
  const tc = await topochess();
  const v: Variant = variantOf(tc, data.variant);
  const ctl = new GameController(rules);
  const title = el('h1', {}, `${data.variant.title}: puzzles`);
  const heading = el('p', { class: 'tc-status', 'data-puzzle-title': '', 'aria-live': 'polite' }, 'Solving the endings…');
  const note = el('p', { class: 'tc-note', 'data-note': '', 'aria-live': 'polite' });
  const arena = createArena(app, title, heading, note);

  let set: PuzzleSet | null = null;
  let list: Puzzle[] = [];
  let index = 0;
  let game: Game | null = null; // the wasm game the checker reads, kept with ctl
  let solving = false;
  let side: 'white' | 'black' = 'white';

  const view = createBoardView(arena.board, rules, ctl, {
    movable: () => (solving && ctl.atEnd() ? side : 'none'),
    onUserMove: (m) => tryMove(m.uci),
  });
  arena.fit();

  const materialSelect = el('select', { 'data-material': '', 'aria-label': 'material' });
  for (const m of MATERIALS) materialSelect.append(el('option', { value: m }, m));
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  const next = btn('Next puzzle', 'next');
  const retry = btn('Try again', 'retry');
  const solution = btn('Show the solution', 'solution');
  const count = el('span', { class: 'tc-puzzle-count', 'data-count': '' });
  arena.side.append(
    el('p', {}, el('label', {}, 'Ending ', materialSelect), ' ', count),
    el('div', { class: 'tc-controls' }, retry, solution, next),
    el('p', { class: 'tc-note' }, 'Every move is judged by the solved endings: the shortest mate is the answer, and the defence is the one that holds out longest. ',
      el('a', { href: '/docs/puzzles' }, 'How puzzles are made')),
  );

  const refresh = () => {
    view.sync();
    arena.fit();
  };
  ctl.onChange(refresh);

  const show = (i: number) => {
    const p = list[i];
    if (!p) return;
    index = i;
    side = p.side;
    ctl.reset(p.fen);
    game?.free();
    game = v.game(p.fen);
    view.board.set({ orientation: side });
    solving = true;
    heading.textContent = `${i === 0 ? "Today's puzzle: " : ''}${p.title}`;
    heading.setAttribute('data-fen', p.fen);
    note.textContent = `${side === 'white' ? 'White' : 'Black'} to move and mate in ${p.mate_in}.`;
    count.textContent = `puzzle ${i + 1} of ${list.length}`;
    ctl.changed();
  };

  /** Solves the material (or, with none named, the first that holds
   * puzzles: the 3-piece ones, then K+R+R v K, with mates of 3 moves or
   * more, else of 2) and shows its first puzzle. */
  const load = async (material?: string) => {
    solving = false;
    note.textContent = '';
    const tries: [string, number][] = material
      ? [[material, 3], [material, 2]]
      : [['KRK', 3], ['KQK', 3], ['KRK', 2], ['KQK', 2], ['KRRK', 3], ['KRRK', 2]];
    let solved = '';
    for (const [m, min] of tries) {
      if (solved !== m) {
        heading.textContent = `Solving ${m} on this board…`;
        // let the page paint before the solve holds the thread
        await new Promise((r) => setTimeout(r, 30));
        set?.free();
        set = null;
        try {
          set = v.puzzleSet(m, MAX_ENTRIES);
        } catch (e) {
          list = [];
          heading.textContent = `${m}: ${(e as Error).message}`;
          return;
        }
        solved = m;
      }
      list = set!.generate(PER_SET, daySeed(), min);
      if (list.length) {
        materialSelect.value = m;
        show(0);
        return;
      }
    }
    list = [];
    heading.textContent = material
      ? `No mate of two moves or more in ${material} on this board: try another ending.`
      : 'On this board the endings tried hold no mate of two moves or more: pick another ending.';
    refresh();
  };

  function tryMove(uci: string): void {
    if (!set || !game || !solving) return;
    const a = set.check(game, uci);
    if (a.verdict === 'illegal') {
      note.textContent = a.message;
      return;
    }
    if (a.verdict === 'slower') {
      note.textContent = `${a.move} wins too, but ${a.slower_by} move${a.slower_by === 1 ? '' : 's'} slower: find the mate in ${a.mate_before}.`;
      refresh();
      return;
    }
    if (a.verdict === 'not winning') {
      note.textContent = `${a.move} lets the win go: try again.`;
      refresh();
      return;
    }
    ctl.play(a.uci);
    game.play(a.uci);
    if (a.mates) {
      solving = false;
      note.textContent = `${a.move}: checkmate. Solved!`;
      app.setAttribute('data-solved', '');
      ctl.changed();
      return;
    }
    note.textContent = `${a.move}: best. The defence answers…`;
    const reply = a.reply_uci;
    solving = false;
    setTimeout(() => {
      if (!reply || !game) return;
      ctl.play(reply);
      game.play(reply);
      solving = true;
      note.textContent = `${a.move}, ${a.reply}: mate in ${a.mate_after - 1} to go.`;
      ctl.changed();
    }, 350);
  }

  materialSelect.addEventListener('change', () => void load(materialSelect.value));
  next.addEventListener('click', () => {
    app.removeAttribute('data-solved');
    show(list.length ? (index + 1) % list.length : 0);
  });
  retry.addEventListener('click', () => {
    app.removeAttribute('data-solved');
    show(index);
  });
  solution.addEventListener('click', () => {
    const p = list[index];
    if (!p) return;
    show(index);
    solving = false;
    for (const m of p.line_uci) {
      ctl.play(m);
      game?.play(m);
    }
    note.textContent = `The solution: ${p.line.join(' ')}`;
    ctl.changed();
  });
  await load();
}
