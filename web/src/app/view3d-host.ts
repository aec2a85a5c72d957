// The 3-D view fed from a board: loads the view's chunk (three.js) on
// first use, shows the board's position, picked cell and legal targets,
// and sends clicks on cells back to the board (which moves as it does for
// its own clicks). Only types come from view3d here, so the chunk stays
// out of the page's bundle until a view is opened.
import type { Board } from '../board/api';
import type { Topology } from '../board/config';
import type { Host3d, View3d } from '../view3d/index';

export function boardHost(board: Board, topology: Topology, box: HTMLElement | null, clickable: boolean): Host3d {
  const s = board.state;
  return {
    topology,
    placement: () => s.placement,
    lastMove: () => s.config.lastMove,
    picked: () => s.picked,
    targets: () => (s.picked === null ? [] : s.config.dests(s.picked).map((m) => m.to)),
    check: () => s.config.check,
    click: clickable ? (cell) => board.click(cell) : null,
    box,
  };
}

type Mod = typeof import('../view3d/index');

function mountOn(mod: Mod, container: HTMLElement, board: Board, topology: Topology, box: HTMLElement | null, clickable: boolean): View3d {
  const view = mod.mount3d(container, boardHost(board, topology, box, clickable));
  let live = true;
  board.onChange(() => live && view.update());
  return {
    update: view.update,
    dispose() {
      live = false;
      view.dispose();
    },
  };
}

/** Mounts the 3-D view of the board into the container; it follows the board's redraws. */
export async function open3dView(container: HTMLElement, board: Board, topology: Topology, box: HTMLElement | null, clickable: boolean): Promise<View3d> {
  return mountOn(await import('../view3d/index'), container, board, topology, box, clickable);
}

const previews = new WeakMap<HTMLElement, { seq: number; view: View3d | null }>();

/** The editor's live preview: the 3-D view of a board that is made anew
 * on each edit (the last call wins; the one before is disposed). */
export function preview3d(container: HTMLElement, board: Board, topology: Topology, box: HTMLElement | null): void {
  const slot = previews.get(container) ?? { seq: 0, view: null };
  previews.set(container, slot);
  const seq = ++slot.seq;
  void import('../view3d/index').then((mod) => {
    if (seq !== slot.seq) return;
    slot.view?.dispose();
    slot.view = mountOn(mod, container, board, topology, box, false);
  });
}
