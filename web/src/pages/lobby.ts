// The lobby (server-rendered, docs/accounts.md): keeps the list of seeks
// live from /api/lobby/events, shows a new challenge to the player, and
// for a signed-in player whose seek or challenge is accepted, goes to the
// game the server names in a "start" event. The forms work without this
// script; it only keeps the page current.
import { el } from '../app/dom';
import { watchInbox } from '../app/inbox';

export interface LobbyData {
  name: string | null;
  csrf: string | null;
}

interface Seek {
  id: string;
  name: string;
  variant: string;
  clock: string;
  kind: string;
  rated: boolean;
  color: string;
  rating: number;
  provisional: boolean;
  min_rating: number;
  max_rating: number;
}

function variantTitles(): Map<string, string> {
  const titles = new Map<string, string>();
  document.querySelectorAll<HTMLOptionElement>('select[name=variant] option').forEach((o) => {
    titles.set(o.value, o.textContent ?? o.value);
  });
  return titles;
}

function row(s: Seek, data: LobbyData, titles: Map<string, string>): HTMLTableRowElement {
  const action = el('td');
  if (data.csrf) {
    const own = s.name === data.name;
    const form = el('form', { method: 'post', action: `/lobby/seek/${s.id}/${own ? 'cancel' : 'accept'}` },
      el('input', { type: 'hidden', name: 'csrf', value: data.csrf }),
      el('button', { type: 'submit' }, own ? 'Withdraw' : 'Play'));
    action.append(form);
  }
  const range = s.min_rating || s.max_rating ? ` (${s.min_rating || 'any'}-${s.max_rating || 'any'})` : '';
  return el('tr', { 'data-seek': s.id },
    el('td', {}, el('a', { href: `/@/${s.name}` }, s.name)),
    el('td', {}, `${s.rating}${s.provisional ? '?' : ''}`),
    el('td', {}, titles.get(s.variant) ?? s.variant),
    el('td', {}, s.clock),
    el('td', {}, `${s.rated ? 'rated' : 'casual'}${range}`),
    action);
}

export function lobbyPage(data: LobbyData): void {
  const body = document.querySelector<HTMLTableSectionElement>('#tc-seeks tbody');
  if (!body) {
    watchInbox();
    return;
  }
  const titles = variantTitles();
  const events = new EventSource('/api/lobby/events');
  watchInbox(events);
  events.addEventListener('seeks', (e) => {
    const list = (JSON.parse((e as MessageEvent<string>).data) as { seeks: Seek[] }).seeks;
    if (!list.length) {
      body.replaceChildren(el('tr', { class: 'tc-none' }, el('td', { colspan: '6' }, 'No open seeks: post one.')));
      return;
    }
    body.replaceChildren(...list.map((s) => row(s, data, titles)));
  });
  events.addEventListener('start', (e) => {
    const { url } = JSON.parse((e as MessageEvent<string>).data) as { url: string };
    if (url.startsWith('/game/')) window.location.assign(url);
  });
  // a new or withdrawn challenge to this player: the page shows the list
  // (not while a form of this page is being sent: accepting a challenge
  // changes the count too, and a reload would cancel the accept's answer)
  const shown = document.querySelectorAll('ul.tc-challenges[data-to="1"] li').length;
  let sending = false;
  document.addEventListener('submit', () => (sending = true));
  events.addEventListener('challenges', (e) => {
    const { to_you: count } = JSON.parse((e as MessageEvent<string>).data) as { to_you: number };
    if (count !== shown && !sending) window.location.reload();
  });
  document.body.dataset.live = 'true';
}
