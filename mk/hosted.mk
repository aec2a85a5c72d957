# Hosted games over HTTP (server/games_api.c): the API suite drives real
# `topochess serve` processes over loopback, on SQLite and on a throwaway
# PostgreSQL cluster (two server processes on one database).
.PHONY: hosted-test hosted-pg-test
hosted-test: $(BIN)
	bash tests/server/games.sh ./$(BIN)
hosted-pg-test: $(BIN)
	tools/with-postgres bash tests/server/games.sh ./$(BIN)
CHECKS += hosted-test hosted-pg-test
