/* Private to the explain modules (paths.c, explain.c): the line generator
 * that both the path API and the reasons for illegal moves are built on. */
#ifndef TC_PATHS_H
#define TC_PATHS_H

#include "internal.h"
#include "topochess_explain.h"

/// What a line generator is asked for: the board it reads (NULL: an empty
/// board), the mode, and an optional target that ends every line.
typedef struct {
    const tc_position *p;
    const uint8_t *board;
    int mode;   /* TC_LINES_MOVES or TC_LINES_ATTACKS */
    int target; /* -1: whole lines */
} tc_line_query;

/// Where generated lines go: a set (may be NULL) and/or the plainest one
/// (shortest, then fewest joins).
typedef struct {
    tc_path_set *set;
    tc_path *first;
    int found;
} tc_sink;

/* Adds a finished line to a sink (a set drops lines with the same cells). */
void tc_sink_add(tc_sink *s, const tc_path *pa);
/* Every line of `piece` standing on `from`, by the query's rules. */
void tc_gen_lines(const tc_line_query *q, int piece, int from, tc_sink *s);
/* The castling king's cells along its back rank (side 0 kingside). */
void tc_castle_path(const tc_position *p, int colour, int side, tc_path *out);
/* "white" or "black". */
const char *tc_colour_word(int colour);
/* Appends to a message buffer, never past its end. */
void tc_appendf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
