# People on the hub (server/accounts.c, session.c, people.c; games/
# account_store.c, glicko2.c): make test runs the glicko2, people and
# people_lobby suites on SQLite; people-pg-test runs the people suites
# again on a throwaway PostgreSQL cluster.
.PHONY: people-pg-test
people-pg-test: $(B)/run_tests
	tools/with-postgres ./$(B)/run_tests people people_lobby
CHECKS += people-pg-test

# The people pages over HTTP against real `topochess serve` processes, on
# SQLite and on PostgreSQL (two processes).
.PHONY: people-http-test people-http-pg-test
people-http-test: $(BIN)
	bash tests/server/people.sh ./$(BIN)
people-http-pg-test: $(BIN)
	tools/with-postgres bash tests/server/people.sh ./$(BIN)
CHECKS += people-http-test people-http-pg-test
