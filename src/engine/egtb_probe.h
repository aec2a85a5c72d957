/* The engine's solved endings: a cache of endgame sets for its variant,
 * made ready before a search (3-piece endings built on demand, 4-piece
 * ones loaded from EndgamePath) and only read while searching. */
#ifndef TC_EGTB_PROBE_H
#define TC_EGTB_PROBE_H

#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <stdbool.h>

typedef struct egtb_cache egtb_cache;

egtb_cache *egtb_cache_new(const tc_variant *v);
void egtb_cache_free(egtb_cache *c);
/* Directory of files written by `topochess endgame --out DIR` ("" none). */
void egtb_cache_set_path(egtb_cache *c, const char *dir);
/* Before a search, in the caller's thread: readies the root's ending and
 * decides which materials its captures reach are dead. */
void egtb_prepare(egtb_cache *c, const tc_position *root);
/* In the search: a mate or draw score for a position of a ready ending,
 * or 0 for a dead position (at most 4 pieces). */
bool egtb_score(const egtb_cache *c, const tc_position *p, int ply, int *score);
/* At the root: the tables' best move and its score (0 if not held). */
tc_move egtb_root_move(const egtb_cache *c, tc_position *root, int *score);
/* The tables' main line from the root (at most max moves); its length. */
int egtb_root_pv(const egtb_cache *c, tc_position *root, tc_move *pv, int max);

#endif
