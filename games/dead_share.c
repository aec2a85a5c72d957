/* Shared dead-position tables for hosted games: see dead_share.h.
 *
 * A tc_dead_table is safe for concurrent readers: tc_dead_position_known
 * and tc_dead_position_ready only read a material's marks after its
 * atomic state says they are complete, and marking takes the table's own
 * mutex. Request threads never mark (marking one 4-piece material of an
 * 8x14 board takes seconds, under the table's lock); they hand the
 * position to one background worker and wait a bounded time. The
 * registry's entries live as long as the process, so a table handed out
 * is never freed under a reader. */
#define _DEFAULT_SOURCE
#include "dead_share.h"

#include "topochess_endgame.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/// One board: the first game's definition, a variant of it for the
/// table's positions, and the table.
typedef struct board {
    tc_variant_def def;
    tc_variant *v;
    tc_dead_table *d;
} board;

#define QUEUE 32

/// The registry and the worker's queue of positions (as FEN) to prepare.
static struct {
    pthread_mutex_t lock;
    pthread_cond_t done; /* broadcast after each job */
    pthread_cond_t work;
    bool worker;
    board boards[TG_DEAD_BOARDS];
    int nboards;
    struct {
        board *b;
        char fen[TC_SETUP_MAX + 128]; /* tc_position_fen: >= 700 bytes */
    } queue[QUEUE];
    int head, len;
} R = {.lock = PTHREAD_MUTEX_INITIALIZER, .done = PTHREAD_COND_INITIALIZER, .work = PTHREAD_COND_INITIALIZER};

static atomic_int wait_ms = 250;

void tg_dead_set_wait_ms(int ms) { atomic_store(&wait_ms, ms); }

/* The same board and setup (the setup decides which FENs load). */
static bool same(const tc_variant_def *a, const tc_variant_def *b)
{
    return a->width == b->width && a->height == b->height && a->files == b->files && a->ranks == b->ranks &&
           a->seam == b->seam && !strcmp(a->setup, b->setup) && !strcmp(a->name, b->name);
}

/* def's board (made if room is left), or NULL; lock held. */
static board *find(const tc_variant_def *def, bool make)
{
    for (int i = 0; i < R.nboards; i++)
        if (same(&R.boards[i].def, def))
            return &R.boards[i];
    if (!make || R.nboards == TG_DEAD_BOARDS)
        return NULL;
    board *b = &R.boards[R.nboards];
    tc_error err;
    b->def = *def;
    b->v = tc_variant_new(def, &err);
    b->d = b->v ? tc_dead_table_new(b->v, &err) : NULL;
    if (!b->d) {
        tc_variant_free(b->v);
        return NULL;
    }
    tc_dead_table_set_limit(b->d, TG_DEAD_MAX_ENTRIES);
    R.nboards++;
    return b;
}

const void *tg_dead_shared_table(const tc_variant_def *def)
{
    pthread_mutex_lock(&R.lock);
    board *b = find(def, false);
    pthread_mutex_unlock(&R.lock);
    return b ? b->d : NULL;
}

/* The worker: marks what each queued position's captures reach. */
static void *work(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&R.lock);
    for (;;) {
        while (!R.len)
            pthread_cond_wait(&R.work, &R.lock);
        board *b = R.queue[R.head].b;
        char fen[sizeof R.queue[0].fen];
        memcpy(fen, R.queue[R.head].fen, sizeof fen);
        R.head = (R.head + 1) % QUEUE;
        R.len--;
        pthread_mutex_unlock(&R.lock);
        tc_position *p = tc_position_new(b->v);
        tc_error err;
        if (p && !tc_position_set_fen(p, fen, &err))
            tc_dead_table_prepare(b->d, p, 0);
        tc_position_free(p);
        pthread_mutex_lock(&R.lock);
        pthread_cond_broadcast(&R.done);
    }
    return NULL;
}

/* Queues p for the worker (lock held); a full queue drops it (the next
 * move queues again). */
static void enqueue(board *b, const char *fen)
{
    if (!R.worker) {
        pthread_t t;
        if (pthread_create(&t, NULL, work, NULL))
            return;
        pthread_detach(t);
        R.worker = true;
    }
    for (int i = 0; i < R.len; i++)
        if (R.queue[(R.head + i) % QUEUE].b == b && !strcmp(R.queue[(R.head + i) % QUEUE].fen, fen))
            return;
    if (R.len == QUEUE)
        return;
    int at = (R.head + R.len++) % QUEUE;
    R.queue[at].b = b;
    snprintf(R.queue[at].fen, sizeof R.queue[at].fen, "%s", fen);
    pthread_cond_signal(&R.work);
}

tc_status tg_dead_status(const tc_variant_def *def, const tc_position *gp)
{
    tc_status st = tc_position_status(gp); /* gp: the game's history (repetitions) */
    if (st != TC_ONGOING && st != TC_DRAW_DEAD)
        return st; /* a mate, stalemate or claimable draw needs no tables */
    char fen[TC_SETUP_MAX + 128]; /* tc_position_fen: >= 700 bytes */
    if (tc_position_fen(gp, fen, sizeof fen) <= 0) /* its length */
        return tc_game_status(NULL, gp);
    pthread_mutex_lock(&R.lock);
    board *b = find(def, true);
    if (!b) {
        pthread_mutex_unlock(&R.lock);
        return tc_game_status(NULL, gp); /* no room: the rules' own cases */
    }
    /* the same position over the table's own variant (tables answer only
     * for positions of the variant they were made for) */
    tc_position *p = tc_position_new(b->v);
    tc_error err;
    if (!p || tc_position_set_fen(p, fen, &err)) {
        pthread_mutex_unlock(&R.lock);
        tc_position_free(p);
        return tc_game_status(NULL, gp);
    }
    if (!tc_dead_position_ready(b->d, p)) {
        enqueue(b, fen);
        /* in slices of 20 ms: the material may be marked midway through
         * a job for a larger one */
        for (int waited = 0; waited < atomic_load(&wait_ms) && !tc_dead_position_ready(b->d, p); waited += 20) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            long ns = until.tv_nsec + 20 * 1000000L;
            until.tv_sec += ns / 1000000000L;
            until.tv_nsec = ns % 1000000000L;
            pthread_cond_timedwait(&R.done, &R.lock, &until);
        }
    }
    pthread_mutex_unlock(&R.lock);
    /* as tc_game_status: the tables decide; not ready yet: not declared dead */
    st = tc_dead_position_known(b->d, p) ? TC_DRAW_DEAD : TC_ONGOING;
    tc_position_free(p);
    return st;
}

int tg_dead_can_mate(const tc_variant_def *def, const tc_position *gp, int side)
{
    char fen[TC_SETUP_MAX + 128];
    if (tc_position_fen(gp, fen, sizeof fen) <= 0)
        return -1;
    pthread_mutex_lock(&R.lock);
    board *b = find(def, true);
    pthread_mutex_unlock(&R.lock);
    if (!b)
        return -1;
    tc_position *p = tc_position_new(b->v);
    tc_error err;
    int can = p && !tc_position_set_fen(p, fen, &err) ? tc_dead_can_mate(b->d, p, side) : -1;
    tc_position_free(p);
    return can;
}
