# docs/api.md checked from outside (tests/server/api_docs.sh): every row
# of its status table and the fields it documents, on SQLite and on a
# throwaway PostgreSQL (where the 503 row stops the database).
.PHONY: api-docs-test api-docs-pg-test
api-docs-test: $(BIN)
	bash tests/server/api_docs.sh ./$(BIN)
api-docs-pg-test: $(BIN)
	tools/with-postgres bash tests/server/api_docs.sh ./$(BIN)
CHECKS += api-docs-test api-docs-pg-test

# Rated results counted by two server processes at once (tests/server/
# ratings.sh): equal to one process counting alone; the pair limit shown.
.PHONY: ratings-test ratings-pg-test
ratings-test: $(BIN)
	bash tests/server/ratings.sh ./$(BIN)
ratings-pg-test: $(BIN)
	tools/with-postgres bash tests/server/ratings.sh ./$(BIN)
CHECKS += ratings-test ratings-pg-test
