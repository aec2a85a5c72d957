// Which preset's net the browser fetches for a variant: tcw_net_pick, the
// wasm module's export over the library's nnue_preset_pick (the rule the
// native build uses for its built-in nets), given the manifest's presets.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Topochess } from '../../src/lib/topochess';
import { ROOT, tc } from './helpers';

let T: Topochess;
beforeAll(async () => {
  T = await tc();
});

function pick(spec: { preset: string } | { frontmatter: string }, names: string[]): string | null {
  const v = T.variant(spec);
  try {
    const i = T.m.withStrs([names.join('\n')], (n) => T.m.x.tcw_net_pick(v.ptr, n.ptr));
    return i < 0 ? null : names[i] ?? `index ${i}`;
  } finally {
    v.free();
  }
}

const page = (name: string) => readFileSync(resolve(ROOT, 'variants', `${name}.md`), 'utf8');

describe('tcw_net_pick', () => {
  it('picks the preset of the variant\'s own name, wherever it stands in the list', () => {
    expect(pick({ preset: 'chess' }, ['torus', 'chess', 'cylinder'])).toBe('chess');
    expect(pick({ preset: 'klein-bottle' }, ['klein-bottle'])).toBe('klein-bottle');
    expect(pick({ preset: 'mobius' }, ['chess', 'torus', 'klein-bottle', 'monteiro-cylinder', 'mobius'])).toBe('mobius');
  });

  it('picks none when no preset listed has the board (joins count, not only the size)', () => {
    expect(pick({ preset: 'cylinder' }, ['chess', 'folding'])).toBeNull();
    expect(pick({ preset: 'torus' }, ['klein-bottle', 'mobius', 'monteiro-cylinder'])).toBeNull();
    expect(pick({ preset: 'chess' }, [])).toBeNull();
    expect(pick({ preset: 'chess' }, ['no-such-preset', ''])).toBeNull();
  });

  it('skips names that are no preset and reads the list line by line', () => {
    expect(pick({ preset: 'folding' }, ['no-such-preset', 'x'.repeat(200), 'folding'])).toBe('folding');
  });

  it('gives a page that only changes a preset\'s setup that preset\'s net; a custom board none', () => {
    const torus = page('torus').replace('slug: torus', 'slug: my-torus')
      .replace(/^setup: .*$/m, 'setup: "8/8/8/4k3/3ppp2/8/8/8/8/3PPP2/4K3/8/8/8"');
    expect(pick({ frontmatter: torus }, ['chess', 'torus'])).toBe('torus');
    const small = page('torus').replace('rows: 14', 'rows: 12').replace('slug: torus', 'slug: small-torus')
      .replace(/^setup: .*$/m, 'setup: "8/8/4k3/3ppp2/8/8/8/8/3PPP2/4K3/8/8"');
    expect(pick({ frontmatter: small }, ['chess', 'torus'])).toBeNull();
  });
});
