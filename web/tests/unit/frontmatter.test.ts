// The editor's front matter kept in step with its form (frontmatter-edit.ts):
// a form edit rewrites only the lines of the fields that changed, keeps
// every key the form does not know (players, notation, author, comments,
// engine.pieces, ...) in its order, and the library reads the result as the
// form says. Checked on every shipped page and every field, and on the
// awkward shapes (flow mappings, block scalars, missing keys).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldLine, frontMatterOf, splitPage, updateFrontMatter, withLine } from '../../src/pages/frontmatter-edit';
import type { Topochess, VariantDef } from '../../src/lib/topochess';
import { ROOT, tc } from './helpers';

let T: Topochess;
beforeAll(async () => {
  T = await tc();
});

function read(fm: string): VariantDef {
  const v = T.variant({ frontmatter: fm });
  const i = v.info;
  v.free();
  return { name: i.name, title: i.title, description: i.description, width: i.width, height: i.height,
    files: i.files, ranks: i.ranks, seam: i.ranks === 'twist' ? i.seam : null, setup: i.setup };
}

/** Lines of a that are missing from b, in order (a subsequence check). */
function dropped(a: string, b: string): string[] {
  const bl = b.split('\n');
  let j = 0;
  const out: string[] = [];
  for (const l of a.split('\n')) {
    const k = bl.indexOf(l, j);
    if (k < 0) out.push(l);
    else j = k + 1;
  }
  return out;
}

/** A start with two kings that fits a w x h board whatever its joins. */
function setupFor(w: number, h: number): string {
  const rows = Array.from({ length: h }, () => String(w));
  rows[Math.floor(h / 2)] = `2k${w > 3 ? w - 3 : ''}`;
  rows[h - 1] = `K${w - 1}`;
  return rows.join('/');
}

const pages = readdirSync(resolve(ROOT, 'variants')).filter((f) => f.endsWith('.md')).sort();

describe('updateFrontMatter on the shipped pages', () => {
  for (const file of pages) {
    it(`${file}: each field edited alone keeps every other line`, () => {
      const { fm } = splitPage(readFileSync(resolve(ROOT, 'variants', file), 'utf8'));
      const d = read(fm);
      expect(updateFrontMatter(fm, d, d)).toBe(fm); // nothing changed: the very same text
      const edits: [string, Partial<VariantDef>, RegExp][] = [
        ['title', { title: 'A "new" title: yes' }, /^title:/],
        ['slug', { name: 'a-new-slug' }, /^slug:/],
        ['description', { description: 'One line, with: a colon' }, /^description:/],
        ['ranks', { height: d.height + 2, setup: setupFor(d.width, d.height + 2) }, /^\s+(rows|seam):/],
        ['files', { width: d.width - 1, setup: setupFor(d.width - 1, d.height) }, /^\s+cols:/],
        ['joins', { files: 'open', ranks: 'twist', seam: 3, setup: setupFor(d.width, d.height) }, /^\s+(wrap|files|ranks|seam):/],
        ['joins off', { files: 'wrap', ranks: 'open', seam: null, setup: setupFor(d.width, d.height) }, /^\s+(wrap|files|ranks|seam):/],
      ];
      for (const [what, change, only] of edits) {
        // the lines of the fields changed (a setup's value may run on over lines)
        const may = change.setup ? new RegExp(`${only.source}|^\\s*setup:|^\\s+[\\w/]*/[\\w/]*$`) : only;
        const next = { ...d, ...change };
        const out = updateFrontMatter(fm, next, d);
        expect(read(out), `${file} ${what}`).toEqual(next);
        // a flow-style topology becomes a block of the same entries when it changes
        const flow = /^\s*topology:\s*\{(.*)\}\s*$/m.exec(fm);
        const entries = new Set(flow ? flow[1]!.split(',').map((e) => e.trim()) : []);
        const reshaped = (l: string) => !!flow && (l === flow[0] || l.trim() === 'topology:' || entries.has(l.trim()));
        const lost = dropped(fm, out).filter((l) => !may.test(l) && !reshaped(l));
        expect(lost, `${file} ${what}: lines lost`).toEqual([]);
        // what changed is only the lines of that field
        const added = dropped(out, fm).filter((l) => !may.test(l) && !reshaped(l));
        expect(added, `${file} ${what}: lines added`).toEqual([]);
      }
    });
  }
});

describe('updateFrontMatter on awkward front matter', () => {
  const base = [
    '---',
    '# a comment the form knows nothing of',
    'title: Klein Bottle Chess',
    'author: Monteiro',
    'published: true',
    'tags: [topology, klein]',
    'description: >',
    '  folded over',
    '  two lines',
    'engine:',
    '  players:',
    '    - white  # moves first',
    '    - black',
    '  topology: {type: grid, rows: 14, cols: 8, wrap: klein-bottle, seam: 11}',
    '  setup: "PP2PPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"',
    '  notation: algebraic',
    'links:',
    '  - https://example.org/klein',
    '---',
    '',
  ].join('\n');

  it('keeps unknown keys, their order and comments through a form edit', () => {
    const d = read(base);
    expect(d.width).toBe(8);
    const out = updateFrontMatter(base, { ...d, title: 'Klein Bottle Chess II' }, d);
    expect(out).toBe(base.replace('title: Klein Bottle Chess', 'title: "Klein Bottle Chess II"'));
  });

  it('turns a flow-style topology into a block, keeping its other keys', () => {
    const d = read(base);
    const next = { ...d, width: 6, setup: setupFor(6, 14) };
    const out = updateFrontMatter(base, next, d);
    expect(read(out)).toEqual(next);
    expect(out).toContain('    seam: 11');
    expect(out).toContain('    wrap: klein-bottle');
    for (const keep of ['author: Monteiro', 'published: true', 'tags: [topology, klein]', '  players:',
      '    - white  # moves first', '  notation: algebraic', '  - https://example.org/klein', '  two lines']) {
      expect(out).toContain(keep);
    }
    const order = ['author:', 'published:', 'tags:', 'description:', 'engine:', '  players:', '  topology:', '  setup:', '  notation:', 'links:'];
    const at = order.map((k) => out.indexOf(`\n${k}`));
    expect(at.every((x) => x > 0)).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it('replaces a block scalar with the new value, and only it', () => {
    const d = read(base);
    const out = updateFrontMatter(base, { ...d, description: 'Short now' }, d);
    expect(read(out).description).toBe('Short now');
    expect(out).not.toContain('two lines');
    expect(dropped(base, out)).toEqual(['description: >', '  folded over', '  two lines']);
  });

  it('removes the seam when the twist goes, adds it back with the twist', () => {
    const d = read(base);
    // plain wrapped ranks (open ones would leave the far pawns of this
    // 8x14 setup without a forward direction: docs/rules.md section 3)
    const flat = updateFrontMatter(base, { ...d, ranks: 'wrap', seam: null }, d);
    expect(read(flat).ranks).toBe('wrap');
    expect(flat).not.toMatch(/seam:/);
    const back = updateFrontMatter(flat, { ...d, seam: 9 }, read(flat));
    expect(read(back)).toEqual({ ...d, seam: 9 });
  });

  it('adds what is missing, and writes every field when the text did not read', () => {
    const bare = '---\ntitle: Bare\nauthor: someone\n---\n';
    const d: VariantDef = { name: 'bare', title: 'Bare', description: '', width: 8, height: 8, files: 'wrap',
      ranks: 'open', seam: null, setup: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' };
    const out = updateFrontMatter(bare, d, null);
    expect(read(out)).toEqual(d);
    expect(out).toContain('author: someone');
    expect(out.startsWith('---\ntitle: "Bare"\nauthor: someone\n')).toBe(true);
  });

  it('writes a whole front matter when the text has none, and keeps CRLF lines', () => {
    const d = read(base);
    expect(updateFrontMatter('', d, null)).toBe(frontMatterOf(d));
    const crlf = base.replace(/\n/g, '\r\n');
    const out = updateFrontMatter(crlf, { ...d, title: 'X' }, d);
    expect(out).toBe(crlf.replace('title: Klein Bottle Chess', 'title: "X"'));
  });
});

describe('refusals name the line of their field', () => {
  const page = ['---', 'title: "T"', 'slug: "new"', 'engine:', '  topology:', '    type: grid', '    rows: 10',
    '    cols: 6', '    wrap: mobius', '    seam: 9', '  setup: "PPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR"', '---', ''].join('\n');

  it('finds each field where it stands', () => {
    expect(['title', 'slug', 'rows', 'engine.topology.cols', 'seam', 'setup', 'description'].map((f) => fieldLine(page, f)))
      .toEqual([2, 3, 7, 8, 10, 11, 0]);
    const flow = '---\nengine:\n  topology: {type: grid, rows: 8, cols: 8, wrap: torus}\n  setup: "8/8"\n---\n';
    expect([fieldLine(flow, 'cols'), fieldLine(flow, 'seam'), fieldLine(flow, 'setup')]).toEqual([3, 3, 4]);
  });

  it('adds the line to a message that names a field and no line', () => {
    expect(withLine("slug: 'new' is reserved", page)).toBe("slug: 'new' is reserved (line 3)");
    expect(withLine('revision 2 cannot be published: front matter: setup: the kings touch', page))
      .toBe('revision 2 cannot be published: front matter: setup: the kings touch (line 11)');
    expect(withLine('engine.topology.seam: 12 is not a rank of the board (1..10) (line 10)', page))
      .toBe('engine.topology.seam: 12 is not a rank of the board (1..10) (line 10)');
    expect(withLine('stale edit: you started from revision 1', page)).toBe('stale edit: you started from revision 1');
  });

  it('the library names the line of every setup refusal, board-made ones too', () => {
    for (const [setup, why] of [['PPPPPPP/6/6/pppppp/rnbkqr/pppppp/6/6/PPPPPP/RNBKQR', 'more than 6 cells'],
      ['6/6/6/6/6/6/6/6/6/K5', 'one king per side'], ['6/6/6/6/6/6/6/6/6/K1k3', 'both kings stand on rank 1'],
      ['6/6/6/6/6/6/6/6/1k4/K5', 'touch']]) {
      const text = page.replace(/setup: ".*"/, `setup: "${setup}"`);
      expect(() => T.variant({ frontmatter: text }), setup).toThrow(new RegExp(`setup: .*${why}.*\\(line 11\\)`));
    }
  });
});
