// The computer analysis of an ended hosted game on its page
// (docs/analysis.md). A stored analysis (the server's) is shown to every
// visitor as soon as the page opens. "Request computer analysis" asks the
// server (POST /api/games/ID/analysis) and follows the job (queued, with
// its place; running, with its progress) until it is done; when the
// server cannot take it (off, busy beyond BUSY_POSITION, the queue full,
// the visitor neither signed in nor holding a player's link) the page's own engine
// worker reviews the game instead, and the panel says which ran.
import { el } from './dom';
import { createEngine } from './engine';
import { signedIn } from './inbox';
import { BROWSER_REVIEW_NODES, reviewGame, reviewPanel } from './review';
import type { Rules } from './types';
import type { Review, ReviewValue } from '../lib/topochess';

/** Past this place in the server's queue the browser reviews instead. */
export const BUSY_POSITION = 5;
/** How often a queued or running job is asked after. */
const POLL_MS = 1000;

interface StoredValue extends ReviewValue {
  best: string;
  pv: string;
  exact: string;
}

/** GET /api/games/ID/analysis. */
export interface AnalysisState {
  state: 'none' | 'queued' | 'running' | 'done' | 'failed';
  server: { threads: number; nodes: number; waiting: number };
  position?: number;
  done?: number;
  total?: number;
  error?: string;
  analysis?: { nodes: number; review: Review; values: StoredValue[] };
}

export interface AnalysisBoxOptions {
  id: string;
  rules: Rules;
  startFen: string;
  moves: () => string[];
  result: () => string;
  ended: () => boolean;
  players: { white: string; black: string };
  /** the player's token of the link, if any */
  token: string | null;
  goto(ply: number): void;
  /** the better move to draw for a ply shown (coordinates) changed */
  onBetter(better: (ply: number) => string | null): void;
  refit(): void;
}

/** The engine's line from a position, in SAN (coordinates in, '' when it
 * does not replay). */
function sanLine(rules: Rules, fen: string, pv: string): string {
  if (!pv) return '';
  const g = rules.game(fen);
  try {
    return pv.split(' ').map((m) => g.play(m).san).join(' ');
  } catch {
    return '';
  } finally {
    g.free();
  }
}

/** The box: a button, a state line and (once there is one) the panel. */
export function analysisBox(o: AnalysisBoxOptions): { element: HTMLElement; update(): void } {
  const box = el('div', { class: 'tc-review-box', 'data-review-box': '', hidden: '' });
  const button = el('button', { type: 'button', 'data-action': 'review' }, 'Request computer analysis');
  const said = el('span', { class: 'tc-review-state', 'data-review-state': '', 'aria-live': 'polite' });
  box.append(el('p', {}, button, ' ', said));
  let asked = false; // the first GET, once the game has ended
  let timer = 0;
  let server: AnalysisState['server'] | null = null; // as the last GET told it

  const show = (review: Review, values: (ReviewValue & { pv?: string; exact?: string })[], by: 'server' | 'browser',
    nodes: number, pgn: Parameters<typeof reviewPanel>[3]) => {
    // the positions' FENs, to write the lines in SAN from the position before each ply
    const fens: string[] = [o.startFen];
    const g = o.rules.game(o.startFen);
    try {
      for (const m of o.moves()) {
        g.play(m);
        fens.push(g.fen());
      }
    } finally {
      g.free();
    }
    const lines = review.moves.map((m, i) => (m.mark ? sanLine(o.rules, fens[i]!, values[i]?.pv ?? '') : ''));
    const exact = review.moves.map((_, i) => values[i + 1]?.exact ?? '');
    const note = by === 'server'
      ? `Analysed by the server at ${nodes.toLocaleString('en')} nodes a position.`
      : `Analysed in your browser at ${nodes.toLocaleString('en')} nodes a position.`;
    box.querySelector('[data-review]')?.remove();
    const panel = reviewPanel(review, o.startFen, o.goto, pgn, { note, lines, exact });
    panel.setAttribute('data-review-by', by);
    box.append(panel);
    button.hidden = true;
    // the better move of a marked ply, drawn when that ply is shown
    o.onBetter((ply) => {
      const m = review.moves[ply - 1];
      return m?.mark ? values[ply - 1]?.best || null : null;
    });
    o.refit();
  };

  const inBrowser = (why: string) => {
    button.disabled = true;
    const engine = createEngine(o.rules.detail);
    const moves = o.moves();
    const start = performance.now();
    const tags = { Event: `topochess game ${o.id}`, Site: location.origin, White: o.players.white, Black: o.players.black,
      Annotator: `topochess review in the browser (${BROWSER_REVIEW_NODES} nodes a position)` };
    const result = o.result();
    reviewGame(o.rules.detail, o.startFen, moves, engine, BROWSER_REVIEW_NODES, (done, total) => {
      said.textContent = `${why}: analysing in your browser, ${done} of ${total} positions`;
    }, tags, result === '-' ? '*' : result).then(({ review, pgn, values }) => {
      said.textContent = `${why}: analysed in your browser in ${((performance.now() - start) / 1000).toFixed(1)} s`;
      show(review, values, 'browser', BROWSER_REVIEW_NODES, { text: pgn, file: `${o.id}-review.pgn` });
    }).catch((e: unknown) => {
      said.textContent = `the analysis failed: ${(e as Error).message}`;
      button.disabled = false;
    }).finally(() => engine.terminate());
  };

  const follow = (s: AnalysisState, mine: boolean) => {
    window.clearTimeout(timer);
    server = s.server;
    if (s.state === 'done' && s.analysis) {
      said.textContent = '';
      show(s.analysis.review, s.analysis.values, 'server', s.analysis.nodes,
        { href: `/api/games/${o.id}/pgn`, file: `${o.id}-analysis.pgn` });
      return;
    }
    if (s.state === 'queued' || s.state === 'running') {
      if (mine && s.state === 'queued' && (s.position ?? 0) > BUSY_POSITION) {
        inBrowser(`the server is busy (${s.position} games before this one)`);
        return;
      }
      button.disabled = true;
      said.textContent = s.state === 'queued'
        ? `queued on the server: ${s.position === 1 ? 'next' : `${s.position} in line`}`
        : `the server is analysing: ${s.done ?? 0} of ${s.total || '?'} positions`;
      timer = window.setTimeout(() => void poll(false), POLL_MS);
      return;
    }
    if (s.state === 'failed') said.textContent = `the server's analysis failed (${s.error ?? ''}): ask again, or it runs in your browser`;
    button.disabled = false;
  };

  const poll = async (mine: boolean) => {
    try {
      const r = await fetch(`/api/games/${o.id}/analysis`);
      if (r.ok) follow((await r.json()) as AnalysisState, mine);
      else timer = window.setTimeout(() => void poll(mine), POLL_MS * 2);
    } catch {
      timer = window.setTimeout(() => void poll(mine), POLL_MS * 2);
    }
  };

  button.addEventListener('click', async () => {
    button.disabled = true;
    // what the server would refuse, known already: the page does not ask
    if (server && server.threads === 0) {
      inBrowser('the server\'s analysis is off here');
      return;
    }
    if (server && server.waiting >= BUSY_POSITION) {
      inBrowser(`the server is busy (${server.waiting} games waiting)`);
      return;
    }
    if (!o.token && !signedIn()) { // neither signed in nor a player's link: 401
      inBrowser('not signed in for the server\'s analysis');
      return;
    }
    said.textContent = 'asking the server…';
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (o.token) headers.Authorization = `Bearer ${o.token}`;
    else {
      const a = await fetch('/api/account').catch(() => null);
      const csrf = a?.ok ? ((await a.json()) as { csrf?: string }).csrf : undefined;
      if (csrf) headers['X-CSRF-Token'] = csrf;
    }
    let r: Response | null = null;
    try {
      r = await fetch(`/api/games/${o.id}/analysis`, { method: 'POST', headers, body: '{}' });
    } catch {
      r = null;
    }
    if (r && (r.status === 200 || r.status === 202)) {
      follow((await r.json()) as AnalysisState, true);
      return;
    }
    const why = !r ? 'the server did not answer'
      : r.status === 401 || r.status === 403 ? 'not signed in for the server\'s analysis'
      : r.status === 503 ? 'the server\'s analysis is off or full'
      : r.status === 429 ? 'too many analyses asked for on the server'
      : `the server refused (${r.status})`;
    inBrowser(why);
  });

  const update = () => {
    box.hidden = !o.ended() || o.moves().length < 1;
    if (!box.hidden && !asked) {
      asked = true;
      void poll(false);
    }
  };
  update();
  return { element: box, update };
}
