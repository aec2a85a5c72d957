# The server's analysis of finished games (tests/server/analysis.sh,
# docs/analysis.md): two processes, one killed mid-job; the PGN read back.
# PostgreSQL: a throwaway cluster (tools/with-postgres).

.PHONY: analysis-test analysis-pg-test
analysis-test: $(BIN)
	bash tests/server/analysis.sh ./$(BIN)
analysis-pg-test: $(BIN)
	tools/with-postgres bash tests/server/analysis.sh ./$(BIN)
CHECKS += analysis-test analysis-pg-test
