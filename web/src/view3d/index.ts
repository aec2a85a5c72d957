// The 3-D view (loaded lazily: its own chunk with three.js): the position
// on the surface itself. The cells are a texture on a mesh of the surface;
// the pieces are small models standing on their cells along the surface's
// normal; the cell names are upright labels that face the camera (so they
// never read mirrored, even on the one-sided strip and bottle). A click on
// a cell goes to the page's board, which selects, shows the legal targets
// (drawn here too) and moves exactly as a click on the flat board does.
// The camera first frames the whole surface (its bounding sphere), then
// orbits and zooms. It draws only on demand, so it costs nothing while the
// engine thinks.
import * as THREE from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { Topology } from '../board/config';
import { FOOT, TALLEST, pieceKit } from './pieces3d';
import { boundingSphere, cellPlaces, firstView, fitDistance, layoutCells, makeSurface, type CellPlace, type Surface, type Vec3 } from './surfaces';

export interface View3d {
  update(): void;
  dispose(): void;
}

/** What the view shows and where its clicks go (the page's board). */
export interface Host3d {
  topology: Topology;
  placement(): string[];
  lastMove(): [number, number] | null;
  /** the cell picked on the board, and its legal targets */
  picked(): number | null;
  targets(): number[];
  /** the checked king's cell */
  check(): number | null;
  /** a click on a cell (null: the view only looks) */
  click: ((cell: number) => void) | null;
  /** the element whose size the canvas takes (the flat board); null: square */
  box: HTMLElement | null;
}

const CELL_PX = 96;
const SEGMENTS = 6;
const FOV = 38;
/** the least height of a cell name's tag on the screen, in CSS pixels */
const LABEL_PX = 17;

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

/** A cell name on a light tag, drawn upright into its own small texture. */
function labelTexture(text: string): THREE.CanvasTexture {
  const c = document.createElement('canvas');
  c.width = 128;
  c.height = 64;
  const ctx = c.getContext('2d')!;
  ctx.fillStyle = '#fffcf4';
  ctx.beginPath();
  ctx.roundRect(4, 6, 120, 52, 16);
  ctx.fill();
  ctx.fillStyle = '#2a241c';
  ctx.font = 'bold 40px sans-serif';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText(text, 64, 34);
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

/** Is WebGL drawn by the processor (SwiftShader, llvmpipe)? Smoothing the
 * edges there costs more than the picture gains. */
let software: boolean | undefined; // asked once a page
function softwareGl(): boolean {
  software ??= probeSoftwareGl();
  return software;
}

function probeSoftwareGl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return /swiftshader|llvmpipe|software/i.test(name);
  } catch {
    return false;
  }
}

const v3 = (a: Vec3) => new THREE.Vector3(a[0], a[1], a[2]);

export function mount3d(container: HTMLElement, host: Host3d): View3d {
  const t = host.topology;
  const surface = makeSurface(t);
  const grid = layoutCells(t);
  const rows = grid.length;
  const cols = grid[0].length;
  const places = cellPlaces(surface, grid);
  const placeOf = new Map<number, CellPlace>(places.map((p) => [p.cell, p]));
  // the strip is an open sheet seen from both faces: pieces and names on both
  const twoFaced = surface.kind === 'mobius';
  const seeThrough = surface.kind === 'klein';
  // a foot's radius as a part of the cell's side (the bottle's thin tube: smaller)
  const grow = seeThrough ? 0.32 : 0.4;

  const caption = document.createElement('p');
  caption.className = 'tc-3d-caption';
  caption.textContent = `${surface.description}${seeThrough ? ' The surface is drawn see-through; the purple circle is where it passes through itself.' : ''} Drag to turn, scroll or pinch to zoom${host.click ? ', click a piece and then a cell to move' : ''}.`;
  const canvas = document.createElement('canvas');
  canvas.className = 'tc-3d-canvas';
  canvas.setAttribute('aria-label', `the board on the ${surface.kind} in 3-D`);
  container.setAttribute('data-surface', surface.kind);
  container.append(canvas, caption);

  let renderer: THREE.WebGLRenderer;
  try {
    renderer = new THREE.WebGLRenderer({ canvas, antialias: !softwareGl(), preserveDrawingBuffer: true });
  } catch (e) {
    caption.textContent = `The 3-D view needs WebGL, which this browser does not offer (${(e as Error).message}).`;
    canvas.remove();
    return { update() {}, dispose() {} };
  }
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
  const scene = new THREE.Scene();
  scene.background = new THREE.Color('#f4f1ea');
  const camera = new THREE.PerspectiveCamera(FOV, 1, 0.1, 200);

  // ---- the cells: one texture, a cell per (row, column) of the walked grid
  const tex = document.createElement('canvas');
  tex.width = cols * CELL_PX;
  tex.height = rows * CELL_PX;
  const tctx = tex.getContext('2d')!;
  const texture = new THREE.CanvasTexture(tex);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.anisotropy = 4;
  const drawCells = () => {
    const last = new Set(host.lastMove() ?? []);
    const picked = host.picked();
    const targets = new Set(host.targets());
    const check = host.check();
    const pl = host.placement();
    for (const p of places) {
      const x = p.cell % t.width;
      const y = Math.floor(p.cell / t.width);
      const dark = (x + y) % 2 === 0;
      const px = p.col * CELL_PX;
      const py = (rows - 1 - p.row) * CELL_PX;
      let fill = dark ? '#b58863' : '#f0d9b5';
      if (last.has(p.cell)) fill = dark ? '#aaa23a' : '#cdd26a';
      if (p.cell === picked) fill = dark ? '#6f9bc2' : '#a9c8e6';
      if (p.cell === check) fill = '#e0533f';
      tctx.fillStyle = fill;
      tctx.fillRect(px, py, CELL_PX, CELL_PX);
      if (targets.has(p.cell)) {
        tctx.fillStyle = 'rgba(20, 85, 30, 0.55)';
        tctx.strokeStyle = 'rgba(20, 85, 30, 0.6)';
        if (pl[p.cell]) {
          tctx.lineWidth = 9;
          tctx.strokeRect(px + 5, py + 5, CELL_PX - 10, CELL_PX - 10);
        } else {
          tctx.beginPath();
          tctx.arc(px + CELL_PX / 2, py + CELL_PX / 2, CELL_PX * 0.17, 0, Math.PI * 2);
          tctx.fill();
        }
      }
    }
    // the joined edges of the walk at u = 0/1: the twist line red, a fold green
    if (t.ranks === 'twist' || t.ranks === 'fold') {
      tctx.fillStyle = t.ranks === 'twist' ? '#c0392b' : '#2e8b57';
      tctx.fillRect(0, 0, tex.width, 5);
      tctx.fillRect(0, tex.height - 5, tex.width, 5);
    }
    texture.needsUpdate = true;
  };
  const geometry = surfaceGeometry(surface, rows, cols);
  const surfaceMats: THREE.MeshStandardMaterial[] = [];
  const surfaceMeshes: THREE.Mesh[] = [];
  if (seeThrough) {
    // the inner sheets first, then the near ones, neither hiding the other
    for (const side of [THREE.BackSide, THREE.FrontSide]) {
      const m = new THREE.MeshStandardMaterial({ map: texture, side, roughness: 0.85, transparent: true, opacity: 0.62, depthWrite: false });
      surfaceMats.push(m);
      surfaceMeshes.push(new THREE.Mesh(geometry, m));
    }
  } else {
    const m = new THREE.MeshStandardMaterial({ map: texture, side: THREE.DoubleSide, roughness: 0.85 });
    surfaceMats.push(m);
    surfaceMeshes.push(new THREE.Mesh(geometry, m));
  }
  surfaceMeshes.forEach((m, i) => {
    m.renderOrder = i;
    scene.add(m);
  });
  const extras: { geometry: THREE.BufferGeometry; material: THREE.Material }[] = [];
  const ring = surface.selfIntersection?.();
  if (ring) {
    // where the bottle passes through itself: a thin dark circle
    const m = new THREE.Mesh(
      new THREE.TorusGeometry(ring.radius, ring.radius * 0.025, 8, 160),
      new THREE.MeshBasicMaterial({ color: '#5b2a86' }),
    );
    m.position.set(...ring.centre);
    scene.add(m);
    extras.push(m);
  }
  scene.add(new THREE.HemisphereLight('#ffffff', '#8a8272', 2.0));
  const sun = new THREE.DirectionalLight('#ffffff', 1.6);
  scene.add(sun);

  // ---- the cell names: upright labels a little off the surface, at a corner of the cell
  const labels = new THREE.Group();
  const labelTextures: THREE.CanvasTexture[] = [];
  const labelMats: THREE.SpriteMaterial[] = [];
  const labelOf = new Map<number, THREE.Sprite[]>();
  for (const p of places) {
    const tx = labelTexture(t.cellName(p.cell));
    const mat = new THREE.SpriteMaterial({ map: tx, depthTest: true, depthWrite: false, transparent: true });
    labelTextures.push(tx);
    labelMats.push(mat);
    const u = (p.row + 0.16) / rows;
    const v = (p.col + 0.3) / cols;
    const at = v3(surface.point(u, v));
    const h = Math.min(0.3 * Math.sqrt(p.along * p.across), 0.35 * p.across);
    for (const face of twoFaced ? [1, -1] : [1]) {
      const sp = new THREE.Sprite(mat);
      sp.scale.set(2 * h, h, 1);
      sp.userData.height = h;
      sp.position.copy(at).addScaledVector(v3(p.normal), face * h * 0.7);
      sp.renderOrder = 3;
      sp.userData.cell = p.cell;
      sp.userData.normal = v3(p.normal).multiplyScalar(face);
      labels.add(sp);
      labelOf.set(p.cell, [...(labelOf.get(p.cell) ?? []), sp]);
    }
  }
  scene.add(labels);

  // ---- the pieces: models standing on their cells along the normal
  const kit = pieceKit();
  const pieces = new THREE.Group();
  scene.add(pieces);
  const stand = (letter: string, p: CellPlace, face: number): THREE.Group => {
    const g = kit.make(letter);
    const up = v3(p.normal).multiplyScalar(face);
    // white's pieces face growing ranks, black's the other way
    const fwd = v3(p.forward).multiplyScalar(letter === letter.toUpperCase() ? 1 : -1);
    fwd.addScaledVector(up, -fwd.dot(up)).normalize();
    const right = new THREE.Vector3().crossVectors(up, fwd);
    g.quaternion.setFromRotationMatrix(new THREE.Matrix4().makeBasis(right, up, fwd));
    // the foot fills at most 80% of each side of the cell, so no two
    // touch; on long thin cells (the strip's) it stretches a little along them
    const kx = (grow * p.across) / FOOT;
    const kz = (grow * Math.min(p.along, 1.6 * p.across)) / FOOT;
    g.scale.set(kx, Math.sqrt(kx * kz), kz);
    g.position.copy(v3(p.centre)).addScaledVector(up, 0.01 * p.size);
    g.traverse((o) => (o.userData.cell = p.cell));
    return g;
  };
  const drawPieces = () => {
    pieces.clear();
    host.placement().forEach((letter, cell) => {
      const p = placeOf.get(cell);
      if (!letter || !p) return;
      for (const face of twoFaced ? [1, -1] : [1]) {
        const g = stand(letter, p, face);
        if (face < 0) g.userData.under = true;
        pieces.add(g);
      }
    });
  };

  // ---- framing: the bounding sphere of the surface and the tallest pieces
  const pts: Vec3[] = [];
  for (let i = 0; i <= rows * 2; i++) for (let j = 0; j <= cols * 2; j++) pts.push(surface.point(i / (rows * 2), j / (cols * 2)));
  for (const p of places) {
    const k = ((grow * Math.max(p.along, p.across)) / FOOT) * TALLEST;
    for (const face of twoFaced ? [1, -1] : [1]) pts.push(p.centre.map((x, i) => x + face * k * p.normal[i]) as Vec3);
  }
  const sphere = boundingSphere(pts);
  const centre = v3(sphere.centre);
  const view = firstView(surface.kind);
  const sample = pts.map(v3);
  const inFrame = () => {
    camera.updateMatrixWorld();
    const q = new THREE.Vector3();
    return sample.every((p) => {
      q.copy(p).project(camera);
      return Math.abs(q.x) <= 0.94 && Math.abs(q.y) <= 0.94 && q.z < 1;
    });
  };
  const from = new THREE.Vector3();
  /** the sample points' box on the screen (-1..1 both ways) */
  const screenBox = () => {
    camera.updateMatrixWorld();
    const box = new THREE.Box2();
    const q = new THREE.Vector3();
    for (const p of sample) box.expandByPoint(new THREE.Vector2(q.copy(p).project(camera).x, q.y));
    return box;
  };
  const place = (d: number) => {
    camera.position.copy(centre).addScaledVector(from, d);
    camera.lookAt(centre);
  };
  /** the nearest distance along `from` at which the whole surface is in the frame */
  const fit = (): number => {
    // the sphere always fits; then come closer while every point still does
    let far = fitDistance(sphere.radius, FOV, camera.aspect);
    let near = sphere.radius * 0.5;
    for (let i = 0; i < 18; i++) {
      const mid = (near + far) / 2;
      place(mid);
      if (inFrame()) far = mid;
      else near = mid;
    }
    return far;
  };
  const frame = () => {
    camera.up.copy(v3(view.up));
    const reach = fitDistance(sphere.radius, FOV, camera.aspect);
    camera.near = Math.max(0.01, sphere.radius * 0.02);
    camera.far = reach + sphere.radius * 6;
    camera.updateProjectionMatrix();
    // from the surface's own side, or higher up where that shows it larger
    // (a ring in a tall frame is best seen from above): the tilt whose
    // picture covers most of the frame
    let best = { d: Infinity, tilt: 0, area: 0 };
    for (const tilt of camera.aspect < 0.85 ? [0, 0.5, 1] : [0]) {
      from.copy(v3(view.from)).addScaledVector(v3(view.up), tilt).normalize();
      const d = fit();
      place(d);
      const area = screenBox().getSize(new THREE.Vector2());
      if (area.x * area.y > best.area * 1.1) best = { d, tilt, area: area.x * area.y };
    }
    from.copy(v3(view.from)).addScaledVector(v3(view.up), best.tilt).normalize();
    place(best.d);
    // look at the middle of what is on the screen, not of the sphere, and fit again
    const mid = screenBox().getCenter(new THREE.Vector2());
    const depth = centre.clone().project(camera).z;
    centre.copy(new THREE.Vector3(mid.x, mid.y, depth).unproject(camera));
    const d = fit();
    place(d);
    controls.minDistance = sphere.radius * 0.3;
    controls.maxDistance = d * 3;
    controls.target.copy(centre);
    controls.update();
  };
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = false;

  // a name shows where its cell's face turns towards the camera (the strip's
  // two faces each have theirs; the see-through bottle's far sheets none),
  // and is never under LABEL_PX tall on the screen (up to twice its size)
  const toCam = new THREE.Vector3();
  const faceLabels = () => {
    const perUnit = renderer.domElement.clientHeight / (2 * Math.tan((FOV * Math.PI) / 360));
    for (const sp of labels.children) {
      toCam.copy(camera.position).sub(sp.position);
      sp.visible = toCam.dot(sp.userData.normal as THREE.Vector3) > 0;
      const h0 = sp.userData.height as number;
      const h = Math.min(2 * h0, Math.max(h0, (LABEL_PX * toCam.length()) / perUnit));
      sp.scale.set(2 * h, h, 1);
    }
  };
  const render = () => {
    faceLabels();
    sun.position.copy(camera.position).add(new THREE.Vector3(0, 0, sphere.radius));
    renderer.render(scene, camera);
  };
  // a drag sends more pointer events than the screen shows frames: one draw a frame
  let queued = 0;
  const renderSoon = () => {
    if (!queued) queued = requestAnimationFrame(() => {
      queued = 0;
      render();
    });
  };
  controls.addEventListener('change', renderSoon);

  // ---- clicks: a press and release without a drag between them
  const ray = new THREE.Raycaster();
  const cellAtPixel = (x: number, y: number): number | null => {
    const r = canvas.getBoundingClientRect();
    ray.setFromCamera(new THREE.Vector2(((x - r.left) / r.width) * 2 - 1, -((y - r.top) / r.height) * 2 + 1), camera);
    const hits = ray.intersectObjects([pieces, surfaceMeshes[surfaceMeshes.length - 1]], true);
    for (const h of hits) {
      if (h.object.userData.cell !== undefined) return h.object.userData.cell as number;
      if (h.uv) {
        const row = Math.min(rows - 1, Math.max(0, Math.floor(h.uv.y * rows)));
        const col = Math.min(cols - 1, Math.max(0, Math.floor(h.uv.x * cols)));
        return grid[row][col].cell;
      }
    }
    return null;
  };
  let down: { x: number; y: number } | null = null;
  const onDown = (e: PointerEvent) => {
    down = { x: e.clientX, y: e.clientY };
  };
  const onUp = (e: PointerEvent) => {
    if (!down || !host.click) return;
    const moved = Math.hypot(e.clientX - down.x, e.clientY - down.y);
    down = null;
    if (moved > 5) return;
    const cell = cellAtPixel(e.clientX, e.clientY);
    if (cell !== null) host.click(cell);
  };
  canvas.addEventListener('pointerdown', onDown);
  canvas.addEventListener('pointerup', onUp);

  // ---- size: the flat board's box (or a square as wide as the container)
  let framed = false;
  let lastSize = '';
  const resize = () => {
    const b = host.box?.querySelector('svg')?.getBoundingClientRect() ?? host.box?.getBoundingClientRect();
    let w = Math.round(b && b.width > 50 ? b.width : Math.max(200, container.clientWidth));
    let h = Math.round(b && b.height > 50 ? b.height : w);
    w = Math.max(200, w);
    h = Math.max(200, Math.min(h, Math.max(320, window.innerHeight - 40)));
    const key = `${w}x${h}`;
    if (key === lastSize) return;
    lastSize = key;
    renderer.setSize(w, h, false);
    canvas.style.width = `${w}px`;
    container.style.width = `${w}px`;
    canvas.style.height = `${h}px`;
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    if (!framed) {
      frame();
      framed = true;
    }
    render();
  };
  const observer = new ResizeObserver(resize);
  observer.observe(container);
  if (host.box) observer.observe(host.box);

  const update = () => {
    drawCells();
    drawPieces();
    render();
    container.setAttribute('data-pieces', String(pieces.children.filter((c) => !c.userData.under).length));
  };
  update();
  resize();

  // ---- a small window for the tests and the bench (element property tc3d)
  const toScreen = (p: THREE.Vector3) => {
    const q = p.clone().project(camera);
    const r = canvas.getBoundingClientRect();
    return { x: r.left + ((q.x + 1) / 2) * r.width, y: r.top + ((1 - q.y) / 2) * r.height, depth: q.z };
  };
  Object.assign(container, {
    tc3d: {
      /** a point of the cell on the screen (page pixels) where a click lands
       * on it, as a person would click its visible part: the centre, else
       * the first of a 5x5 grid over the cell; hits false when none does */
      cell(name: string) {
        const p = places.find((q) => t.cellName(q.cell) === name);
        if (!p) return null;
        const at = (du: number, dv: number) => toScreen(v3(surface.point((p.row + 0.5 + du) / rows, (p.col + 0.5 + dv) / cols)));
        const centre = at(0, 0);
        for (const du of [0, -0.35, 0.35, -0.2, 0.2])
          for (const dv of [0, -0.35, 0.35, -0.2, 0.2]) {
            const s = at(du, dv);
            if (cellAtPixel(s.x, s.y) === p.cell) return { ...s, hits: true };
          }
        return { ...centre, hits: false };
      },
      cells: () => places.map((p) => ({ name: t.cellName(p.cell), ...toScreen(v3(p.centre)) })),
      /** every piece model: its cell, letter and the side it stands on */
      pieces: () =>
        pieces.children.map((g) => ({ cell: t.cellName(g.userData.cell as number), letter: g.userData.letter as string, under: !!g.userData.under })),
      /** the label's screen rectangle and its texture's reading direction on the screen */
      label(name: string) {
        const p = places.find((q) => t.cellName(q.cell) === name);
        // the one that shows (the strip has one on each face)
        const list = (p && labelOf.get(p.cell)) ?? [];
        const sp = list.find((x) => x.visible) ?? list[0];
        if (!sp) return null;
        sp.updateMatrixWorld();
        // the sprite's corners as the sprite shader places them: in view space, around its centre
        const mv = sp.position.clone().applyMatrix4(camera.matrixWorldInverse);
        const corner = (sx: number, sy: number) =>
          toScreen(new THREE.Vector3(mv.x + sx * sp.scale.x * 0.5, mv.y + sy * sp.scale.y * 0.5, mv.z).applyMatrix4(camera.matrixWorld));
        return { left: corner(-1, 0), right: corner(1, 0), top: corner(0, 1), bottom: corner(0, -1), visible: sp.visible };
      },
      /** the picked cell and the targets drawn for it */
      picked: () => {
        const c = host.picked();
        return { cell: c === null ? null : t.cellName(c), targets: host.targets().map((x) => t.cellName(x)) };
      },
      /** turn the camera about the target by an angle (radians) and draw */
      turn(a: number) {
        const off = camera.position.clone().sub(controls.target);
        off.applyAxisAngle(camera.up, a);
        camera.position.copy(controls.target).add(off);
        camera.lookAt(controls.target);
        render();
      },
      canvas: () => canvas.getBoundingClientRect().toJSON(),
      camera: () => ({ position: camera.position.toArray(), target: controls.target.toArray(), up: camera.up.toArray(), aspect: camera.aspect }),
    },
  });

  return {
    update,
    dispose() {
      cancelAnimationFrame(queued);
      observer.disconnect();
      controls.dispose();
      canvas.removeEventListener('pointerdown', onDown);
      canvas.removeEventListener('pointerup', onUp);
      geometry.dispose();
      for (const m of surfaceMats) m.dispose();
      for (const x of extras) {
        x.geometry.dispose();
        x.material.dispose();
      }
      texture.dispose();
      for (const m of labelMats) m.dispose();
      for (const x of labelTextures) x.dispose();
      kit.dispose();
      renderer.dispose();
      renderer.forceContextLoss();
      container.replaceChildren();
      container.removeAttribute('data-surface');
      container.removeAttribute('data-pieces');
      container.style.width = '';
      delete (container as unknown as { tc3d?: unknown }).tc3d;
    },
  };
}
