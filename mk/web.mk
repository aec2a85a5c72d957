# The pages (web/src/, built by Vite into web/dist/) and their end-to-end
# tests. `make web` needs the wasm module (`make wasm`) and the npm packages
# of web/package-lock.json (tools/install-deps, or `cd web && npm ci`).
# `make e2e-test` drives Debian's Chromium against a real `topochess serve`.
WEB_SRC := $(shell find web/src -type f 2>/dev/null) web/tools/compress.mjs web/tools/nets.mjs web/vite.config.ts web/tsconfig.json web/package-lock.json

.PHONY: web e2e-test
web: web/dist/assets/app.js

web/node_modules/.package-lock.json: web/package-lock.json
	cd web && npm ci --no-audit --no-fund

# The nets (NETS_DIR, default nets/) go beside the pages as static files
# (web/tools/nets.mjs); the wasm module has none built in (mk/wasm.mk).
web/dist/assets/app.js: $(WEB_SRC) build/wasm/topochess.wasm web/node_modules/.package-lock.json $(GEN)/nets.list $(NETS)
	cd web && npx tsc --noEmit -p . && npx vite build && node tools/nets.mjs $(abspath $(NETS_DIR)) && node tools/compress.mjs

# TC_E2E_SHOTS=DIR keeps the screenshots (default: a fresh scratch dir).
e2e-test: $(BIN) web
	cd web && TC_BIN=../$(BIN) TC_PAGES=../variants node tests/e2e/run.mjs

CHECKS += e2e-test
