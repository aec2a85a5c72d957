// Piece drawings: plain silhouettes in a 100x100 box, drawn for this
// project (no fonts, no downloaded sets). White pieces are light with a
// dark outline, black pieces dark with a light outline.

const BASE = 'M22 88 H78 V80 Q78 74 70 74 H30 Q22 74 22 80 Z';

export const SHAPES: Record<string, string> = {
  p: `${BASE} M36 74 L42 52 Q32 47 34 37 Q37 26 50 26 Q63 26 66 37 Q68 47 58 52 L64 74 Z`,
  r: `${BASE} M30 74 L33 40 H67 L70 74 Z M28 40 V22 H37 V29 H45 V22 H55 V29 H63 V22 H72 V40 Z`,
  n: `${BASE} M30 74 Q30 56 44 46 Q36 48 28 52 Q20 48 24 40 Q34 26 44 20 L46 12 L53 20 Q72 26 74 50 Q75 64 72 74 Z`,
  b: `${BASE} M34 74 Q36 62 40 58 Q30 50 34 38 Q40 24 50 16 Q60 24 66 38 Q70 50 60 58 Q64 62 66 74 Z M48 30 H52 V38 H60 V42 H52 V50 H48 V42 H40 V38 H48 Z`,
  q: `${BASE} M30 74 L22 30 L36 56 L38 24 L48 54 L50 20 L52 54 L62 24 L64 56 L78 30 L70 74 Z`,
  k: `${BASE} M30 74 Q22 52 30 42 Q40 34 50 46 Q60 34 70 42 Q78 52 70 74 Z M47 12 H53 V20 H61 V26 H53 V40 H47 V26 H39 V20 H47 Z`,
};

// The cross on the bishop and the crown of the king are cut out (evenodd)
// so they read at small sizes.
export function pieceDefs(): string {
  let out = '';
  for (const colour of ['w', 'b'] as const) {
    const fill = colour === 'w' ? '#fbfaf5' : '#26231f';
    const stroke = colour === 'w' ? '#26231f' : '#e9e4d8';
    for (const [kind, d] of Object.entries(SHAPES)) {
      out +=
        `<symbol id="tc-piece-${colour}${kind}" viewBox="0 0 100 100">` +
        `<path d="${d}" fill="${fill}" stroke="${stroke}" stroke-width="4" stroke-linejoin="round" fill-rule="evenodd"/>` +
        `</symbol>`;
    }
  }
  return out;
}

/** 'P' -> 'wp', 'n' -> 'bn' */
export function pieceId(letter: string): string {
  const lower = letter.toLowerCase();
  return (letter === lower ? 'b' : 'w') + lower;
}

export const PIECE_NAMES: Record<string, string> = {
  p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king',
};
