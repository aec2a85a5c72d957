/* Transposition table: shared by every search thread of an engine. */
#ifndef TC_TT_H
#define TC_TT_H

#include "internal.h"

#include <stdatomic.h>

enum { TT_NONE = 0, TT_UPPER = 1, TT_LOWER = 2, TT_EXACT = 3 };

/// One slot. `check` holds key ^ data so that a slot torn by two threads
/// writing at once fails verification instead of returning another
/// position's data. Relaxed atomics keep the race defined without costing
/// anything on common hardware.
typedef struct {
    _Atomic uint64_t check;
    _Atomic uint64_t data;
} tt_slot;

#define TT_BUCKET 4

/// Four slots sharing one 64-byte line: a probe touches one cache line.
typedef struct {
    tt_slot slot[TT_BUCKET];
} tt_bucket;

/// The table and its generation counter (bumped by each new search so that
/// old entries lose replacement contests).
typedef struct {
    tt_bucket *buckets;
    size_t nbuckets; /* a power of two */
    unsigned age;
    size_t mb;       /* the size asked for, in MiB */
    bool clean;      /* nothing stored since the table was made or cleared */
} tt_table;

/// A decoded entry.
typedef struct {
    tc_move move;
    int score, depth, bound;
} tt_entry;

int tt_init(tt_table *t, size_t mb);
void tt_free(tt_table *t);
void tt_clear(tt_table *t);
void tt_new_search(tt_table *t);
/* 1 and *out filled when the key is present. Scores come back as stored:
 * convert with tt_score_from. */
int tt_probe(const tt_table *t, uint64_t key, tt_entry *out);
void tt_store(tt_table *t, uint64_t key, tc_move move, int score, int depth, int bound);
int tt_hashfull(const tt_table *t);
static inline void tt_prefetch(const tt_table *t, uint64_t key)
{
    __builtin_prefetch(&t->buckets[key & (t->nbuckets - 1)]);
}

/* Mate scores are stored relative to the node, not the root. */
int tt_score_to(int score, int ply);
int tt_score_from(int score, int ply);

#endif
