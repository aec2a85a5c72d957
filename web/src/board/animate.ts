// A move shown travelling: the piece glides from cell to cell along the
// path the rules module gives (web/src/lib: movePath), and where the path
// crosses a join (the two cells are not neighbours on the screen) it flies
// out over one edge and comes back in over the other, the way it went on
// the surface. Nothing here knows the rules: it follows the cells given.
import { CELL } from './render';

/** How far apart (in cells) two drawn cells may be and still count as one
 * on-screen step; a knight's leap (two cells in its path) may be further. */
const STEP = 1.5;
const LEAP = 3;
const MS_PER_STEP = 70;

type Point = [number, number];

function spotOf(svg: SVGSVGElement, name: string): Point | null {
  const rect = svg.querySelector(`[data-cell="${name}"] > rect`);
  if (!rect) return null;
  return [Number(rect.getAttribute('x')), Number(rect.getAttribute('y'))];
}

/** Keyframes (offsets from the destination, opacity) along the path. */
export function pathFrames(spots: Point[]): { frames: { x: number; y: number; o: number }[]; jumps: number } {
  const end = spots[spots.length - 1]!;
  const rel = (p: Point, o = 1) => ({ x: p[0] - end[0], y: p[1] - end[1], o });
  const frames = [rel(spots[0]!)];
  let jumps = 0;
  const limit = spots.length === 2 ? LEAP : STEP;
  for (let i = 1; i < spots.length; i++) {
    const a = spots[i - 1]!;
    const b = spots[i]!;
    const far = Math.hypot(b[0] - a[0], b[1] - a[1]) > limit * CELL;
    if (far) {
      jumps++;
      // out along the way it was going, in along the way it goes on
      const before = i >= 2 ? spots[i - 2]! : null;
      const after = i + 1 < spots.length ? spots[i + 1]! : null;
      const unit = (p: Point, q: Point): Point => {
        const d = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
        return [(q[0] - p[0]) / d, (q[1] - p[1]) / d];
      };
      const outDir = before ? unit(before, a) : after ? unit(b, after) : unit(a, b);
      const inDir = after ? unit(b, after) : outDir;
      frames.push(rel([a[0] + outDir[0] * CELL * 0.7, a[1] + outDir[1] * CELL * 0.7], 0));
      frames.push(rel([b[0] - inDir[0] * CELL * 0.7, b[1] - inDir[1] * CELL * 0.7], 0));
    }
    frames.push(rel(b));
  }
  return { frames, jumps };
}

/** Animates the piece now drawn on the path's last cell. */
export function animatePath(root: HTMLElement, names: string[]): void {
  const svg = root.querySelector<SVGSVGElement>('.tc-board-svg svg');
  if (!svg || names.length < 2) return;
  const spots = names.map((n) => spotOf(svg, n));
  if (spots.some((p) => !p)) return; // a cell out of the window (rolled view)
  const end = spots[spots.length - 1]!;
  const piece = Array.from(svg.querySelectorAll<SVGUseElement>('.pieces use')).find(
    (u) => Number(u.getAttribute('x')) === end[0] + 6 && Number(u.getAttribute('y')) === end[1] + 6,
  );
  if (!piece) return;
  const { frames, jumps } = pathFrames(spots as Point[]);
  root.setAttribute('data-animation', names.join(' '));
  root.setAttribute('data-animation-jumps', String(jumps));
  if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
  const g = document.createElementNS('http://www.w3.org/2000/svg', 'g');
  g.setAttribute('class', 'tc-moving');
  g.append(piece.cloneNode(true));
  svg.append(g);
  piece.style.opacity = '0';
  const steps = Math.max(names.length - 1, 1);
  const anim = g.animate(
    frames.map((f) => ({ transform: `translate(${f.x}px, ${f.y}px)`, opacity: f.o })),
    { duration: Math.min(600, Math.max(180, steps * MS_PER_STEP)), easing: 'ease-in-out' },
  );
  const done = () => {
    g.remove();
    piece.style.opacity = '';
  };
  anim.onfinish = done;
  anim.oncancel = done;
}
