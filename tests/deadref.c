/* deadref: docs/rules.md section 6 by brute force, for the dead-position tests.
 *
 * A position is dead when no sequence of legal moves, by either side,
 * reaches a checkmate. This reference searches forward, breadth first,
 * over every position reachable from the start, with only the public
 * move generator (tc_generate_legal, tc_make_move), and stops at the first
 * checkmate. It shares nothing with the library's help-mate pass: no
 * tables, no un-moves, no symmetries; each state is a sorted list of
 * (cell, piece) and the side to move, rebuilt through a FEN. */
#include "deadref.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/// The positions seen so far: an open-addressing set of state keys.
typedef struct {
    uint64_t *slot;
    size_t mask;
} key_set;

static int set_add(key_set *s, uint64_t k)
{
    size_t i = (size_t)((k * 0x9e3779b97f4a7c15ull) >> 20) & s->mask;
    while (s->slot[i]) {
        if (s->slot[i] == k)
            return 0;
        i = (i + 1) & s->mask;
    }
    s->slot[i] = k;
    return 1;
}

/* The state of a position of at most 4 pieces: bit 0 the side to move,
 * then for each piece in cell order 7 bits of cell and 4 of piece. */
static uint64_t key_of(const tc_position *p, int ncells)
{
    uint64_t k = (uint64_t)tc_side_to_move(p);
    int shift = 1, n = 0;
    for (int c = 0; c < ncells && n < 5; c++) {
        int pc = tc_piece_at(p, c);
        if (!pc)
            continue;
        k |= (uint64_t)((c << 4) | pc) << shift;
        shift += 11;
        n++;
    }
    return n <= 4 ? k : 0;
}

static void fen_of(const tc_variant *v, uint64_t k, char *buf, size_t n)
{
    int w = tc_variant_width(v), h = tc_variant_height(v);
    int board[TC_MAX_CELLS] = {0};
    for (int shift = 1; shift < 64; shift += 11) {
        int field = (int)((k >> shift) & 0x7ff);
        if (field)
            board[field >> 4] = field & 15;
    }
    size_t len = 0;
    for (int y = h - 1; y >= 0; y--) {
        int run = 0;
        for (int x = 0; x < w; x++) {
            int pc = board[y * w + x];
            if (!pc) {
                run++;
                continue;
            }
            if (run)
                len += (size_t)snprintf(buf + len, n - len, "%d", run);
            run = 0;
            char ch = " PNBRQK"[TC_TYPE(pc)];
            buf[len++] = TC_COLOUR(pc) ? (char)(ch - 'A' + 'a') : ch;
        }
        if (run)
            len += (size_t)snprintf(buf + len, n - len, "%d", run);
        if (y)
            buf[len++] = '/';
    }
    snprintf(buf + len, n - len, " %c - - 0 1", (k & 1) ? 'b' : 'w');
}

static int reach(const tc_position *start, size_t budget, size_t *seen, deadref_keep keep, void *ctx, int victim);

int deadref_reach(const tc_position *start, size_t budget, size_t *seen)
{
    return reach(start, budget, seen, NULL, NULL, -1);
}

int deadref_reach_through(const tc_position *start, size_t budget, size_t *seen, deadref_keep keep, void *ctx)
{
    return reach(start, budget, seen, keep, ctx, -1);
}

int deadref_reach_mate_of(const tc_position *start, int victim, size_t budget, size_t *seen)
{
    return reach(start, budget, seen, NULL, NULL, victim);
}

/* victim: -1 any checkmate counts, else only one of that side */
static int reach(const tc_position *start, size_t budget, size_t *seen, deadref_keep keep, void *ctx, int victim)
{
    const tc_variant *v = tc_position_variant(start);
    int ncells = tc_variant_cells(v);
    uint64_t k0 = key_of(start, ncells);
    *seen = 0;
    if (!k0)
        return DEADREF_UNKNOWN;
    size_t cap = 1;
    while (cap < 2 * budget + 2)
        cap <<= 1;
    key_set set = {calloc(cap, sizeof(uint64_t)), cap - 1};
    uint64_t *queue = malloc((budget + 1) * sizeof *queue);
    tc_position *p = tc_position_new(v);
    tc_movelist *list = malloc(sizeof *list);
    int answer = DEADREF_UNKNOWN;
    if (!set.slot || !queue || !p || !list)
        goto done;
    size_t head = 0, tail = 0;
    set_add(&set, k0);
    queue[tail++] = k0;
    answer = DEADREF_DEAD;
    while (head < tail && answer == DEADREF_DEAD) {
        char fen[800];
        tc_error err;
        fen_of(v, queue[head++], fen, sizeof fen);
        if (tc_position_set_fen(p, fen, &err)) {
            answer = DEADREF_UNKNOWN;
            break;
        }
        int n = tc_generate_legal(p, list);
        if (n == 0) {
            if (tc_in_check(p) && (victim < 0 || tc_side_to_move(p) == victim))
                answer = DEADREF_ALIVE;
            continue;
        }
        for (int i = 0; i < n && answer == DEADREF_DEAD; i++) {
            tc_make_move(p, list->moves[i]);
            uint64_t k = key_of(p, ncells);
            bool skip = keep && !keep(ctx, p);
            tc_unmake_move(p);
            if (skip || !set_add(&set, k))
                continue;
            if (tail == budget)
                answer = DEADREF_UNKNOWN;
            else
                queue[tail++] = k;
        }
    }
    *seen = tail;
done:
    free(set.slot);
    free(queue);
    free(list);
    tc_position_free(p);
    return answer;
}
