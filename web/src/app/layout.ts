// The frame of the play, analysis and game pages: the board beside its
// panels on wide screens (title, players, status above the side panel),
// the board between the status and the panels on narrow ones. The board is
// sized to the viewport's height so that a whole 8x14 board fits a laptop
// screen; a handle at its corner resizes it (remembered in this browser).
import { el } from './dom';

/** Below this width of the page's area the panels go under the board. */
const NARROW = 720;
/** The side panel's least width beside the board. */
const SIDE_MIN = 290;
const GAP = 16;
const STORE_KEY = 'tc-board-width';

export interface Arena {
  root: HTMLElement;
  /** title, players, status, explanation, result */
  head: HTMLElement;
  board: HTMLElement;
  side: HTMLElement;
  /** sizes the board again (after the board's picture changed) */
  fit(): void;
}

function storedWidth(): number | null {
  try {
    const v = Number(localStorage.getItem(STORE_KEY));
    return v > 0 ? v : null;
  } catch {
    return null;
  }
}

function storeWidth(w: number | null): void {
  try {
    if (w === null) localStorage.removeItem(STORE_KEY);
    else localStorage.setItem(STORE_KEY, String(Math.round(w)));
  } catch {
    /* storage may be off: the size lasts for this page */
  }
}

export function createArena(app: HTMLElement, ...headItems: HTMLElement[]): Arena {
  const head = el('div', { class: 'tc-arena-head' }, ...headItems);
  const board = el('div', { class: 'tc-arena-board' });
  const side = el('aside', { class: 'tc-side tc-arena-side' });
  const root = el('div', { class: 'tc-arena' }, head, board, side);
  app.replaceChildren(root);

  const svg = () => board.querySelector<SVGSVGElement>('.tc-flat .tc-board-svg svg');
  const limits = () => {
    const total = root.clientWidth;
    const narrow = total < NARROW;
    return { narrow, maxW: narrow ? total : total - SIDE_MIN - GAP };
  };
  const fit = () => {
    const s = svg();
    if (!s) return;
    const holder = s.closest('.tc-board');
    if (holder && handle.parentElement !== holder) holder.append(handle);
    const vb = s.viewBox.baseVal;
    const aspect = vb && vb.height ? vb.width / vb.height : 1;
    const { narrow, maxW } = limits();
    root.classList.toggle('tc-narrow', narrow);
    // what stands above the board (header, toolbar; on narrow screens the
    // head too) does not depend on the board's width
    const top = s.getBoundingClientRect().top + window.scrollY;
    const avail = Math.max(narrow ? 320 : 240, window.innerHeight - top - 8);
    const user = storedWidth();
    const w = Math.max(160, Math.min(maxW, user ?? avail * aspect));
    root.style.setProperty('--tc-board-w', `${Math.floor(w)}px`);
    // an open 3-D view (as large as the board) goes beside it where the side panel keeps its width
    const with3d = board.querySelector('.tc-boardview[data-view3d="on"]') !== null;
    root.classList.toggle('tc-3d-beside', with3d && !narrow && root.clientWidth - 2 * Math.floor(w) - 2 * GAP >= SIDE_MIN);
  };

  // The resize handle at the board's lower right corner.
  const handle = el('div', {
    class: 'tc-resize',
    'data-resize': '',
    role: 'separator',
    'aria-label': 'Resize the board (double-click: fit the screen)',
    title: 'Drag to resize the board; double-click to fit the screen',
  });
  handle.addEventListener('pointerdown', (e) => {
    const s = svg();
    if (!s) return;
    // the board's own pointer handlers (moves, rolling) must not see it
    e.stopPropagation();
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    const startW = s.getBoundingClientRect().width;
    const aspect = s.viewBox.baseVal.width / s.viewBox.baseVal.height || 1;
    const x0 = e.clientX;
    const y0 = e.clientY;
    const move = (m: PointerEvent) => {
      const dx = m.clientX - x0;
      const dy = (m.clientY - y0) * aspect;
      const d = Math.abs(dx) > Math.abs(dy) ? dx : dy;
      storeWidth(Math.max(160, Math.min(limits().maxW, startW + d)));
      fit();
    };
    const up = () => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
  handle.addEventListener('click', (e) => e.stopPropagation());
  handle.addEventListener('dblclick', (e) => {
    e.stopPropagation();
    storeWidth(null);
    fit();
  });

  let queued = false;
  const refit = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit();
    });
  };
  window.addEventListener('resize', refit);
  board.addEventListener('tc-view3d', () => fit());
  new ResizeObserver(refit).observe(root);
  return { root, head, board, side, fit };
}
