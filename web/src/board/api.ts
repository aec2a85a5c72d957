// The board's public API: createBoard(element, config) -> Board.
//
// Stable hooks (tests and embedding sites rely on them): the root has
// data-variant and data-fen (updated after every change); every cell has
// data-cell="<name>"; a picked piece's legal destinations carry data-dest;
// the last move's cells data-last; a checked king's cell data-check;
// promotion choices are buttons with data-promote="q|r|b|n".
import { animatePath } from './animate';
import { configure, defaults, type BoardConfig, type Topology } from './config';
import { bindInput, cellByName, clickOn, type Host } from './drag';
import { canRollFiles, canRollRanks, type Roll } from './picture';
import { CELL, render, renderPromotion } from './render';
import { initialState, setRoll, settle, type BoardState } from './state';

export interface Board {
  readonly root: HTMLElement;
  readonly state: BoardState;
  /** change any part of the configuration; redraws */
  set(patch: Partial<BoardConfig>): void;
  flip(): void;
  /** roll the view by whole files / ranks (where they wrap) */
  roll(dx: number, dy: number): void;
  setRoll(roll: Roll): void;
  resetRoll(): void;
  canRoll(): { files: boolean; ranks: boolean };
  cell(name: string): number | null;
  /** a click on a cell from outside the board (the 3-D view): picks,
   * shows the legal targets, moves, as a click on the board does */
  click(cell: number): void;
  /** a cell's element (by index) */
  cellElement(cell: number): Element | null;
  /** shows the piece on the path's last cell travelling along the path
   * (cells from the rules module), across joins */
  animate(path: number[]): void;
  /** listen to every redraw (the 3-D view follows the board this way) */
  onChange(fn: () => void): void;
  destroy(): void;
}

export function createBoard(element: HTMLElement, topology: Topology, config: Partial<BoardConfig>): Board {
  const state = initialState(configure(defaults(topology), config));
  const listeners: (() => void)[] = [];
  element.classList.add('tc-board');
  element.setAttribute('data-variant', topology.slug);
  element.tabIndex = 0;
  const svgHolder = document.createElement('div');
  svgHolder.className = 'tc-board-svg';
  const promoHolder = document.createElement('div');
  element.replaceChildren(svgHolder, promoHolder);

  let lastPromo = '';
  const host: Host = {
    state,
    root: element,
    redraw() {
      element.setAttribute('data-fen', state.config.fen);
      element.setAttribute('data-turn', state.turn);
      element.setAttribute('data-orientation', state.config.orientation);
      element.setAttribute('data-roll', `${state.roll.x},${state.roll.y}`);
      svgHolder.innerHTML = render(state);
      const promo = renderPromotion(state);
      if (promo !== lastPromo) {
        promoHolder.innerHTML = promo;
        lastPromo = promo;
      }
      for (const fn of listeners) fn();
    },
    moveDragged() {
      const g = svgHolder.querySelector('.dragging use');
      if (g && state.drag) {
        g.setAttribute('x', String(state.drag.x - CELL / 2 + 6));
        g.setAttribute('y', String(state.drag.y - CELL / 2 + 6));
      }
    },
  };
  const unbind = bindInput(host);
  host.redraw();

  return {
    root: element,
    state,
    set(patch) {
      const before = state.config.fen;
      state.config = configure(state.config, patch);
      settle(state, before);
      host.redraw();
    },
    flip() {
      state.config.orientation = state.config.orientation === 'white' ? 'black' : 'white';
      host.redraw();
      state.config.onView?.();
    },
    roll(dx, dy) {
      setRoll(state, { x: state.roll.x + dx, y: state.roll.y + dy });
      host.redraw();
      state.config.onView?.();
    },
    setRoll(roll) {
      setRoll(state, roll);
      host.redraw();
    },
    resetRoll() {
      setRoll(state, { x: 0, y: 0 });
      host.redraw();
      state.config.onView?.();
    },
    canRoll() {
      return { files: canRollFiles(topology), ranks: canRollRanks(topology) };
    },
    cell(name) {
      return cellByName(state, name);
    },
    click(cell) {
      clickOn(host, cell);
    },
    cellElement(cell) {
      return element.querySelector(`[data-cell="${topology.cellName(cell)}"]`);
    },
    animate(path) {
      animatePath(element, path.map((c) => topology.cellName(c)));
    },
    onChange(fn) {
      listeners.push(fn);
    },
    destroy() {
      unbind();
      element.replaceChildren();
    },
  };
}
