/* Transposition table: buckets of four slots, depth-preferred replacement
 * with ageing, lockless sharing between threads. */
#define _DEFAULT_SOURCE /* madvise */
#include "tt.h"

#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

/* A table larger than the machine's memory is refused before asking for
 * it: some allocators (AddressSanitizer's) abort rather than fail. */
static bool fits_in_memory(size_t bytes)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return true; /* unknown: let the allocation decide */
    return bytes / (size_t)page < (size_t)pages;
}

/* data layout: move 25 bits | bound 2 | age 5 | score 16 | depth 8 */
#define MOVE_BITS 25
#define AGE_MASK 31u

static uint64_t pack(tc_move move, int score, int depth, int bound, unsigned age)
{
    return (uint64_t)(move & ((1u << MOVE_BITS) - 1)) | (uint64_t)(bound & 3) << 25 |
           (uint64_t)(age & AGE_MASK) << 27 | (uint64_t)(uint16_t)(int16_t)score << 32 |
           (uint64_t)(uint8_t)depth << 48;
}

static unsigned data_age(uint64_t d) { return (unsigned)(d >> 27) & AGE_MASK; }
static int data_depth(uint64_t d) { return (int)(uint8_t)(d >> 48); }
static int data_bound(uint64_t d) { return (int)(d >> 25) & 3; }

/* A zeroed table. Probes land anywhere in it, so with 4 KiB pages nearly
 * every one misses the TLB as well as the cache: a table of 2 MiB or more
 * is aligned to 2 MiB and offered to the kernel for huge pages (Linux's
 * transparent huge pages, when enabled for madvise or always). */
static void *table_alloc(size_t bytes)
{
    size_t huge = (size_t)2 << 20;
    void *b = NULL;
    if (bytes < huge || posix_memalign(&b, huge, bytes))
        return calloc(1, bytes);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    madvise(b, bytes, MADV_HUGEPAGE);
#endif
    memset(b, 0, bytes);
    return b;
}

int tt_init(tt_table *t, size_t mb)
{
    if (mb < 1)
        mb = 1;
    if (mb > TC_ENGINE_MAX_HASH_MB)
        mb = TC_ENGINE_MAX_HASH_MB;
    size_t want = mb * 1024 * 1024 / sizeof(tt_bucket), n = 1;
    while (n * 2 <= want)
        n *= 2;
    if (!fits_in_memory(n * sizeof(tt_bucket)))
        return -1;
    tt_bucket *b = table_alloc(n * sizeof *b);
    if (!b)
        return -1;
    t->buckets = b;
    t->nbuckets = n;
    t->age = 0;
    t->mb = mb;
    t->clean = true;
    return 0;
}

void tt_free(tt_table *t)
{
    free(t->buckets);
    t->buckets = NULL;
    t->nbuckets = 0;
}

void tt_clear(tt_table *t)
{
    if (t->clean) /* e.g. `ucinewgame` right after a new Hash size */
        return;
    /* no search runs while the table is cleared; lock-free 64-bit atomics
     * are plain words on every target, so zero bytes are zero slots */
    memset(t->buckets, 0, t->nbuckets * sizeof *t->buckets);
    t->age = 0;
    t->clean = true;
}

/* Only searches store entries, and each begins here. */
void tt_new_search(tt_table *t)
{
    t->age = (t->age + 1) & AGE_MASK;
    t->clean = false;
}

int tt_probe(const tt_table *t, uint64_t key, tt_entry *out)
{
    tt_bucket *b = &t->buckets[key & (t->nbuckets - 1)];
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->slot[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->slot[i].check, memory_order_relaxed);
        if ((c ^ d) != key || data_bound(d) == TT_NONE)
            continue;
        tc_move m = (tc_move)(d & ((1u << MOVE_BITS) - 1));
        out->move = m;
        out->score = (int16_t)(uint16_t)(d >> 32);
        out->depth = data_depth(d);
        out->bound = data_bound(d);
        return 1;
    }
    return 0;
}

void tt_store(tt_table *t, uint64_t key, tc_move move, int score, int depth, int bound)
{
    tt_bucket *b = &t->buckets[key & (t->nbuckets - 1)];
    int victim = 0, worst = 1 << 30;
    for (int i = 0; i < TT_BUCKET; i++) {
        uint64_t d = atomic_load_explicit(&b->slot[i].data, memory_order_relaxed);
        uint64_t c = atomic_load_explicit(&b->slot[i].check, memory_order_relaxed);
        if ((c ^ d) == key) {
            /* same position: keep the old move when the new search has none,
             * and keep a deeper exact entry of this search */
            if (!move)
                move = (tc_move)(d & ((1u << MOVE_BITS) - 1));
            if (bound != TT_EXACT && data_age(d) == t->age && data_depth(d) > depth + 2)
                return;
            victim = i;
            break;
        }
        /* value of keeping a slot: its depth, minus a penalty when old */
        int keep = data_bound(d) == TT_NONE ? -1000 : data_depth(d) - 8 * (int)((t->age - data_age(d)) & AGE_MASK);
        if (keep < worst) {
            worst = keep;
            victim = i;
        }
    }
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    uint64_t d = pack(move, score, depth, bound, t->age);
    atomic_store_explicit(&b->slot[victim].data, d, memory_order_relaxed);
    atomic_store_explicit(&b->slot[victim].check, key ^ d, memory_order_relaxed);
}

int tt_hashfull(const tt_table *t)
{
    size_t n = t->nbuckets < 250 ? t->nbuckets : 250, used = 0;
    for (size_t i = 0; i < n; i++)
        for (int j = 0; j < TT_BUCKET; j++) {
            uint64_t d = atomic_load_explicit(&t->buckets[i].slot[j].data, memory_order_relaxed);
            used += data_bound(d) != TT_NONE && data_age(d) == t->age;
        }
    return n ? (int)(used * 1000 / (n * TT_BUCKET)) : 0;
}

int tt_score_to(int score, int ply)
{
    if (score >= TC_SCORE_MATE_BOUND)
        return score + ply;
    if (score <= -TC_SCORE_MATE_BOUND)
        return score - ply;
    return score;
}

int tt_score_from(int score, int ply)
{
    if (score >= TC_SCORE_MATE_BOUND)
        return score - ply;
    if (score <= -TC_SCORE_MATE_BOUND)
        return score + ply;
    return score;
}
