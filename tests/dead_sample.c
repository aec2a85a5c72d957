/* Random positions and random small glued boards for the dead-position
 * tests (dead_sample.h). */
#include "dead_sample.h"
#include "harness.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

int dead_pick(uint64_t *s, int n) { return (int)(next_rand(s) % (uint64_t)n); }

/* A random legal position of a material ("KQK": White's pieces, then
 * Black's) on v: pieces on distinct random cells, a random side to move,
 * the side not to move not in check. NULL after many tries. */
tc_position *dead_random_position(const tc_variant *v, const char *material, uint64_t *seed)
{
    int w = tc_variant_width(v), h = tc_variant_height(v), n = tc_variant_cells(v);
    tc_position *p = tc_position_new(v);
    for (int tries = 0; p && tries < 200; tries++) {
        int board[TC_MAX_CELLS] = {0}, colour = -1;
        bool ok = true;
        for (const char *m = material; *m && ok; m++) {
            if (*m == 'K')
                colour++;
            int type = (int)(strchr(" PNBRQK", *m) - " PNBRQK");
            int c = dead_pick(seed, n), guard = 0;
            while (board[c] && guard++ < 1000)
                c = dead_pick(seed, n);
            ok = !board[c];
            board[c] = TC_PIECE(colour, type);
        }
        if (!ok)
            continue;
        char fen[800];
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
                    len += (size_t)snprintf(fen + len, sizeof fen - len, "%d", run);
                run = 0;
                char ch = " PNBRQK"[TC_TYPE(pc)];
                fen[len++] = TC_COLOUR(pc) ? (char)(ch - 'A' + 'a') : ch;
            }
            if (run)
                len += (size_t)snprintf(fen + len, sizeof fen - len, "%d", run);
            if (y)
                fen[len++] = '/';
        }
        int side = dead_pick(seed, 2);
        snprintf(fen + len, sizeof fen - len, " %c - - 0 1", side ? 'b' : 'w');
        tc_error err;
        if (tc_position_set_fen(p, fen, &err))
            continue;
        if (tc_attacked(p, tc_king_cell(p, !side), side))
            continue; /* the side not to move in check: not a position */
        return p;
    }
    tc_position_free(p);
    return NULL;
}

/* A random small board (3 to 5 files and ranks) with a random gluing,
 * the kings in opposite corners (NULL when the gluing makes them touch);
 * name gets its description. */
tc_variant *dead_random_board(uint64_t *seed, char *name, size_t n)
{
    tc_variant_def def;
    int w = 3 + dead_pick(seed, 3), h = 3 + dead_pick(seed, 3);
    int rules = dead_pick(seed, 8);
    tc_file_rule files = rules / 4 ? TC_FILES_WRAP : TC_FILES_OPEN;
    tc_rank_rule ranks = (tc_rank_rule)(rules % 4);
    int seam = ranks == TC_RANKS_TWIST ? 1 + dead_pick(seed, h) : 0;
    char setup[64];
    snprintf(setup, sizeof setup, "k%d", w - 1);
    size_t len = strlen(setup);
    for (int y = h - 2; y >= 1; y--)
        len += (size_t)snprintf(setup + len, sizeof setup - len, "/%d", w);
    snprintf(setup + len, sizeof setup - len, "/%dK", w - 1);
    snprintf(name, n, "%dx%d files %s ranks %d seam %d", w, h, files ? "wrap" : "open", (int)ranks, seam);
    th_def(&def, name, w, h, files, ranks, seam, setup);
    tc_error err;
    return tc_variant_new(&def, &err);
}

