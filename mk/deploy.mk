# Two servers behind HAProxy (deploy/haproxy.cfg) on a throwaway PostgreSQL:
# sessions, the lobby, a game and its watchers through the proxy, one
# server killed mid-game; X-Forwarded-For from the trusted proxy only.
.PHONY: haproxy-test
haproxy-test: $(BIN)
	tools/with-postgres bash tests/server/haproxy.sh ./$(BIN)
CHECKS += haproxy-test

# bench/haproxy.sh in its smoke mode: figures printed, nothing asserted.
.PHONY: bench-haproxy-smoke
bench-haproxy-smoke: $(BIN)
	SMOKE=1 tools/with-postgres bash bench/haproxy.sh ./$(BIN)
CHECKS += bench-haproxy-smoke
