# Hosted games (games/): the game model and its stores, SQLite and
# PostgreSQL. Linked into topochess beside the other adapters.
GAMES_SRC := $(wildcard games/*.c)
PG_INC    := $(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
INC_games := -Igames -I$(PG_INC)
INC_all   += -Igames -I$(PG_INC)
ADAPT_OBJ += $(GAMES_SRC:%.c=$(B)/%.o)
LDLIBS    += -lsqlite3 -lpq
CHECKS    += games-pg-test

.PHONY: games-pg-test
# The games, tourney and analysis suites again, against a throwaway PostgreSQL cluster on a
# loopback port (make test runs it on SQLite).
games-pg-test: $(B)/run_tests
	tools/with-postgres ./$(B)/run_tests games tourney analysis
