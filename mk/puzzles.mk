# Rated puzzles on the hub (docs/puzzles.md "On the hub"): the C suite is
# `puzzles_hub` (make test); puzzles-http-test runs tests/server/puzzles.sh
# (an import, two server processes on one database, attempts over HTTP) on
# SQLite, puzzles-http-pg-test the same on a throwaway PostgreSQL.
.PHONY: puzzles-http-test puzzles-http-pg-test
puzzles-http-test: $(BIN)
	bash tests/server/puzzles.sh ./$(BIN)
puzzles-http-pg-test: $(BIN)
	tools/with-postgres bash tests/server/puzzles.sh ./$(BIN)
CHECKS += puzzles-http-test puzzles-http-pg-test
