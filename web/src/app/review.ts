// The computer review of a finished game in the browser (docs/analysis.md):
// each position searched by the page's engine worker to the same node
// count, the values judged by the library (Game.review, the same
// tc_review_judge as `topochess review`), then shown: each side's
// accuracy, a graph of White's winning chances (click a point to go to
// that move), and the inaccuracies, mistakes and blunders with the move
// that was best.
import { el } from './dom';
import { topochess, variantOf } from './rules';
import type { Engine, VariantDetail } from './types';
import type { Review, ReviewMove, ReviewValue } from '../lib/topochess';

/** Nodes a position: about a third of the command's default, so that a
 * 60-move game takes a minute or so in a phone's browser. */
export const BROWSER_REVIEW_NODES = 50_000;

/** Searches every position of the game (start FEN and coordinate moves)
 * and judges it; also the game as PGN with the review's notes (tags and
 * result as Game.pgn takes them). onProgress after each position. */
export async function reviewGame(detail: VariantDetail, startFen: string, moves: string[], engine: Engine,
  nodes: number, onProgress: (done: number, total: number) => void,
  tags: Record<string, string> = {}, result?: string): Promise<{ review: Review; pgn: string; values: ReviewValue[] }> {
  const values: ReviewValue[] = [];
  for (let i = 0; i <= moves.length; i++) {
    values.push(await engine.value(startFen, moves.slice(0, i), nodes));
    onProgress(i + 1, moves.length + 1);
  }
  const tc = await topochess();
  const v = variantOf(tc, detail);
  const g = v.game(startFen);
  try {
    for (const m of moves) g.play(m);
    return { review: g.review(values), pgn: g.reviewPgn(values, tags, result), values };
  } finally {
    g.free();
    v.free();
  }
}

const MARK_SIGN: Record<ReviewMove['mark'], string> = { '': '', inaccuracy: '?!', mistake: '?', blunder: '??' };

/** "+0.35", "-1.20", "#3" for White. */
function evalText(score: number, mate: number): string {
  if (mate) return `#${mate}`;
  return `${score >= 0 ? '+' : ''}${(score / 100).toFixed(2)}`;
}

/** White's winning chances after a move (-1..1). */
function whiteChances(m: ReviewMove, whiteMoved: boolean): number {
  return whiteMoved ? m.chances_after : -m.chances_after;
}

function sideLine(name: string, s: Review['sides']['white']): HTMLElement {
  const n = (k: number, one: string, many: string) => `${k} ${k === 1 ? one : many}`;
  return el('li', { 'data-side': name.toLowerCase() },
    el('strong', {}, `${name}: accuracy ${Math.round(s.accuracy)}%`),
    `, ${n(s.inaccuracies, 'inaccuracy', 'inaccuracies')}, ${n(s.mistakes, 'mistake', 'mistakes')}, ${n(s.blunders, 'blunder', 'blunders')}`);
}

/** What the panel says beyond the review: who analysed it (note), the
 * engine's line after each ply's better move (SAN, from the position
 * before the ply; '' none) and the solved ending that valued the position
 * after each ply exactly ('' none). */
export interface PanelExtras {
  note: string;
  lines?: string[];
  exact?: string[];
}

/** The review's panel; goto(ply) shows the position after that ply; pgn
 * (with the review's notes) is offered as a download named file, or as a
 * link to the server's PGN (href). */
export function reviewPanel(review: Review, startFen: string, goto: (ply: number) => void,
  pgn?: { text: string; file: string } | { href: string; file: string }, extras?: PanelExtras): HTMLElement {
  const blackFirst = startFen.split(' ')[1] === 'b';
  const fullmove = Number(startFen.split(' ')[5] ?? '1') || 1;
  const whiteMoved = (i: number) => (blackFirst ? i % 2 === 1 : i % 2 === 0);
  const moveName = (i: number) => {
    const n = fullmove + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
    return `${n}${whiteMoved(i) ? '.' : '...'} ${review.moves[i].san}`;
  };
  const panel = el('section', { class: 'tc-review', 'data-review': '', 'aria-label': 'computer review' });
  panel.append(el('h2', {}, 'Computer analysis'),
    el('ul', { class: 'tc-review-sides' }, sideLine('White', review.sides.white), sideLine('Black', review.sides.black)));

  // the graph: White's chances after each ply, 0 in the middle
  const W = 300, H = 80, n = review.moves.length;
  const x = (i: number) => (n <= 1 ? W / 2 : (i / (n - 1)) * W);
  const y = (c: number) => H / 2 - (c * H) / 2;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `-4 -4 ${W + 8} ${H + 8}`);
  svg.setAttribute('class', 'tc-review-graph');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', "White's winning chances after each move");
  const pts = review.moves.map((m, i) => `${x(i).toFixed(1)},${y(whiteChances(m, whiteMoved(i))).toFixed(1)}`);
  const area = document.createElementNS(ns, 'polygon');
  area.setAttribute('points', `0,${H / 2} ${pts.join(' ')} ${x(n - 1).toFixed(1)},${H / 2}`);
  area.setAttribute('class', 'tc-review-area');
  const mid = document.createElementNS(ns, 'line');
  mid.setAttribute('x1', '0');
  mid.setAttribute('x2', String(W));
  mid.setAttribute('y1', String(H / 2));
  mid.setAttribute('y2', String(H / 2));
  mid.setAttribute('class', 'tc-review-mid');
  const line = document.createElementNS(ns, 'polyline');
  line.setAttribute('points', pts.join(' '));
  line.setAttribute('class', 'tc-review-line');
  svg.append(area, mid, line);
  review.moves.forEach((m, i) => {
    const c = document.createElementNS(ns, 'circle');
    c.setAttribute('cx', x(i).toFixed(1));
    c.setAttribute('cy', y(whiteChances(m, whiteMoved(i))).toFixed(1));
    c.setAttribute('r', m.mark ? '4' : '2.5');
    c.setAttribute('class', `tc-review-point${m.mark ? ` tc-mark-${m.mark}` : ''}`);
    c.setAttribute('data-ply', String(i + 1));
    const t = document.createElementNS(ns, 'title');
    t.textContent = `${moveName(i)}${MARK_SIGN[m.mark]} ${evalText(m.score, m.mate)}`;
    c.append(t);
    svg.append(c);
  });
  svg.addEventListener('click', (e) => {
    const ply = (e.target as Element).closest('[data-ply]')?.getAttribute('data-ply');
    if (ply) goto(Number(ply));
  });
  panel.append(svg);

  // the marked moves, each a button to its position
  const marked = review.moves.map((m, i) => ({ m, i })).filter(({ m }) => m.mark);
  if (!marked.length) {
    panel.append(el('p', { class: 'tc-review-none' }, 'No inaccuracy, mistake or blunder.'));
  } else {
    const list = el('ol', { class: 'tc-review-marks' });
    for (const { m, i } of marked) {
      const b = el('button', { type: 'button', 'data-ply': String(i + 1), class: `tc-mark-${m.mark}` },
        `${moveName(i)}${MARK_SIGN[m.mark]}`);
      b.addEventListener('click', () => goto(i + 1));
      const line = extras?.lines?.[i];
      const exact = extras?.exact?.[i];
      list.append(el('li', {}, b,
        ` ${m.mark[0].toUpperCase()}${m.mark.slice(1)} (${evalText(m.best_score, m.best_mate)} → ${evalText(m.score, m.mate)}${exact ? ', exact' : ''}).`,
        m.best ? ` ${m.best} was best.` : '',
        line && line.includes(' ') ? el('span', { class: 'tc-review-line', 'data-line': '' }, ` Line: ${line}.`) : '',
        exact ? el('span', { class: 'tc-review-exact', 'data-exact': exact, title: `valued by the solved ending ${exact}` }, ' exact') : ''));
    }
    panel.append(list);
  }
  const exactCount = extras?.exact?.filter((e) => e).length ?? 0;
  if (exactCount) {
    const first = extras!.exact!.findIndex((e) => e);
    panel.append(el('p', { class: 'tc-review-exact-note', 'data-exact-count': String(exactCount) },
      `From ${moveName(first)} on, ${exactCount === 1 ? 'one position is' : `${exactCount} positions are`} valued exactly by the solved ending ${extras!.exact![first]} (the tables, not a search).`));
  }
  if (pgn) {
    const href = 'href' in pgn ? pgn.href : URL.createObjectURL(new Blob([pgn.text], { type: 'application/x-chess-pgn' }));
    panel.append(el('p', {}, el('a', { href, download: pgn.file, 'data-review-pgn': '' },
      'Download PGN with the review'), ' ([%eval] after each move, as other programs read it)'));
  }
  panel.append(el('p', { class: 'tc-review-note', 'data-review-by': '' },
    `${extras?.note ?? `Analysed in your browser, ${BROWSER_REVIEW_NODES.toLocaleString('en')} nodes a position.`} The marks follow the drop in winning chances (docs/analysis.md).`));
  return panel;
}
