// The pieces as small 3-D models made here in code: a turned profile
// (LatheGeometry) for the pawn, rook, bishop, queen and king, and an
// extruded head on a turned base for the knight. Each model stands on
// y = 0 with its foot inside a circle of radius FOOT and faces +z; the
// view scales it to the cell and turns its y axis along the surface's
// normal. Geometries and the two materials are made once a view.
import * as THREE from 'three';

/** The foot's radius in model units (a cell is 1 wide: room to spare). */
export const FOOT = 0.36;
/** How much taller than their profiles the models stand. */
const STRETCH = 1.3;
/** The tallest model's height (the king), for framing the view. */
export const TALLEST = 1.0 * STRETCH;

type Profile = [number, number][]; // (radius, height) from the foot up

const BASE: Profile = [[0, 0], [0.36, 0], [0.36, 0.06], [0.3, 0.1], [0.24, 0.13]];

const PROFILES: Record<string, Profile> = {
  p: [...BASE, [0.14, 0.18], [0.11, 0.3], [0.17, 0.33], [0.1, 0.36], [0.15, 0.42], [0.16, 0.48], [0.12, 0.54], [0.05, 0.57], [0, 0.575]],
  r: [...BASE, [0.2, 0.2], [0.19, 0.46], [0.25, 0.5], [0.25, 0.62], [0.18, 0.62], [0.18, 0.57], [0, 0.57]],
  b: [...BASE, [0.15, 0.2], [0.1, 0.42], [0.19, 0.45], [0.1, 0.49], [0.15, 0.58], [0.14, 0.68], [0.07, 0.76], [0.04, 0.78], [0.06, 0.81], [0, 0.84]],
  q: [...BASE, [0.17, 0.2], [0.11, 0.52], [0.21, 0.56], [0.12, 0.6], [0.14, 0.7], [0.22, 0.82], [0.16, 0.84], [0.08, 0.86], [0.06, 0.9], [0, 0.92]],
  k: [...BASE, [0.18, 0.2], [0.12, 0.56], [0.22, 0.6], [0.13, 0.64], [0.16, 0.76], [0.2, 0.8], [0, 0.8]],
  n: [...BASE, [0.24, 0.18], [0.2, 0.22], [0, 0.22]],
};

function lathe(profile: Profile): THREE.BufferGeometry {
  const g = new THREE.LatheGeometry(profile.map(([r, h]) => new THREE.Vector2(r, h)), 24);
  g.computeVertexNormals();
  return g;
}

/** The knight's head in profile (x forward, y up), extruded sideways. */
function knightHead(): THREE.BufferGeometry {
  const s = new THREE.Shape();
  const pts: [number, number][] = [
    [-0.2, 0.2], [-0.19, 0.45], [-0.12, 0.62], [-0.04, 0.72], [-0.02, 0.8], [0.04, 0.74], [0.12, 0.7],
    [0.27, 0.55], [0.28, 0.48], [0.2, 0.46], [0.1, 0.48], [0.05, 0.42], [0.13, 0.2],
  ];
  s.moveTo(pts[0][0], pts[0][1]);
  for (const [x, y] of pts.slice(1)) s.lineTo(x, y);
  s.closePath();
  const depth = 0.2;
  const g = new THREE.ExtrudeGeometry(s, { depth, bevelEnabled: true, bevelThickness: 0.03, bevelSize: 0.02, bevelSegments: 1 });
  // the profile lies in x/y: turn it so that its forward (x) is +z, centred across
  g.translate(0, 0, -depth / 2);
  g.rotateY(-Math.PI / 2);
  g.computeVertexNormals();
  return g;
}

/** An ear-shaped cut on the king: a cross of two boxes. */
function kingCross(): THREE.BufferGeometry[] {
  const a = new THREE.BoxGeometry(0.06, 0.2, 0.06);
  a.translate(0, 0.9, 0);
  const b = new THREE.BoxGeometry(0.16, 0.06, 0.06);
  b.translate(0, 0.92, 0);
  return [a, b];
}

export interface PieceKit {
  /** a new model of the piece with this FEN letter */
  make(letter: string): THREE.Group;
  dispose(): void;
}

export function pieceKit(): PieceKit {
  const geoms = new Map<string, THREE.BufferGeometry[]>();
  for (const [k, prof] of Object.entries(PROFILES)) geoms.set(k, [lathe(prof)]);
  geoms.get('n')!.push(knightHead());
  geoms.get('k')!.push(...kingCross());
  for (const list of geoms.values()) for (const geo of list) geo.scale(1, STRETCH, 1);
  const white = new THREE.MeshStandardMaterial({ color: '#f1ebdd', roughness: 0.45, metalness: 0.05 });
  const black = new THREE.MeshStandardMaterial({ color: '#2c2824', roughness: 0.4, metalness: 0.1 });
  return {
    make(letter) {
      const g = new THREE.Group();
      const isWhite = letter === letter.toUpperCase();
      for (const geo of geoms.get(letter.toLowerCase()) ?? []) g.add(new THREE.Mesh(geo, isWhite ? white : black));
      g.userData.letter = letter;
      return g;
    },
    dispose() {
      for (const list of geoms.values()) for (const geo of list) geo.dispose();
      white.dispose();
      black.dispose();
    },
  };
}
