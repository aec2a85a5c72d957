// The topochess rules library in WebAssembly, as TypeScript objects:
//   const tc = await loadTopochess('/topochess.wasm');
//   const v = tc.variant({ preset: 'klein-bottle' });   // or { frontmatter }
//   const g = v.game();                                // or v.game(fen)
//   g.play('d12'); g.play({ from: 'e11', to: 'e12' }); g.fen(); g.status();
// Every rule is decided by the C library; this file only moves data across.
// Objects hold wasm memory: call free() when done (a FinalizationRegistry
// frees forgotten ones eventually). See README.md beside this file.

import { instantiate, TcModule, TopochessError, type WasmSource } from './wasm';
import { PuzzleSet, type Review, type ReviewValue } from './annotate';

export { TopochessError };
export * from './annotate';

export type FileRule = 'open' | 'wrap';
export type RankRule = 'open' | 'wrap' | 'twist' | 'fold';

/** A variant's definition (a preset or a page's front matter). */
export interface VariantDef {
  name: string;
  title: string;
  description: string;
  width: number;
  height: number;
  files: FileRule;
  ranks: RankRule;
  /** The twist lies between rank seam and seam+1 (ranks "twist" only). */
  seam: number | null;
  /** FEN board field of the start position. */
  setup: string;
}

export interface PresetInfo extends VariantDef {
  aliases: string[];
}

export interface VariantInfo extends VariantDef {
  startFen: string;
  /** One-line summary, e.g. "files wrap, ranks twist 11". */
  topology: string;
  /** Cell names in cell order (index = rank * width + file). */
  cells: string[];
}

/** Directions, in the order of the step tables. */
export const DIRECTIONS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const DIR_DX = [0, 1, 1, 1, 0, -1, -1, -1] as const;
export const DIR_DY = [1, 1, 0, -1, -1, -1, 0, 1] as const;

/** Join bits: which joins one step crossed (docs/rules.md section 2). */
export const JOIN_FILE_WRAP = 1;
export const JOIN_RANK_WRAP = 2;
export const JOIN_TWIST = 4;
export const JOIN_FOLD = 8;

export interface Joins {
  fileWrap: boolean;
  rankWrap: boolean;
  twist: boolean;
  fold: boolean;
}

export function joinsOf(bits: number): Joins {
  return {
    fileWrap: (bits & JOIN_FILE_WRAP) !== 0,
    rankWrap: (bits & JOIN_RANK_WRAP) !== 0,
    twist: (bits & JOIN_TWIST) !== 0,
    fold: (bits & JOIN_FOLD) !== 0,
  };
}

/** One step of the step function from a cell in a direction. */
export interface Step {
  /** Cell index reached, or -1 when the step leaves the board. */
  to: number;
  /** Direction to go on in (changed by twists and folds). */
  dx: number;
  dy: number;
  /** Frame transform of the crossing: -1 mirrors that axis. */
  sx: number;
  sy: number;
  /** JOIN_* bits of the joins crossed (0: an ordinary step). */
  joins: number;
}

/** The step function as tables, for drawing joins and ghost cells. */
export class StepTable {
  static readonly FIELDS = 6;
  constructor(
    readonly width: number,
    readonly height: number,
    /** cells * 8 * FIELDS int32: to, dx, dy, sx, sy, joins. */
    readonly raw: Int32Array,
  ) {}

  get cells(): number {
    return this.width * this.height;
  }

  /** The step from cell (index) in direction dir (0..7, N first, clockwise). */
  step(cell: number, dir: number): Step {
    const o = (cell * 8 + dir) * StepTable.FIELDS;
    const r = this.raw;
    return { to: r[o]!, dx: r[o + 1]!, dy: r[o + 2]!, sx: r[o + 3]!, sy: r[o + 4]!, joins: r[o + 5]! };
  }
}

/** A line of movement: cells from the piece's cell on, with the joins each
 * hop crosses (joins[i] for the hop cells[i] -> cells[i+1]). A knight's
 * leap lists the cell its orthogonal step passes over, then where it lands.
 * Lines of a position (Game.lines, attacks, checks, explain) come from the
 * library's explain module and also say which piece and why they end. */
export interface Line {
  kind: 'ray' | 'step' | 'leap' | 'push' | 'capture' | 'castle';
  cells: string[];
  joins: number[];
  /** The line ends on an enemy piece (or, for a pawn, the en passant cell). */
  capture: boolean;
  /** FEN letter of the moving piece (position lines only). */
  piece?: string;
  /** Why the line ends (position lines only): it reached the cell asked
   * about, the board's edge, an own piece (excluded), a piece (included),
   * the piece's own cell, or the move is complete. */
  end?: 'target' | 'off' | 'own' | 'piece' | 'return' | 'short';
  /** More cells than a path holds (position lines only). */
  truncated?: boolean;
}

export type ExplainReason =
  | 'legal' | 'syntax' | 'no-piece' | 'not-yours' | 'cannot-reach' | 'king-attacked' | 'ambiguous'
  | 'needs-promotion' | 'cannot-castle' | 'game-over';

/** Why a move text is, or is not, a legal move (the library's
 * tc_explain_move). */
export interface Explanation {
  legal: boolean;
  why: ExplainReason;
  /** One line naming cells, e.g. "the bishop on f8 cannot reach a3: ...". */
  message: string;
  /** Not legal: the sentence every interface shows for this text, the
   * terminal's play and --play included (the library's tc_explain_line),
   * e.g. "illegal move 'Bb5': the bishop on f1 cannot reach b5: ...";
   * null for a legal move. */
  line: string | null;
  /** legal: the move; king-attacked: the move that would expose the king
   * (then only its uci is given). */
  move: Move | { uci: string } | null;
  from: string | null;
  to: string | null;
  /** king-attacked, cannot-castle: the cell that would be attacked. */
  king: string | null;
  piece: string | null;
  /** game-over: why. */
  status: GameStatusName;
  /** ambiguous: the moves the text could mean; cannot-reach: the legal moves
   * of the piece(s) named. */
  candidates: Move[];
  /** cannot-reach: the piece's line towards the target up to the blocker. */
  blocked: Line | null;
  blocker: string | null;
  /** king-attacked, cannot-castle: the attacking lines. */
  attackers: Line[];
}

export interface TopologyReport {
  orientable: boolean;
  isSurface: boolean;
  euler: number;
  boundaries: number;
  genus: number;
  surface: string;
  colourBound: boolean;
  /** Files whose vertical rook lines join, e.g. [["a","h"],["b","g"],...]. */
  fileClasses: string[][];
  /** Cells where a king or knight has fewer destinations than steps. */
  degenerate: string[];
  /** Empty-board destination counts per cell index. */
  reach: { king: number[]; knight: number[]; bishop: number[]; rook: number[] };
}

/** One pass of an ending's solve: the (sub-)ending, plies done (0 after
 * the pass that classifies the positions), the table's entries. */
export interface EndingPass {
  ending: string;
  plies: number;
  entries: number;
}

/** A solved ending's figures (tc_egtb_stats); pairs are [White to move,
 * Black to move], for the side to move; White is the stronger side. */
export interface SolvedEnding {
  ending: string;
  entries: number;
  symmetries: number;
  win: [number, number];
  draw: [number, number];
  loss: [number, number];
  checkmates: [number, number];
  /** The longest win in plies for the side to move. */
  longest: [number, number];
  longestFen: [string, string];
  mateFen: [string, string];
  /** Some position is won: the material can force a mate from somewhere. */
  possible: boolean;
  seconds: number;
}

export interface Move {
  uci: string;
  san: string;
  from: string;
  to: string;
  promotion: 'q' | 'r' | 'b' | 'n' | null;
  kind: 'normal' | 'double' | 'ep' | 'castle-k' | 'castle-q';
  capture: boolean;
  check: boolean;
}

export type GameStatusName = 'ongoing' | 'checkmate' | 'stalemate' | 'fifty-move' | 'repetition' | 'dead-position';

/** A solved ending: its name (stronger side first), the value for the side
 * to move (win 1, draw 0, loss -1) and plies to mate; whether a checkmate
 * exists at all with this material on this board, and whether the
 * stronger side can force one from some position. */
export interface EndingFact {
  ending: string;
  wdl: number;
  plies: number;
  mates: boolean;
  forced: boolean;
}

export interface GameStatus {
  status: GameStatusName;
  /** The library's wording, e.g. "checkmate", "draw by the fifty-move rule". */
  text: string;
  result: '1-0' | '0-1' | '1/2-1/2' | '*';
  check: boolean;
  turn: 'w' | 'b';
  /** The side to move's king cell. */
  king: string | null;
  /** When in check: the checking pieces' lines that end on the king. */
  checkLines: Line[];
  repetitions: number;
  halfmove: number;
  fullmove: number;
  /** Moves made since the start FEN. */
  ply: number;
}

/** The board of a PGN game (Variant.pgnBoard). */
export interface PgnBoard {
  same: boolean;
  name: string;
  title: string;
  page: string;
}

export interface PgnInfo {
  tags: Record<string, string>;
  result: string;
  plies: number;
}

/** A move by coordinates: cell names, promotion piece letter if any. */
export interface MoveCoords {
  from: string;
  to: string;
  promotion?: 'q' | 'r' | 'b' | 'n' | null;
}

type Freeable = { ptr: number; kind: 'variant' | 'game' };

/** The loaded module: presets and variants. */
export class Topochess {
  /** @internal */
  readonly m: TcModule;
  /** The compiled module, e.g. to hand to an engine worker. */
  readonly module: WebAssembly.Module;
  private readonly registry: FinalizationRegistry<Freeable> | null;

  /** @internal use loadTopochess */
  constructor(m: TcModule, module: WebAssembly.Module) {
    this.m = m;
    this.module = module;
    this.registry = typeof FinalizationRegistry !== 'undefined'
      ? new FinalizationRegistry<Freeable>((f) => {
        if (f.kind === 'game') m.x.tcw_game_free(f.ptr);
        else m.x.tcw_variant_free(f.ptr);
      })
      : null;
  }

  /** @internal */
  track(obj: object, f: Freeable): void {
    this.registry?.register(obj, f, obj);
  }

  /** @internal */
  untrack(obj: object): void {
    this.registry?.unregister(obj);
  }

  /** Every preset the library knows. */
  presets(): PresetInfo[] {
    return this.m.takeJson<PresetInfo[]>(this.m.x.tcw_presets_json()) ?? [];
  }

  /** How many entries a material's dead-position marks may have in this
   * instance (0: the default, about a second of marking in a browser).
   * Larger materials are not declared dead here; a worker that may take
   * its time raises the limit (web/src/lib/dead-worker.ts). */
  setDeadLimit(maxEntries: number): void {
    this.m.x.tcw_dead_limit(maxEntries);
  }

  /** A variant from a preset name (or alias) or a variant page's front
   * matter (the whole page text is fine: the part between the first two
   * `---` lines is read). Throws TopochessError with the library's message. */
  variant(spec: { preset: string } | { frontmatter: string }): Variant {
    const m = this.m;
    let ptr: number;
    if ('preset' in spec) {
      ptr = m.withStrs([spec.preset], (s) => m.x.tcw_variant_preset(s.ptr, m.err));
    } else {
      ptr = m.withStrs([spec.frontmatter], (s) => m.x.tcw_variant_frontmatter(s.ptr, s.len, m.err));
    }
    if (!ptr) throw new TopochessError(m.error());
    return new Variant(this, ptr);
  }
}

/** Loads the module from a URL, a fetch Response, bytes or a compiled
 * WebAssembly.Module. */
export async function loadTopochess(src: WasmSource): Promise<Topochess> {
  const { mod, module } = await instantiate(src);
  return new Topochess(mod, module);
}

/** A board and its rules. */
/** Dead positions of one material on one board: `dead` of its `total`
 * legal positions (both sides to move, symmetric copies counted);
 * `tables` false when the board is too large to decide it. */
export interface DeadCount {
  dead: number;
  total: number;
  tables: boolean;
}

/** A material's dead count in the words of `topochess dead`'s table:
 * "dead" (every position), "partly (2,440 of 267,000)", "not" (none) or
 * "no tables". */
export function deadCell(c: DeadCount): string {
  if (!c.tables) return 'no tables';
  if (c.dead === c.total) return 'dead';
  if (c.dead === 0) return 'not';
  const n = (x: number) => x.toLocaleString('en-US');
  return `partly (${n(c.dead)} of ${n(c.total)})`;
}

export class Variant {
  readonly tc: Topochess;
  readonly info: VariantInfo;
  private cellIdx: Map<string, number>;
  private games = new Set<Game>();
  private stepCache: StepTable | null = null;
  /** @internal */
  ptr: number;

  /** @internal use Topochess.variant */
  constructor(tc: Topochess, ptr: number) {
    this.tc = tc;
    this.ptr = ptr;
    const info = tc.m.takeJson<VariantInfo>(tc.m.x.tcw_variant_json(ptr));
    if (!info) throw new TopochessError('out of wasm memory');
    this.info = info;
    this.cellIdx = new Map(info.cells.map((c, i) => [c, i]));
    tc.track(this, { ptr, kind: 'variant' });
  }

  get name(): string { return this.info.name; }
  get width(): number { return this.info.width; }
  get height(): number { return this.info.height; }
  get cells(): string[] { return this.info.cells; }
  get startFen(): string { return this.info.startFen; }

  private live(): number {
    if (!this.ptr) throw new TopochessError('variant already freed');
    return this.ptr;
  }

  /** Cell index of a name ("d12"), or -1. */
  cellIndex(name: string): number {
    return this.cellIdx.get(name) ?? -1;
  }

  cellName(index: number): string {
    const n = this.info.cells[index];
    if (n === undefined) throw new TopochessError(`no cell ${index}`);
    return n;
  }

  /** File and rank indices (0-based) of a cell. */
  coords(cell: string | number): { x: number; y: number } {
    const i = typeof cell === 'number' ? cell : this.cellIndex(cell);
    if (i < 0 || i >= this.cells.length) throw new TopochessError(`no cell '${cell}' on this board`);
    return { x: i % this.width, y: Math.floor(i / this.width) };
  }

  /** The step tables: per cell and direction, the neighbour, the new
   * direction, the frame transform and the joins crossed. */
  steps(): StepTable {
    if (!this.stepCache) {
      const m = this.tc.m;
      const n = this.cells.length * 8 * StepTable.FIELDS;
      this.stepCache = new StepTable(this.width, this.height, m.takeInt32(m.x.tcw_variant_steps(this.live()), n));
    }
    return this.stepCache;
  }

  /** Lines of movement of a piece (FEN letter; case gives the colour, which
   * matters for pawns) standing alone on `cell` of an empty board. */
  lines(cell: string, piece: string): Line[] {
    const i = this.cellIndex(cell);
    if (i < 0) throw new TopochessError(`no cell '${cell}' on this board`);
    if (!/^[pnbrqkPNBRQK]$/.test(piece)) throw new TopochessError(`'${piece}' is not a piece letter`);
    const r = this.tc.m.takeJson<Line[]>(this.tc.m.x.tcw_variant_lines(this.live(), i, piece.charCodeAt(0)));
    if (!r) throw new TopochessError('out of wasm memory');
    // two first steps can give the very same path (folds): list it once
    const seen = new Set<string>();
    return r.filter((l) => {
      const k = `${l.kind} ${l.cells.join(' ')}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  }

  /** The board the first game of a PGN text is played on: its [Topology]
   * tag (any board that is not a preset), the preset its [Variant] names,
   * or this variant when [Variant] names it or is missing. `page` is that
   * board as a variant page (for tc.variant({ frontmatter })); `same`
   * says whether it is this board. Throws with the reader's or the tag's
   * message. */
  pgnBoard(text: string): PgnBoard {
    const m = this.tc.m;
    const ptr = m.withStrs([text], (s) => m.x.tcw_pgn_board(this.live(), s.ptr, s.len, m.err));
    if (!ptr) throw new TopochessError(m.error());
    const b = m.takeJson<PgnBoard>(ptr);
    if (!b) throw new TopochessError('out of wasm memory');
    return b;
  }

  /** The topology report's figures (docs/rules.md section 10). */
  report(): TopologyReport {
    const r = this.tc.m.takeJson<TopologyReport>(this.tc.m.x.tcw_variant_report(this.live()));
    if (!r) throw new TopochessError('out of wasm memory');
    return r;
  }

  /** The topology report as `topochess topology` prints it. */
  /** Solves a pawnless ending on this board (tc_egtb_solve) and returns
   * its figures. It runs in the calling thread (a second on 8x8 for 3
   * pieces, up to minutes for 4): call it in a worker (endings-worker.ts).
   * onPass hears every pass over a table (the ending, plies done, entries);
   * with poll set, the host's poll hook is asked after each pass and stops
   * the solve (TopochessError "...: stopped"). Throws with the library's
   * message on a bad name or a board too large. */
  solveEnding(ending: string, opts: { maxEntries?: number; poll?: boolean; onPass?: (p: EndingPass) => void } = {}): SolvedEnding {
    const m = this.tc.m;
    const before = m.hooks.onInfo;
    m.hooks.onInfo = opts.onPass ? (json) => opts.onPass!(JSON.parse(json) as EndingPass) : null;
    try {
      const ptr = m.withStrs([ending], (s) =>
        m.x.tcw_variant_ending(this.live(), s.ptr, opts.maxEntries ?? 0, opts.poll ? 1 : 0, m.err));
      if (!ptr) throw new TopochessError(m.error());
      return m.takeJson<SolvedEnding>(ptr)!;
    } finally {
      m.hooks.onInfo = before;
    }
  }

  /** How many positions of each material ("KBK", "KNK", ...) are dead on
   * this board (docs/rules.md section 6, the help-mate pass over their
   * tables; any board, the flat one too), counted as `topochess dead` counts
   * them. Throws on a bad name. */
  deadMaterials(names: string[]): Record<string, DeadCount> {
    const m = this.tc.m;
    const ptr = m.withStrs([names.join(' ')], (s) => m.x.tcw_variant_dead(this.live(), s.ptr, m.err));
    if (!ptr) throw new TopochessError(m.error());
    return m.takeJson<Record<string, DeadCount>>(ptr)!;
  }

  reportText(): string {
    return this.tc.m.take(this.tc.m.x.tcw_variant_report_text(this.live())) ?? '';
  }

  /** A game at the start position, or at `fen` (full or board-only FEN). */
  game(fen?: string): Game {
    const m = this.tc.m;
    const p = m.x.tcw_game_new(this.live());
    if (!p) throw new TopochessError('out of wasm memory');
    const g = new Game(this, p);
    if (fen !== undefined) {
      try {
        g.setFen(fen);
      } catch (e) {
        g.free();
        throw e;
      }
    }
    return g;
  }

  /** @internal */
  adopt(g: Game): void {
    this.games.add(g);
  }

  /** @internal */
  release(g: Game): void {
    this.games.delete(g);
  }

  /** A material (KQK, KRK, KBNK, ...) solved on this board for mate
   * puzzles (docs/puzzles.md); throws on a bad name or a table of more than
   * maxEntries positions. Free it when done. */
  puzzleSet(material: string, maxEntries = 4_000_000): PuzzleSet {
    const m = this.tc.m;
    const ptr = m.withStrs([material], (s) => m.x.tcw_puzzle_set(this.live(), s.ptr, maxEntries, m.err));
    if (!ptr) throw new TopochessError(m.error());
    return new PuzzleSet(m, ptr);
  }

  /** Frees the variant and every game still open on it. */
  free(): void {
    if (!this.ptr) return;
    for (const g of [...this.games]) g.free();
    this.tc.untrack(this);
    this.tc.m.x.tcw_variant_free(this.ptr);
    this.ptr = 0;
  }
}

/** A position with its history (for undo, repetitions and PGN). */
export class Game {
  readonly variant: Variant;
  /** @internal */
  ptr: number;

  /** @internal use Variant.game */
  constructor(variant: Variant, ptr: number) {
    this.variant = variant;
    this.ptr = ptr;
    variant.adopt(this);
    variant.tc.track(this, { ptr, kind: 'game' });
  }

  private get m(): TcModule {
    return this.variant.tc.m;
  }

  /** @internal */
  live(): number {
    if (!this.ptr) throw new TopochessError('game already freed');
    return this.ptr;
  }

  private json<T>(ptr: number): T {
    const r = this.m.takeJson<T>(ptr);
    if (r === null) throw new TopochessError('out of wasm memory');
    return r;
  }

  fen(): string {
    return this.m.take(this.m.x.tcw_game_fen(this.live())) ?? '';
  }

  /** Sets a full or board-only FEN; throws (position unchanged) on a bad one.
   * The history starts again from it. */
  setFen(fen: string): void {
    const m = this.m;
    const rc = m.withStrs([fen], (s) => m.x.tcw_game_set_fen(this.live(), s.ptr, m.err));
    if (rc !== 0) throw new TopochessError(m.error());
  }

  /** The piece letter on each cell in cell order, null for empty cells. */
  board(): (string | null)[] {
    const s = this.m.take(this.m.x.tcw_game_board(this.live())) ?? '';
    return [...s].map((c) => (c === '.' ? null : c));
  }

  pieceAt(cell: string): string | null {
    const i = this.variant.cellIndex(cell);
    if (i < 0) throw new TopochessError(`no cell '${cell}' on this board`);
    return this.board()[i] ?? null;
  }

  turn(): 'w' | 'b' {
    return this.status().turn;
  }

  /** Every legal move with its coordinates and SAN. */
  legalMoves(): Move[] {
    return this.json<Move[]>(this.m.x.tcw_game_legal(this.live()));
  }

  /** Legal moves of the piece on `cell`. */
  movesFrom(cell: string): Move[] {
    return this.legalMoves().filter((mv) => mv.from === cell);
  }

  /** Plays a move: SAN ("Nf3", "exc12", "O-O"), coordinate form ("e2e4",
   * "b7b8q") or coordinates. Returns the move with its SAN; throws
   * TopochessError with the library's reason when it is not legal. */
  play(move: string | MoveCoords): Move {
    const text = typeof move === 'string' ? move : `${move.from}${move.to}${move.promotion ?? ''}`;
    const m = this.m;
    const ptr = m.withStrs([text], (s) => m.x.tcw_game_play(this.live(), s.ptr, m.err));
    if (!ptr) {
      const parsed = m.error();
      // The reason, worded as the terminal words it (tc_explain_line).
      let why: string | null = null;
      try {
        why = this.explain(text).line;
      } catch {
        why = null;
      }
      throw new TopochessError(why ?? parsed);
    }
    return this.json<Move>(ptr);
  }

  /** Plays several moves ("1. e4 e5 2. Nf3"); on an illegal one, the moves
   * before it stay played and the error names the move. */
  playMoves(moves: string | string[]): Move[] {
    const list = typeof moves === 'string'
      ? moves.split(/\s+/).filter((t) => t && !/^\d+\.+$/.test(t) && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t))
        .map((t) => t.replace(/^\d+\.+/, ''))
      : moves;
    const played: Move[] = [];
    for (const t of list) {
      try {
        played.push(this.play(t));
      } catch (e) {
        throw new TopochessError(`move ${played.length + 1} '${t}': ${(e as Error).message}`);
      }
    }
    return played;
  }

  /** Takes back the last move; returns it, or null at the start. */
  undo(): Move | null {
    const h = this.history();
    if (this.m.x.tcw_game_undo(this.live()) !== 0) return null;
    return h[h.length - 1] ?? null;
  }

  status(): GameStatus {
    return this.json<GameStatus>(this.m.x.tcw_game_status(this.live()));
  }

  /** The solved ending of a pawnless position of 3 pieces, solved on this
   * board on the spot (a moment), or null for any other position. */
  ending(): EndingFact | null {
    const ptr = this.m.x.tcw_game_ending(this.live());
    if (!ptr) throw new TopochessError('out of wasm memory');
    return this.m.takeJson<EndingFact | null>(ptr);
  }

  /** The review of the game played so far (docs/analysis.md): each
   * position's search (values[0] the start, one more than the moves, from
   * the side to move's view, as the engine worker reports them) judged by
   * the library: marks, accuracy, the better move. */
  review(values: ReviewValue[]): Review {
    const m = this.m;
    const text = values.map((v) => `${v.score | 0} ${v.mate | 0} ${v.depth | 0} ${v.best ?? '-'}`).join('\n');
    const ptr = m.withStrs([text], (s) => m.x.tcw_game_review(this.live(), s.ptr, m.err));
    if (!ptr) throw new TopochessError(m.error());
    return this.json<Review>(ptr);
  }

  /** The same review as PGN: each side's accuracy before the moves, an
   * [%eval] after each move, NAGs and the better move on the marked ones
   * (tags and result as pgn() takes them). */
  reviewPgn(values: ReviewValue[], tags: Record<string, string> = {}, result?: string): string {
    const m = this.m;
    const text = values.map((v) => `${v.score | 0} ${v.mate | 0} ${v.depth | 0} ${v.best ?? '-'}`).join('\n');
    const t = Object.entries(tags).map(([k, v]) => `${k.replace(/[\t\n]/g, ' ')}\t${v.replace(/[\t\n]/g, ' ')}`)
      .join('\n');
    const ptr = m.withStrs([text, t, result ?? ''], (a, b, c) => m.x.tcw_game_review_pgn(this.live(), a.ptr, b.ptr, c.ptr, m.err));
    if (!ptr) throw new TopochessError(m.error());
    return m.take(ptr) ?? '';
  }

  /** The FEN the history starts from. */
  startFen(): string {
    return this.json<{ startFen: string }>(this.m.x.tcw_game_history(this.live())).startFen;
  }

  /** The moves played since the start FEN, with SAN. */
  history(): Move[] {
    return this.json<{ moves: Move[] }>(this.m.x.tcw_game_history(this.live())).moves;
  }

  /** The game as PGN (Seven Tag Roster, [Variant], [SetUp]/[FEN] when not
   * from the start). tags override or add tags; result defaults to the one
   * the position implies ("*" while it goes on). */
  pgn(tags: Record<string, string> = {}, result?: string): string {
    const t = Object.entries(tags).map(([k, v]) => `${k.replace(/[\t\n]/g, ' ')}\t${v.replace(/[\t\n]/g, ' ')}`)
      .join('\n');
    const m = this.m;
    return m.withStrs([t, result ?? ''], (a, b) => m.take(m.x.tcw_game_pgn(this.live(), a.ptr, b.ptr))) ?? '';
  }

  /** Replaces the game by the first game of a PGN text (its [FEN] and moves),
   * which must be of this variant. Throws (game unchanged) with the
   * reader's or the replay's message, e.g. "move 3 (white): illegal move 'Qxf9': ...". */
  loadPgn(text: string): PgnInfo {
    const m = this.m;
    const ptr = m.withStrs([text], (s) => m.x.tcw_game_load_pgn(this.live(), s.ptr, s.len, m.err));
    if (!ptr) throw new TopochessError(m.error());
    return this.json<PgnInfo>(ptr);
  }

  /** Leaf count of the legal move tree to `depth`. */
  perft(depth: number): number {
    return this.m.x.tcw_game_perft(this.live(), depth | 0);
  }

  /** Perft per root move, keyed by coordinate form. */
  divide(depth: number): Record<string, number> {
    if (depth < 1) throw new TopochessError('divide needs depth >= 1');
    return this.json<Record<string, number>>(this.m.x.tcw_game_divide(this.live(), depth | 0));
  }

  /** Lines of the piece on `cell` in this position. 'moves' (default):
   * where it may go if its own king's safety is ignored (rays up to an own
   * piece, excluded, or an enemy, included; pushes onto empty cells;
   * captures; no castling). 'attacks': the cells it attacks (rays up to the
   * first piece of either side, pawn capture steps, no pushes). */
  lines(cell: string, mode: 'moves' | 'attacks' = 'moves'): Line[] {
    const i = this.variant.cellIndex(cell);
    if (i < 0) throw new TopochessError(`no cell '${cell}' on this board`);
    return this.json<Line[]>(this.m.x.tcw_game_lines(this.live(), i, mode === 'attacks' ? 1 : 0));
  }

  /** The path a legal move takes (castling: the king's cells), e.g. to draw
   * the last move across a join. Throws for a text that is not legal. */
  movePath(move: string | MoveCoords): Line {
    const text = typeof move === 'string' ? move : `${move.from}${move.to}${move.promotion ?? ''}`;
    const m = this.m;
    const ptr = m.withStrs([text], (s) => m.x.tcw_game_move_path(this.live(), s.ptr, m.err));
    if (!ptr) throw new TopochessError(m.error());
    return this.json<Line>(ptr);
  }

  /** Why a move text is or is not legal here, with the cells and lines
   * involved (blocking piece, attacking lines, ambiguous candidates). */
  explain(move: string | MoveCoords): Explanation {
    const text = typeof move === 'string' ? move : `${move.from}${move.to}${move.promotion ?? ''}`;
    const m = this.m;
    return this.json<Explanation>(m.withStrs([text], (s) => m.x.tcw_game_explain(this.live(), s.ptr)));
  }

  /** Lines along which the pieces of `by` reach `cell` (attack paths). */
  attacks(cell: string, by: 'w' | 'b'): Line[] {
    const i = this.variant.cellIndex(cell);
    if (i < 0) throw new TopochessError(`no cell '${cell}' on this board`);
    return this.json<Line[]>(this.m.x.tcw_game_attacks(this.live(), i, by === 'w' ? 0 : 1));
  }

  /** An independent copy (history included). */
  clone(): Game {
    const p = this.m.x.tcw_game_clone(this.live());
    if (!p) throw new TopochessError('out of wasm memory');
    return new Game(this.variant, p);
  }

  free(): void {
    if (!this.ptr) return;
    this.variant.tc.untrack(this);
    this.variant.release(this);
    this.m.x.tcw_game_free(this.ptr);
    this.ptr = 0;
  }
}
