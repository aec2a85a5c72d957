/** The WASI host functions topochess.wasm imports (see wasi-host.js). */
export declare function wasiHost(
  memory: () => WebAssembly.Memory,
  now: () => number,
): WebAssembly.ModuleImports;
