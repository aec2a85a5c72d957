# Endgame tables: the 4-piece flat-chess values (KBBK 19, KBNK 33, KNNK no
# forced mate, KQKR 35, KRKB 29, KRKN 40 moves) take seconds each, so
# `make test` leaves them to this suite, which `make check` (and CI) runs.
CHECKS += endgame-check

.PHONY: endgame-check dead-full-check
endgame-check: $(B)/run_tests $(BIN)
	TC_ENDGAME_FULL=1 TC_BIN=./$(BIN) ./$(B)/run_tests endgame

# Dead positions in full (docs/rules-dead-positions.md): the whole table of
# that page against `topochess dead` (every 4-piece material on every
# preset, about 15 minutes of one core) and 40 sampled positions of every
# material on every preset against the forward search. Not in `make check`:
# run it when the help-mate pass, the solver or a preset changes. `make
# test` holds the 3-piece rows and the random boards.
dead-full-check: $(B)/run_tests $(BIN)
	TC_ENDGAME_FULL=1 TC_BIN=./$(BIN) ./$(B)/run_tests dead
