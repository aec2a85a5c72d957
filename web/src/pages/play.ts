// /play: a game for two people at one screen or against the in-browser
// engine; move list, undo, flip, PGN/FEN export and import, resign, draw,
// the result.
import { bindArrowKeys, createBoardView, createMoveList } from '../app/boardview';
import { el } from '../app/dom';
import { createEngine } from '../app/engine';
import { GameController } from '../app/game';
import { loadRules } from '../app/rules';
import type { Engine, VariantDetail } from '../app/types';
import { onlineGameBox } from './game';

export interface PlayData {
  variant: VariantDetail;
  fen: string | null;
  engine: 'white' | 'black' | null;
  level: number | null;
}

export async function playPage(app: HTMLElement, data: PlayData): Promise<void> {
  const rules = await loadRules(data.variant);
  const ctl = new GameController(rules, data.fen ?? undefined);
  let engineSide: 'white' | 'black' | null = data.engine ?? null;
  let level = data.level ?? 5;
  let engine: Engine | null = null;
  let thinking = false;

  const title = el('h1', {}, `${data.variant.title}: play`);
  const status = el('p', { class: 'tc-status', 'data-status': '', 'aria-live': 'polite' });
  const result = el('p', { class: 'tc-result', 'data-result': '', hidden: '' });
  const main = el('div', { class: 'tc-play' });
  const boardCol = el('div', { class: 'tc-play-board' });
  const side = el('aside', { class: 'tc-side' });
  main.append(boardCol, side);
  app.replaceChildren(title, status, result, main);

  const movable = () => {
    if (ctl.over() || !ctl.atEnd() || thinking) return 'none' as const;
    if (engineSide) return engineSide === 'white' ? ('black' as const) : ('white' as const);
    return 'both' as const;
  };
  const view = createBoardView(boardCol, rules, ctl, {
    movable,
    // against an engine that plays White, Black sits at the bottom
    extra: { orientation: engineSide === 'white' ? 'black' : 'white' },
    onUserMove: (m) => {
      try {
        ctl.play(m.uci);
      } catch (e) {
        status.textContent = (e as Error).message;
      }
    },
  });

  const moves = el('div', { class: 'tc-movelist' });
  side.append(moves);
  const drawMoves = createMoveList(moves, ctl);

  const controls = el('div', { class: 'tc-controls' });
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  controls.append(
    btn('Undo', 'undo'),
    btn('New game', 'new'),
    btn('Resign', 'resign'),
    btn('Draw', 'draw'),
  );
  side.append(controls);

  const engineBox = el('fieldset', { class: 'tc-engine' });
  const engineSelect = el('select', { name: 'engine', 'data-engine-side': '' });
  for (const [v, label] of [['', 'two players'], ['black', 'engine plays Black'], ['white', 'engine plays White']]) {
    const o = el('option', { value: v }, label);
    if ((engineSide ?? '') === v) o.selected = true;
    engineSelect.append(o);
  }
  const levelInput = el('input', { type: 'number', min: '1', max: '20', value: String(level), name: 'level', 'data-engine-level': '' });
  const thinkingNote = el('span', { class: 'tc-thinking', 'data-thinking': '', hidden: '' }, 'engine thinking…');
  engineBox.append(el('legend', {}, 'Opponent'), engineSelect, el('label', {}, ' level ', levelInput), thinkingNote);
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

  const pgnTags = () => ({
    Event: 'topochess browser game',
    Site: location.host,
    Date: new Date().toISOString().slice(0, 10).replace(/-/g, '.'),
    White: engineSide === 'white' ? `topochess level ${level}` : 'White',
    Black: engineSide === 'black' ? `topochess level ${level}` : 'Black',
  });

  const refresh = () => {
    view.sync();
    drawMoves();
    const st = ctl.status();
    const over = ctl.over();
    let line = '';
    if (ctl.verdict) line = ctl.verdict.text;
    else if (st.status !== 'ongoing') line = st.text;
    else line = `${st.turn === 'w' ? 'White' : 'Black'} to move${st.check ? ' — check' : ''}`;
    if (!ctl.atEnd()) line += ` (showing ply ${ctl.cursor} of ${ctl.plies.length})`;
    status.textContent = line;
    result.hidden = !over;
    result.textContent = over ? `Result: ${ctl.result()}` : '';
    app.setAttribute('data-game-over', over ? 'true' : 'false');
    thinkingNote.hidden = !thinking;
  };

  const engineTurn = () => {
    if (!engineSide || ctl.over() || !ctl.atEnd() || thinking) return;
    const turn = ctl.status().turn === 'w' ? 'white' : 'black';
    if (turn !== engineSide) return;
    thinking = true;
    refresh();
    engine ??= createEngine(data.variant);
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
        }
        else refresh();
      })
      .catch((e: Error) => {
        thinking = false;
        status.textContent = `engine: ${e.message}`;
      });
  };

  ctl.onChange(() => {
    refresh();
    engineTurn();
  });

  controls.addEventListener('click', (e) => {
    const action = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
    if (action === 'undo') {
      if (thinking) engine?.stop();
      thinking = false;
      // Against the engine, take back the engine's reply too.
      const turn = ctl.status().turn === 'w' ? 'white' : 'black';
      ctl.undo(engineSide && turn !== engineSide && ctl.plies.length >= 2 ? 2 : 1);
    } else if (action === 'new') {
      if (thinking) engine?.stop();
      thinking = false;
      ctl.reset(data.fen ?? undefined);
    } else if (action === 'resign') {
      if (ctl.over()) return;
      const turn = ctl.status().turn === 'w' ? 'White' : 'Black';
      const loser = engineSide ? (engineSide === 'white' ? 'Black' : 'White') : turn;
      ctl.verdict = { result: loser === 'White' ? '0-1' : '1-0', text: `${loser} resigns` };
      ctl.changed();
    } else if (action === 'draw') {
      if (ctl.over()) return;
      ctl.verdict = { result: '1/2-1/2', text: 'Draw agreed' };
      ctl.changed();
    }
  });
  io.addEventListener('click', (e) => {
    const action = (e.target as Element).closest('[data-action]')?.getAttribute('data-action');
    try {
      if (action === 'export-pgn') {
        text.value = ctl.pgn(pgnTags());
        ioMsg.textContent = 'PGN of the game above.';
      } else if (action === 'export-fen') {
        text.value = ctl.shownFen();
        ioMsg.textContent = 'FEN of the position shown.';
      } else if (action === 'import') {
        const t = text.value.trim();
        if (t.startsWith('[') || /^\d+\./.test(t)) ctl.loadPgn(t);
        else ctl.reset(t);
        ioMsg.textContent = 'Loaded.';
      }
    } catch (err) {
      ioMsg.textContent = (err as Error).message;
    }
  });
  engineSelect.addEventListener('change', () => {
    engineSide = (engineSelect.value || null) as 'white' | 'black' | null;
    refresh();
    engineTurn();
  });
  levelInput.addEventListener('change', () => {
    level = Math.max(1, Math.min(20, Number(levelInput.value) || 5));
  });
  bindArrowKeys(ctl);
  refresh();
  engineTurn();
  document.body.setAttribute('data-ready', 'true');
}
