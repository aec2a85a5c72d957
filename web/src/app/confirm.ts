// An inline question with two buttons (no blocking window.confirm): shown
// in place, answered once, gone after the answer.
import { el } from './dom';

export function askInline(host: HTMLElement, question: string, yes: string, onYes: () => void): void {
  const box = el(
    'div',
    { class: 'tc-confirm', role: 'alertdialog', 'aria-label': question, 'data-confirm': '' },
    el('span', {}, question),
    el('button', { type: 'button', 'data-confirm-yes': '' }, yes),
    el('button', { type: 'button', 'data-confirm-no': '' }, 'Cancel'),
  );
  host.replaceChildren(box);
  host.hidden = false;
  box.addEventListener('click', (e) => {
    const t = e.target as Element;
    if (t.closest('[data-confirm-yes]')) {
      host.replaceChildren();
      onYes();
    } else if (t.closest('[data-confirm-no]')) host.replaceChildren();
  });
  box.querySelector<HTMLButtonElement>('[data-confirm-yes]')?.focus();
}
