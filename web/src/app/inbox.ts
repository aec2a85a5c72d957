// The inbox's unread count in every page's header (docs/correspondence.md,
// "Notifications"), live over the server's event stream: the count comes
// when the stream opens and whenever it changes. Only for a signed-in
// player: the server sets the cookie tc_in=1 beside the session cookie
// (and removes both when a request names a session that has ended), so a
// visitor's pages ask for nothing. The lobby page hands in its own
// stream, which carries the same `inbox` events.

export const INBOX_EVENT = 'tc-inbox';

export function signedIn(): boolean {
  return /(?:^|;\s*)tc_in=1(?:;|$)/.test(document.cookie);
}

export function watchInbox(source?: EventSource): void {
  const link = document.querySelector<HTMLAnchorElement>('a.tc-inbox-link');
  if (!link || !signedIn()) return;
  link.hidden = false;
  const badge = link.querySelector<HTMLElement>('.tc-unread');
  const events = source ?? new EventSource('/api/inbox/events');
  events.addEventListener('inbox', (e) => {
    const { unread } = JSON.parse((e as MessageEvent<string>).data) as { unread: number };
    if (badge) {
      badge.textContent = String(unread);
      badge.hidden = unread === 0;
    }
    link.setAttribute('aria-label', unread ? `inbox: ${unread} unread` : 'inbox');
    link.classList.toggle('tc-has-unread', unread > 0);
    document.dispatchEvent(new CustomEvent<number>(INBOX_EVENT, { detail: unread }));
  });
  // A refused stream (the session ended) is not asked again: the server's
  // refusal also removed the hint, so the next page asks for nothing.
}

export interface InboxData {
  csrf: string;
  unread_ids: string[];
}

// The inbox page: what it shows unread is marked read on the server (the
// page keeps showing which were new); a notification that comes while it
// is open reloads it.
export function inboxPage(data: InboxData): void {
  let unread = data.unread_ids.length;
  if (unread) {
    void fetch('/api/inbox/read', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': data.csrf },
      body: '{}',
    }).then(() => (unread = 0));
  }
  document.addEventListener(INBOX_EVENT, (e) => {
    const n = (e as CustomEvent<number>).detail;
    if (n > unread) window.location.reload();
  });
}
