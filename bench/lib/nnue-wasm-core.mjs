// The wasm side of the learned evaluation's speed bench (bench/nnue-wasm.mjs),
// written to run unchanged in Node and in a browser page: no imports, no
// timing (the caller measures CPU time around each search, which a page
// cannot read itself). A search is the engine's fixed-depth search from a
// preset's start position, with the hand-written evaluation (hidden 0) or
// with a random net of that width (L1 32, L2 32; seed 7 gives the bytes
// build/nnue_bench makes).

/** Instantiates the module from its bytes: {presets, prepare, run, release}. */
export async function makeBench(bytes) {
  let mem = null;
  const imports = {
    env: { tc_host_info: () => {}, tc_host_poll: () => 0 },
    wasi_snapshot_preview1: {
      clock_time_get: (_id, _p, out) => {
        new DataView(mem.buffer).setBigUint64(out, BigInt(Math.round(performance.now() * 1e6)), true);
        return 0;
      },
      fd_write: () => 8, fd_close: () => 8, fd_seek: () => 8,
    },
  };
  const module = await WebAssembly.compile(bytes);
  for (const im of WebAssembly.Module.imports(module)) // other WASI calls: "bad file descriptor"
    if (im.kind === 'function') (imports[im.module] ??= {})[im.name] ??= () => 8;
  const instance = await WebAssembly.instantiate(module, imports);
  const x = instance.exports;
  mem = x.memory;
  x._initialize();
  const err = x.tcw_error_new();
  const cstr = (s) => {
    const b = new TextEncoder().encode(s + '\0');
    const p = x.tcw_malloc(b.length);
    new Uint8Array(mem.buffer).set(b, p);
    return p;
  };
  const take = (p) => {
    const m = new Uint8Array(mem.buffer);
    let e = p;
    while (m[e]) e++;
    const s = new TextDecoder().decode(m.subarray(p, e));
    x.tcw_free(p);
    return s;
  };
  const presets = JSON.parse(take(x.tcw_presets_json())).map((p) => p.name ?? p.def?.name).filter(Boolean);

  // Engines made ready outside the timed part (the 16 MB table, the net).
  const ready = [];
  /** An engine on preset `name` at its start, with a random net of width
   * `hidden` (0: the hand-written evaluation); returns its handle. */
  function prepare(name, hidden) {
    const np = cstr(name);
    const v = x.tcw_variant_preset(np, err);
    x.tcw_free(np);
    if (!v) throw new Error(`no preset ${name}`);
    const e = x.tcw_engine_new(v, 16);
    if (hidden) {
      const lp = x.tcw_malloc(4);
      const bp = x.tcw_nnue_random(v, hidden, 7, lp);
      const len = new DataView(mem.buffer).getUint32(lp, true);
      if (x.tcw_engine_load_net(e, bp, len, err)) throw new Error('net refused');
      x.tcw_free(bp);
      x.tcw_free(lp);
    } else x.tcw_engine_clear_net(e);
    ready.push({ v, e, g: x.tcw_game_new(v) });
    return ready.length - 1;
  }
  /** The search of a prepared engine to `depth`; its node count. */
  function run(h, depth) {
    return JSON.parse(take(x.tcw_engine_search(ready[h].e, ready[h].g, depth, 0, 0, 0, 0))).nodes;
  }
  function release(h) {
    x.tcw_game_free(ready[h].g);
    x.tcw_engine_free(ready[h].e);
    x.tcw_variant_free(ready[h].v);
  }
  return { presets, prepare, run, release };
}
