// The editor's front matter as text: written whole for a new page
// (frontMatterOf), and edited in place when the form changes
// (updateFrontMatter), so that every key the form does not know (author,
// published, engine.pieces, comments, ...) stays where it was, in its
// order. Only the lines of the fields that changed are rewritten. No DOM
// here: the unit tests run it under Node.
import type { FileRule, RankRule, VariantDef } from '../lib/topochess';

export const WRAPS: [string, FileRule, RankRule][] = [
  ['none', 'open', 'open'],
  ['cylinder', 'wrap', 'open'],
  ['rank-cylinder', 'open', 'wrap'],
  ['torus', 'wrap', 'wrap'],
  ['mobius', 'open', 'twist'],
  ['klein-bottle', 'wrap', 'twist'],
  ['fold', 'wrap', 'fold'],
];

function quoted(s: string): string {
  return JSON.stringify(s); // a YAML double-quoted scalar reads JSON's escapes
}

function wrapName(d: VariantDef): string {
  return WRAPS.find(([, f, r]) => f === d.files && r === d.ranks)?.[0] ?? 'none';
}

function seamOf(d: VariantDef): number {
  return d.seam ?? Math.floor(d.height / 2);
}

/** The front matter of a definition, as the library reads it. */
export function frontMatterOf(d: VariantDef): string {
  const lines = [
    '---',
    `title: ${quoted(d.title)}`,
    `slug: ${quoted(d.name)}`,
    `description: ${quoted(d.description)}`,
    'engine:',
    '  topology:',
    '    type: grid',
    `    rows: ${d.height}`,
    `    cols: ${d.width}`,
    `    wrap: ${wrapName(d)}`,
    `    files: ${d.files}`,
    `    ranks: ${d.ranks}`,
  ];
  if (d.ranks === 'twist') lines.push(`    seam: ${seamOf(d)}`);
  lines.push(`  setup: ${quoted(d.setup)}`, '---', '');
  return lines.join('\n');
}

/** A page's text split at the end of its front matter (block form). */
export function splitPage(text: string): { fm: string; body: string } {
  const m = /^\uFEFF?\s*---[ \t]*\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { fm: '', body: text };
  return { fm: m[0], body: text.slice(m[0].length).replace(/^\r?\n/, '') };
}

const KEY = /^(\s*)([A-Za-z_][\w-]*)\s*:(?:\s+|$)(.*)$/;

function indentOf(line: string): number {
  return /^ */.exec(line)![0].length;
}

function isContent(line: string): boolean {
  const t = line.trim();
  return t !== '' && !t.startsWith('#');
}

/** The lines of a block mapping being edited (the front matter's lines
 * between its two markers). */
class Block {
  constructor(readonly lines: string[]) {}

  /** The end (exclusive) of the value of the key line at i: the lines
   * after it that are blank, comments, or indented deeper. */
  end(i: number): number {
    const n = indentOf(this.lines[i]!);
    let j = i + 1;
    let last = i + 1;
    for (; j < this.lines.length; j++) {
      const l = this.lines[j]!;
      if (!isContent(l)) continue;
      if (indentOf(l) <= n) break;
      last = j + 1;
    }
    return last;
  }

  /** The indent of the children in [lo, hi), or fallback if there are none. */
  childIndent(lo: number, hi: number, fallback: number): number {
    for (let i = lo; i < hi; i++) if (isContent(this.lines[i]!)) return indentOf(this.lines[i]!);
    return fallback;
  }

  /** The line of `key` among the children of [lo, hi) at their indent. */
  find(lo: number, hi: number, key: string, indent: number): number {
    for (let i = lo; i < hi; i++) {
      const l = this.lines[i]!;
      if (!isContent(l) || indentOf(l) !== indent) continue;
      const m = KEY.exec(l);
      if (m && m[2] === key) return i;
    }
    return -1;
  }

  /** Sets key to the YAML scalar text value among [lo, hi): the line is
   * replaced (with what its value spanned, a block scalar's lines), or a
   * line is added at the end of the region. Returns the new hi. */
  set(lo: number, hi: number, key: string, value: string, indent: number): number {
    const i = this.find(lo, hi, key, indent);
    const line = `${' '.repeat(indent)}${key}: ${value}`;
    if (i < 0) {
      let at = hi;
      while (at > lo && !isContent(this.lines[at - 1]!)) at--; // before trailing blanks
      this.lines.splice(at, 0, line);
      return hi + 1;
    }
    const e = this.end(i);
    this.lines.splice(i, e - i, line);
    return hi - (e - i) + 1;
  }

  /** Removes key's line (and its value's lines) from [lo, hi); the new hi. */
  remove(lo: number, hi: number, key: string, indent: number): number {
    const i = this.find(lo, hi, key, indent);
    if (i < 0) return hi;
    const e = this.end(i);
    this.lines.splice(i, e - i);
    return hi - (e - i);
  }
}

/** A flow mapping's entries ("{type: grid, rows: 14}"), in order; null if
 * the text is not a simple one (nested brackets, quotes with commas). */
function flowEntries(text: string): [string, string][] | null {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}') || /[[\]{}]/.test(t.slice(1, -1)) || /["'][^"']*,/.test(t)) return null;
  const out: [string, string][] = [];
  for (const part of t.slice(1, -1).split(',')) {
    if (!part.trim()) continue;
    const k = part.indexOf(':');
    if (k < 0) return null;
    out.push([part.slice(0, k).trim(), part.slice(k + 1).trim()]);
  }
  return out;
}

/** The form's definition `next` written into the front matter `text`:
 * the fields that differ from `prev` (what the text read as; null: every
 * field) are rewritten where they stand, missing ones added; every other
 * line (unknown keys, comments, order) is kept. A text that is no front
 * matter at all is replaced by frontMatterOf(next). */
export function updateFrontMatter(text: string, next: VariantDef, prev: VariantDef | null): string {
  const m = /^(\uFEFF?\s*---[ \t]*\r?\n)([\s\S]*?\r?\n)?((?:---|\.\.\.)[ \t]*(?:\r?\n|$))([\s\S]*)$/.exec(text);
  if (!m) return frontMatterOf(next);
  const nl = text.includes('\r\n') ? '\r\n' : '\n';
  const inner = (m[2] ?? '').replace(/\r?\n$/, '');
  const b = new Block(inner === '' ? [] : inner.split(/\r?\n/));
  const changed = (f: (d: VariantDef) => unknown) => !prev || f(prev) !== f(next);
  const board = (d: VariantDef) => `${d.files} ${d.ranks}`;

  // top-level scalars
  let hi = b.lines.length;
  const top = b.childIndent(0, hi, 0);
  if (changed((d) => d.title)) hi = b.set(0, hi, 'title', quoted(next.title), top);
  if (changed((d) => d.name)) hi = b.set(0, hi, 'slug', quoted(next.name), top);
  if (changed((d) => d.description)) hi = b.set(0, hi, 'description', quoted(next.description), top);

  // engine: (a block; a flow-style one is rewritten as a block)
  let eng = b.find(0, hi, 'engine', top);
  if (eng < 0) {
    b.lines.splice(hi, 0, `${' '.repeat(top)}engine:`);
    eng = hi;
    hi++;
    prev = null; // nothing there: write every engine field
  } else if (KEY.exec(b.lines[eng]!)![3]!.trim().startsWith('{')) {
    b.lines[eng] = `${' '.repeat(top)}engine:`;
    prev = null;
  }
  let engEnd = b.end(eng);
  const ei = b.childIndent(eng + 1, engEnd, top + 2);

  // engine.topology: (a block; a simple flow mapping becomes one, its other keys kept)
  const topoChanged = changed((d) => d.height) || changed((d) => d.width) || changed(board) ||
    changed((d) => (d.ranks === 'twist' ? seamOf(d) : null));
  let topo = b.find(eng + 1, engEnd, 'topology', ei);
  if (topo < 0 || topoChanged) {
    let ti = ei + 2;
    if (topo < 0) {
      b.lines.splice(engEnd, 0, `${' '.repeat(ei)}topology:`);
      topo = engEnd;
      engEnd++;
      prev = null;
    } else {
      const value = KEY.exec(b.lines[topo]!)![3]!.replace(/\s+#.*$/, '');
      if (value.trim().startsWith('{')) {
        const entries = flowEntries(value);
        const lines = (entries ?? []).map(([k, v]) => `${' '.repeat(ti)}${k}: ${v}`);
        b.lines.splice(topo, 1, `${' '.repeat(ei)}topology:`, ...lines);
        engEnd += lines.length;
        if (!entries) prev = null; // not read: write every field
      }
    }
    let topoEnd = b.end(topo);
    ti = b.childIndent(topo + 1, topoEnd, ei + 2);
    const before = topoEnd;
    const put = (key: string, value: string) => (topoEnd = b.set(topo + 1, topoEnd, key, value, ti));
    if (b.find(topo + 1, topoEnd, 'type', ti) < 0) put('type', 'grid');
    if (changed((d) => d.height)) put('rows', String(next.height));
    if (changed((d) => d.width)) put('cols', String(next.width));
    if (changed(board)) {
      put('wrap', wrapName(next));
      put('files', next.files);
      put('ranks', next.ranks);
    }
    if (next.ranks !== 'twist') topoEnd = b.remove(topo + 1, topoEnd, 'seam', ti);
    else if (changed((d) => (d.ranks === 'twist' ? seamOf(d) : null))) put('seam', String(seamOf(next)));
    engEnd += topoEnd - before;
  }

  // the setup: under engine, or at the top where the page has it there
  if (changed((d) => d.setup)) {
    const atTop = b.find(0, b.lines.length, 'setup', top) >= 0;
    if (!atTop || b.find(eng + 1, engEnd, 'setup', ei) >= 0) b.set(eng + 1, engEnd, 'setup', quoted(next.setup), ei);
    if (atTop) b.set(0, b.lines.length, 'setup', quoted(next.setup), top);
  }
  return m[1] + b.lines.map((l) => l + nl).join('') + m[3] + m[4];
}

/** The page line (1 = the first line of text) where a field of the front
 * matter stands: "slug", "setup", "seam", "engine.topology.seam", ...; the
 * topology's line when its keys are in one flow mapping; 0 when absent. */
export function fieldLine(text: string, field: string): number {
  const lines = text.split(/\r?\n/);
  const name = field.replace(/^engine\.(topology\.)?/, '');
  const topo = ['type', 'rows', 'cols', 'wrap', 'files', 'ranks', 'seam'].includes(name);
  let inEngine = false;
  let inTopo = false;
  let topoLine = 0;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^(---|\.\.\.)\s*$/.test(l)) break;
    const m = KEY.exec(l);
    if (!m || !isContent(l)) continue;
    const ind = m[1]!.length;
    if (ind === 0) {
      inEngine = m[2] === 'engine';
      inTopo = false;
      if (!topo && m[2] === name) return i + 1;
      continue;
    }
    if (inEngine && m[2] === 'topology') {
      inTopo = true;
      topoLine = i + 1;
      if (topo && new RegExp(`[{,]\\s*${name}\\s*:`).test(m[3]!)) return i + 1;
      continue;
    }
    if (inTopo && topo && m[2] === name) return i + 1;
    if (inEngine && !topo && m[2] === name && ind <= 2) return i + 1;
  }
  return topo ? topoLine : 0;
}

/** A refusal that names a front-matter field ("slug: 'new' is reserved")
 * and no line yet, with the line of that field in the text added. */
export function withLine(message: string, text: string): string {
  if (/\(line \d+\)/.test(message)) return message;
  const m = /^(?:.*?: )?((?:engine\.(?:topology\.)?)?(?:title|slug|description|setup|type|rows|cols|wrap|files|ranks|seam)):/.exec(message);
  const line = m ? fieldLine(text, m[1]!) : 0;
  return line ? `${message} (line ${line})` : message;
}
