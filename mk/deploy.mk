# Two servers behind HAProxy (deploy/haproxy.cfg) on a throwaway PostgreSQL:
# sessions, the lobby, a game and its watchers through the proxy, one
# server killed mid-game (watchers in Chromium too: needs make web);
# X-Forwarded-For from the trusted proxy only.
.PHONY: haproxy-test
haproxy-test: $(BIN) web
	tools/with-postgres bash tests/server/haproxy.sh ./$(BIN)
CHECKS += haproxy-test

