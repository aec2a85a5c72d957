// The size of the board on the game page (/game/<id>, pages/game.ts).
//
// Wide screens: the board fills the window's height below the header
// (as on lichess), the table beside it (bars, status, moves, buttons) as
// tall as the board. Phones: the board shrinks until what must be seen
// with it (the bar below it and the buttons) ends on the screen too.

/** The side table's least width beside the board. */
const SIDE_MIN = 280;
const GAP = 16;
/** Room kept below the last thing that must be seen. */
const MARGIN = 8;

/** Sizes the board of `main` (setting --tc-gp-board-w on it; the CSS
 * gives the board column that width) and the table's height
 * (--tc-gp-table-h). `below`: elements under the board that must stay
 * on the screen with it (phones); none on a wide screen. */
export function fitGamePage(main: HTMLElement, boardCol: HTMLElement, below: HTMLElement[]): void {
  const svg = boardCol.querySelector<SVGSVGElement>('.tc-board-svg svg');
  if (!svg) return;
  const vb = svg.viewBox.baseVal;
  const aspect = vb && vb.height ? vb.width / vb.height : 1;
  const narrow = below.length > 0;
  const maxW = narrow ? main.clientWidth : main.clientWidth - SIDE_MIN - GAP;
  // two passes: the second sees the layout the first one made (a toolbar
  // that wraps on a narrower board moves the board down)
  for (let pass = 0; pass < 2; pass++) {
    const box = svg.getBoundingClientRect();
    if (box.height <= 0) return;
    // everything below the board moves with its bottom edge
    let under = 0;
    for (const e of below) {
      if (!e.isConnected || e.getClientRects().length === 0) continue;
      under = Math.max(under, e.getBoundingClientRect().bottom - box.bottom);
    }
    const top = box.top + window.scrollY;
    const h = Math.max(narrow ? 240 : 320, window.innerHeight - top - under - MARGIN);
    const w = Math.floor(Math.max(160, Math.min(maxW, h * aspect)));
    main.style.setProperty('--tc-gp-board-w', `${w}px`);
    // the table reaches from the board column's top to the board's bottom
    const colTop = boardCol.getBoundingClientRect().top + window.scrollY;
    main.style.setProperty('--tc-gp-table-h', narrow ? 'auto' : `${Math.floor(top - colTop + w / aspect)}px`);
  }
}
