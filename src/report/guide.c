/* "How this board works" as data (tc_board_guide in topochess_report.h):
 * one step across each join, the pawns' directions and promotion ranks,
 * castling, and how far king, knight and bishop reach, here and on the
 * same board with no joins. Everything is read from the variant's tables
 * and its start position, never from its name, so that any page gets it. */
#include "report.h"
#include "topochess_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int diag[4] = {1, 3, 5, 7}; /* NE, SE, SW, NW in tc_ray's order */

static int bishop_targets(const tc_variant *v, int cell, int *out)
{
    int n = 0, ray[TC_MAX_CELLS];
    unsigned char seen[TC_MAX_CELLS] = {0};
    for (int d = 0; d < 4; d++) {
        int k = tc_ray(v, cell, diag[d], ray);
        for (int i = 0; i < k; i++)
            if (!seen[ray[i]]) {
                seen[ray[i]] = 1;
                out[n++] = ray[i];
            }
    }
    return n;
}

typedef int (*targets_fn)(const tc_variant *, int, int *);

static void reach(const tc_variant *v, int lo[3], int hi[3])
{
    static const targets_fn fns[3] = {tc_king_targets, tc_knight_targets, bishop_targets};
    int out[TC_MAX_CELLS], cells = tc_variant_width(v) * tc_variant_height(v);
    for (int p = 0; p < 3; p++) {
        lo[p] = cells;
        hi[p] = 0;
        for (int c = 0; c < cells; c++) {
            int k = fns[p](v, c, out);
            lo[p] = k < lo[p] ? k : lo[p];
            hi[p] = k > hi[p] ? k : hi[p];
        }
    }
}

/* The first orthogonal step, in reading order, that crosses `join`. */
static void find_join(const tc_variant *v, int join, tc_board_guide *g)
{
    static const int dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    int W = tc_variant_width(v), H = tc_variant_height(v);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int d = 0; d < 4; d++) {
                int from = tc_cell(v, x, y);
                tc_step_result r = tc_step(v, from, dirs[d][0], dirs[d][1]);
                if (r.cell >= 0 && (r.joins & join) && g->njoins < 4) {
                    g->joins[g->njoins].join = join;
                    g->joins[g->njoins].from = from;
                    g->joins[g->njoins].to = r.cell;
                    g->joins[g->njoins].dx = dirs[d][0];
                    g->joins[g->njoins].dy = dirs[d][1];
                    g->njoins++;
                    return;
                }
            }
}

/* Pawn ranks of the start position with their direction (from a legal
 * push of that colour) and promotion rank (the enemy king's start rank). */
static int read_pawns(const tc_variant *v, tc_board_guide *g)
{
    int W = tc_variant_width(v), H = tc_variant_height(v);
    tc_position *pos = tc_position_new(v);
    tc_movelist *list = malloc(sizeof *list);
    if (!pos || !list) {
        tc_position_free(pos);
        free(list);
        return -1;
    }
    char fen[720];
    tc_position_fen(pos, fen, sizeof fen);
    int king_rank[2] = {0, 0};
    for (int c = 0; c < 2; c++) {
        int k = tc_king_cell(pos, c);
        for (int y = 0; y < H && k >= 0; y++)
            for (int x = 0; x < W; x++)
                if (tc_cell(v, x, y) == k)
                    king_rank[c] = y + 1;
    }
    for (int c = 0; c < 2; c++) {
        tc_position *side = tc_position_clone(pos);
        char *sp = strchr(fen, ' ');
        if (!side || !sp) {
            tc_position_free(side);
            continue;
        }
        sp[1] = c ? 'b' : 'w';
        tc_error err;
        int n = tc_position_set_fen(side, fen, &err) == 0 ? tc_generate_legal(side, list) : 0;
        for (int y = 0; y < H; y++) {
            int has = 0, dy = 0;
            for (int x = 0; x < W; x++)
                has |= tc_piece_at(pos, tc_cell(v, x, y)) == TC_PIECE(c, TC_PAWN);
            if (!has)
                continue;
            for (int i = 0; i < n && !dy; i++) {
                tc_move m = list->moves[i];
                int from = TC_MOVE_FROM(m);
                if (from / W != y || tc_piece_at(side, from) != TC_PIECE(c, TC_PAWN))
                    continue;
                if (TC_MOVE_TO(m) == tc_step(v, from, 0, 1).cell)
                    dy = 1;
                else if (TC_MOVE_TO(m) == tc_step(v, from, 0, -1).cell)
                    dy = -1;
            }
            int k = g->npawns++;
            g->pawns[k].colour = c;
            g->pawns[k].rank = y + 1;
            g->pawns[k].dy = dy;
            g->pawns[k].promotion = king_rank[!c];
        }
        tc_position_free(side);
    }
    /* castling as docs/rules.md section 4 allows it, per rook: the rights of
     * the start position read as a board-only FEN (king on file e of its
     * back rank, that castling's rook on file h or a, at least 8 files) */
    int rights = tc_castling(pos);
    for (int c = 0; c < 2; c++)
        g->castling[c] = (rights >> (2 * c)) & 3;
    tc_position_free(pos);
    free(list);
    return 0;
}

int tc_board_guide_compute(const tc_variant *v, tc_board_guide *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    static const int joins[4] = {TC_JOIN_FILE, TC_JOIN_RANK, TC_JOIN_TWIST, TC_JOIN_FOLD};
    for (int j = 0; j < 4; j++)
        find_join(v, joins[j], out);
    if (read_pawns(v, out)) {
        tc_set_error(err, "board guide: out of memory");
        return -1;
    }
    reach(v, out->reach_lo, out->reach_hi);
    tc_variant_def flat = *tc_variant_def_of(v);
    flat.files = TC_FILES_OPEN;
    flat.ranks = TC_RANKS_OPEN;
    flat.seam = 0;
    /* the reach of pieces on an empty board does not depend on the setup,
     * and the setup's pawns may have no direction without the joins (the
     * far pawns of the 8x14 boards): the flat board gets two kings in
     * opposite corners */
    int W = flat.width, H = flat.height;
    size_t k = 0;
    k += (size_t)snprintf(flat.setup + k, sizeof flat.setup - k, "%dk", W - 1);
    for (int y = H - 2; y >= 1; y--)
        k += (size_t)snprintf(flat.setup + k, sizeof flat.setup - k, "/%d", W);
    snprintf(flat.setup + k, sizeof flat.setup - k, "/K%d", W - 1);
    tc_error ignored;
    tc_variant *fv = tc_variant_new(&flat, &ignored); /* NULL: kings that touch on a 2x2 board */
    if (fv) {
        reach(fv, out->flat_lo, out->flat_hi);
        out->has_flat = 1;
        tc_variant_free(fv);
    }
    return 0;
}
