// Shared by the unit tests: the wasm build, the native CLI and the EPD files.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTopochess, type Topochess } from '../../src/lib/topochess';

export const ROOT = resolve(__dirname, '../../..');
export const WASM = resolve(process.env['TC_WASM'] ?? resolve(ROOT, 'build/wasm/topochess.wasm'));
export const BIN = resolve(process.env['TC_BIN'] ?? resolve(ROOT, 'topochess'));

let cached: Promise<Topochess> | null = null;
export function tc(): Promise<Topochess> {
  if (!existsSync(WASM)) throw new Error(`${WASM} missing: run 'make wasm' first`);
  cached ??= loadTopochess(readFileSync(WASM));
  return cached;
}

/** Runs the native CLI (build it with `make`); returns stdout. */
export function native(args: string[]): string {
  if (!existsSync(BIN)) throw new Error(`${BIN} missing: run 'make' first`);
  return execFileSync(BIN, args, { encoding: 'utf8' });
}

export interface EpdLine {
  file: string;
  line: number;
  variant: string;
  fen: string;
  counts: { depth: number; nodes: number }[];
}

/** Every position of tests/data/perft/*.epd with its reference counts. */
export function epdLines(): EpdLine[] {
  const dir = resolve(ROOT, 'tests/data/perft');
  const out: EpdLine[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.epd')).sort()) {
    readFileSync(resolve(dir, file), 'utf8').split('\n').forEach((text, i) => {
      const t = text.trim();
      if (!t || t.startsWith('#')) return;
      const fields = t.split(';').map((f) => f.trim());
      const counts = fields.slice(2).map((f) => {
        const m = /^D(\d+)\s+(\d+)$/.exec(f);
        if (!m) throw new Error(`${file}:${i + 1}: bad field '${f}'`);
        return { depth: Number(m[1]), nodes: Number(m[2]) };
      });
      out.push({ file, line: i + 1, variant: fields[0]!, fen: fields[1]!, counts });
    });
  }
  return out;
}

export function page(slug: string): string {
  return readFileSync(resolve(ROOT, 'variants', `${slug}.md`), 'utf8');
}

/** A random net for a variant (tcw_nnue_random: the library's
 * nnue_random_file), made by the module: its bytes. */
export function randomNet(T: Topochess, vptr: number, hidden: number, seed: number): Uint8Array {
  const x = T.m.x;
  const lenPtr = x.tcw_malloc(4);
  const ptr = x.tcw_nnue_random(vptr, hidden, seed, lenPtr);
  if (!ptr) throw new Error('tcw_nnue_random failed');
  const len = new DataView(x.memory.buffer).getUint32(lenPtr, true);
  const bytes = new Uint8Array(x.memory.buffer, ptr, len).slice();
  x.tcw_free(ptr);
  x.tcw_free(lenPtr);
  return bytes;
}
