// /game/<id>: a game hosted by the server (docs/api.md). With a side's
// token (the link's fragment #token=..., kept in this browser's storage so
// a reload still plays) the page moves for that side; without one it
// watches. The server judges every move; the page follows the game through
// the live stream (server-sent events), which reconnects by itself after a
// dropped connection or a restarted server.
import { bindArrowKeys, createBoardView, createMoveList } from '../app/boardview';
import { el } from '../app/dom';
import { GameController } from '../app/game';
import { createArena } from '../app/layout';
import { playSound } from '../app/sound';
import { DEFAULT_LEVEL, levelSelect } from '../app/levels';
import { loadRules } from '../app/rules';
import type { VariantDetail } from '../app/types';

type Side = 'white' | 'black';

export interface GameState {
  id: string;
  variant: string;
  title: string;
  start_fen: string;
  fen: string;
  moves: { san: string; uci: string; at_ms: number; clock_ms: number }[];
  turn: Side;
  status: 'active' | 'ended';
  result: string;
  termination: string;
  clock: { kind: string; initial_ms?: number; increment_ms?: number; days?: number } | null;
  clocks: { white: number; black: number } | null;
  engine: { side: Side; level: number } | null;
  draw_offer: Side | null;
  takeback_offer: Side | null;
  running: Side | null;
  version: number;
  now_ms: number;
  you?: Side;
}

export interface GameData {
  variant: VariantDetail;
  game: GameState;
}

function tokenFor(id: string): string | null {
  const m = /(?:^#|&)token=([0-9a-f]{32})/.exec(location.hash);
  const key = `tc-token-${id}`;
  if (m) {
    try {
      localStorage.setItem(key, m[1]!);
    } catch {
      /* storage may be off: the link still works */
    }
    return m[1]!;
  }
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

export async function gamePage(app: HTMLElement, data: GameData): Promise<void> {
  const rules = await loadRules(data.variant);
  let state = data.game;
  const token = tokenFor(state.id);
  let you: Side | null = null;
  const ctl = new GameController(rules, state.start_fen);

  const title = el('h1', {}, `${state.title}: game ${state.id}`);
  const status = el('p', { class: 'tc-status', 'data-status': '', 'aria-live': 'polite' });
  const result = el('p', { class: 'tc-result', 'data-result': '', hidden: '' });
  const note = el('p', { class: 'tc-game-note', 'data-note': '' });
  const arena = createArena(app, title, status, result);
  const side = arena.side;

  const clockEl = (s: Side) => el('div', { class: 'tc-clock', 'data-clock': s });
  const clocks = { white: clockEl('white'), black: clockEl('black') };
  const link = el('p', { class: 'tc-game-role', 'data-role': '' });
  // both clocks with the status, on screen beside (or above) the board
  arena.head.insertBefore(el('div', { class: 'tc-clocks' }, clocks.black, clocks.white), result);
  side.append(link);

  const canMove = () => !!you && state.status === 'active' && state.turn === you && ctl.atEnd();
  const view = createBoardView(arena.board, rules, ctl, {
    movable: () => (canMove() ? you! : 'none'),
    extra: { orientation: 'white' },
    onUserMove: (m) => void act('move', { move: m.uci }),
  });

  const moves = el('div', { class: 'tc-movelist' });
  side.append(moves);
  const drawMoves = createMoveList(moves, ctl);

  const controls = el('div', { class: 'tc-controls' });
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  const buttons = {
    resign: btn('Resign', 'resign'),
    offer: btn('Offer draw', 'draw-offer'),
    accept: btn('Accept draw', 'draw-accept'),
    decline: btn('Decline draw', 'draw-decline'),
    takeback: btn('Ask to take back', 'takeback-request'),
    tbAccept: btn('Allow takeback', 'takeback-accept'),
    tbDecline: btn('Refuse takeback', 'takeback-decline'),
    rematch: btn('Rematch', 'rematch'),
  };
  controls.append(...Object.values(buttons));
  const pgn = el('a', { href: `/api/games/${state.id}/pgn`, 'data-pgn': '', download: `${state.id}.pgn` }, 'Download PGN');
  side.append(controls, note, el('p', {}, pgn, ' · ', el('a', { href: `/games?variant=${encodeURIComponent(state.variant)}` }, 'archive')));

  // The moves of the state into the controller: extend when the state
  // continues what is shown, else replay from the start (a takeback).
  const follow = (s: GameState) => {
    const have = ctl.uciMoves();
    const extends_ = have.length <= s.moves.length && have.every((u, i) => s.moves[i]!.uci === u);
    const atEnd = ctl.atEnd();
    if (!extends_) ctl.reset(s.start_fen);
    const from = extends_ ? have.length : 0;
    for (let i = from; i < s.moves.length; i++) {
      ctl.cursor = ctl.plies.length;
      ctl.play(s.moves[i]!.uci);
    }
    if (atEnd || !extends_) ctl.cursor = ctl.plies.length;
  };

  let received = performance.now();
  let lowWarned = false;
  const drawClocks = () => {
    for (const s of ['white', 'black'] as const) {
      const c = clocks[s];
      if (!state.clocks) {
        c.textContent = `${s === 'white' ? 'White' : 'Black'}: untimed`;
        continue;
      }
      let ms = state.clocks[s];
      if (state.running === s && state.status === 'active') ms -= performance.now() - received;
      c.textContent = `${s === 'white' ? 'White' : 'Black'} ${clockText(ms)}`;
      c.setAttribute('data-ms', String(Math.max(0, Math.round(ms))));
      c.toggleAttribute('data-running', state.running === s && state.status === 'active');
      // your clock under ten seconds: one warning (when sounds are on)
      if (s === you && state.running === s && state.status === 'active' && ms < 10000 && !lowWarned) {
        lowWarned = true;
        playSound('lowtime');
      }
    }
  };

  const refresh = () => {
    view.sync();
    drawMoves();
    const active = state.status === 'active';
    const turnName = state.turn === 'white' ? 'White' : 'Black';
    let line = active ? `${turnName} to move${ctl.status().check ? ', in check' : ''}` : `Game over: ${state.termination}`;
    if (active && you) line += state.turn === you ? ' — your move' : '';
    if (!ctl.atEnd()) line += ` (showing ply ${ctl.cursor} of ${ctl.plies.length})`;
    status.textContent = line;
    result.hidden = active;
    result.textContent = active ? '' : `Result: ${state.result}`;
    app.setAttribute('data-game-status', state.status);
    app.setAttribute('data-game-version', String(state.version));
    app.setAttribute('data-you', you ?? 'watcher');
    link.textContent = you ? `You play ${you}.` : 'You are watching this game.';
    const mine = !!you && active;
    const opp: Side | null = you ? (you === 'white' ? 'black' : 'white') : null;
    buttons.resign.hidden = !mine;
    buttons.offer.hidden = !mine || state.draw_offer === you || !!state.engine;
    buttons.accept.hidden = !mine || state.draw_offer !== opp;
    buttons.decline.hidden = !mine || state.draw_offer !== opp;
    buttons.takeback.hidden = !mine || state.takeback_offer === you || ctl.plies.length === 0;
    buttons.tbAccept.hidden = !mine || state.takeback_offer !== opp;
    buttons.tbDecline.hidden = !mine || state.takeback_offer !== opp;
    buttons.rematch.hidden = !you || active;
    drawClocks();
  };

  const apply = (s: GameState) => {
    if (s.version < state.version) return;
    state = s;
    received = performance.now();
    follow(s);
    refresh();
  };

  async function act(action: string, body: Record<string, string>): Promise<void> {
    if (!token) return;
    try {
      const r = await fetch(`/api/games/${state.id}/${action}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token, ...body }),
      });
      const j = (await r.json()) as GameState & { error?: string; url?: string };
      if (!r.ok) {
        note.textContent = j.error ?? `error ${r.status}`;
        view.sync();
        return;
      }
      note.textContent = '';
      if (action === 'rematch' && j.url) {
        location.href = j.url;
        return;
      }
      apply(j);
    } catch (e) {
      note.textContent = `the server did not answer: ${(e as Error).message}`;
      view.sync();
    }
  }

  controls.addEventListener('click', (e) => {
    const a = (e.target as Element).closest('[data-action]')?.getAttribute('data-action') ?? '';
    if (a === 'resign') void act('resign', {});
    else if (a.startsWith('draw-')) void act('draw', { action: a.slice(5) });
    else if (a.startsWith('takeback-')) void act('takeback', { action: a.slice(9) });
    else if (a === 'rematch') void act('rematch', {});
  });
  ctl.onChange(refresh);
  bindArrowKeys(ctl);

  // Which side the token plays, asked of the server (the page never
  // guesses from the link).
  if (token) {
    const r = await fetch(`/api/games/${state.id}`, { headers: { Authorization: `Bearer ${token}` } });
    if (r.ok) {
      const s = (await r.json()) as GameState;
      you = s.you ?? null;
      apply(s);
    } else {
      note.textContent = 'The token in this link is not one of this game\'s.';
    }
  }
  if (you === 'black') view.board.flip();
  arena.fit();
  follow(state);
  refresh();

  const events = new EventSource(`/api/games/${state.id}/events`);
  events.addEventListener('state', (e) => apply(JSON.parse((e as MessageEvent<string>).data) as GameState));
  events.addEventListener('rematch', (e) => {
    const { id } = JSON.parse((e as MessageEvent<string>).data) as { id: string };
    note.replaceChildren('Rematch: ', el('a', { href: `/game/${id}`, 'data-rematch': id }, `game ${id}`));
  });
  events.addEventListener('open', () => app.setAttribute('data-live', 'true'));
  events.addEventListener('error', () => app.setAttribute('data-live', 'false'));
  setInterval(drawClocks, 200);
}

/** A box on /play that makes a game on the server: against a person (two
 * links) or the server's engine. */
export function onlineGameBox(slug: string, fen: string | null): HTMLElement {
  const box = el('fieldset', { class: 'tc-online', 'data-online': '' });
  const who = el('select', { name: 'online-opponent', 'data-online-opponent': '' });
  for (const [v, label] of [['', 'a person (send them a link)'], ['black', 'the server engine (you White)'], ['white', 'the server engine (you Black)']])
    who.append(el('option', { value: v! }, label!));
  const minutes = el('input', { type: 'number', min: '0', max: '600', value: '5', name: 'online-minutes', 'data-online-minutes': '' });
  const inc = el('input', { type: 'number', min: '0', max: '600', value: '3', name: 'online-increment', 'data-online-increment': '' });
  const level = levelSelect(DEFAULT_LEVEL, { name: 'online-level' });
  const go = el('button', { type: 'button', 'data-action': 'online-create' }, 'Create game on the server');
  const out = el('div', { class: 'tc-online-links', 'data-online-links': '' });
  box.append(
    el('legend', {}, 'Play online'),
    el('label', {}, 'Opponent ', who),
    el('label', {}, ' minutes ', minutes),
    el('label', {}, ' + seconds ', inc),
    el('label', {}, ' level ', level),
    go,
    out,
  );
  go.addEventListener('click', async () => {
    const min = Number(minutes.value) || 0;
    const body: Record<string, unknown> = { variant: slug };
    if (fen) body.fen = fen;
    if (min > 0) body.clock = { kind: 'fischer', initial_ms: min * 60000, increment_ms: (Number(inc.value) || 0) * 1000 };
    if (who.value) {
      body.engine = who.value;
      body.level = Number(level.value) || DEFAULT_LEVEL;
    }
    const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const j = (await r.json()) as { error?: string; url: string; white?: { url: string }; black?: { url: string } };
    if (!r.ok) {
      out.textContent = j.error ?? `error ${r.status}`;
      return;
    }
    const mine = j.white ?? j.black!;
    if (who.value) {
      location.href = mine.url;
      return;
    }
    const abs = (u: string) => new URL(u, location.href).href;
    out.replaceChildren(
      el('p', {}, 'White: ', el('a', { href: j.white!.url, 'data-link': 'white' }, abs(j.white!.url))),
      el('p', {}, 'Black (send this one): ', el('a', { href: j.black!.url, 'data-link': 'black' }, abs(j.black!.url))),
      el('p', {}, 'Watch: ', el('a', { href: j.url, 'data-link': 'watch' }, abs(j.url))),
    );
  });
  return box;
}
