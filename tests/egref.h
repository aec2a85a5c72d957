/* The endgame tests' plain forward solver (tests/egref.c). */
#ifndef TC_EGREF_H
#define TC_EGREF_H

#include "topochess.h"

#define EGREF_ILLEGAL (-2)
#define EGREF_UNKNOWN (-1) /* a draw once solved */
#define EGREF_MAX_PLIES 252

/// One material in a fixed piece order: values for every placement,
/// index = stm * n^k + cells in base n; a value >= 0 is plies to mate,
/// even when the side to move is mated, odd when it mates.
typedef struct egref_table {
    int k, pieces[4];
    uint64_t size;
    int16_t *val;
} egref_table;

typedef struct egref_set {
    const tc_variant *v;
    int ntables;
    egref_table *tables[16];
} egref_set;

/* Solves the material (piece codes; both kings among them) and every
 * smaller material its captures reach. */
egref_table *egref_solve(egref_set *s, const tc_variant *v, const int *pieces, int k);
void egref_free(egref_set *s);
int egref_value(const egref_table *t, int n, const int *cells, int stm);
/* Sets a position from pieces and cells directly (no castling, no ep). */
void egref_place(tc_position *p, const int *pieces, const int *cells, int k, int stm);

#endif
