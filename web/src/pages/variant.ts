// /v/<slug>: under the page's text (rendered by the server) a playable
// board, and the topology explorer: click a cell of an empty board to see
// where each piece type reaches from it, beside the topology report.
import { createBoard } from '../board/api';
import { PIECE_NAMES } from '../board/pieces';
import { bindArrowKeys, createBoardView, createMoveList } from '../app/boardview';
import { el } from '../app/dom';
import { GameController } from '../app/game';
import { loadRules } from '../app/rules';
import type { Rules, VariantDetail } from '../app/types';

export interface VariantData {
  variant: VariantDetail;
}

function emptyFen(rules: Rules, letter: string | null, cell: number | null): string {
  const t = rules.topology;
  const ranks: string[] = [];
  for (let y = t.height - 1; y >= 0; y--) {
    let out = '';
    let run = 0;
    for (let x = 0; x < t.width; x++) {
      if (letter && cell === y * t.width + x) {
        if (run) out += String(run);
        run = 0;
        out += letter;
      } else run++;
    }
    if (run) out += String(run);
    ranks.push(out);
  }
  return `${ranks.join('/')} w - - 0 1`;
}

function reportTable(d: VariantDetail): HTMLElement {
  const r = d.report;
  const dl = el('dl', { class: 'tc-report', 'data-report': '' });
  const row = (k: string, v: string, key: string) => dl.append(el('dt', {}, k), el('dd', { 'data-figure': key }, v));
  row('Surface', r.surface, 'surface');
  row('Orientable', r.orientable ? 'yes' : 'no', 'orientable');
  row('Euler characteristic', String(r.euler), 'euler');
  row('Bishops colour-bound', r.colour_bound ? 'yes' : 'no', 'colour_bound');
  row('File classes (rook lines)', r.file_classes.map((c) => `{${c.join(',')}}`).join(' '), 'file_classes');
  return dl;
}

export async function variantPage(app: HTMLElement, data: VariantData): Promise<void> {
  const rules = await loadRules(data.variant);
  const d = data.variant;

  // A playable board: two people at one screen, from the start position.
  const playSection = el('section', { class: 'tc-variant-play' }, el('h2', {}, 'Play on this board'));
  const ctl = new GameController(rules);
  const row = el('div', { class: 'tc-play' });
  const boardCol = el('div', { class: 'tc-play-board' });
  const side = el('aside', { class: 'tc-side' });
  row.append(boardCol, side);
  playSection.append(
    row,
    el('p', {}, el('a', { href: `/play?variant=${encodeURIComponent(d.slug)}` }, 'Full game page'), ' · ',
      el('a', { href: `/play?variant=${encodeURIComponent(d.slug)}&engine=black&level=5` }, 'play the engine'), ' · ',
      el('a', { href: `/analysis?variant=${encodeURIComponent(d.slug)}` }, 'analysis board')),
  );
  const view = createBoardView(boardCol, rules, ctl, {
    movable: () => (ctl.over() || !ctl.atEnd() ? 'none' : 'both'),
    onUserMove: (m) => ctl.play(m.uci),
  });
  const status = el('p', { class: 'tc-status', 'data-status': '' });
  side.append(status);
  const movesBox = el('div', { class: 'tc-movelist' });
  side.append(movesBox);
  const drawMoves = createMoveList(movesBox, ctl);
  const undo = el('button', { type: 'button', 'data-action': 'undo' }, 'Undo');
  const reset = el('button', { type: 'button', 'data-action': 'new' }, 'Start again');
  side.append(el('div', { class: 'tc-controls' }, undo, reset));
  undo.addEventListener('click', () => ctl.undo());
  reset.addEventListener('click', () => ctl.reset());
  const refresh = () => {
    view.sync();
    drawMoves();
    const st = ctl.status();
    status.textContent = st.status !== 'ongoing' ? `${st.text} (${st.result})` : `${st.turn === 'w' ? 'White' : 'Black'} to move${st.check ? ' — check' : ''}`;
  };
  ctl.onChange(refresh);
  refresh();
  bindArrowKeys(ctl);

  // The explorer.
  const explore = el('section', { class: 'tc-explorer', 'data-explorer': '' }, el('h2', {}, 'Topology explorer'));
  explore.append(el('p', {}, 'Click a cell of the empty board: the table gives how many cells each piece reaches from it, and the board draws the chosen piece\'s lines, across every join.'));
  const picker = el('div', { class: 'tc-piece-picker', role: 'radiogroup' });
  const letters = ['Q', 'R', 'B', 'N', 'K', 'P', 'p'];
  let chosen = 'Q';
  for (const l of letters) {
    const label = l === 'P' ? 'white pawn' : l === 'p' ? 'black pawn' : PIECE_NAMES[l.toLowerCase()];
    const b = el('button', { type: 'button', 'data-piece': l, 'aria-pressed': l === chosen ? 'true' : 'false' }, label);
    picker.append(b);
  }
  const exRow = el('div', { class: 'tc-play' });
  const exBoardEl = el('div', { class: 'tc-board-holder' });
  const exSide = el('aside', { class: 'tc-side' });
  exRow.append(el('div', { class: 'tc-play-board' }, exBoardEl), exSide);
  const counts = el('table', { class: 'tc-reach', 'data-reach': '' });
  // the marks show the reach; its lines (which cover most of a Klein
  // bottle for a queen) are drawn to the cell under the pointer, or all
  const allLines = el('input', { type: 'checkbox', 'data-explore-all': '' });
  exSide.append(
    el('label', { class: 'tc-explore-all' }, allLines, ' draw every line (else: the routes to the cell under the pointer)'),
    el('h3', {}, 'Reach from the cell'),
    counts,
    el('h3', {}, 'Topology report'),
    reportTable(d),
  );
  explore.append(picker, exRow);
  app.replaceChildren(playSection, explore);

  let cell: number | null = null;
  const exBoard = createBoard(exBoardEl, rules.topology, {
    fen: emptyFen(rules, null, null),
    movable: 'none',
    pathsOnHover: true,
    onCellClick: (c) => {
      cell = c;
      update();
    },
  });
  const update = () => {
    if (cell === null) {
      counts.replaceChildren(el('tr', {}, el('td', {}, 'Click a cell.')));
      return;
    }
    const paths = rules.reach(cell, chosen);
    const marks = new Map<number, string>();
    for (const p of paths) for (const c of p.slice(1)) if (c !== cell) marks.set(c, 'reach');
    exBoard.set({ fen: emptyFen(rules, chosen, cell), paths, marks });
    exBoardEl.setAttribute('data-explore-cell', rules.topology.cellName(cell));
    counts.replaceChildren(el('caption', {}, rules.topology.cellName(cell)));
    for (const l of letters) {
      const reach = new Set<number>();
      for (const p of rules.reach(cell, l)) for (const c of p.slice(1)) if (c !== cell) reach.add(c);
      const name = l === 'P' ? 'white pawn' : l === 'p' ? 'black pawn' : PIECE_NAMES[l.toLowerCase()];
      counts.append(el('tr', { 'data-reach-piece': l }, el('th', {}, name), el('td', {}, String(reach.size))));
    }
  };
  allLines.addEventListener('change', () => exBoard.set({ pathsOnHover: !allLines.checked }));
  picker.addEventListener('click', (e) => {
    const b = (e.target as Element).closest('[data-piece]');
    if (!b) return;
    chosen = b.getAttribute('data-piece')!;
    picker.querySelectorAll('[data-piece]').forEach((x) => x.setAttribute('aria-pressed', x === b ? 'true' : 'false'));
    update();
  });
  update();
}
