// Unit tests under Node: the wasm module's TypeScript API (tests/unit) and
// any *.test.ts beside the sources. The tests read the wasm build from
// TC_WASM (default ../build/wasm/topochess.wasm: run `make wasm` first, or
// `make wasm-test` from the top, which does both).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'src/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120000,
    hookTimeout: 120000,
    // one file at a time: the machine has two cores shared by many
    fileParallelism: false,
  },
});
