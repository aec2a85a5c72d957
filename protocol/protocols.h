/* The engine protocols as loops over two streams, so that tests can drive
 * them with in-memory transcripts and `topochess uci|xboard` with stdio. */
#ifndef TC_PROTOCOLS_H
#define TC_PROTOCOLS_H

#include "topochess.h"
#include "topochess_engine.h"

#include <stdio.h>

/* Each reads commands from `in` until `quit` or end of input and writes
 * answers to `out`; `def` is the variant to start with. Returns 0. */
int uci_loop(FILE *in, FILE *out, const tc_variant_def *def);
int xboard_loop(FILE *in, FILE *out, const tc_variant_def *def);

/* Writes moves (played from p) in coordinate form, space separated. */
void proto_moves_text(const tc_position *p, const tc_move *moves, int n, char *buf, size_t size);

/* Builds the tables, start position and engine of a variant and, only when
 * all of them could be made, frees the old ones and takes their place. */
int proto_switch_variant(const tc_variant_def *def, size_t hash_mb, int threads, tc_variant **v,
                         tc_position **pos, tc_engine **eng, tc_error *err);
/* Frees a game's engine, position and variant and clears the pointers. */
void proto_free_game(tc_variant **v, tc_position **pos, tc_engine **eng);

#endif
