# docs/api.md checked from outside (tests/server/api_docs.sh): every row
# of its status table and the fields it documents, on SQLite and on a
# throwaway PostgreSQL (where the 503 row stops the database).
.PHONY: api-docs-test api-docs-pg-test
api-docs-test: $(BIN)
	bash tests/server/api_docs.sh ./$(BIN)
api-docs-pg-test: $(BIN)
	tools/with-postgres bash tests/server/api_docs.sh ./$(BIN)
CHECKS += api-docs-test api-docs-pg-test
