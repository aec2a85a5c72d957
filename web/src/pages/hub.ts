// The hub (/): the server lists the variants (that works without
// JavaScript); this adds a small picture of each start position and a
// filter box.
import { el } from '../app/dom';
import type { VariantSummary } from '../app/types';
import { miniBoard } from './mini';

export interface HubData {
  variants: VariantSummary[];
}

export async function hubPage(data: HubData): Promise<void> {
  const entries: { v: VariantSummary; host: Element }[] = [];
  for (const v of data.variants) {
    const link = document.querySelector(`a[href="/v/${CSS.escape(v.slug)}"]`);
    const host = link?.closest('li, article, tr, div') ?? link;
    if (!host) continue;
    host.setAttribute('data-variant-entry', v.slug);
    if (!host.querySelector('.tc-mini, .tc-thumb, svg')) {
      const pic = el('a', { href: `/v/${v.slug}`, class: 'tc-mini-link', 'aria-hidden': 'true', tabindex: '-1' });
      pic.innerHTML = miniBoard(v);
      host.prepend(pic);
    }
    if (!host.querySelector('.tc-hub-engine')) {
      host.append(' ', el('a', { class: 'tc-hub-engine', href: `/play?variant=${encodeURIComponent(v.slug)}&engine=black` }, 'vs engine'));
    }
    entries.push({ v, host });
  }
  if (entries.length > 3) {
    const filter = el('input', { type: 'search', placeholder: 'filter variants', class: 'tc-hub-filter', 'aria-label': 'filter variants' });
    const first = entries[0].host;
    first.parentElement?.before(filter);
    filter.addEventListener('input', () => {
      const q = filter.value.trim().toLowerCase();
      for (const { v, host } of entries) {
        const text = `${v.title} ${v.slug} ${v.files} ${v.ranks}`.toLowerCase();
        (host as HTMLElement).hidden = q !== '' && !text.includes(q);
      }
    });
  }
}
