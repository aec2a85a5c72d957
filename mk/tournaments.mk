# Tournaments end to end (tests/server/tournaments.sh, docs/tournaments.md):
# two arenas and a round-robin played by scripted accounts on two server
# processes, one killed mid-arena; on SQLite and on a throwaway PostgreSQL.
# The pure rules are the C suite's `tourney` group (make test).
.PHONY: tournaments-test tournaments-pg-test
tournaments-test: $(BIN)
	bash tests/server/tournaments.sh ./$(BIN)
tournaments-pg-test: $(BIN)
	tools/with-postgres bash tests/server/tournaments.sh ./$(BIN)
CHECKS += tournaments-test tournaments-pg-test
