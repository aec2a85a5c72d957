// The WASI host functions (wasi_snapshot_preview1) that topochess.wasm
// imports, shared by the pages (wasm.ts), the unit tests (through wasm.ts)
// and bench/wasm.mjs. Plain JavaScript so that Node runs it as it is, and
// one self-contained function so that the bench can hand its source to a
// browser page. The module has no files: stdio is used only on memory
// streams, and every call that would open or inspect a file fails as on a
// system without them (the library then goes on without solved-ending
// tables). When the module gains a WASI import, add it here: a missing one
// is a LinkError at instantiation, which the unit tests and `make
// bench-smoke` catch.

/**
 * @param {() => WebAssembly.Memory} memory the instance's memory (read late:
 *   the instance does not exist yet when the imports are made)
 * @param {() => number} now a monotonic clock in milliseconds
 */
export function wasiHost(memory, now) {
  const SUCCESS = 0;
  const BADF = 8;
  const INVAL = 28;
  const view = () => new DataView(memory().buffer);
  const fail = () => BADF;
  return {
    clock_time_get: (id, _precision, out) => {
      if (id !== 0 && id !== 1) return INVAL;
      const t = id === 0 ? BigInt(Date.now()) * 1000000n : BigInt(Math.round(now() * 1e6));
      view().setBigUint64(out, t, true);
      return SUCCESS;
    },
    // Output is swallowed: the library writes only to memory streams.
    fd_write: (_fd, iovs, iovsLen, written) => {
      const v = view();
      let n = 0;
      for (let i = 0; i < iovsLen; i++) n += v.getUint32(iovs + 8 * i + 4, true);
      v.setUint32(written, n, true);
      return SUCCESS;
    },
    fd_close: fail,
    fd_seek: fail,
    fd_fdstat_get: fail,
    fd_fdstat_set_flags: fail,
    fd_prestat_get: fail,
    fd_prestat_dir_name: fail,
    fd_read: fail,
    path_open: fail,
    poll_oneoff: () => INVAL,
    proc_exit: (code) => {
      throw new Error(`topochess: the module exited (${code})`);
    },
  };
}
