// /new and /v/<slug>/edit: a variant page written in the browser. The front
// matter as a form and as raw text, kept in step (the form writes the text;
// the text, read by the wasm module, fills the form), the Markdown body, and
// a live preview: the board with its joins, the topology report and whether
// the setup is legal, recomputed a moment after each change. Saving goes to
// /api/pages (docs/variant-pages.md); a stale edit comes back with the diff
// and the text stays here.
import { createBoard, type Board } from '../board/api';
import { el } from '../app/dom';
import { askInline } from '../app/confirm';
import { preview3d } from '../app/view3d-host';
import { topochess, topologyOf } from '../app/rules';
import { endingsPanel } from './editor-endings';
import { frontMatterOf, splitPage, updateFrontMatter, withLine } from './frontmatter-edit';

export { frontMatterOf, splitPage, updateFrontMatter };
import type { FileRule, RankRule, Topochess, VariantDef } from '../lib/topochess';

export interface EditorData {
  mode: 'new' | 'edit';
  user?: string;
  csrf?: string;
  editor: boolean;
  refused?: string;
  slug?: string;
  rev?: number;
  state?: string;
  published_rev?: number;
  text?: string;
  /** /new?from=SLUG: the page to make a variant of. */
  from?: { slug: string; text: string };
}

const DEBOUNCE_MS = 250;

const STARTER: VariantDef = {
  name: '',
  title: '',
  description: '',
  width: 8,
  height: 8,
  files: 'wrap',
  ranks: 'open',
  seam: null,
  setup: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR',
};

function field(label: string, input: HTMLElement, hint = ''): HTMLElement {
  return el('label', { class: 'tc-ed-field' }, el('span', {}, label), input, ...(hint ? [el('small', {}, hint)] : []));
}

function input(name: string, attrs: Record<string, string> = {}): HTMLInputElement {
  return el('input', { name, 'data-field': name, autocomplete: 'off', spellcheck: 'false', ...attrs });
}

function select(name: string, options: string[]): HTMLSelectElement {
  const s = el('select', { name, 'data-field': name });
  for (const o of options) s.append(el('option', { value: o }, o));
  return s;
}

export async function editorPage(app: HTMLElement, data: EditorData): Promise<void> {
  if (data.refused) return; // the server's message is in place
  const tc: Topochess = await topochess();

  // ---- the form
  const title = input('title', { maxlength: '120' });
  const slug = input('slug', { maxlength: '63', pattern: '[a-z][a-z0-9-]{1,62}' });
  const description = input('description', { maxlength: '300' });
  const files = input('files', { type: 'number', min: '1', max: '26' });
  const ranks = input('ranks', { type: 'number', min: '1', max: '99' });
  const fileRule = select('file-rule', ['open', 'wrap']);
  const rankRule = select('rank-rule', ['open', 'wrap', 'twist', 'fold']);
  const seam = input('seam', { type: 'number', min: '1', max: '98' });
  const setup = input('setup', { class: 'tc-ed-setup' });
  const form = el('fieldset', { class: 'tc-ed-form', 'data-form': '' }, el('legend', {}, 'The variant'),
    field('Title', title), field('Slug', slug, 'the page’s address: /v/slug; a-z, 0-9 and -'),
    field('Description', description, 'one line, shown on the home page'),
    el('div', { class: 'tc-ed-row' }, field('Files (width)', files), field('Ranks (height)', ranks)),
    el('div', { class: 'tc-ed-row' }, field('Files a and the last', fileRule), field('Ranks 1 and the last', rankRule),
      field('Seam', seam, 'twist between this rank and the next')),
    field('Setup (FEN board, rank 1 last)', setup));

  const raw = el('textarea', { class: 'tc-ed-raw', 'data-raw': '', rows: '14', spellcheck: 'false', 'aria-label': 'Front matter' });
  const body = el('textarea', { class: 'tc-ed-body', 'data-body': '', rows: '14', 'aria-label': 'Markdown body' });

  // ---- import
  const paste = el('textarea', { class: 'tc-ed-paste', rows: '4', placeholder: 'Paste a whole page (front matter and body) here', 'data-paste': '' });
  const pasteBtn = el('button', { type: 'button', 'data-action': 'import-paste' }, 'Import the pasted page');
  const upload = el('input', { type: 'file', accept: '.md,.txt,text/markdown,text/plain', 'data-upload': '' });
  const importBox = el('details', { class: 'tc-ed-import' }, el('summary', {}, 'Import a page file'),
    paste, el('div', { class: 'tc-controls' }, pasteBtn, el('label', {}, 'or upload: ', upload)));

  // ---- the preview
  const boardEl = el('div', { class: 'tc-board-holder', 'data-preview-board': '' });
  const problems = el('p', { class: 'tc-ed-problems', 'data-problems': '', role: 'status' });
  const report = el('dl', { class: 'tc-report', 'data-report': '' });
  const view3dEl = el('div', { class: 'tc-3d', 'data-preview-3d': '' });
  const preview = el('section', { class: 'tc-ed-preview' }, el('h2', {}, 'Preview'), problems, boardEl, view3dEl, el('h3', {}, 'Topology report'), report);
  const endings = endingsPanel(tc); // the solved endings, below the report
  preview.append(endings.el);

  // ---- saving
  const msg = el('div', { class: 'tc-ed-msg', 'data-msg': '', role: 'status' });
  const saveBtn = el('button', { type: 'button', 'data-action': 'save' }, 'Save draft');
  const submitBtn = el('button', { type: 'button', 'data-action': 'submit' }, 'Submit for review');
  const buttons = el('div', { class: 'tc-controls tc-ed-buttons' }, saveBtn, submitBtn);
  let publishBtn: HTMLButtonElement | null = null;
  let unpublishBtn: HTMLButtonElement | null = null;
  const ask = el('div', { class: 'tc-ed-ask', 'data-ask': '' });
  ask.hidden = true;
  if (data.editor) {
    publishBtn = el('button', { type: 'button', 'data-action': 'publish' }, 'Publish');
    unpublishBtn = el('button', { type: 'button', 'data-action': 'unpublish' }, 'Unpublish');
    buttons.append(publishBtn, unpublishBtn, ask);
  }
  const state = el('p', { class: 'tc-ed-state', 'data-state': '' });

  // ---- revisions and the diff between any two
  const fromRev = el('select', { 'data-diff-from': '', 'aria-label': 'from revision' });
  const toRev = el('select', { 'data-diff-to': '', 'aria-label': 'to revision' });
  const diffBtn = el('button', { type: 'button', 'data-action': 'diff' }, 'Show the diff');
  const diffOut = el('div', { class: 'tc-ed-diff', 'data-diff-view': '' });
  const history = el('details', { class: 'tc-ed-history', 'data-history': '' }, el('summary', {}, 'Revisions'),
    el('div', { class: 'tc-controls' }, 'from ', fromRev, ' to ', toRev, diffBtn), diffOut);

  const left = el('div', { class: 'tc-ed-left' }, importBox, form,
    el('h2', {}, 'Front matter'), raw, el('h2', {}, 'Page text (Markdown)'), body, buttons, state, msg, history);
  const lists = el('div', { class: 'tc-ed-lists', 'data-lists': '' });
  app.replaceChildren(lists, el('div', { class: 'tc-ed' }, left, preview));
  void (async () => {
    const res = await fetch('/api/pages', { credentials: 'same-origin' });
    if (!res.ok) return;
    const j = (await res.json()) as { mine: { slug: string; state: string; rev: number }[]; review: { slug: string; rev: number }[]; editor: boolean };
    const link = (slug: string, text: string) => el('a', { href: `/v/${encodeURIComponent(slug)}/edit` }, text);
    if (j.editor) {
      const ul = el('ul', { 'data-review': '' });
      for (const p of j.review) ul.append(el('li', {}, link(p.slug, p.slug), ` (revision ${p.rev})`));
      lists.append(el('details', { open: '' }, el('summary', {}, `Waiting for review (${j.review.length})`), j.review.length ? ul : el('p', {}, 'Nothing waits.')));
    }
    if (j.mine.length) {
      const ul = el('ul', { 'data-mine': '' });
      for (const p of j.mine) ul.append(el('li', {}, link(p.slug, p.slug), ` (${p.state}, revision ${p.rev})`));
      lists.append(el('details', {}, el('summary', {}, `Your pages (${j.mine.length})`), ul));
    }
  })();

  let rev = data.rev ?? 0;
  let savedText: string | null = null; // the text of revision rev, as loaded or saved
  let board: Board | null = null;
  const fields: Record<string, HTMLInputElement | HTMLSelectElement> = { title, slug, description, files, ranks, fileRule, rankRule, seam, setup };

  const loadRevisions = async () => {
    const s = data.slug;
    if (!s) return;
    const res = await fetch(`/api/pages/${encodeURIComponent(s)}/revisions`, { credentials: 'same-origin' });
    if (!res.ok) return;
    const j = (await res.json()) as { revisions: { rev: number; author: string; at_ms: number }[] };
    const opts = (sel: HTMLSelectElement, pick: number) => {
      sel.replaceChildren(...j.revisions.map((r) => {
        const when = new Date(r.at_ms).toISOString().slice(0, 16).replace('T', ' ');
        const o = el('option', { value: String(r.rev) }, `${r.rev}: ${r.author || 'the site'}, ${when}`);
        o.selected = r.rev === pick;
        return o;
      }));
    };
    const newest = j.revisions[0]?.rev ?? 0;
    opts(fromRev, Math.max(1, newest - 1));
    opts(toRev, newest);
    history.setAttribute('data-count', String(j.revisions.length));
  };
  diffBtn.addEventListener('click', () => {
    void (async () => {
      const res = await fetch(`/api/pages/${encodeURIComponent(data.slug ?? '')}/diff?a=${fromRev.value}&b=${toRev.value}`, { credentials: 'same-origin' });
      const j = (await res.json()) as { message?: string; error?: string; diff?: string };
      if (j.diff) diffOut.innerHTML = j.diff; // escaped by the server (games/textdiff.c)
      else diffOut.replaceChildren(el('p', { class: 'tc-error' }, j.message ?? j.error ?? `HTTP ${res.status}`));
      diffOut.setAttribute('data-shown', `${fromRev.value}-${toRev.value}`);
    })();
  });

  const showState = () => {
    if (unpublishBtn) unpublishBtn.hidden = !data.published_rev;
    state.textContent = rev
      ? `Newest revision ${rev} (${data.state ?? 'draft'}); ${data.published_rev ? `revision ${data.published_rev} is on the site` : 'not on the site'}.`
      : 'Not saved yet.';
  };
  const fillForm = (d: VariantDef) => {
    title.value = d.title;
    slug.value = d.name;
    description.value = d.description;
    files.value = String(d.width);
    ranks.value = String(d.height);
    fileRule.value = d.files;
    rankRule.value = d.ranks;
    seam.value = d.seam === null ? '' : String(d.seam);
    setup.value = d.setup;
    seam.disabled = d.ranks !== 'twist';
  };
  const formDef = (): VariantDef => ({
    name: slug.value.trim(),
    title: title.value,
    description: description.value,
    width: Number(files.value) || 0,
    height: Number(ranks.value) || 0,
    files: fileRule.value as FileRule,
    ranks: rankRule.value as RankRule,
    seam: rankRule.value === 'twist' ? Number(seam.value) || null : null,
    setup: setup.value.trim(),
  });
  const pageText = () => raw.value + (raw.value.endsWith('\n') ? '' : '\n') + '\n' + body.value;

  // ---- the preview, a moment after the last change
  let timer = 0;
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(recompute, DEBOUNCE_MS);
  };
  const recompute = () => {
    let v;
    try {
      v = tc.variant({ frontmatter: raw.value });
    } catch (e) {
      problems.textContent = withLine(e instanceof Error ? e.message : String(e), raw.value);
      problems.classList.add('tc-error');
      app.setAttribute('data-preview', 'error');
      endings.idle('the front matter does not read yet');
      return;
    }
    try {
      const topo = topologyOf(v, v.name || 'draft');
      board?.destroy();
      boardEl.replaceChildren();
      board = createBoard(boardEl, topo, { fen: v.startFen, movable: 'none' });
      preview3d(view3dEl, board, topo, boardEl);
      const r = v.report();
      report.replaceChildren();
      const row = (k: string, val: string, key: string) => report.append(el('dt', {}, k), el('dd', { 'data-figure': key }, val));
      row('Board', `${v.width} x ${v.height}, ${v.info.topology}`, 'board');
      row('Surface', r.surface, 'surface');
      row('Orientable', r.orientable ? 'yes' : 'no', 'orientable');
      row('Euler characteristic', String(r.euler), 'euler');
      row('Bishops colour-bound', r.colourBound ? 'yes' : 'no', 'colour_bound');
      problems.textContent = `The setup is legal: ${v.startFen}`;
      problems.classList.remove('tc-error');
      app.setAttribute('data-preview', `${v.width}x${v.height}`);
      endings.board(raw.value, `${v.width}x${v.height} ${v.info.topology}`);
    } finally {
      v.free();
    }
  };

  // ---- keeping the form and the text in step
  const fromForm = () => {
    seam.disabled = rankRule.value !== 'twist';
    if (rankRule.value === 'twist' && !seam.value) seam.value = String(Math.max(1, Math.floor((Number(ranks.value) || 2) / 2)));
    // the fields that changed are rewritten where they stand; every key the
    // form does not know stays (docs/variant-pages.md)
    const next = formDef();
    raw.value = updateFrontMatter(raw.value, next, textDef() ?? written);
    written = next;
    schedule();
  };
  // what the text says field by field since the form last wrote it, even
  // while it does not read as a whole (a setup that no longer fits)
  let written: VariantDef | null = null;
  /** What the front matter text reads as, or null while it does not read. */
  const textDef = (): VariantDef | null => {
    try {
      const v = tc.variant({ frontmatter: raw.value });
      const d: VariantDef = { ...v.info, seam: v.info.ranks === 'twist' ? v.info.seam : null };
      v.free();
      return d;
    } catch {
      return null;
    }
  };
  const fromText = () => {
    const d = textDef();
    written = d;
    if (d) fillForm(d); // else the preview says why; the form waits
    schedule();
  };
  // An edit after a refusal takes the old refusal away (it may no longer
  // hold); a stale edit's diff stays, as it is what the edit must merge.
  const clearRefusal = () => {
    if (msg.querySelector('.tc-error') && !msg.querySelector('[data-diff]')) msg.replaceChildren();
  };
  for (const f of Object.values(fields)) f.addEventListener('input', fromForm);
  raw.addEventListener('input', fromText);
  body.addEventListener('input', () => app.setAttribute('data-dirty', 'true'));
  for (const f of [...Object.values(fields), raw, body]) f.addEventListener('input', clearRefusal);

  const load = (text: string) => {
    const { fm, body: b } = splitPage(text);
    raw.value = fm;
    body.value = b;
    fromText();
  };
  pasteBtn.addEventListener('click', () => load(paste.value));
  upload.addEventListener('change', () => {
    const f = upload.files?.[0];
    if (!f) return;
    if (f.size > 64 * 1024) {
      msg.textContent = `${f.name}: ${f.size} bytes; a page may have up to 65536`;
      return;
    }
    void f.text().then(load);
  });

  // ---- saving and the workflow
  const say = (text: string, ok: boolean, diff?: string) => {
    // a refusal that names a field says where it stands in the front matter
    msg.replaceChildren(el('p', { class: ok ? 'tc-ok' : 'tc-error' }, ok ? text : withLine(text, raw.value)));
    if (diff) {
      const box = el('div', { class: 'tc-ed-diff', 'data-diff': '' });
      box.innerHTML = diff; // the server's diff: every text in it escaped (games/textdiff.c)
      msg.append(box);
    }
  };
  const call = async (path: string, bodyText?: string): Promise<{ status: number; message: string; rev?: number; diff?: string }> => {
    const res = await fetch(path, {
      method: 'POST',
      headers: { 'X-CSRF-Token': data.csrf ?? '', 'Content-Type': 'text/markdown; charset=utf-8' },
      body: bodyText,
      credentials: 'same-origin',
    });
    let j: { status?: number; message?: string; error?: string; rev?: number; diff?: string } = {};
    try {
      j = await res.json();
    } catch {
      /* not JSON: the status says enough */
    }
    return { status: res.status, message: j.message ?? j.error ?? `HTTP ${res.status}`, rev: j.rev, diff: j.diff };
  };
  const target = () => (data.mode === 'edit' && data.slug ? data.slug : slug.value.trim());
  const save = async (): Promise<boolean> => {
    const s = target();
    if (!s) {
      say('slug: give the page a slug first', false);
      return false;
    }
    const text = pageText();
    if (rev > 0 && text === savedText) return true; // nothing changed: no new revision
    const r = await call(`/api/pages/${encodeURIComponent(s)}?base=${rev}`, text);
    if (r.status !== 200) {
      say(r.message, false, r.diff);
      return false;
    }
    rev = r.rev ?? rev;
    savedText = text;
    data.mode = 'edit';
    data.slug = s;
    if (!data.editor || !data.state) data.state = 'draft'; // an editor's revision keeps the page's state
    showState();
    say(r.message, true);
    window.history.replaceState(null, '', `/v/${encodeURIComponent(s)}/edit`);
    void loadRevisions();
    return true;
  };
  const step = async (what: 'submit' | 'publish') => {
    if (!(await save())) return;
    const r = await call(`/api/pages/${encodeURIComponent(target())}/${what}`);
    if (r.status === 200) {
      data.state = what === 'submit' ? 'in review' : 'published';
      if (what === 'publish') data.published_rev = rev;
      showState();
    }
    say(r.status === 200 && what === 'publish' ? `${r.message}: it is at /v/${target()}` : r.message, r.status === 200);
    app.setAttribute('data-last', `${what}:${r.status}`);
  };
  // Unpublishing takes the page off the site (its finished games stay
  // readable); asked in place first, as resigning is.
  const unpublish = async () => {
    const r = await call(`/api/pages/${encodeURIComponent(target())}/unpublish`);
    if (r.status === 200) {
      data.state = 'draft';
      data.published_rev = 0;
      showState();
    }
    say(r.message, r.status === 200);
    app.setAttribute('data-last', `unpublish:${r.status}`);
  };
  const busy = (fn: () => Promise<unknown>) => async () => {
    for (const b of [saveBtn, submitBtn, publishBtn, unpublishBtn]) if (b) b.disabled = true;
    try {
      await fn();
    } catch (e) {
      say(e instanceof Error ? e.message : String(e), false);
    } finally {
      for (const b of [saveBtn, submitBtn, publishBtn, unpublishBtn]) if (b) b.disabled = false;
    }
  };
  saveBtn.addEventListener('click', busy(async () => app.setAttribute('data-last', `save:${(await save()) ? 200 : 'refused'}`)));
  submitBtn.addEventListener('click', busy(() => step('submit')));
  publishBtn?.addEventListener('click', busy(() => step('publish')));
  unpublishBtn?.addEventListener('click', () =>
    askInline(ask, `Take /v/${target()} off the site? Its games stay readable.`, 'Unpublish', () => void busy(unpublish)()),
  );

  if (data.text) {
    load(data.text);
    savedText = pageText();
  } else if (data.from) {
    // "make a variant of this": the page's text, under a new title and slug
    load(data.from.text);
    const d = textDef();
    if (d) {
      const next = { ...d, title: `${d.title || data.from.slug} (variant)`, name: `${data.from.slug}-variant`.slice(0, 63) };
      raw.value = updateFrontMatter(raw.value, next, d);
      fromText();
    }
    app.setAttribute('data-from', data.from.slug);
    say(`Starting from /v/${data.from.slug}: change a join or the size, give it a slug of its own, and save.`, true);
  }
  else {
    fillForm(STARTER);
    raw.value = frontMatterOf(STARTER);
    body.value = '## A new variant\n\nSay what the joins do and why the variant is worth playing.\n';
    schedule();
  }
  if (data.mode === 'edit') slug.readOnly = true;
  showState();
  void loadRevisions();
}
