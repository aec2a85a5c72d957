// Builds web/dist/ for `topochess serve` (docs/web-architecture.md):
// one entry with a fixed name (assets/app.js), one stylesheet
// (assets/app.css), lazily loaded chunks beside them (the 3-D view, the
// engine worker), and the wasm module copied from build/wasm/.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
const wasmSource = resolve(here, '../build/wasm/topochess.wasm');

function copyWasm(): Plugin {
  return {
    name: 'topochess-copy-wasm',
    apply: 'build',
    writeBundle(options) {
      const out = options.dir ?? resolve(here, 'dist');
      if (!existsSync(wasmSource)) {
        this.error(`${wasmSource} is missing: run \`make wasm\` first`);
      }
      mkdirSync(out, { recursive: true });
      copyFileSync(wasmSource, resolve(out, 'topochess.wasm'));
    },
  };
}

export default defineConfig({
  root: here,
  base: '/',
  publicDir: false,
  plugins: [copyWasm()],
  worker: { format: 'es' },
  build: {
    outDir: resolve(here, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    cssCodeSplit: false,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 800,
    rollupOptions: {
      input: resolve(here, 'src/main.ts'),
      output: {
        entryFileNames: 'assets/app.js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: (info) =>
          (info.names ?? []).some((n) => n.endsWith('.css')) ? 'assets/app.css' : 'assets/[name]-[hash][extname]',
      },
    },
  },
});
