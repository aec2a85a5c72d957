/* The engine protocols as loops over two streams, so that tests can drive
 * them with in-memory transcripts and `topochess uci|xboard` with stdio. */
#ifndef TC_PROTOCOLS_H
#define TC_PROTOCOLS_H

#include "topochess.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <stdarg.h>
#include <stdio.h>

/* The largest hash table either protocol accepts (UCI's Hash, CECP's
 * memory), in MB; larger requests are refused with an error line. */
#define PROTO_MAX_HASH_MB 16384
#define PROTO_DEFAULT_HASH_MB 64
/* Error lines quote at most this many bytes of the input they refuse. */
#define PROTO_ECHO_MAX 80

/// Variants and engines kept for reuse by loop after loop (the fuzz
/// targets run thousands of loops a second, and building the tables is most
/// of a short run). An engine handed out again is reset first: hash table
/// resized and cleared, history, style and threads as a new one's.
typedef struct proto_cache proto_cache;
proto_cache *proto_cache_new(void);
/* Frees every cached game; none may be in use. */
void proto_cache_free(proto_cache *c);

/// How a loop starts; a NULL pointer means the defaults.
typedef struct proto_opts {
    size_t hash_mb; /* hash table at startup and the Hash default; 0: 64 MB */
    proto_cache *cache; /* NULL: every variant and engine built afresh */
    int threads;        /* search threads at startup; 0: one */
    const char *eval_file; /* a net file to evaluate with (UCI's EvalFile); NULL: the built-in */
    int tune;              /* UCI: list the search's parameters as options (tc_engine_param_info) */
} proto_opts;

/* Each reads commands from `in` until `quit` or end of input and writes
 * answers to `out`; `def` is the variant to start with. At the end of input
 * a search in progress is stopped and its move written before the loop
 * returns. Returns 0, or 1 if the start variant cannot be built. */
int uci_loop(FILE *in, FILE *out, const tc_variant_def *def);
int xboard_loop(FILE *in, FILE *out, const tc_variant_def *def);
int uci_loop_opts(FILE *in, FILE *out, const tc_variant_def *def, const proto_opts *opts);
int xboard_loop_opts(FILE *in, FILE *out, const tc_variant_def *def, const proto_opts *opts);

/* Copies s into buf (size >= 16), cut to PROTO_ECHO_MAX bytes (and to
 * size) with "... (N bytes)" appended when it is longer; returns buf. */
const char *proto_clip(const char *s, char *buf, size_t size);

/* True when a line read (len bytes, its line break included) holds a NUL
 * or a control character other than tab, CR and LF: binary data, which
 * both loops refuse with an error line instead of reading words from it. */
int proto_binary_line(const char *line, size_t len);

/* Writes one protocol line (fmt, then a line break) and flushes it; the
 * caller holds whatever lock guards `out`. */
void proto_vline(FILE *out, const char *fmt, va_list ap);

/* Writes moves (played from p) in coordinate form, space separated. */
void proto_moves_text(const tc_position *p, const tc_move *moves, int n, char *buf, size_t size);

/* Builds (or takes from `cache`, which may be NULL) the tables, start
 * position and engine of a variant and, only when all of them could be
 * made, frees the old ones and takes their place. */
int proto_switch_variant(proto_cache *cache, const tc_variant_def *def, size_t hash_mb, int threads,
                         tc_variant **v, tc_position **pos, tc_engine **eng, tc_error *err);
/* Frees a game's engine, position and variant (or gives the first and
 * last back to `cache`) and clears the pointers. */
void proto_free_game(proto_cache *cache, tc_variant **v, tc_position **pos, tc_engine **eng);

/// The dead-position verdicts (docs/rules.md section 6) of the board a loop
/// plays on: made on first use, made again when the board changes.
typedef struct proto_dead {
    tc_dead_table *table;
    const tc_variant *v; /* the table reads this variant's tables */
    tc_variant_def def;
} proto_dead;

/* tc_game_status with the table of p's board; why (may be NULL) gets the
 * dead-position reason in words when the status is TC_DRAW_DEAD. */
tc_status proto_game_status(proto_dead *pd, const tc_position *p, char *why, size_t n);
void proto_dead_free(proto_dead *pd);

#endif
