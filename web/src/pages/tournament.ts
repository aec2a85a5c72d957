// A tournament's page (server-rendered, docs/tournaments.md): keeps the
// state, the standings and the games current from the tournament's event
// stream (/api/tournament/ID/events: its state at once, then at each
// change) while the tournament is upcoming or running, and sends a
// signed-in player into a new game of theirs as the pairer makes it. If
// the stream is refused, the page reads /api/tournament/ID every
// FALLBACK_MS instead. The page works without this script (reload it); every
// name is put in as text, never as markup.
import { el } from '../app/dom';

export interface TournamentData {
  id: string;
  name: string | null; // the signed-in player's name, or null
}

interface Standing {
  rank: number;
  name: string;
  score: number;
  games: number;
  wins: number;
  draws: number;
  fire: boolean;
  active: boolean;
  playing: string | null;
}

interface TGame {
  id: string;
  round: number;
  white: string;
  black: string;
  result: string;
  white_pts: number;
  black_pts: number;
  counted: boolean;
}

interface Tournament {
  kind: string;
  state: string;
  round: number;
  winner: string;
  standings: Standing[];
  games: TGame[];
  version: number;
}

const FALLBACK_MS = 10000;

/** Points as the page shows them: an arena's as they are, a round-robin's in halves. */
export function points(kind: string, score: number): string {
  if (kind === 'arena') return String(score);
  const whole = Math.floor(score / 2);
  return score % 2 ? `${whole}\u00bd` : String(whole);
}

function standingRow(t: Tournament, s: Standing): HTMLTableRowElement {
  const notes = [s.fire ? 'on fire' : '', s.playing ? 'playing' : '', s.active ? '' : 'withdrawn']
    .filter((x) => x)
    .join(' ');
  return el('tr', {},
    el('td', {}, String(s.rank)),
    el('td', {}, el('a', { href: `/@/${encodeURIComponent(s.name)}` }, s.name)),
    el('td', {}, points(t.kind, s.score)),
    el('td', {}, String(s.games)),
    el('td', {}, String(s.wins)),
    el('td', {}, String(s.draws)),
    el('td', {}, notes));
}

function gameRow(t: Tournament, g: TGame): HTMLTableRowElement {
  return el('tr', {},
    el('td', {}, g.round ? String(g.round) : ''),
    el('td', {}, g.white),
    el('td', {}, g.black),
    el('td', {}, el('a', { href: `/game/${g.id}` }, g.counted ? g.result : 'playing')),
    el('td', {}, g.counted ? `${points(t.kind, g.white_pts)}-${points(t.kind, g.black_pts)}` : ''));
}

function stateText(t: Tournament): string {
  let text = t.state;
  if (t.kind === 'round-robin' && t.state === 'running') text += `: round ${t.round}`;
  if (t.winner) text += `: won by ${t.winner}`;
  return text;
}

export function tournamentPage(data: TournamentData): void {
  const standings = document.querySelector<HTMLTableSectionElement>('#tc-standings tbody');
  const games = document.querySelector<HTMLTableSectionElement>('#tc-tourney-games tbody');
  const state = document.getElementById('tc-tourney-state');
  if (!standings || !games || !state || !/^[0-9a-f]{12}$/.test(data.id)) return;
  let version = -1;
  let mine: string | null | undefined; // the player's game as last seen (undefined: not read yet)
  /** Shows t; false once the page leaves or the tournament is over. */
  const apply = (t: Tournament): boolean => {
    const me = data.name ? t.standings.find((s) => s.name === data.name) : undefined;
    const playing = me ? me.playing : null;
    if (mine !== undefined && playing && playing !== mine) {
      window.location.assign(`/game/${playing}`); // the pairer made a new game of ours
      return false;
    }
    mine = playing;
    if (t.version !== version) {
      version = t.version;
      standings.replaceChildren(...t.standings.map((s) => standingRow(t, s)));
      games.replaceChildren(...t.games.map((g) => gameRow(t, g)));
      state.textContent = stateText(t);
    }
    return t.state === 'upcoming' || t.state === 'running';
  };
  const poll = async (): Promise<void> => {
    let going = true;
    try {
      const res = await fetch(`/api/tournament/${data.id}`, { cache: 'no-store' });
      if (res.ok) going = apply((await res.json()) as Tournament);
    } catch {
      // the next read tries again
    }
    if (going) window.setTimeout(() => void poll(), FALLBACK_MS);
  };
  const events = new EventSource(`/api/tournament/${data.id}/events`);
  events.addEventListener('tournament', (e) => {
    let t: Tournament;
    try {
      t = JSON.parse((e as MessageEvent<string>).data) as Tournament;
    } catch {
      return;
    }
    if (!apply(t)) events.close(); // over: the stream has said its last
  });
  events.addEventListener('error', () => {
    // a dropped stream reconnects by itself; a refused one is closed
    if (events.readyState === EventSource.CLOSED) window.setTimeout(() => void poll(), FALLBACK_MS);
  });
}
