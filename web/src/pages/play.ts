// /play: a game for two people at one screen or against the in-browser
// engine; move list, undo, flip, PGN/FEN export and import, resign, draw,
// the result. The board is sized to the screen (app/layout.ts).
import { announceMoves, bindArrowKeys, createBoardView, createMoveInput, createMoveList } from '../app/boardview';
import { askInline } from '../app/confirm';
import { el } from '../app/dom';
import { createEngine } from '../app/engine';
import { evaluationNote } from '../app/evalnote';
import { GameController } from '../app/game';
import { watchDeadPositions } from '../app/deadwatch';
import { createArena } from '../app/layout';
import { clampLevel, DEFAULT_LEVEL, levelName, levelSelect } from '../app/levels';
import { loadRules } from '../app/rules';
import { statusLine } from '../app/status';
import type { Engine, EngineInfo, VariantDetail } from '../app/types';
import { onlineGameBox } from './game';

export interface PlayData {
  variant: VariantDetail;
  fen: string | null;
  engine: 'white' | 'black' | null;
  level: number | null;
}

type Side = 'white' | 'black';

/** The engine accepts a draw when its search sees the game within this of
 * equal (centipawns, as the terminal game: cli/play.c). */
export const DRAW_MARGIN = 30;

/** The engine's answer to a draw offer, from its last completed iteration
 * (score from the side to move's view) and which side it plays. */
export function drawAnswer(info: EngineInfo | null, engineToMove: boolean): { accept: boolean; text: string } {
  if (!info) return { accept: false, text: 'topochess cannot judge this position: the game goes on' };
  const sign = engineToMove ? 1 : -1;
  const mate = (info.score.mate ?? 0) * sign;
  const mine = (info.score.cp ?? 0) * sign;
  const pawns = `${mine >= 0 ? '+' : ''}${(mine / 100).toFixed(2)}`;
  if (!mate && Math.abs(mine) <= DRAW_MARGIN) return { accept: true, text: `topochess accepts the draw (it sees ${pawns})` };
  if (mate > 0) return { accept: false, text: 'topochess declines the draw: it sees a mate for itself' };
  if (mate < 0) return { accept: false, text: 'topochess declines the draw: it sees a mate against itself, and plays on' };
  return { accept: false, text: `topochess declines the draw: it sees ${pawns} for itself${mine < 0 ? ' and plays on' : ''}` };
}

export async function playPage(app: HTMLElement, data: PlayData): Promise<void> {
  const rules = await loadRules(data.variant);
  const ctl = new GameController(rules, data.fen ?? undefined);
  let engineSide: Side | null = data.engine ?? null;
  let level = clampLevel(data.level ?? DEFAULT_LEVEL);
  let engine: Engine | null = null;
  let thinking = false;
  let judging = false;
  /** a move tried while the engine thinks, judged by the rules when the
   * turn comes back */
  let premove: { from: number; to: number } | null = null;
  const you = (): Side | null => (engineSide ? (engineSide === 'white' ? 'black' : 'white') : null);

  const title = el('h1', {}, `${data.variant.title}: play`);
  const players = el('p', { class: 'tc-players', 'data-players': '' });
  const status = el('p', { class: 'tc-status', 'data-status': '', 'aria-live': 'polite' });
  const whyHost = el('div', { class: 'tc-why-host' });
  const note = el('p', { class: 'tc-note', 'data-note': '', 'aria-live': 'polite' });
  const result = el('p', { class: 'tc-result', 'data-result': '', hidden: '' });
  const ask = el('div', { class: 'tc-ask', 'data-ask': '' });
  const arena = createArena(app, title, players, status, whyHost, note, result, ask);
  const side = arena.side;

  const turnSide = (): Side => (ctl.status().turn === 'w' ? 'white' : 'black');
  const movable = () => {
    if (ctl.over() || !ctl.atEnd() || thinking || judging) return 'none' as const;
    if (engineSide) return engineSide === 'white' ? ('black' as const) : ('white' as const);
    return 'both' as const;
  };
  const view = createBoardView(arena.board, rules, ctl, {
    movable,
    whyHost,
    // against an engine that plays White, Black sits at the bottom
    extra: {
      orientation: engineSide === 'white' ? 'black' : 'white',
      // a click that neither picks nor moves: say why nothing happens
      onCellClick: (cell) => {
        const piece = view.board.state.placement[cell];
        if (!piece && premove) {
          setPremove(null);
          note.textContent = 'Premove cancelled.';
          return;
        }
        if (!piece) return;
        if (ctl.over()) note.textContent = 'The game is over: start a new game, or undo.';
        else if (!ctl.atEnd()) note.textContent = 'You are looking at an earlier move: press End (or click the last move) to play on.';
        else if (thinking) note.textContent = 'The engine is thinking: your turn comes after its move.';
        else if (judging) note.textContent = 'The engine is judging your draw offer.';
        else note.textContent = `${turnSide() === 'white' ? 'White' : 'Black'} to move: that piece is not to move now.`;
      },
    },
    onPremove: (from, to) => {
      setPremove({ from, to });
      const name = (c: number) => rules.topology.cellName(c);
      note.textContent = `Premove ${name(from)}-${name(to)}: played when your turn comes, if it is legal then (click an empty cell to cancel).`;
    },
    onUserMove: (m) => {
      try {
        ctl.play(m.uci);
      } catch (e) {
        note.textContent = (e as Error).message;
      }
    },
  });
  arena.fit();
  const setPremove = (p: { from: number; to: number } | null) => {
    premove = p;
    app.toggleAttribute('data-premove', !!p);
    view.board.set({ marks: new Map(p ? [[p.from, 'premove'], [p.to, 'premove']] : []) });
  };
  /** The turn came back: the rules module judges the premove now. */
  const firePremove = () => {
    const p = premove;
    if (!p) return;
    setPremove(null);
    if (ctl.over() || !ctl.atEnd()) return;
    const name = `${rules.topology.cellName(p.from)}-${rules.topology.cellName(p.to)}`;
    const legal = ctl.game.moves().filter((m) => m.from === p.from && m.to === p.to);
    if (!legal.length) {
      note.textContent = `Premove ${name} is not legal now: cancelled.`;
      return;
    }
    ctl.play((legal.find((m) => m.promotion === 'q') ?? legal[0]!).uci);
  };

  const moves = el('div', { class: 'tc-movelist' });
  side.append(moves);
  const drawMoves = createMoveList(moves, ctl);
  createMoveInput(
    side,
    ctl,
    () => {
      if (ctl.over()) return 'The game is over.';
      if (!ctl.atEnd()) return 'You are looking at an earlier move: press End to play on.';
      if (thinking) return 'The engine is thinking: your turn comes after its move.';
      const m = movable();
      if (m === 'both' || m === turnSide()) return null;
      return 'Not your move now.';
    },
    (msg) => (note.textContent = msg),
  );
  announceMoves(side, ctl);

  const controls = el('div', { class: 'tc-controls' });
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  controls.append(btn('Undo', 'undo'), btn('New game', 'new'), btn('Resign', 'resign'), btn('Draw', 'draw'));
  side.append(controls);

  const engineBox = el('fieldset', { class: 'tc-engine' });
  const engineSelect = el('select', { name: 'engine', 'data-engine-side': '' });
  for (const [v, label] of [['', 'two players'], ['black', 'engine plays Black'], ['white', 'engine plays White']]) {
    const o = el('option', { value: v! }, label!);
    if ((engineSide ?? '') === v) o.selected = true;
    engineSelect.append(o);
  }
  const levelInput = levelSelect(level, { name: 'level', 'data-engine-level': '' });
  const thinkingNote = el('span', { class: 'tc-thinking', 'data-thinking': '', hidden: '' }, 'engine thinking…');
  const evalNote = evaluationNote();
  engineBox.append(el('legend', {}, 'Opponent'), engineSelect, el('label', {}, ' level ', levelInput), thinkingNote, evalNote.node);
  side.append(engineBox);
  side.append(onlineGameBox(data.variant.slug, data.fen));

  const io = el('details', { class: 'tc-io' });
  const text = el('textarea', { rows: '6', spellcheck: 'false', 'data-io': '', 'aria-label': 'PGN or FEN' });
  const ioMsg = el('p', { class: 'tc-io-msg', 'data-io-msg': '' });
  io.append(
    el('summary', {}, 'PGN / FEN'),
    text,
    el('div', {}, btn('Export PGN', 'export-pgn'), btn('Export FEN', 'export-fen'), btn('Import', 'import')),
    ioMsg,
  );
  side.append(io);
  // What the box shows follows the game until the person types in it.
  let ioFollows: 'pgn' | 'fen' | null = null;
  text.addEventListener('input', () => (ioFollows = null));

  const engineName = () => `topochess level ${levelName(level)}`;
  const pgnTags = () => ({
    Event: 'topochess browser game',
    Site: location.host,
    Date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
    White: engineSide === 'white' ? `topochess level ${level}` : 'White',
    Black: engineSide === 'black' ? `topochess level ${level}` : 'Black',
    // as the terminal and the server write it (docs/rules.md section 6)
    ...(ctl.verdict?.termination || (!ctl.verdict && ctl.status().status === 'dead-position')
      ? { Termination: ctl.verdict?.termination ?? 'dead position' }
      : {}),
  });

  const refresh = () => {
    view.sync();
    drawMoves();
    const over = ctl.over();
    let line = statusLine(ctl);
    if (!ctl.atEnd()) line += ` (showing ply ${ctl.cursor} of ${ctl.plies.length})`;
    status.textContent = line;
    result.hidden = !over;
    result.textContent = over ? `Result: ${ctl.result()}` : '';
    app.setAttribute('data-game-over', over ? 'true' : 'false');
    thinkingNote.hidden = !thinking;
    // while the engine thinks, your pieces may be picked for a premove
    const pre = thinking && ctl.atEnd() && !ctl.over() ? you() : null;
    if (view.board.state.config.premove !== pre) view.board.set({ premove: pre });
    const who = (s: Side) => (engineSide === s ? engineName() : engineSide ? 'you' : s === 'white' ? 'White' : 'Black');
    players.hidden = !engineSide;
    players.replaceChildren(
      el('span', { 'data-player': 'white' }, `White: ${who('white')}`),
      ' · ',
      el('span', { 'data-player': 'black' }, `Black: ${who('black')}`),
    );
    if (ioFollows === 'pgn') text.value = ctl.pgn(pgnTags());
    else if (ioFollows === 'fen') text.value = ctl.shownFen();
  };

  const engineTurn = () => {
    if (!engineSide || ctl.over() || !ctl.atEnd() || thinking || judging) return;
    if (turnSide() !== engineSide) return;
    thinking = true;
    refresh();
    engine ??= createEngine(data.variant, evalNote.show);
    const plyAtStart = ctl.plies.length;
    engine
      .search(ctl.startFen, ctl.uciMoves(), { level, movetime: 1500 }, () => {})
      .then((best) => {
        thinking = false;
        // The game may have changed meanwhile (undo, new game).
        if (best && ctl.plies.length === plyAtStart && !ctl.over()) {
          // the reply goes at the end, even if the user is looking back
          ctl.cursor = ctl.plies.length;
          ctl.play(best);
          firePremove();
        } else refresh();
      })
      .catch((e: Error) => {
        thinking = false;
        note.textContent = `engine: ${e.message}`;
        refresh();
      });
  };

  watchDeadPositions(ctl, data.variant);
  ctl.onChange(() => {
    note.textContent = '';
    refresh();
    engineTurn();
  });

  const stopThinking = () => {
    if (premove) setPremove(null);
    if (thinking || judging) engine?.stop();
    thinking = false;
    judging = false;
  };

  /** A draw offer to the engine: accepted only when it sees the game near
   * equal (positions drawn by rule end the game by themselves). */
  const offerDraw = () => {
    const side = engineSide!;
    judging = true;
    note.textContent = 'topochess is thinking about your draw offer…';
    refresh();
    engine ??= createEngine(data.variant, evalNote.show);
    const plies = ctl.plies.length;
    const engineToMove = turnSide() === side;
    let last: EngineInfo | null = null;
    engine
      .search(ctl.startFen, ctl.uciMoves(), { depth: 6, movetime: 1000 }, (i) => (last = i))
      .then(() => {
        if (!judging || ctl.plies.length !== plies) return;
        judging = false;
        const a = drawAnswer(last, engineToMove);
        if (a.accept) {
          ctl.verdict = { result: '1/2-1/2', text: 'Draw agreed' };
          ctl.changed();
        } else refresh();
        note.textContent = a.text;
        note.setAttribute('data-draw', a.accept ? 'accepted' : 'declined');
      })
      .catch((e: Error) => {
        judging = false;
        note.textContent = `engine: ${e.message}`;
        refresh();
        engineTurn();
      });
  };

  controls.addEventListener('click', (e) => {
    const action = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
    if (action === 'undo') {
      const takeBack = () => {
        stopThinking();
        if (ctl.verdict) {
          // a resignation or agreement is not a move: take back only it
          ctl.verdict = null;
          ctl.changed();
          return;
        }
        // Against the engine, take back the engine's reply too.
        ctl.undo(engineSide && turnSide() !== engineSide && ctl.plies.length >= 2 ? 2 : 1);
      };
      if (ctl.over()) askInline(ask, `Take back the result (${ctl.result()}, ${ctl.verdict?.text ?? ctl.status().text})?`, 'Take it back', takeBack);
      else takeBack();
    } else if (action === 'new') {
      stopThinking();
      ctl.reset(data.fen ?? undefined);
    } else if (action === 'resign') {
      if (ctl.over()) return;
      const loser = engineSide ? (engineSide === 'white' ? 'Black' : 'White') : turnSide() === 'white' ? 'White' : 'Black';
      askInline(ask, `${loser} resigns?`, 'Resign', () => {
        if (ctl.over()) return;
        stopThinking();
        ctl.verdict = { result: loser === 'White' ? '0-1' : '1-0', text: `${loser} resigns` };
        ctl.changed();
      });
    } else if (action === 'draw') {
      if (ctl.over() || judging) return;
      if (engineSide) {
        if (thinking) {
          note.textContent = 'Offer the draw on your move: the engine is thinking.';
          return;
        }
        offerDraw();
      } else
        askInline(ask, 'Agree a draw?', 'Draw', () => {
          if (ctl.over()) return;
          ctl.verdict = { result: '1/2-1/2', text: 'Draw agreed' };
          ctl.changed();
        });
    }
  });
  io.addEventListener('click', (e) => {
    const action = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
    try {
      if (action === 'export-pgn') {
        ioFollows = 'pgn';
        text.value = ctl.pgn(pgnTags());
        ioMsg.textContent = 'PGN of the game (follows the moves).';
      } else if (action === 'export-fen') {
        ioFollows = 'fen';
        text.value = ctl.shownFen();
        ioMsg.textContent = 'FEN of the position shown (follows the moves).';
      } else if (action === 'import') {
        const t = text.value.trim();
        ioFollows = null;
        if (t.startsWith('[') || /^\d+\./.test(t)) ctl.loadPgn(t);
        else ctl.reset(t);
        ioMsg.textContent = 'Loaded.';
      }
    } catch (err) {
      ioMsg.textContent = (err as Error).message;
    }
  });
  engineSelect.addEventListener('change', () => {
    engineSide = (engineSelect.value || null) as Side | null;
    refresh();
    engineTurn();
  });
  levelInput.addEventListener('change', () => {
    level = clampLevel(Number(levelInput.value));
    refresh();
  });
  bindArrowKeys(ctl);
  refresh();
  arena.fit();
  engineTurn();
  document.body.setAttribute('data-ready', 'true');
}
