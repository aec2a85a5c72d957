// /game/<id>: a game hosted by the server (docs/api.md). With a side's
// token (the link's fragment #token=..., kept in this browser's storage so
// a reload still plays) the page moves for that side; so it does for the
// signed-in account that plays a side (a lobby game: the session's cookie
// and its CSRF token); else it watches. The server judges every move; the page follows the game through
// the live stream (server-sent events), which reconnects by itself after a
// dropped connection or a restarted server.
import { bindArrowKeys, createBoardView, createMoveList } from '../app/boardview';
import { el } from '../app/dom';
import { GameController } from '../app/game';
import { fitGamePage } from '../app/gamefit';
import { DEFAULT_LEVEL, levelSelect } from '../app/levels';
import { analysisBox } from '../app/analysis-box';
import { playSound } from '../app/sound';
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
  rematch_offer?: Side | null;
  running: Side | null;
  version: number;
  now_ms: number;
  you?: Side;
}

export interface Player {
  name: string;
  rating: number;
  provisional: boolean;
}

export interface GameData {
  variant: VariantDetail;
  game: GameState;
  players?: { white: Player | null; black: Player | null; rated: boolean };
}

interface ChatLine {
  side: Side;
  text: string;
  at_ms: number;
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

function keepToken(id: string, token: string): void {
  try {
    localStorage.setItem(`tc-token-${id}`, token);
  } catch {
    /* storage may be off */
  }
}

function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s >= 86400) return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(sec).padStart(2, '0')}`;
}

const Name = (s: Side) => (s === 'white' ? 'White' : 'Black');
const other = (s: Side): Side => (s === 'white' ? 'black' : 'white');

/** The time under which a clock shows its low-time warning: an eighth of
 * the start, between 10 s and 60 s; half a day for correspondence. */
export function lowTime(clock: GameState['clock']): number {
  if (!clock) return 0;
  if (clock.kind === 'correspondence') return 12 * 3600 * 1000;
  return Math.min(60000, Math.max(10000, (clock.initial_ms ?? 0) / 8));
}

/** The result in words: "White wins (1-0)", "Draw", "Aborted". */
export function resultWords(s: GameState): string {
  if (s.result === '1-0') return 'White wins (1-0)';
  if (s.result === '0-1') return 'Black wins (0-1)';
  if (s.result === '1/2-1/2') return 'Draw (½-½)';
  if (s.result === '-') return 'Aborted, without a result';
  return '';
}

export async function gamePage(app: HTMLElement, data: GameData): Promise<void> {
  const rules = await loadRules(data.variant);
  let state = data.game;
  const token = tokenFor(state.id);
  let you: Side | null = null;
  let csrf: string | null = null; // a signed-in player's, when there is no token
  const ctl = new GameController(rules, state.start_fen);
  const players = data.players ?? { white: null, black: null, rated: false };

  const title = el('h1', { class: 'tc-gp-title' }, `${state.title}: `, el('span', { class: 'tc-gp-id' }, `game ${state.id}`));
  const status = el('p', { class: 'tc-status', 'data-status': '', 'aria-live': 'polite' });
  const result = el('p', { class: 'tc-result', 'data-result': '', hidden: '' });
  const note = el('p', { class: 'tc-game-note', 'data-note': '' });
  const main = el('div', { class: 'tc-gp' });
  const boardWrap = el('div', { class: 'tc-gp-boardcol' });
  const boardCol = el('div', { class: 'tc-gp-board' });
  const side = el('aside', { class: 'tc-gp-side' });
  // beside the board on a wide screen: the bars at its top and bottom
  // edges, between them the status, the moves and the buttons (as tall
  // as the board); on a phone its parts go around the board (arrange)
  const table = el('div', { class: 'tc-gp-table' });
  side.append(table);
  main.append(boardWrap, side);
  app.replaceChildren(title, main);

  // A bar beside each side of the board: name, rating, clock.
  const bar = (s: Side) => {
    const p = players[s];
    const who =
      state.engine?.side === s
        ? el('span', { class: 'tc-gp-name' }, `Engine (level ${state.engine.level})`)
        : p
          ? el('span', { class: 'tc-gp-name' }, el('a', { href: `/@/${encodeURIComponent(p.name)}` }, p.name), ' ',
            el('span', { class: 'tc-gp-rating', 'data-rating': String(p.rating) }, `${p.rating}${p.provisional ? '?' : ''}`))
          : el('span', { class: 'tc-gp-name tc-gp-anon' }, 'Anonymous');
    const clock = el('div', { class: 'tc-clock', 'data-clock': s });
    const b = el('div', { class: 'tc-gp-player', 'data-player': s },
      el('span', { class: `tc-gp-dot tc-gp-${s}`, 'aria-hidden': 'true' }), who, clock);
    return { b, clock };
  };
  const bars = { white: bar('white'), black: bar('black') };
  const clocks = { white: bars.white.clock, black: bars.black.clock };
  boardWrap.append(bars.black.b, boardCol, bars.white.b);

  const link = el('p', { class: 'tc-game-role', 'data-role': '' });
  const spectators = el('span', { class: 'tc-gp-spectators', 'data-spectators': '0' });
  const notice = el('div', { class: 'tc-gp-notice', 'data-notice': '', 'aria-live': 'polite', hidden: '' });
  table.append(status, result, notice, link);

  let better: (ply: number) => string | null = () => null; // the analysis's better move, drawn as an arrow
  const canMove = () => !!you && state.status === 'active' && state.turn === you && ctl.atEnd();
  const view = createBoardView(boardCol, rules, ctl, {
    movable: () => (canMove() ? you! : 'none'),
    extra: { orientation: 'white' },
    onUserMove: (m) => void act('move', { move: m.uci }),
    betterMove: (ply) => better(ply),
  });

  const moves = el('div', { class: 'tc-movelist' });
  table.append(moves);
  const drawMoves = createMoveList(moves, ctl);

  const controls = el('div', { class: 'tc-controls' });
  const btn = (label: string, action: string) => el('button', { type: 'button', 'data-action': action }, label);
  const buttons = {
    resign: btn('Resign', 'resign'),
    abort: btn('Abort', 'abort'),
    offer: btn('Offer draw', 'draw-offer'),
    takeback: btn('Ask to take back', 'takeback-request'),
    rematch: btn('Offer a rematch', 'rematch-offer'),
  };
  const confirm = el('div', { class: 'tc-gp-confirm', 'data-confirm': '', hidden: '' },
    el('span', {}, 'Resign this game? '), btn('Yes, resign', 'resign-confirm'), btn('Cancel', 'resign-cancel'));
  controls.append(...Object.values(buttons), confirm);
  const pgn = el('a', { href: `/api/games/${state.id}/pgn`, 'data-pgn': '', download: `${state.id}.pgn` }, 'Download PGN');
  table.append(controls, note);
  side.append(el('p', {}, pgn, ' · ', el('a', { href: `/games?variant=${encodeURIComponent(state.variant)}` }, 'archive')));

  // the computer analysis of an ended game: the server's, stored, or this browser's (docs/analysis.md)
  const analysis = analysisBox({
    id: state.id, rules, startFen: state.start_fen, token,
    moves: () => state.moves.map((m) => m.uci), result: () => state.result, ended: () => state.status === 'ended',
    players: { white: players.white?.name ?? 'Anonymous', black: players.black?.name ?? 'Anonymous' },
    goto: (ply) => ctl.goto(ply),
    onBetter: (fn) => {
      better = fn;
      view.sync();
    },
    refit: () => fit(),
  });
  side.append(analysis.element);
  const showReviewBox = () => analysis.update();

  // Where the bars, the title and the buttons go, and how large the board
  // is: the board fills the window's height (less the header) beside the
  // table on a wide screen; on a phone the board, both bars and the
  // buttons fit the screen together (see fitGamePage).
  const narrowQuery = window.matchMedia('(max-width: 700px)');
  let topSide: Side = 'black';
  const holder = boardCol.querySelector('.tc-board-holder');
  const flat = boardCol.querySelector('.tc-flat');
  const toolbar = boardCol.querySelector('.tc-toolbar');
  const arrange = () => {
    const [a, z] = [bars[topSide].b, bars[other(topSide)].b];
    if (narrowQuery.matches) {
      main.before(title);
      if (toolbar && flat) flat.prepend(toolbar);
      if (holder) {
        holder.before(a);
        holder.after(z);
        z.after(controls, notice);
      } else boardWrap.replaceChildren(a, boardCol, z, controls, notice);
    } else {
      // the board's tools beside it: the board takes the whole height
      table.prepend(a, title, ...(toolbar ? [toolbar] : []), status, result, notice, link);
      moves.after(controls, note);
      table.append(z);
    }
  };
  const placeBars = (top: Side) => {
    topSide = top;
    arrange();
    fit();
  };
  const fit = () => fitGamePage(main, boardWrap, narrowQuery.matches ? [bars[other(topSide)].b, controls, notice] : []);
  let queued = false;
  const refit = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit();
    });
  };
  narrowQuery.addEventListener('change', () => {
    arrange();
    refit();
  });
  window.addEventListener('resize', refit);
  new ResizeObserver(refit).observe(main);
  placeBars('black');

  // The players' chat: shown to the players; a watcher turns it on.
  const chatBox = el('section', { class: 'tc-gp-chat', 'data-chat': '' });
  const chatList = el('ol', { class: 'tc-gp-chat-lines', 'data-chat-lines': '' });
  const chatInput = el('input', { type: 'text', maxlength: '280', placeholder: 'Say something to your opponent', 'data-chat-input': '', 'aria-label': 'chat line' });
  const chatForm = el('form', { class: 'tc-gp-chat-form' }, chatInput, el('button', { type: 'submit', 'data-action': 'chat-send' }, 'Send'));
  const chatToggle = el('button', { type: 'button', 'data-action': 'chat-show' }, 'Show the players\u2019 chat');
  const chatClosed = el('p', { class: 'tc-gp-chat-closed', 'data-chat-closed': '', hidden: '' },
    'The players keep their chat to themselves.');
  const chatOpen = el('input', { type: 'checkbox', 'data-chat-watchers': '' }) as HTMLInputElement;
  const chatOpenLabel = el('label', { class: 'tc-check tc-gp-chat-open' }, chatOpen, ' Let watchers read our chat (both players must agree)');
  let chatOn = false;
  const drawChat = (lines: ChatLine[]) => {
    chatList.replaceChildren(
      ...lines.map((l) => el('li', { 'data-side': l.side }, el('b', {}, `${players[l.side]?.name ?? Name(l.side)}: `), l.text)),
    );
    chatList.scrollTop = chatList.scrollHeight;
  };
  // who the page speaks for: the token, else the session (its CSRF token)
  const credentials = (): Record<string, string> =>
    token ? { Authorization: `Bearer ${token}` } : csrf ? { 'X-CSRF-Token': csrf } : {};
  type Chat = { chat: ChatLine[]; watchers?: { white: boolean; black: boolean } };
  const showChat = (c: Chat) => {
    drawChat(c.chat);
    if (you && c.watchers) chatOpen.checked = c.watchers[you];
  };
  const loadChat = async () => {
    const r = await fetch(`/api/games/${state.id}/chat`, { headers: credentials() });
    chatClosed.hidden = r.status !== 403 || !!you;
    if (r.ok) showChat((await r.json()) as Chat);
    else if (r.status === 403) chatList.replaceChildren();
  };
  chatOpen.addEventListener('change', () => void act('chat-watchers', { action: chatOpen.checked ? 'on' : 'off' }));
  chatForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = chatInput.value.trim();
    if (!text) return;
    void (async () => {
      const r = await fetch(`/api/games/${state.id}/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
        body: JSON.stringify(token ? { token, text } : { text }),
      });
      const j = (await r.json()) as Chat & { error?: string };
      if (!r.ok) {
        note.textContent = j.error ?? `error ${r.status}`;
        return;
      }
      chatInput.value = '';
      showChat(j);
    })();
  });
  chatToggle.addEventListener('click', () => {
    chatOn = true;
    chatToggle.remove();
    chatBox.append(chatList, chatClosed);
    void loadChat();
  });
  side.append(chatBox);

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
  const low = lowTime(state.clock);
  let lowWarned = false;
  const drawClocks = () => {
    for (const s of ['white', 'black'] as const) {
      const c = clocks[s];
      if (!state.clocks) {
        c.textContent = 'untimed';
        continue;
      }
      let ms = state.clocks[s];
      const running = state.running === s && state.status === 'active';
      if (running) ms -= performance.now() - received;
      c.textContent = clockText(ms);
      c.setAttribute('data-ms', String(Math.max(0, Math.round(ms))));
      c.toggleAttribute('data-running', running);
      c.toggleAttribute('data-low', state.status === 'active' && ms < low);
      // your own clock past the low-time mark: one sound (when sounds are on)
      if (s === you && running && ms < low && !lowWarned) {
        lowWarned = true;
        playSound('lowtime');
      }
      bars[s].b.toggleAttribute('data-running', running);
    }
  };

  const announce = (prev: GameState | null, s: GameState): string => {
    const opp = you ? other(you) : null;
    const sameMoves = !!prev && prev.moves.length === s.moves.length;
    if (s.status === 'active') {
      if (s.draw_offer)
        return s.draw_offer === you ? 'You offered a draw.' : `${Name(s.draw_offer)} offers a draw.`;
      if (s.takeback_offer)
        return s.takeback_offer === you ? 'You asked to take back your move.' : `${Name(s.takeback_offer)} asks to take back a move.`;
      if (prev?.draw_offer === you && you)
        return sameMoves ? 'Your draw offer was declined.' : 'Your draw offer lapsed with the move.';
      if (prev?.takeback_offer === you && you && sameMoves) return 'Your takeback request was declined.';
      if (prev?.draw_offer && prev.draw_offer === opp && !sameMoves) return `${Name(opp!)}'s draw offer lapsed with the move.`;
      return '';
    }
    if (s.rematch_offer)
      return s.rematch_offer === you ? 'You offered a rematch.' : `${Name(s.rematch_offer)} offers a rematch.`;
    if (prev?.rematch_offer === you && you && prev.status === 'ended') return 'Your rematch offer was declined.';
    return '';
  };
  const answerButtons = (s: GameState): HTMLElement[] => {
    if (!you) return [];
    const opp = other(you);
    if (s.status === 'active' && s.draw_offer === opp) return [btn('Accept draw', 'draw-accept'), btn('Decline', 'draw-decline')];
    if (s.status === 'active' && s.takeback_offer === opp) return [btn('Allow', 'takeback-accept'), btn('Refuse', 'takeback-decline')];
    if (s.status === 'ended' && s.rematch_offer === opp) return [btn('Accept rematch', 'rematch-accept'), btn('Decline', 'rematch-decline')];
    return [];
  };

  const refresh = () => {
    view.sync();
    drawMoves();
    const active = state.status === 'active';
    const turnName = Name(state.turn);
    let line = active ? `${turnName} to move${ctl.status().check ? ', in check' : ''}` : `Game over: ${state.termination}`;
    if (active && you) line += state.turn === you ? ' \u2014 your move' : '';
    if (!ctl.atEnd()) line += ` (showing ply ${ctl.cursor} of ${ctl.plies.length})`;
    status.textContent = line;
    result.hidden = active;
    result.textContent = active ? '' : `${resultWords(state)}`;
    app.setAttribute('data-game-status', state.status);
    app.setAttribute('data-game-version', String(state.version));
    app.setAttribute('data-you', you ?? 'watcher');
    link.replaceChildren(you ? `You play ${you}.` : 'You are watching this game.', ' ', spectators);
    const mine = !!you && active;
    const early = state.moves.length < 2;
    buttons.resign.hidden = !mine || early || !confirm.hidden;
    buttons.abort.hidden = !mine || !early;
    buttons.offer.hidden = !mine || !!state.draw_offer || !!state.engine || early;
    buttons.takeback.hidden = !mine || !!state.takeback_offer || ctl.plies.length === 0;
    buttons.rematch.hidden = !you || active || !!state.rematch_offer;
    if (!mine) confirm.hidden = true;
    chatForm.hidden = !you || !!state.engine;
    if (!you && !chatOn && !chatToggle.isConnected) chatBox.append(chatToggle);
    if (you && !chatList.isConnected) chatBox.prepend(chatList);
    if (!you || state.engine) chatBox.hidden = !!state.engine;
    if (!you && chatForm.isConnected) chatForm.remove();
    if (you && !state.engine && !chatForm.isConnected) chatBox.append(chatForm, chatOpenLabel);
    drawClocks();
    refit();
  };

  const showNotice = (text: string, s: GameState) => {
    notice.hidden = !text;
    notice.replaceChildren(text, ...answerButtons(s));
    notice.setAttribute('data-notice', text);
    refit();
  };

  // Each newer state is put into words against the one before (a declined
  // offer keeps its words until the next change); the same state again
  // (the answer to one's own request, then the stream) changes nothing.
  const apply = (s: GameState) => {
    if (s.version < state.version) return;
    const text = s.version > state.version ? announce(state, s) : null;
    state = s;
    received = performance.now();
    follow(s);
    if (text !== null) showNotice(text, s);
    showReviewBox();
    refresh();
  };

  // The new game of a rematch: this side keeps its token there.
  // (once: the answer to one's own accept and the stream's event both say it)
  let leaving = false;
  const goRematch = (id: string) => {
    if (leaving) return;
    if (token) {
      leaving = true;
      keepToken(id, token);
      location.href = `/game/${id}#token=${token}`;
    } else if (csrf) { // the signed-in player plays the rematch too
      leaving = true;
      location.href = `/game/${id}`;
    } else {
      note.replaceChildren('Rematch: ', el('a', { href: `/game/${id}`, 'data-rematch': id }, `game ${id}`));
    }
  };

  async function act(action: string, body: Record<string, string>): Promise<void> {
    if (!token && !csrf) return;
    try {
      const r = await fetch(`/api/games/${state.id}/${action}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) },
        body: JSON.stringify(token ? { token, ...body } : body),
      });
      const j = (await r.json()) as GameState & { error?: string; url?: string; token?: string; side?: string };
      if (!r.ok) {
        note.textContent = j.error ?? `error ${r.status}`;
        view.sync();
        return;
      }
      note.textContent = '';
      if (action === 'rematch' && j.url && j.token) {
        goRematch(j.id);
        return;
      }
      if (action === 'chat-watchers') {
        showChat(j as unknown as Chat);
        return;
      }
      apply(j);
    } catch (e) {
      note.textContent = `the server did not answer: ${(e as Error).message}`;
      view.sync();
    }
  }

  // on the page as a whole: on a phone the buttons and offers stand under the board
  main.addEventListener('click', (e) => {
    const a = (e.target as Element).closest('[data-action]')?.getAttribute('data-action') ?? '';
    if (a === 'resign') {
      confirm.hidden = false;
      refresh();
    } else if (a === 'resign-cancel') {
      confirm.hidden = true;
      refresh();
    } else if (a === 'resign-confirm') {
      confirm.hidden = true;
      void act('resign', {});
    } else if (a === 'abort') void act('abort', {});
    else if (a.startsWith('draw-')) void act('draw', { action: a.slice(5) });
    else if (a.startsWith('takeback-')) void act('takeback', { action: a.slice(9) });
    else if (a.startsWith('rematch-')) void act('rematch', { action: a.slice(8) });
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
  } else {
    // no token: the signed-in account may play a side (a lobby game)
    const r = await fetch(`/api/games/${state.id}`);
    const s = r.ok ? ((await r.json()) as GameState) : null;
    if (s?.you) {
      const a = await fetch('/api/account');
      csrf = a.ok ? ((await a.json()) as { csrf: string }).csrf : null;
      if (csrf) you = s.you;
      apply(s);
    }
  }
  if (you === 'black') {
    view.board.flip();
    placeBars('white');
  }
  follow(state);
  showNotice(announce(null, state), state);
  refresh();
  if (you) void loadChat();

  // a player's page says so, for the count of spectators (not a permission)
  const events = new EventSource(`/api/games/${state.id}/events${you ? '?as=player' : ''}`);
  events.addEventListener('watchers', (e) => {
    const n = (JSON.parse((e as MessageEvent<string>).data) as { spectators: number }).spectators;
    spectators.setAttribute('data-spectators', String(n));
    spectators.textContent = n === 1 ? '1 spectator' : `${n} spectators`;
  });
  events.addEventListener('state', (e) => apply(JSON.parse((e as MessageEvent<string>).data) as GameState));
  events.addEventListener('rematch', (e) => {
    const { id } = JSON.parse((e as MessageEvent<string>).data) as { id: string };
    goRematch(id);
  });
  events.addEventListener('chat', () => {
    // the event says a line came (no text): the page reads the chat as it may
    if (you || chatOn) void loadChat();
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
