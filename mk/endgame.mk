# Endgame tables: the 4-piece flat-chess values (KBBK 19, KBNK 33, KNNK no
# forced mate, KQKR 35, KRKB 29, KRKN 40 moves) take seconds each, so
# `make test` leaves them to this suite, which `make check` (and CI) runs;
# with them, every 4-piece dead material on the torus against its tables.
CHECKS += endgame-check

.PHONY: endgame-check
endgame-check: $(B)/run_tests $(BIN)
	TC_ENDGAME_FULL=1 TC_BIN=./$(BIN) ./$(B)/run_tests endgame dead
