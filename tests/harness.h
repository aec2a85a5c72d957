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

/* Everything written to f so far, from its start (heap, NUL-terminated;
 * NULL if memory runs out). */
char *th_read_stream(FILE *f);
/* The whole file at path (heap, NUL-terminated, its length in *len when
 * len is not NULL), or NULL (length 0) and a failed check. */
char *th_read_file(const char *path, size_t *len);

/* The database a store suite runs on: $TG_TEST_DB when set (PostgreSQL),
 * else NAME.db in a scratch folder made on the first call. buf (size n)
 * keeps the answer between calls; returns buf. */
const char *th_test_db(const char *name, char *buf, size_t n);

/* Builds a preset variant or fails the current case. */
tc_variant *th_variant(const char *name);

/* Helpers shared by the suites (tests/helpers.c). */

/* A preset variant built on first use and kept until th_variants_free(),
 * for suites that visit the same presets many times; NULL (and a failed
 * check) if it cannot be built. */
tc_variant *th_variant_cached(const char *name);
void th_variants_free(void);
/* A new position set from a FEN, or NULL (and a failed check). */
tc_position *th_at_fen(const tc_variant *v, const char *fen);
/* The cell of a name like "e4", or -1 (and a failed check). */
int th_cell(const tc_variant *v, const char *name);
/* A definition of the given board and setup (other fields empty). */
void th_def(tc_variant_def *d, const char *name, int w, int h, tc_file_rule files, tc_rank_rule ranks,
            int seam, const char *setup);
/* A custom w x h variant (w >= 5) whose only pieces are the kings: White's
 * on e1, Black's on file e of rank index black_y; NULL (and a failed check)
 * if it is refused. */
tc_variant *th_kings_variant(int w, int h, tc_file_rule files, tc_rank_rule ranks, int seam, int black_y);

/* The suites, one per file tests/test_<name>.c */
#define TH_SUITES(X) \
    X(topology)      \
    X(rules)         \
    X(fen)           \
    X(notation)      \
    X(perft)         \
    X(differential)  \
    X(frontmatter)   \
    X(overrides)     \
    X(pgn)           \
    X(report)        \
    X(explain)       \
    X(cli)           \
    X(match)         \
    X(engine)        \
    X(cecp)          \
    X(endgame)       \
    X(dead)          \
    X(dead_side)     \
    X(games)         \
    X(search)         \
    X(mates)          \
    X(server)         \
    X(protocol)      \
    X(ponder)        \
    X(games_api)     \
    X(nnue)          \
    X(nnue_hybrid)   \
    X(glicko2)       \
    X(people)        \
    X(people_lobby)  \
    X(ratings)       \
    X(tourney)       \
    X(datagen)       \
    X(datagen_hand)  \
    X(page)          \
    X(pages)         \
    X(symmetry)      \
    X(review)        \
    X(analysis)      \
    X(puzzle)        \
    X(tactics)       \
    X(puzzles_hub)   \
    X(terminal)
#define TH_DECLARE(name) void suite_##name(void);
TH_SUITES(TH_DECLARE)
#undef TH_DECLARE

#endif
