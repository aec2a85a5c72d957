/* A small test harness: suites call th_case() to start a named case and
 * CHECK() to assert; a case passes when none of its checks failed. */
#ifndef TC_HARNESS_H
#define TC_HARNESS_H

#include "topochess.h"

#include <stdio.h>

void th_case(const char *fmt, ...);
void th_fail(const char *file, int line, const char *fmt, ...);
/* Directory of the perft EPD files (../shared/perft if present, else the
 * copy under tests/data/perft). */
const char *th_perft_dir(void);
/* True when running under sanitizers: suites may use smaller depths. */
int th_sanitize(void);

#define CHECK(cond, ...) ((cond) ? (void)0 : th_fail(__FILE__, __LINE__, __VA_ARGS__))

/* Builds a preset variant or fails the current case. */
tc_variant *th_variant(const char *name);

/* The suites, one per file tests/test_<name>.c */
#define TH_SUITES(X) \
    X(topology)      \
    X(rules)         \
    X(fen)           \
    X(notation)      \
    X(perft)         \
    X(differential)  \
    X(frontmatter)   \
    X(pgn)           \
    X(report)        \
    X(cli)           \
    X(match)
#define TH_DECLARE(name) void suite_##name(void);
TH_SUITES(TH_DECLARE)
#undef TH_DECLARE

#endif
