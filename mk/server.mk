# topochess serve: the hub's HTTP server (server/, an adapter over the
# public headers) with libmicrohttpd, cmark and jansson (deps/server.apt).
SERVER_SRC := $(wildcard server/*.c)
ADAPT_OBJ  += $(SERVER_SRC:%.c=$(B)/%.o)
LDLIBS     += -lmicrohttpd -lcmark -ljansson -lsodium
INC_server := -Iserver -Igames -I$(PG_INC)
INC_cli    += -Iserver
INC_all    += -Iserver
CHECKS     += server-test

# Starts ./topochess serve on a free loopback port and requests every route.
.PHONY: server-test
server-test: $(BIN)
	bash tests/server/run.sh ./$(BIN)

# The router's fuzz target links the server sources (fuzz/ci.sh runs it).
$(B)/fuzz/fuzz_route: FUZZ_EXTRA := $(SERVER_SRC) $(wildcard games/*.c)
$(B)/fuzz/fuzz_route: $(SERVER_SRC) $(wildcard server/*.h)
