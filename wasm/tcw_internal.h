/* The wasm module's export layer, inside: what its files share (the
 * export and import markers, the JSON text builder, and helpers that write
 * cells, moves and game states). Not a public header. */
#ifndef TCW_INTERNAL_H
#define TCW_INTERNAL_H

#include "topochess.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"
#include "topochess_explain.h"

#include "nnue.h"
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__wasm__)
#define EXPORT(name) __attribute__((export_name(#name))) name
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
#else /* a native build (fuzz/fuzz_wasm.c) supplies the two host functions */
#define EXPORT(name) name
#define IMPORT(name)
#endif

IMPORT(tc_host_info) void tc_host_info(const char *json, size_t len);
IMPORT(tc_host_poll) int tc_host_poll(void);

/// A growing NUL-terminated string; `oom` latches the first failed growth.
typedef struct {
    char *b;
    size_t n, cap;
    int oom;
} sb;

int sb_grow(sb *s, size_t more);
void sb_putn(sb *s, const char *t, size_t len);
void sb_puts(sb *s, const char *t);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void sb_printf(sb *s, const char *fmt, ...);
void sb_str(sb *s, const char *t);
char *sb_done(sb *s, tc_error *err);

/* Empties err's message (err may be NULL). */
void tcw_clear(tc_error *err);
/* Writes a cell's name as a JSON string. */
void tcw_cell_str(sb *s, const tc_variant *v, int c);
/* Writes a move as the TypeScript API's Move object. */
void tcw_move_json(sb *s, const tc_position *p, tc_move m);
const char *tcw_status_name(tc_status st);
const char *tcw_result_of(const tc_position *p, tc_status st);

/* tcw_game_pgn's text (tags as "Name\tValue\n" lines), with a review's
 * notes when review is not NULL (tc_review_pgn); heap or NULL. */
char *tcw_pgn_text(const tc_position *p, const char *tags, const char *result, const tc_review_move *review,
                   const tc_review_side *sides);

#endif
