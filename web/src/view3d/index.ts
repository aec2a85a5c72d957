// The 3-D view (loaded lazily: its own chunk with three.js): the position
// on the surface itself. The cells are a texture on a mesh of the surface,
// the pieces stand on their cells, the camera orbits and zooms, and the
// view redraws when the board changes. It draws only on demand, so it
// costs nothing while the engine thinks.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Topology } from '../board/config';
import { SHAPES, pieceId } from '../board/pieces';
import { layoutCells, makeSurface, type Surface } from './surfaces';

export interface View3d {
  update(): void;
  dispose(): void;
}

const CELL_PX = 96;
const SEGMENTS = 6;

function normalAt(s: Surface, u: number, v: number): THREE.Vector3 {
  const e = 1e-3;
  const p = new THREE.Vector3(...s.point(u, v));
  const du = new THREE.Vector3(...s.point(Math.min(1, u + e), v)).sub(new THREE.Vector3(...s.point(Math.max(0, u - e), v)));
  const dv = new THREE.Vector3(...s.point(u, Math.min(1, v + e))).sub(new THREE.Vector3(...s.point(u, Math.max(0, v - e))));
  const n = new THREE.Vector3().crossVectors(dv, du).normalize();
  const inside = s.inside(u, v);
  if (inside && n.dot(p.clone().sub(new THREE.Vector3(...inside))) < 0) n.negate();
  return n;
}

function surfaceGeometry(s: Surface, rows: number, cols: number): THREE.BufferGeometry {
  const nu = rows * SEGMENTS;
  const nv = cols * SEGMENTS;
  const pos: number[] = [];
  const uv: number[] = [];
  const index: number[] = [];
  for (let i = 0; i <= nu; i++) {
    for (let j = 0; j <= nv; j++) {
      const u = i / nu;
      const v = j / nv;
      pos.push(...s.point(u, v));
      uv.push(v, u);
    }
  }
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const a = i * (nv + 1) + j;
      const b = a + 1;
      const c = a + nv + 1;
      const d = c + 1;
      index.push(a, b, d, a, d, c);
    }
  }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  g.setAttribute('uv', new THREE.Float32BufferAttribute(uv, 2));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}

function pieceTexture(letter: string): THREE.CanvasTexture {
  const c = document.createElement('canvas');
  c.width = c.height = 128;
  const ctx = c.getContext('2d')!;
  ctx.scale(1.28, 1.28);
  const id = pieceId(letter);
  const white = id[0] === 'w';
  const path = new Path2D(SHAPES[id[1]]);
  ctx.fillStyle = white ? '#fbfaf5' : '#26231f';
  ctx.strokeStyle = white ? '#26231f' : '#e9e4d8';
  ctx.lineWidth = 5;
  ctx.lineJoin = 'round';
  ctx.fill(path, 'evenodd');
  ctx.stroke(path);
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

/** The texture reads the right way round from the side whose normal is
 * dP/dv x dP/du; where that side faces inwards, mirror the map in v (a
 * mirror image glues the same way) so that the cell names read from outside. */
function readableOutside(s: Surface): Surface {
  const inside = s.inside(0.5, 0.5);
  if (!inside) return s;
  const e = 1e-3;
  const p = new THREE.Vector3(...s.point(0.5, 0.5));
  const du = new THREE.Vector3(...s.point(0.5 + e, 0.5)).sub(p);
  const dv = new THREE.Vector3(...s.point(0.5, 0.5 + e)).sub(p);
  const n = new THREE.Vector3().crossVectors(dv, du);
  if (n.dot(p.clone().sub(new THREE.Vector3(...inside))) >= 0) return s;
  return { ...s, point: (u, v) => s.point(u, 1 - v), inside: (u, v) => s.inside(u, 1 - v) };
}

/** The size of a cell at (u, v): the shorter of its two sides. */
function cellSize(s: Surface, u: number, v: number, rows: number, cols: number): number {
  const a = new THREE.Vector3(...s.point(u - 0.5 / rows, v));
  const b = new THREE.Vector3(...s.point(u + 0.5 / rows, v));
  const c = new THREE.Vector3(...s.point(u, v - 0.5 / cols));
  const d = new THREE.Vector3(...s.point(u, v + 0.5 / cols));
  return Math.min(a.distanceTo(b), c.distanceTo(d));
}

export function mount3d(
  container: HTMLElement,
  t: Topology,
  placement: () => string[],
  lastMove: () => [number, number] | null,
): View3d {
  const surface = readableOutside(makeSurface(t));
  const grid = layoutCells(t);
  const rows = grid.length;
  const cols = grid[0].length;
  const at = new Map<number, [number, number]>();
  grid.forEach((row, r) => row.forEach((p, c) => at.set(p.cell, [r, c])));

  const caption = document.createElement('p');
  caption.className = 'tc-3d-caption';
  caption.textContent = `${surface.description} Drag to turn, scroll or pinch to zoom.`;
  const canvas = document.createElement('canvas');
  canvas.className = 'tc-3d-canvas';
  container.setAttribute('data-surface', surface.kind);
  container.append(canvas, caption);

  let renderer: THREE.WebGLRenderer;
  try {
    renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  } catch (e) {
    caption.textContent = `The 3-D view needs WebGL, which this browser does not offer (${(e as Error).message}).`;
    canvas.remove();
    return { update() {}, dispose() {} };
  }
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color('#f4f1ea');
  const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 200);

  // The cells: one texture, a cell per (row, column) of the walked grid.
  const tex = document.createElement('canvas');
  tex.width = cols * CELL_PX;
  tex.height = rows * CELL_PX;
  const tctx = tex.getContext('2d')!;
  const texture = new THREE.CanvasTexture(tex);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  const drawCells = () => {
    const last = new Set(lastMove() ?? []);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const cell = grid[r][c].cell;
        const x = cell % t.width;
        const y = Math.floor(cell / t.width);
        const dark = (x + y) % 2 === 0;
        const px = c * CELL_PX;
        const py = (rows - 1 - r) * CELL_PX;
        tctx.fillStyle = last.has(cell) ? (dark ? '#aaa23a' : '#cdd26a') : dark ? '#b58863' : '#f0d9b5';
        tctx.fillRect(px, py, CELL_PX, CELL_PX);
        tctx.fillStyle = dark ? '#f0d9b5' : '#946f51';
        tctx.font = `${CELL_PX / 5}px sans-serif`;
        tctx.fillText(t.cellName(cell), px + 5, py + CELL_PX - 7);
      }
    }
    // Joined edges of the walk: the twist seam (u = 0/1) in red.
    if (t.ranks === 'twist') {
      tctx.fillStyle = '#c0392b';
      tctx.fillRect(0, 0, tex.width, 4);
      tctx.fillRect(0, tex.height - 4, tex.width, 4);
    }
    if (t.ranks === 'fold') {
      tctx.fillStyle = '#2e8b57';
      tctx.fillRect(0, 0, tex.width, 4);
      tctx.fillRect(0, tex.height - 4, tex.width, 4);
    }
    texture.needsUpdate = true;
  };
  const mesh = new THREE.Mesh(
    surfaceGeometry(surface, rows, cols),
    new THREE.MeshStandardMaterial({ map: texture, side: THREE.DoubleSide, roughness: 0.85 }),
  );
  scene.add(mesh);
  scene.add(new THREE.HemisphereLight('#ffffff', '#8a8272', 2.2));
  const sun = new THREE.DirectionalLight('#ffffff', 1.2);
  sun.position.set(5, 8, 10);
  scene.add(sun);

  // The pieces: sprites standing on their cells, off the surface along its normal.
  const textures = new Map<string, THREE.CanvasTexture>();
  const materials = new Map<string, THREE.SpriteMaterial>();
  const material = (letter: string) => {
    let m = materials.get(letter);
    if (!m) {
      const tx = pieceTexture(letter);
      textures.set(letter, tx);
      m = new THREE.SpriteMaterial({ map: tx, depthTest: true });
      materials.set(letter, m);
    }
    return m;
  };
  const pieces = new THREE.Group();
  scene.add(pieces);
  // a little wider than a narrow cell (the strip's are long and thin)
  const grow = surface.kind === 'mobius' ? 1.3 : 0.95;
  const drawPieces = () => {
    pieces.clear();
    const pl = placement();
    pl.forEach((letter, cell) => {
      if (!letter) return;
      const rc = at.get(cell);
      if (!rc) return;
      const u = (rc[0] + 0.5) / rows;
      const v = (rc[1] + 0.5) / cols;
      const p = new THREE.Vector3(...surface.point(u, v));
      const n = normalAt(surface, u, v);
      // The strip is one-sided and open: a cell is seen from either face of
      // the sheet, and the piece stands on both. (The bottle's figure-8 tube
      // is closed: its pieces stand outside.)
      if (surface.kind === 'mobius') {
        const under = new THREE.Sprite(material(letter));
        const sz = Math.min(0.9, grow * cellSize(surface, u, v, rows, cols));
        under.scale.set(sz, sz, sz);
        under.center.set(0.5, 0.25);
        under.position.copy(p).addScaledVector(n, -sz * 0.3);
        under.userData.under = true;
        pieces.add(under);
      }
      const sprite = new THREE.Sprite(material(letter));
      const size = Math.min(0.9, grow * cellSize(surface, u, v, rows, cols));
      sprite.scale.set(size, size, size);
      // stand on the cell: the sprite's foot at the cell, a little off the surface
      sprite.center.set(0.5, 0.25);
      sprite.position.copy(p.addScaledVector(n, size * 0.3));
      pieces.add(sprite);
    });
  };

  // Frame the whole surface.
  const box = new THREE.Box3().setFromObject(mesh);
  const centre = box.getCenter(new THREE.Vector3());
  const radius = box.getSize(new THREE.Vector3()).length() / 2;
  camera.position.copy(centre).add(new THREE.Vector3(0.35, -0.9, 0.75).normalize().multiplyScalar(radius * 2.6));
  camera.up.set(0, 0, 1);
  if (surface.kind === 'plane' || surface.kind === 'cylinder-files' || surface.kind === 'pillow') {
    camera.up.set(0, 1, 0);
    camera.position.copy(centre).add(new THREE.Vector3(0.3, -0.5, 1).normalize().multiplyScalar(radius * 2.6));
  }
  if (surface.kind === 'mobius') {
    camera.position.copy(centre).add(new THREE.Vector3(0.2, -0.7, 1).normalize().multiplyScalar(radius * 2.4));
  }
  if (surface.kind === 'cylinder-ranks') {
    // the axis runs along x: look at the side, a little from below rank 1
    camera.up.set(0, 0, 1);
    camera.position.copy(centre).add(new THREE.Vector3(0.15, -1, 0.45).normalize().multiplyScalar(radius * 3.3));
  }
  camera.lookAt(centre);
  const controls = new OrbitControls(camera, canvas);
  controls.target.copy(centre);
  controls.enableDamping = false;
  controls.update();

  const render = () => renderer.render(scene, camera);
  controls.addEventListener('change', render);
  const resize = () => {
    const w = Math.max(200, container.clientWidth);
    const h = Math.max(240, Math.min(w, 560));
    renderer.setSize(w, h, false);
    canvas.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);

  const update = () => {
    drawCells();
    drawPieces();
    render();
    container.setAttribute('data-pieces', String(pieces.children.filter((c) => !c.userData.under).length));
  };
  update();
  resize();
  return {
    update,
    dispose() {
      observer.disconnect();
      controls.dispose();
      mesh.geometry.dispose();
      (mesh.material as THREE.Material).dispose();
      texture.dispose();
      for (const m of materials.values()) m.dispose();
      for (const x of textures.values()) x.dispose();
      renderer.dispose();
      container.replaceChildren();
      container.removeAttribute('data-surface');
    },
  };
}
