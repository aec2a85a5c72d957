# Hosted games over HTTP (server/games_api.c): the API suite drives real
# `topochess serve` processes over loopback, on SQLite and on a throwaway
# PostgreSQL cluster (two server processes on one database).
.PHONY: hosted-test hosted-pg-test
hosted-test: $(BIN)
	bash tests/server/games.sh ./$(BIN)
hosted-pg-test: $(BIN)
	tools/with-postgres bash tests/server/games.sh ./$(BIN)
CHECKS += hosted-test hosted-pg-test

# The browsers' hosted game again on PostgreSQL, with the players and the
# watcher on two server processes sharing the database (needs make web).
.PHONY: e2e-pg-test
e2e-pg-test: $(BIN) web
	cd web && TC_BIN=../$(BIN) TC_PAGES=../variants TC_E2E_ONLY=hosted ../tools/with-postgres node tests/e2e/run.mjs
CHECKS += e2e-pg-test

# The API's body checks as a fuzz target (fuzz/ci.sh runs it with the others).
$(B)/fuzz/fuzz_games: FUZZ_EXTRA := $(wildcard server/*.c) $(wildcard games/*.c)
$(B)/fuzz/fuzz_games: $(wildcard server/*.c server/*.h games/*.c games/*.h)

# Faults and abuse (issue 17): the database stopped, restarted and its
# listener's backend terminated, shutdown with live streams, custom pages
# posing as hub variants, rate limits, the API's bounds. Needs PostgreSQL.
.PHONY: faults-test
faults-test: $(BIN)
	tools/with-postgres bash tests/server/faults.sh ./$(BIN)
CHECKS += faults-test

# The hosted site under attack (issue 29): logins and their throttles,
# the trusted proxy's forwarded addresses, the lobby stream's limit,
# sessions per account, Origin null, UTF-8, and three addresses sending
# slow heads while a fourth asks (tests/server/attacks.sh; about a minute).
.PHONY: attacks-test
attacks-test: $(BIN)
	bash tests/server/attacks.sh ./$(BIN)
CHECKS += attacks-test

# bench/abuse.sh in its smoke mode (50 slow clients, 50 stalled watchers):
# figures printed, nothing asserted, so that the script cannot rot.
.PHONY: bench-abuse-smoke
bench-abuse-smoke: $(BIN)
	SMOKE=1 bash bench/abuse.sh ./$(BIN)
CHECKS += bench-abuse-smoke
