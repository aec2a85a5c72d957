// The editor's live solved endings: the 3-piece endings of the board being
// written (which material can mate, the longest mate, the dead materials),
// solved in a Web Worker (lib/endings-worker.ts) so typing never waits;
// the 4-piece ones on request. A change of the board cancels the running
// solve (its worker is terminated) and starts again; a change that leaves
// the board as it was (title, setup, body) keeps what is solved.
import { el } from '../app/dom';
import { EndingsSolver } from '../lib/endings';
import { deadCell, type DeadCount, type SolvedEnding, type Topochess } from '../lib/topochess';

export const THREE = ['KQK', 'KRK', 'KBK', 'KNK'];
export const FOUR = ['KBBK', 'KBNK', 'KNNK', 'KQKR', 'KRKB', 'KRKN'];

export interface EndingsPanel {
  readonly el: HTMLElement;
  /** The board of this front matter (key: what the endings depend on). */
  board(frontmatter: string, key: string): void;
  /** No board to solve on (the front matter does not read): why. */
  idle(why: string): void;
}

/** "K+Q v K": an ending as people write it. */
function spoken(name: string): string {
  const black = name.indexOf('K', 1);
  const side = (s: string) => s.split('').join('+');
  return `${side(name.slice(0, black))} v ${side(name.slice(black))}`;
}

function percent(a: number, all: number): string {
  return all ? `${((100 * a) / all).toFixed(2)}%` : '-';
}

export function endingsPanel(tc: Topochess): EndingsPanel {
  const status = el('p', { class: 'tc-ed-endings-status', 'data-endings-status': '', role: 'status' });
  const bar = el('progress', { 'data-endings-progress': '', max: '1', value: '0' });
  const rows = el('tbody', {});
  const table = el('table', { class: 'tc-ed-endings-table', 'data-endings-table': '' },
    el('thead', {}, el('tr', {}, el('th', {}, 'ending'), el('th', {}, 'can mate'), el('th', {}, 'won, White to move'),
      el('th', {}, 'longest mate'), el('th', {}, 'dead positions'))), rows);
  const never = el('p', { 'data-endings-never': '' });
  const more = el('button', { type: 'button', 'data-action': 'endings-4' }, 'Solve the 4-piece endings');
  const box = el('section', { class: 'tc-ed-endings', 'data-endings': 'idle' },
    el('h3', {}, 'Solved endings'), status, bar, table, never, more);

  const solver = new EndingsSolver(tc.module);
  let fm = '';
  let key = '';
  let dead: Record<string, DeadCount> | null = null;
  let deadWhy = '';
  const solved = new Map<string, SolvedEnding | string>(); // by asked name: figures, or why not

  const row = (name: string) => {
    const r = solved.get(name);
    const c = dead?.[name];
    const d = c ? deadCell(c) : '-';
    const tr = el('tr', { 'data-ending': name }, el('td', {}, spoken(name)));
    if (r === undefined) tr.append(el('td', { colspan: '3', class: 'tc-ed-pending' }, 'solving...'), el('td', {}, d));
    else if (typeof r === 'string') tr.append(el('td', { colspan: '3', class: 'tc-error' }, r), el('td', {}, d));
    else {
      const all = r.win[0] + r.draw[0] + r.loss[0];
      const moves = Math.ceil(r.longest[0] / 2);
      tr.append(el('td', { 'data-mates': String(r.possible) }, r.possible ? 'yes' : 'no'),
        el('td', {}, percent(r.win[0], all)),
        el('td', { 'data-longest': String(moves) }, r.possible ? `${moves} move${moves === 1 ? '' : 's'}` : '-'),
        el('td', { 'data-dead': c ? d : '' }, d));
    }
    return tr;
  };
  const draw = (names: string[]) => {
    rows.replaceChildren(...names.map(row));
    const cannot = names.filter((n) => { const r = solved.get(n); return typeof r === 'object' && !r.possible; });
    never.textContent = cannot.length ? `Can never mate on this board: ${cannot.map(spoken).join(', ')}.` : '';
    if (deadWhy) never.append(el('br'), deadWhy);
  };

  const run = (names: string[], shown: string[]) => {
    let done = 0;
    bar.max = names.length;
    bar.value = 0;
    box.setAttribute('data-endings', 'solving');
    more.disabled = true;
    const started = performance.now();
    void solver.solve({ frontmatter: fm, endings: names, dead: names }, {
      onPass: (i, p) => {
        status.textContent = `Solving ${spoken(names[i]!)} (${i + 1} of ${names.length}): ${p.ending}, ${p.plies} plies done, ${p.entries} table entries`;
      },
      onEnding: (i, r, err) => {
        solved.set(names[i]!, r ?? err ?? 'not solved');
        bar.value = ++done;
        draw(shown);
      },
      onDead: (d, err) => {
        dead = d ? { ...(dead ?? {}), ...d } : null;
        deadWhy = d ? '' : `Dead positions: ${err ?? 'not decided'}`;
        draw(shown);
      },
    }).then((how) => {
      if (how === 'cancelled') return;
      box.setAttribute('data-endings', 'done');
      status.textContent = `Solved ${names.length} endings on this board in ${((performance.now() - started) / 1000).toFixed(1)} s.`;
      more.disabled = shown.length > THREE.length;
    }, (e: unknown) => {
      box.setAttribute('data-endings', 'error');
      status.textContent = `The endings could not be solved: ${e instanceof Error ? e.message : String(e)}`;
      more.disabled = false;
    });
  };

  more.addEventListener('click', () => {
    if (!fm) return;
    for (const n of FOUR) solved.delete(n);
    const shown = [...THREE, ...FOUR];
    draw(shown);
    run(FOUR, shown);
  });

  return {
    el: box,
    board(frontmatter, k) {
      fm = frontmatter;
      if (k === key && box.getAttribute('data-endings') !== 'idle') return;
      key = k;
      box.setAttribute('data-endings-board', k);
      solved.clear();
      dead = null;
      deadWhy = '';
      draw(THREE);
      status.textContent = 'Solving the 3-piece endings of this board...';
      run(THREE, THREE);
    },
    idle(why) {
      solver.cancel();
      key = '';
      box.setAttribute('data-endings', 'idle');
      box.removeAttribute('data-endings-board');
      status.textContent = `Waiting for a board: ${why}`;
      more.disabled = true;
    },
  };
}
