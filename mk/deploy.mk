# Two servers behind HAProxy (deploy/haproxy.cfg) on a throwaway PostgreSQL:
# sessions, the lobby, a game and its watchers through the proxy, one
# server killed mid-game (watchers in Chromium too: needs make web);
# X-Forwarded-For from the trusted proxy only.
.PHONY: haproxy-test
haproxy-test: $(BIN) web
	tools/with-postgres bash tests/server/haproxy.sh ./$(BIN)
CHECKS += haproxy-test


# tools/install-deps makes deb-src entries from the machine's own package
# sources (one-line and deb822), on a made-up /etc/apt.
.PHONY: install-deps-test
install-deps-test:
	bash tests/tools/install-deps.sh
CHECKS += install-deps-test

# Correspondence games and the inbox (issue 31): two processes behind
# HAProxy on one PostgreSQL, a day shortened to 4 s, one process killed and
# started again while a game's time runs out. Needs PostgreSQL.
.PHONY: correspondence-test
correspondence-test: $(BIN)
	tools/with-postgres bash tests/server/correspondence.sh ./$(BIN)
CHECKS += correspondence-test
