// Random nets for the end-to-end tests (nets/ may be empty): made by the
// wasm module of web/dist (tcw_nnue_random, the library's
// nnue_random_file) under Node, with the WASI shims the pages use.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wasiHost } from '../../src/lib/wasi-host.js';

export async function randomNets(dist) {
  let x = null;
  const memory = () => x.memory;
  const { instance } = await WebAssembly.instantiate(readFileSync(join(dist, 'topochess.wasm')), {
    env: { tc_host_info: () => {}, tc_host_poll: () => 0 },
    wasi_snapshot_preview1: wasiHost(memory, () => performance.now()),
  });
  x = instance.exports;
  x._initialize?.();
  const err = x.tcw_error_new();
  /** A random net (H hidden units) for a preset's board: its bytes. */
  return (preset, hidden, seed) => {
    const name = new TextEncoder().encode(`${preset}\0`);
    const s = x.tcw_malloc(name.length);
    new Uint8Array(x.memory.buffer, s, name.length).set(name);
    const v = x.tcw_variant_preset(s, err);
    x.tcw_free(s);
    if (!v) throw new Error(`no preset ${preset}`);
    const lenPtr = x.tcw_malloc(4);
    const ptr = x.tcw_nnue_random(v, hidden, seed, lenPtr);
    const len = new DataView(x.memory.buffer).getUint32(lenPtr, true);
    const bytes = new Uint8Array(x.memory.buffer, ptr, len).slice();
    x.tcw_free(ptr);
    x.tcw_free(lenPtr);
    x.tcw_variant_free(v);
    return bytes;
  };
}
