// The board as the pages use it: the board component fed from a game
// controller, a toolbar (flip, roll, 3-D view), a caption naming the joins,
// a move list with data-ply hooks and arrow-key stepping.
import { createBoard, type Board } from '../board/api';
import type { BoardConfig, BoardMove } from '../board/config';
import type { Picture } from '../board/picture';
import { splitName } from '../board/render';
import { pieceColour } from '../board/state';
import type { GameController } from './game';
import type { GameRules, Rules } from './types';
import { el } from './dom';
import { playSound, setSoundOn, soundOn } from './sound';
import { open3dView } from './view3d-host';
import type { View3d } from '../view3d/index';

export interface BoardViewOptions {
  /** may the user move now? (the engine's turn, a finished game, a past ply) */
  movable(): BoardConfig['movable'];
  onUserMove(move: BoardMove): void;
  /** extra configuration (explorer, editor) */
  extra?: Partial<BoardConfig>;
  /** a try with a piece of config.premove's colour (not its turn): a premove */
  onPremove?(from: number, to: number): void;
  /** where the explanation of an illegal move goes (default: under the board) */
  whyHost?: HTMLElement;
  /** a better move than the one that led to the ply shown (a review's), in
   * coordinates, drawn as an arrow from the position before it; or null */
  betterMove?(ply: number): string | null;
}

export interface BoardView {
  board: Board;
  element: HTMLElement;
  sync(): void;
  open3d(): Promise<void>;
}

/** Games at positions other than the current one (past plies), by FEN. */
class PositionCache {
  private cache = new Map<string, GameRules>();
  constructor(private rules: Rules) {}
  get(fen: string): GameRules {
    let g = this.cache.get(fen);
    if (!g) {
      if (this.cache.size > 32) {
        for (const old of this.cache.values()) old.free();
        this.cache.clear();
      }
      g = this.rules.game(fen);
      this.cache.set(fen, g);
    }
    return g;
  }
}

/** The joins at the picture's edges, named as the board is drawn: a board
 * flipped for Black (turned half a turn) shows the picture's bottom edge
 * at the top and its right edge on the left, and its cells run the other
 * way along each edge. */
export function describeEdges(rules: Rules, pic: Picture, flipped = false): string {
  const t = rules.topology;
  const parts: string[] = [];
  const name = (p: { cell: number } | null) => (p ? t.cellName(p.cell) : '');
  const side = (label: string, e: Picture['top'], rowOrCol: 'row' | 'column') => {
    if (!e.kind) return;
    // left to right along a row, bottom to top along a column, on screen
    const cells = (flipped ? [...e.ghosts].reverse() : e.ghosts).filter(Boolean);
    if (cells.length === 0) return;
    const first = name(cells[0]);
    const lastCell = name(cells[cells.length - 1]);
    const what = rowOrCol === 'row' ? `rank ${splitName(first).rank}` : `file ${splitName(first).file}`;
    const uniform = cells.every((c) =>
      rowOrCol === 'row' ? splitName(name(c)).rank === splitName(first).rank : splitName(name(c)).file === splitName(first).file,
    );
    parts.push(
      `${label}: ${e.kind}${uniform ? ` to ${what}` : ''} (${first}…${lastCell}${cells.some((c) => c!.sx < 0) ? ', mirrored' : ''})`,
    );
  };
  side('top', flipped ? pic.bottom : pic.top, 'row');
  side('bottom', flipped ? pic.top : pic.bottom, 'row');
  side('left', flipped ? pic.right : pic.left, 'column');
  side('right', flipped ? pic.left : pic.right, 'column');
  const twist = pic.seams.filter((s) => s.kind === 'twist' && !s.vertical);
  if (twist.length) {
    const pairs = twist
      .slice(0, 3)
      .map((s) => `${t.cellName(pic.grid[s.r][s.c].cell)}–${s.across === null ? '?' : t.cellName(s.across)}`);
    parts.push(`twist line inside the picture: ${pairs.join(', ')}…`);
  }
  return parts.length ? `Joins — ${parts.join('; ')}.` : 'No joins: every edge is open.';
}

export function createBoardView(
  container: HTMLElement,
  rules: Rules,
  ctl: GameController,
  opts: BoardViewOptions,
): BoardView {
  const positions = new PositionCache(rules);
  const boardEl = el('div', { class: 'tc-board-holder' });
  const caption = el('p', { class: 'tc-joins' });
  const why = el('p', { class: 'tc-why', 'data-why': '', 'aria-live': 'polite' });
  const view3d = el('div', { class: 'tc-3d', hidden: '' });
  const toolbar = el('div', { class: 'tc-toolbar', role: 'toolbar' });
  const button = (label: string, action: string, title: string) => {
    const b = el('button', { type: 'button', 'data-action': action, title }, label);
    toolbar.append(b);
    return b;
  };
  const layout = el('div', { class: 'tc-boardview' });
  const flat = el('div', { class: 'tc-flat' }, toolbar, boardEl, caption);
  if (opts.whyHost) opts.whyHost.append(why);
  else boardEl.after(why);
  layout.append(flat, view3d);
  container.append(layout);

  const current = (): GameRules => (ctl.atEnd() ? ctl.game : positions.get(ctl.shownFen()));
  let movesCache: { fen: string; moves: BoardMove[] } | null = null;
  const movesOf = (g: GameRules): BoardMove[] => {
    const fen = g.fen();
    if (!movesCache || movesCache.fen !== fen) movesCache = { fen, moves: g.moves() };
    return movesCache.moves;
  };

  // Moves the user made on this board are not animated (the piece is
  // there already); the others (the engine's, an opponent's, stepping
  // forward) travel along their path.
  let userMoved = false;
  let shownPly = ctl.cursor;
  const board = createBoard(boardEl, rules.topology, {
    fen: ctl.shownFen(),
    onMove: (m) => {
      userMoved = true;
      opts.onUserMove(m);
      userMoved = false;
    },
    dests: (cell) => movesOf(current()).filter((m) => m.from === cell),
    lines: (cell) => current().lines(cell),
    onView: () => {
      caption.textContent = describeEdges(rules, board.state.picture, board.state.config.orientation === 'black');
    },
    onIllegal: (from, to) => {
      const pre = board.state.config.premove;
      if (pre && opts.onPremove && pieceColour(board.state.placement[from] ?? '') === pre && board.state.turn !== pre) {
        opts.onPremove(from, to);
        return;
      }
      if (board.state.config.movable === 'none') return;
      try {
        why.textContent = current().explain(from, to);
      } catch (e) {
        why.textContent = (e as Error).message;
      }
    },
    ...opts.extra,
  });

  button('⇅', 'flip', 'Flip the board');
  const roll = board.canRoll();
  if (roll.files) {
    button('◀', 'roll-left', 'Roll the files left');
    button('▶', 'roll-right', 'Roll the files right');
  }
  if (roll.ranks) {
    button('▲', 'roll-up', 'Roll the ranks up');
    button('▼', 'roll-down', 'Roll the ranks down');
  }
  if (roll.files || roll.ranks) button('⌂', 'roll-reset', 'Back to the page layout');
  const b3d = button('3-D', 'view3d', 'Show the surface in 3-D');
  const bSound = button('♪', 'sound', 'Sounds for moves, captures and checks');
  bSound.setAttribute('aria-pressed', soundOn() ? 'true' : 'false');

  const bSwap = button('⇄', 'view3d-swap', 'Show the 3-D view instead of the flat board');
  bSwap.hidden = true;
  bSwap.setAttribute('aria-pressed', 'false');

  // The 3-D view is as large as the board: beside it where the page has
  // room (the page's layout decides), else below it, or instead of it.
  let three: View3d | null = null;
  const mode3d = (mode: '' | 'on' | 'instead') => {
    if (mode) layout.setAttribute('data-view3d', mode);
    else layout.removeAttribute('data-view3d');
    bSwap.hidden = !mode;
    bSwap.setAttribute('aria-pressed', mode === 'instead' ? 'true' : 'false');
    bSwap.title = mode === 'instead' ? 'Show the flat board again' : 'Show the 3-D view instead of the flat board';
    b3d.setAttribute('aria-pressed', mode ? 'true' : 'false');
    layout.dispatchEvent(new CustomEvent('tc-view3d', { bubbles: true }));
    place3d();
  };
  // instead: over the board's own box; beside: level with the board
  const place3d = () => {
    const mode = layout.getAttribute('data-view3d');
    view3d.style.top = view3d.style.left = view3d.style.marginTop = '';
    if (mode === 'instead') {
      view3d.style.marginTop = '0px';
      view3d.style.top = `${boardEl.offsetTop}px`;
      view3d.style.left = `${boardEl.offsetLeft}px`;
    } else if (mode === 'on' && view3d.offsetLeft > boardEl.offsetLeft + 20) {
      view3d.style.marginTop = `${boardEl.offsetTop}px`;
    }
  };
  new ResizeObserver(place3d).observe(layout);
  const open3d = async () => {
    if (three) return;
    b3d.disabled = true;
    view3d.hidden = false;
    const loading = el('p', { class: 'tc-3d-caption' }, 'Loading the 3-D view…');
    view3d.replaceChildren(loading);
    try {
      three = await open3dView(view3d, board, rules.topology, boardEl, true);
    } finally {
      loading.remove();
      b3d.disabled = false;
    }
    mode3d('on');
    // with no room beside the board (a phone, a wide board): in its place
    // rather than out of sight below it
    const below = view3d.getBoundingClientRect().bottom > window.innerHeight && view3d.offsetLeft < boardEl.offsetLeft + 20;
    if (below) mode3d('instead');
  };
  toolbar.addEventListener('click', (e) => {
    const action = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
    const turned = board.state.config.orientation === 'black' ? -1 : 1;
    switch (action) {
      case 'flip': board.flip(); break;
      // the buttons name directions on screen: a flipped board rolls the other way
      case 'roll-left': board.roll(turned, 0); break;
      case 'roll-right': board.roll(-turned, 0); break;
      case 'roll-up': board.roll(0, -turned); break;
      case 'roll-down': board.roll(0, turned); break;
      case 'roll-reset': board.resetRoll(); break;
      case 'sound':
        setSoundOn(!soundOn());
        bSound.setAttribute('aria-pressed', soundOn() ? 'true' : 'false');
        break;
      case 'view3d':
        if (three) {
          three.dispose();
          three = null;
          view3d.hidden = true;
          view3d.replaceChildren();
          mode3d('');
        } else {
          void open3d();
        }
        break;
      case 'view3d-swap':
        if (three) mode3d(layout.getAttribute('data-view3d') === 'instead' ? 'on' : 'instead');
        break;
    }
  });

  const sync = () => {
    why.textContent = '';
    const g = current();
    const st = g.status();
    const king = st.check && st.king !== null ? st.king : null;
    let lastPath: number[] | null = null;
    let bestPath: number[] | null = null;
    if (ctl.cursor > 0) {
      const before = ctl.cursor === 1 ? ctl.startFen : ctl.plies[ctl.cursor - 2].fenAfter;
      try {
        lastPath = positions.get(before).movePath(ctl.plies[ctl.cursor - 1].move.uci);
      } catch {
        lastPath = null;
      }
      const better = opts.betterMove?.(ctl.cursor);
      try {
        bestPath = better ? positions.get(before).movePath(better) : null;
      } catch {
        bestPath = null;
      }
    }
    board.set({
      fen: ctl.shownFen(),
      lastMove: ctl.lastMove(),
      lastPath,
      bestPath,
      check: king,
      checkLines: st.check ? st.checkLines : [],
      movable: opts.movable(),
    });
    caption.textContent = describeEdges(rules, board.state.picture, board.state.config.orientation === 'black');
    if (lastPath && ctl.cursor === shownPly + 1 && !userMoved) board.animate(lastPath);
    if (ctl.cursor === shownPly + 1) {
      const m = ctl.plies[ctl.cursor - 1]!.move;
      playSound(m.check ? 'check' : m.capture ? 'capture' : 'move');
    }
    shownPly = ctl.cursor;
  };
  sync();
  return { board, element: layout, sync, open3d };
}

/** The move list: one element per ply with data-ply and the SAN as text. */
export function createMoveList(container: HTMLElement, ctl: GameController): () => void {
  const list = el('ol', { class: 'tc-moves', 'aria-label': 'moves' });
  container.append(list);
  list.addEventListener('click', (e) => {
    const ply = (e.target as Element).closest('[data-ply]')?.getAttribute('data-ply');
    if (ply) ctl.goto(Number(ply));
  });
  return () => {
    list.replaceChildren();
    const blackFirst = ctl.startFen.split(' ')[1] === 'b';
    const fullmove = Number(ctl.startFen.split(' ')[5] ?? '1') || 1;
    let li: HTMLElement | null = null;
    ctl.plies.forEach((p, i) => {
      const whiteMove = blackFirst ? i % 2 === 1 : i % 2 === 0;
      if (whiteMove || !li) {
        const n = fullmove + Math.floor((i + (blackFirst ? 1 : 0)) / 2);
        li = el('li', { value: String(n) });
        list.append(li);
        if (!whiteMove) li.append(el('span', { class: 'tc-ply-gap' }, '…'));
      }
      const span = el('span', { 'data-ply': String(i + 1), class: i + 1 === ctl.cursor ? 'tc-ply current' : 'tc-ply' }, p.move.san);
      li.append(span);
    });
    // keep the current move in view inside the list only: scrollIntoView
    // would scroll the page too, and take the board away on a phone
    const cur = list.querySelector<HTMLElement>('.current');
    if (cur) {
      const top = cur.offsetTop; // the list is positioned: its own offset
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + cur.offsetHeight - list.clientHeight;
    }
  };
}

/** Left/Right step through the game's moves, Up/Home to the start, Down/End to the end. */
export function bindArrowKeys(ctl: GameController, signal?: AbortSignal): void {
  document.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement;
    if (target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT')) return;
    if (e.key === 'ArrowLeft') ctl.goto(ctl.cursor - 1);
    else if (e.key === 'ArrowRight') ctl.goto(ctl.cursor + 1);
    else if (e.key === 'ArrowUp' || e.key === 'Home') ctl.goto(0);
    else if (e.key === 'ArrowDown' || e.key === 'End') ctl.goto(ctl.plies.length);
    else return;
    e.preventDefault();
  }, { signal });
}

/** A box to type moves in (SAN or coordinates: the rules module reads
 * them and names what is wrong). `refuse` says why no move may be typed
 * now, or null. */
export function createMoveInput(
  host: HTMLElement,
  ctl: GameController,
  refuse: () => string | null,
  report: (message: string) => void,
): HTMLInputElement {
  const input = el('input', {
    type: 'text',
    class: 'tc-move-input',
    'data-move-input': '',
    placeholder: 'type a move: e4, Nf3, exd5, e7e8q',
    'aria-label': 'type a move',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  host.append(input);
  input.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    const text = input.value.trim();
    if (!text) return;
    const why = refuse();
    if (why) {
      report(why);
      return;
    }
    try {
      ctl.play(text); // from the position shown (analysis: a new line there)
      input.value = '';
    } catch (err) {
      report((err as Error).message);
    }
  });
  return input;
}

/** Announces each move for screen readers (a polite live region). */
export function announceMoves(host: HTMLElement, ctl: GameController): void {
  const live = el('p', { class: 'tc-sr-only', 'aria-live': 'polite', 'data-announce': '' });
  host.append(live);
  let seen = ctl.plies.length;
  ctl.onChange(() => {
    if (ctl.plies.length === seen + 1 && ctl.atEnd()) {
      const i = ctl.plies.length - 1;
      const white = (ctl.startFen.split(' ')[1] === 'b') === (i % 2 === 1);
      const p = ctl.plies[i]!.move;
      live.textContent = `${white ? 'White' : 'Black'} ${p.san}`;
    }
    seen = ctl.plies.length;
  });
}
