// /analysis: play out any line; the engine's evaluation and best line are
// shown live (the worker searches each position shown); a board editor sets
// up a position (the wasm module checks it).
import { createBoard } from '../board/api';
import { PIECE_NAMES, pieceId } from '../board/pieces';
import { readFen } from '../board/state';
import { announceMoves, bindArrowKeys, createBoardView, createMoveInput, createMoveList } from '../app/boardview';
import { el } from '../app/dom';
import { createEngine } from '../app/engine';
import { evaluationNote } from '../app/evalnote';
import { GameController } from '../app/game';
import { loadRules, topochess, variantOf } from '../app/rules';
import { sayIfDead } from '../app/deadwatch';
import { createArena } from '../app/layout';
import { statusText } from '../app/status';
import type { EndingFact, EngineInfo, Rules, VariantDetail } from '../app/types';
import type { PgnBoard, Variant } from '../lib/topochess';

export interface AnalysisData {
  variant: VariantDetail;
  fen: string | null;
  /** the URL's FEN when the library refused it, and why */
  fen_error?: { fen: string; error: string };
  /** a PGN to load once the page stands (an import onto another board) */
  pgn?: string;
}

/** The page's view of a board read from a PGN (Variant.pgnBoard). */
export function pgnDetail(v: Variant, board: PgnBoard): VariantDetail {
  const r = v.report();
  return {
    slug: board.name,
    title: board.title,
    rows: v.height,
    cols: v.width,
    files: v.info.files,
    ranks: v.info.ranks,
    seam: v.info.ranks === 'twist' ? v.info.seam : null,
    start_fen: v.startFen,
    frontmatter: board.page,
    report: { orientable: r.orientable, euler: r.euler, surface: r.surface, colour_bound: r.colourBound, file_classes: r.fileClasses },
  };
}

export function placementFen(rules: Rules, placement: string[], turn: 'w' | 'b'): string {
  const t = rules.topology;
  const ranks: string[] = [];
  for (let y = t.height - 1; y >= 0; y--) {
    let out = '';
    let run = 0;
    for (let x = 0; x < t.width; x++) {
      const p = placement[y * t.width + x];
      if (p) {
        if (run) out += String(run);
        run = 0;
        out += p;
      } else run++;
    }
    if (run) out += String(run);
    ranks.push(out);
  }
  return `${ranks.join('/')} ${turn} KQkq - 0 1`;
}

export function formatScore(info: EngineInfo, whiteToMove: boolean): string {
  const sign = whiteToMove ? 1 : -1;
  if (info.score.mate !== undefined) {
    const m = info.score.mate * sign;
    return m > 0 ? `#${m}` : `#-${-m}`;
  }
  const cp = (info.score.cp ?? 0) * sign;
  return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
}

/** "K+Q v K": an ending's name as people write it. */
export function endingName(name: string): string {
  const i = name.indexOf('K', 1);
  return `${name.slice(0, i).split('').join('+')} v ${name.slice(i).split('').join('+')}`;
}

/** The solved ending's fact in words. */
export function endingText(f: EndingFact, whiteToMove: boolean): string {
  const name = endingName(f.ending);
  if (!f.mates) return `${name} cannot mate on this board: dead position (solved ending).`;
  if (!f.forced) return `${name}: a mate exists on this board but cannot be forced; drawn with best play (solved ending).`;
  if (f.wdl === 0) return `${name}: drawn with best play from here (solved ending).`;
  const mover = whiteToMove ? 'White' : 'Black';
  const other = whiteToMove ? 'Black' : 'White';
  const moves = Math.ceil(f.plies / 2);
  return `${name}: ${f.wdl > 0 ? mover : other} mates in ${moves} move${moves === 1 ? '' : 's'} with best play (solved ending).`;
}

/** White's share of the evaluation bar (0..1): a logistic curve of the
 * score in White's view, full at a mate. */
export function whiteShare(info: EngineInfo, whiteToMove: boolean): number {
  const sign = whiteToMove ? 1 : -1;
  if (info.score.mate !== undefined && info.score.mate !== 0) return info.score.mate * sign > 0 ? 1 : 0;
  const cp = (info.score.cp ?? 0) * sign;
  return 1 / (1 + Math.exp(-cp / 250));
}

export async function analysisPage(app: HTMLElement, data: AnalysisData): Promise<void> {
  const rules = await loadRules(data.variant);
  const ctl = new GameController(rules, data.fen ?? undefined);
  const evalNote = evaluationNote();
  const engine = createEngine(data.variant, evalNote.show);

  const title = el('h1', {}, `${data.variant.title}: analysis`);
  const status = el('p', { class: 'tc-status', 'data-status': '', 'aria-live': 'polite' });
  const whyHost = el('div', { class: 'tc-why-host' });
  const arena = createArena(app, title, status, whyHost);
  const main = arena.root;
  const side = arena.side;
  const editorBox = el('section', { class: 'tc-editor', hidden: '', 'data-editor': '' });
  app.append(editorBox);

  const view = createBoardView(arena.board, rules, ctl, {
    movable: () => 'both',
    whyHost,
    onUserMove: (m) => ctl.play(m.uci),
  });
  arena.fit();

  const evalBox = el('div', { class: 'tc-eval' });
  const evalScore = el('strong', { 'data-eval': '' }, '…');
  const evalDepth = el('span', { 'data-depth': '' });
  const barWhite = el('div', { class: 'tc-evalbar-white' });
  const barText = el('span', { class: 'tc-evalbar-text', 'data-eval-side': '' });
  const bar = el('div', { class: 'tc-evalbar', 'data-evalbar': '', role: 'meter', 'aria-label': 'evaluation' }, barWhite, barText);
  const pvLine = el('p', { class: 'tc-pv', 'data-pv': '' });
  const ending = el('p', { class: 'tc-ending', 'data-ending': '', hidden: '' });
  const lines = el('ol', { class: 'tc-lines', 'data-lines': '', 'aria-label': 'engine lines (click one to play it)' });
  const playPv = el('button', { type: 'button', 'data-action': 'play-pv' }, 'Play the best line');
  const analyse = el('input', { type: 'checkbox', checked: '', 'data-analyse': '' });
  const multi = el('select', { 'data-multipv': '', 'aria-label': 'lines' });
  for (let n = 1; n <= 5; n++) multi.append(el('option', { value: String(n) }, `${n} line${n > 1 ? 's' : ''}`));
  evalBox.append(
    el('div', { class: 'tc-eval-head' }, el('label', {}, analyse, ' engine '), evalScore, ' ', multi),
    bar,
    ending,
    evalDepth,
    evalNote.node,
    pvLine,
    lines,
    playPv,
  );
  side.append(evalBox);
  const movesBox = el('div', { class: 'tc-movelist' });
  side.append(movesBox);
  const drawMoves = createMoveList(movesBox, ctl);
  createMoveInput(side, ctl, () => null, (msg) => (status.textContent = msg));
  announceMoves(side, ctl);
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  const controls = el('div', { class: 'tc-controls' }, btn('Back', 'back'), btn('Forward', 'forward'), btn('Undo', 'undo'), btn('Edit position', 'edit'));
  const fenOut = el('input', { type: 'text', readonly: '', class: 'tc-fen', 'data-fen-out': '', 'aria-label': 'FEN' });
  side.append(controls, fenOut);
  // A PGN from anywhere: a game of another board (a hosted game on a
  // custom page carries its board in [Topology]) reopens the page on it.
  const pgnText = el('textarea', { rows: '5', spellcheck: 'false', 'data-pgn-in': '', 'aria-label': 'PGN to import' });
  const pgnMsg = el('p', { class: 'tc-io-msg', 'data-pgn-msg': '', 'aria-live': 'polite' });
  const pgnBox = el(
    'details',
    { class: 'tc-io', 'data-pgn-import': '' },
    el('summary', {}, 'Import PGN'),
    pgnText,
    el('div', {}, el('button', { type: 'button', 'data-action': 'import-pgn' }, 'Import')),
    pgnMsg,
  );
  side.append(pgnBox);
  const keys = new AbortController();
  pgnBox.addEventListener('click', (e) => {
    if ((e.target as Element).closest('[data-action]')?.getAttribute('data-action') !== 'import-pgn') return;
    const text = pgnText.value.trim();
    void (async () => {
      try {
        const tc = await topochess();
        const here = variantOf(tc, data.variant);
        let board: PgnBoard;
        try {
          board = here.pgnBoard(text);
        } finally {
          here.free();
        }
        if (board.same) {
          ctl.loadPgn(text);
          pgnMsg.textContent = 'Loaded.';
          return;
        }
        const v = tc.variant({ frontmatter: board.page });
        let detail: VariantDetail;
        try {
          detail = pgnDetail(v, board);
        } finally {
          v.free();
        }
        // the page again, on the game's board
        searchToken++;
        engine.stop();
        engine.terminate();
        keys.abort();
        app.replaceChildren();
        editorBox.remove();
        await analysisPage(app, { variant: detail, fen: null, pgn: text });
      } catch (err) {
        pgnMsg.textContent = (err as Error).message;
      }
    })();
  });

  let lastPv: string[] = [];
  let searchToken = 0;
  const drawBar = (info: EngineInfo | null, whiteToMove: boolean) => {
    const w = info ? whiteShare(info, whiteToMove) : 0.5;
    barWhite.style.width = `${(w * 100).toFixed(1)}%`;
    const score = info ? formatScore(info, whiteToMove) : '';
    const side = !info ? 'even' : w > 0.52 ? 'white' : w < 0.48 ? 'black' : 'even';
    bar.setAttribute('data-side', side);
    bar.setAttribute('aria-valuenow', score);
    barText.textContent = !info ? '' : side === 'even' ? `about even ${score}` : `${side === 'white' ? 'White' : 'Black'} better ${score}`;
  };
  // What the solved endings say about this material on this board (3
  // pieces, no pawns: the wasm module solves it on the spot).
  let endingFen = '';
  const showEnding = (fen: string) => {
    const board = fen.split(' ')[0] ?? '';
    if (board === endingFen) return;
    endingFen = board;
    const pieces = board.replace(/[^a-zA-Z]/g, '');
    let fact = null;
    if (pieces.length === 3 && !/p/i.test(pieces)) {
      const g = rules.game(fen);
      try {
        fact = g.ending();
      } finally {
        g.free();
      }
    }
    ending.hidden = !fact;
    ending.textContent = fact ? endingText(fact, fen.split(' ')[1] !== 'b') : '';
  };
  // The best move drawn on the board along its real path (across joins),
  // as the rules module gives it.
  const showBest = (uci: string | null, fen: string) => {
    let path: number[] | null = null;
    if (uci) {
      const g = rules.game(fen);
      try {
        path = g.movePath(uci);
      } catch {
        path = null;
      } finally {
        g.free();
      }
    }
    view.board.set({ paths: path ? [path] : [] });
    view.board.root.toggleAttribute('data-best', !!path);
    if (path) view.board.root.setAttribute('data-best', path.map((c) => rules.topology.cellName(c)).join(' '));
  };
  const startSearch = () => {
    engine.stop();
    const token = ++searchToken;
    evalScore.textContent = '…';
    evalDepth.textContent = '';
    pvLine.textContent = '';
    lines.replaceChildren();
    lastPv = [];
    showBest(null, '');
    const shown = ctl.shownFen();
    const whiteToMove = shown.split(' ')[1] !== 'b';
    drawBar(null, whiteToMove);
    if (!analyse.checked) return;
    showEnding(shown);
    const st = positionStatus(shown);
    if (st.status !== 'ongoing') {
      evalScore.textContent = st.text;
      return;
    }
    const moves = ctl.plies.slice(0, ctl.cursor).map((p) => p.move.uci);
    const want = Number(multi.value) || 1;
    const rows: (EngineInfo | null)[] = [];
    void engine
      .search(ctl.startFen, moves, { movetime: 8000, depth: 64, multipv: want }, (info) => {
        if (token !== searchToken) return;
        rows[info.multipv - 1] = info;
        // a line kept from the previous depth that starts with this line's
        // move is out of date: wait for its own update rather than show
        // one move twice
        for (const [k, r] of rows.entries())
          if (r && k !== info.multipv - 1 && r.depth < info.depth && r.pvUci[0] === info.pvUci[0]) rows[k] = null;
        if (info.multipv === 1) {
          evalScore.textContent = formatScore(info, whiteToMove);
          evalDepth.textContent = `depth ${info.depth}, ${info.nodes.toLocaleString('en')} nodes, ${Math.round(info.nps / 1000)} kn/s`;
          pvLine.textContent = info.pv.join(' ');
          if (info.pvUci[0] !== lastPv[0]) showBest(info.pvUci[0] ?? null, shown);
          lastPv = info.pvUci;
          drawBar(info, whiteToMove);
        }
        lines.replaceChildren(
          ...rows.map((r, k) =>
            r
              ? el(
                  'li',
                  { 'data-line': String(k + 1), title: 'Play this line' },
                  el('strong', {}, formatScore(r, whiteToMove)),
                  ` d${r.depth} `,
                  el('span', { class: 'tc-line-moves' }, r.pv.slice(0, 12).join(' ')),
                )
              : el('li', {}, '…'),
          ),
        );
        for (const [k, r] of rows.entries()) if (r) lines.children[k]?.setAttribute('data-uci', r.pvUci.join(' '));
      })
      .catch((e: Error) => {
        if (token === searchToken) evalScore.textContent = `engine: ${e.message}`;
      });
  };

  const positionStatus = (fen: string) => {
    const g = rules.game(fen);
    try {
      return g.status();
    } finally {
      g.free();
    }
  };
  const refresh = () => {
    view.sync();
    drawMoves();
    const st = ctl.atEnd() ? ctl.status() : null;
    const fen = ctl.shownFen();
    fenOut.value = fen;
    const now = st ?? positionStatus(fen);
    status.textContent = statusText(now);
    if (now.status === 'ongoing') sayIfDead(data.variant, fen, () => ctl.shownFen(), (text) => (status.textContent = text));
  };
  ctl.onChange(() => {
    refresh();
    startSearch();
  });
  controls.addEventListener('click', (e) => {
    const a = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
    if (a === 'back') ctl.goto(ctl.cursor - 1);
    else if (a === 'forward') ctl.goto(ctl.cursor + 1);
    else if (a === 'undo') ctl.undo();
    else if (a === 'edit') openEditor();
  });
  lines.addEventListener('click', (e) => {
    const li = (e.target as Element).closest('[data-uci]');
    if (!li) return;
    const line = li.getAttribute('data-uci')!.split(' ').filter(Boolean);
    engine.stop();
    try {
      for (const m of line.slice(0, 8)) ctl.play(m);
    } catch (err) {
      status.textContent = (err as Error).message;
    }
  });
  multi.addEventListener('change', () => startSearch());
  playPv.addEventListener('click', () => {
    const line = lastPv.slice();
    engine.stop();
    try {
      for (const m of line.slice(0, 8)) ctl.play(m);
    } catch (err) {
      status.textContent = (err as Error).message;
    }
  });
  analyse.addEventListener('change', () => (analyse.checked ? startSearch() : engine.stop()));

  // The board editor.
  const openEditor = (bad?: { fen: string; error: string }) => {
    engine.stop();
    editorBox.hidden = false;
    main.hidden = true;
    editorBox.replaceChildren();
    const start = readFen(rules.topology, ctl.shownFen());
    const placement = start.placement.slice();
    let turn: 'w' | 'b' = start.turn === 'black' ? 'b' : 'w';
    let brush = 'P';
    const palette = el('div', { class: 'tc-palette', role: 'radiogroup' });
    for (const p of ['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p', '']) {
      const name = p ? `${p === p.toUpperCase() ? 'white' : 'black'} ${PIECE_NAMES[p.toLowerCase()]}` : 'erase';
      const b = el('button', { type: 'button', 'data-brush': p, 'aria-pressed': p === brush ? 'true' : 'false', title: name, 'aria-label': name });
      // the picture is the board's own (its defs are on the page)
      if (p) b.innerHTML = `<svg viewBox="0 0 100 100" aria-hidden="true"><use href="#tc-piece-${pieceId(p)}" width="100" height="100"/></svg>`;
      else b.textContent = 'erase';
      palette.append(b);
    }
    const holder = el('div', { class: 'tc-board-holder' });
    const msg = el('p', { class: 'tc-io-msg tc-editor-msg', 'data-editor-msg': '', 'aria-live': 'polite' });
    const turnSel = el('select', { 'data-editor-turn': '' }, el('option', { value: 'w' }, 'White to move'), el('option', { value: 'b' }, 'Black to move'));
    turnSel.value = turn;
    const fenText = el('input', { type: 'text', class: 'tc-fen', 'data-editor-fen': '', 'aria-label': 'FEN' });
    const actions = el('div', { class: 'tc-controls' }, btn('Use this position', 'editor-apply'), btn('Clear board', 'editor-clear'), btn('Start position', 'editor-start'), btn('Cancel', 'editor-cancel'));
    editorBox.append(
      el('h2', {}, 'Board editor'),
      el('div', { class: 'tc-editor-row' }, el('div', { class: 'tc-editor-board' }, holder), el('div', { class: 'tc-editor-tools' }, palette, msg, turnSel, fenText, actions)),
    );
    const ed = createBoard(holder, rules.topology, {
      fen: placementFen(rules, placement, turn),
      movable: 'none',
      onCellClick: (cell) => {
        placement[cell] = placement[cell] === brush ? '' : brush;
        redraw();
      },
    });
    const svg = holder.querySelector('svg');
    if (svg) holder.parentElement?.style.setProperty('--tc-aspect', String(svg.viewBox.baseVal.width / svg.viewBox.baseVal.height || 1));
    // every edit clears the last error: it was about the position before
    const redraw = () => {
      const fen = placementFen(rules, placement, turn);
      ed.set({ fen });
      fenText.value = fen;
      msg.textContent = '';
    };
    redraw();
    if (bad) {
      fenText.value = bad.fen;
      msg.textContent = `This FEN was not read: ${bad.error}`;
    }
    palette.addEventListener('click', (e) => {
      const b = (e.target as Element).closest('[data-brush]');
      if (!b) return;
      brush = b.getAttribute('data-brush')!;
      palette.querySelectorAll('[data-brush]').forEach((x) => x.setAttribute('aria-pressed', x === b ? 'true' : 'false'));
    });
    turnSel.addEventListener('change', () => {
      turn = turnSel.value === 'b' ? 'b' : 'w';
      redraw();
    });
    fenText.addEventListener('input', () => (msg.textContent = ''));
    fenText.addEventListener('change', () => {
      // the library reads it (and names what is wrong); the board only draws it
      try {
        rules.game(fenText.value).free();
      } catch (err) {
        msg.textContent = (err as Error).message;
        return;
      }
      const r = readFen(rules.topology, fenText.value);
      placement.splice(0, placement.length, ...r.placement);
      turn = r.turn === 'black' ? 'b' : 'w';
      turnSel.value = turn;
      redraw();
    });
    actions.addEventListener('click', (e) => {
      const a = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
      if (a === 'editor-apply') {
        try {
          rules.game(fenText.value).free();
          ctl.reset(fenText.value);
          editorBox.hidden = true;
          main.hidden = false;
          ed.destroy();
        } catch (err) {
          msg.textContent = (err as Error).message;
        }
      } else if (a === 'editor-clear') {
        placement.fill('');
        redraw();
      } else if (a === 'editor-start') {
        const r = readFen(rules.topology, rules.startFen);
        placement.splice(0, placement.length, ...r.placement);
        redraw();
      } else if (a === 'editor-cancel') {
        editorBox.hidden = true;
        main.hidden = false;
        ed.destroy();
        startSearch();
      }
    });
  };

  bindArrowKeys(ctl, keys.signal);
  refresh();
  if (data.pgn) {
    try {
      ctl.loadPgn(data.pgn);
      pgnMsg.textContent = `Loaded on ${data.variant.title}.`;
    } catch (err) {
      pgnMsg.textContent = (err as Error).message;
    }
  }
  if (data.fen_error) openEditor(data.fen_error);
  else startSearch();
}
