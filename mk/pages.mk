# Variant pages as they read (src/rules/page.c, page_guess.c; server/howto.c):
# the four seed pages imported and served by a real `topochess serve`.
.PHONY: pages-test
pages-test: $(BIN)
	bash tests/server/pages.sh ./$(BIN)
CHECKS += pages-test

# Variant pages written in the browser (games/page_store.c, textdiff.c;
# server/pages_flow.c, admin.c; docs/variant-pages.md): make test runs the
# pages suite on SQLite; pages-pg-test runs it again on a throwaway
# PostgreSQL cluster.
.PHONY: pages-pg-test
pages-pg-test: $(B)/run_tests
	tools/with-postgres ./$(B)/run_tests pages
CHECKS += pages-pg-test

# The workflow over HTTP: two real `topochess serve` processes on one
# database (SQLite, then PostgreSQL), driven with curl (tests/server/pages_flow.sh).
.PHONY: pages-http-test pages-http-pg-test
pages-http-test: $(BIN)
	bash tests/server/pages_flow.sh ./$(BIN)
pages-http-pg-test: $(BIN)
	tools/with-postgres bash tests/server/pages_flow.sh ./$(BIN)
CHECKS += pages-http-test pages-http-pg-test

# The editor in Debian's Chromium: an account writes a 6x10 Moebius strip
# at /new, an editor publishes it, /play loads it (web/tests/e2e/editor.mjs).
.PHONY: editor-e2e-test
editor-e2e-test: $(BIN) web
	cd web && TC_BIN=../$(BIN) TC_PAGES=../variants node tests/e2e/editor.mjs
CHECKS += editor-e2e-test

# Published means playable at once (issue 19), in Debian's Chromium against
# two `topochess serve` processes on one database: a page written at /new,
# published by an editor, then played against the browser's engine, the
# server's engine and through a lobby seek; its archive; unpublishing
# (web/tests/e2e/publish-play.mjs).
.PHONY: publish-play-e2e-test
publish-play-e2e-test: $(BIN) web
	cd web && TC_BIN=../$(BIN) TC_PAGES=../variants node tests/e2e/publish-play.mjs
CHECKS += publish-play-e2e-test
.PHONY: publish-play-pg-e2e-test
publish-play-pg-e2e-test: $(BIN) web
	cd web && TC_BIN=../$(BIN) TC_PAGES=../variants ../tools/with-postgres node tests/e2e/publish-play.mjs
CHECKS += publish-play-pg-e2e-test
