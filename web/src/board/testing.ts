// For the unit tests under Node: the presets' topologies from the wasm
// build (TC_WASM, default ../build/wasm/topochess.wasm).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadTopochess, type Topochess } from '../lib/topochess';
import { topologyOf } from '../app/rules';
import type { Topology } from './config';

export const PRESETS = ['chess', 'cylinder', 'monteiro-cylinder', 'torus', 'mobius', 'klein-bottle', 'folding'];

let tc: Promise<Topochess> | null = null;

export function module(): Promise<Topochess> {
  const wasm = resolve(process.env.TC_WASM ?? resolve(__dirname, '../../../build/wasm/topochess.wasm'));
  tc ??= loadTopochess(readFileSync(wasm));
  return tc;
}

export async function presetTopology(name: string): Promise<Topology> {
  const v = (await module()).variant({ preset: name });
  return topologyOf(v, name);
}

export function cellOf(t: Topology, name: string): number {
  for (let i = 0; i < t.width * t.height; i++) if (t.cellName(i) === name) return i;
  throw new Error(`no cell ${name}`);
}
