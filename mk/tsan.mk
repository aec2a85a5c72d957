# `make tsan`: the engine and protocol suites built with ThreadSanitizer
# (clang) and run with three search threads per loop ($TC_TEST_THREADS),
# so that data races between the protocol loops, the search threads and
# Lazy SMP's helpers are reported; a report fails the target.
TS := build/tsan
TSAN_FLAGS := -O1 -g -fsanitize=thread -fno-omit-frame-pointer

.PHONY: tsan
tsan:
	$(MAKE) --no-print-directory CC=clang B=$(TS) BIN=$(TS)/topochess OPT="$(TSAN_FLAGS)" $(TS)/run_tests
	TC_SANITIZE=1 TC_TEST_THREADS=3 TSAN_OPTIONS="halt_on_error=1 exitcode=66" ./$(TS)/run_tests engine protocol ponder

CHECKS += tsan
