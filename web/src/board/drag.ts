// Pointer input: click-click and drag-and-drop moves (mouse and touch),
// hover for lines of movement, and rolling the view by dragging the
// margins or turning the wheel.
import type { BoardMove } from './config';
import { canRollFiles, canRollRanks } from './picture';
import { CELL } from './render';
import { canPick, setRoll, type BoardState } from './state';

export interface Host {
  state: BoardState;
  root: HTMLElement;
  redraw(): void;
  /** redraw only the dragged piece */
  moveDragged(): void;
}

function svgPoint(host: Host, e: PointerEvent | WheelEvent): [number, number] {
  const svg = host.root.querySelector('svg');
  if (!svg) return [0, 0];
  const m = svg.getScreenCTM();
  if (!m) return [0, 0];
  const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
  return [p.x, p.y];
}

function cellAt(host: Host, e: PointerEvent): number | null {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  const g = el?.closest('[data-cell]');
  if (!g || !host.root.contains(g)) return null;
  const name = g.getAttribute('data-cell')!;
  return cellByName(host.state, name);
}

export function cellByName(s: BoardState, name: string): number | null {
  const t = s.config.topology;
  for (let i = 0; i < t.width * t.height; i++) if (t.cellName(i) === name) return i;
  return null;
}

/** Play a move to a destination, asking for the promotion piece if needed. */
export function tryMove(host: Host, from: number, to: number): boolean {
  const s = host.state;
  const moves = s.config.dests(from).filter((m) => m.to === to);
  if (moves.length === 0) return false;
  s.picked = null;
  if (moves.length > 1 && moves.some((m) => m.promotion)) {
    s.promotion = moves;
    host.redraw();
    return true;
  }
  finish(host, moves[0]);
  return true;
}

export function finish(host: Host, move: BoardMove): void {
  const s = host.state;
  s.promotion = null;
  s.picked = null;
  s.drag = null;
  host.redraw();
  s.config.onMove(move);
}

/** A click on a cell while a piece is picked: the move there, or its
 * refusal (onIllegal) when no piece of the mover's is there. True when
 * the click was taken. */
function playPicked(host: Host, cell: number): boolean {
  const s = host.state;
  if (s.picked === null || s.picked === cell) return false;
  if (s.config.dests(s.picked).some((m) => m.to === cell)) return tryMove(host, s.picked, cell);
  if (canPick(s, cell)) return false;
  const from = s.picked;
  s.picked = null;
  host.redraw();
  s.config.onIllegal?.(from, cell);
  return true;
}

/** A click on a cell made elsewhere (the 3-D view): what a click on the
 * board does, without a drag. */
export function clickOn(host: Host, cell: number): void {
  const s = host.state;
  if (s.promotion || playPicked(host, cell)) return;
  if (canPick(s, cell)) {
    s.picked = s.picked === cell ? null : cell;
    host.redraw();
    return;
  }
  s.picked = null;
  host.redraw();
  s.config.onCellClick?.(cell);
}

function press(host: Host, e: PointerEvent): void {
  const s = host.state;
  if (s.promotion) return;
  if (e.button !== 0 && e.pointerType === 'mouse') return;
  const cell = cellAt(host, e);
  if (cell === null) {
    // On a margin or a ghost: roll the view.
    const t = s.config.topology;
    if (canRollFiles(t) || canRollRanks(t)) {
      const [x, y] = svgPoint(host, e);
      s.rollDrag = { pointerId: e.pointerId, startX: x, startY: y, roll: { ...s.roll } };
      host.root.setPointerCapture(e.pointerId);
      e.preventDefault();
    }
    return;
  }
  if (playPicked(host, cell)) {
    e.preventDefault();
    return;
  }
  if (canPick(s, cell)) {
    const [x, y] = svgPoint(host, e);
    const wasPicked = s.picked === cell;
    s.picked = cell;
    s.drag = { cell, pointerId: e.pointerId, startX: x, startY: y, x, y, moved: false, wasPicked };
    host.root.setPointerCapture(e.pointerId);
    e.preventDefault();
    host.redraw();
    return;
  }
  s.picked = null;
  host.redraw();
  s.config.onCellClick?.(cell);
}

function move(host: Host, e: PointerEvent): void {
  const s = host.state;
  if (s.rollDrag && s.rollDrag.pointerId === e.pointerId) {
    const [x, y] = svgPoint(host, e);
    const flip = s.config.orientation === 'black' ? -1 : 1;
    const dx = Math.round((x - s.rollDrag.startX) / CELL) * flip;
    const dy = Math.round((y - s.rollDrag.startY) / CELL) * flip;
    const t = s.config.topology;
    const next = {
      x: canRollFiles(t) ? s.rollDrag.roll.x - dx : 0,
      y: canRollRanks(t) ? s.rollDrag.roll.y + dy : 0,
    };
    if (next.x !== s.roll.x || next.y !== s.roll.y) {
      setRoll(s, next);
      host.redraw();
      s.config.onView?.();
    }
    return;
  }
  if (s.drag && s.drag.pointerId === e.pointerId) {
    const [x, y] = svgPoint(host, e);
    s.drag.x = x;
    s.drag.y = y;
    if (!s.drag.moved && Math.hypot(x - s.drag.startX, y - s.drag.startY) > CELL / 5) {
      s.drag.moved = true;
      host.redraw();
    } else if (s.drag.moved) {
      host.moveDragged();
    }
    return;
  }
  if (e.pointerType === 'mouse') {
    const cell = cellAt(host, e);
    // a piece under the pointer; with a piece picked, any cell (its route
    // there is drawn, not every line)
    const hover = cell !== null && (s.placement[cell] || s.picked !== null || s.config.pathsOnHover) ? cell : null;
    if (hover !== s.hover) {
      s.hover = hover;
      host.redraw();
    }
  }
}

function release(host: Host, e: PointerEvent): void {
  const s = host.state;
  if (s.rollDrag && s.rollDrag.pointerId === e.pointerId) {
    s.rollDrag = null;
    return;
  }
  const d = s.drag;
  if (!d || d.pointerId !== e.pointerId) return;
  s.drag = null;
  const target = cellAt(host, e);
  if (d.moved) {
    if (target !== null && target !== d.cell && tryMove(host, d.cell, target)) return;
    s.picked = null;
    host.redraw();
    if (target !== null && target !== d.cell) s.config.onIllegal?.(d.cell, target);
    return;
  }
  // A plain click: a second click on the picked piece puts it down.
  if (target === d.cell && d.wasPicked) s.picked = null;
  host.redraw();
}

function wheel(host: Host, e: WheelEvent): void {
  const s = host.state;
  const t = s.config.topology;
  const horizontal = e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY);
  const delta = Math.sign(horizontal ? e.deltaX || e.deltaY : e.deltaY);
  if (!delta) return;
  if (horizontal ? !canRollFiles(t) : !canRollRanks(t)) return;
  e.preventDefault();
  setRoll(s, horizontal ? { x: s.roll.x + delta, y: s.roll.y } : { x: s.roll.x, y: s.roll.y + delta });
  host.redraw();
  s.config.onView?.();
}

export function bindInput(host: Host): () => void {
  const root = host.root;
  const onDown = (e: PointerEvent) => press(host, e);
  const onMove = (e: PointerEvent) => move(host, e);
  const onUp = (e: PointerEvent) => release(host, e);
  const onCancel = () => {
    host.state.drag = null;
    host.state.rollDrag = null;
    host.redraw();
  };
  const onLeave = () => {
    if (host.state.hover !== null) {
      host.state.hover = null;
      host.redraw();
    }
  };
  const onWheel = (e: WheelEvent) => wheel(host, e);
  const onClick = (e: MouseEvent) => {
    const el = (e.target as Element).closest('[data-promote]');
    if (el && host.state.promotion) {
      const piece = el.getAttribute('data-promote');
      const m = host.state.promotion.find((x) => x.promotion === piece);
      if (m) finish(host, m);
      return;
    }
    if ((e.target as Element).closest('[data-promote-cancel]')) {
      host.state.promotion = null;
      host.redraw();
    }
  };
  root.addEventListener('pointerdown', onDown);
  root.addEventListener('pointermove', onMove);
  root.addEventListener('pointerup', onUp);
  root.addEventListener('pointercancel', onCancel);
  root.addEventListener('pointerleave', onLeave);
  root.addEventListener('wheel', onWheel, { passive: false });
  root.addEventListener('click', onClick);
  return () => {
    root.removeEventListener('pointerdown', onDown);
    root.removeEventListener('pointermove', onMove);
    root.removeEventListener('pointerup', onUp);
    root.removeEventListener('pointercancel', onCancel);
    root.removeEventListener('pointerleave', onLeave);
    root.removeEventListener('wheel', onWheel);
    root.removeEventListener('click', onClick);
  };
}
