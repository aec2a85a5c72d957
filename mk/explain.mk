# The explain API's example (docs/library.md and docs/cli.md) is built with the
# tests and its output checked by `make check`. (Rules in a fragment come
# before the top Makefile's own, so the default goal is set back to all.)
.DEFAULT_GOAL := all
test: $(B)/examples/check_path

.PHONY: explain-example
explain-example: $(B)/examples/check_path
	./$(B)/examples/check_path | grep -qx 'bishop c8: b9 a10 ~ h11 = b12 c13 d14 | e1'
CHECKS += explain-example
