/* Symmetries of a variant's rules: cell permutations (with or without a
 * colour swap) under which legal move generation commutes, found by
 * checking candidates against the very tables the generator reads.
 *
 * Why the check is sound. tc_gen_legal (movegen.c, attack.h) and make/unmake
 * (position.c) read the position (board, side, rights, en passant cell and
 * victim) and these tables only: king and knight leaps and their reverses,
 * the ray of each cell and direction as an ordered cell list, the empty-
 * board reach (the union of the rays), the pawn tables per colour (one-step,
 * two-step, capture cells, their reverses, promotion cells) and, only when
 * castling rights are set, the castling tables. Direction indices matter to
 * no result: a rook uses the set of its orthogonal rays, a bishop that of
 * its diagonal ones (moves are a union, check and pin lines an intersection,
 * the check count is only tested for zero). So if, for every cell c and
 * colour k, each table at (sigma c, k ^ swap) equals the image under sigma
 * of the table at (c, k) - rays as sets of ordered lists, so that blockers
 * stop a ray at the same place - then running the generator on sigma(P)
 * replays its run on P step by step through sigma, and the legal moves of
 * sigma(P) are exactly sigma of those of P (kinds and promotion pieces
 * kept). make_move sets the en passant cell from push1, so whole game
 * trees map (perft agrees, which tests/test_symmetry.c checks). FEN's
 * refusals (pawns on a back rank: the promotion cells of either colour; the
 * side not to move in check) map too, so mapped positions are legal ones.
 * Castling is checked apart: the mirror of files moves the king's start
 * (e1 to d1), so it holds only without castling rights. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* Is the image of list a (n cells) the same set as list b (m cells)? */
static bool same_set(const tc_symmetry *s, const uint8_t *a, int n, const uint8_t *b, int m)
{
    tc_bits x, y;
    bits_clear(&x);
    bits_clear(&y);
    for (int i = 0; i < n; i++)
        bits_set(&x, s->cell[a[i]]);
    for (int i = 0; i < m; i++)
        bits_set(&y, b[i]);
    return !memcmp(&x, &y, sizeof x);
}

static bool same_ray(const tc_variant *v, const tc_symmetry *s, int c, int d, int tc, int td)
{
    int n = v->ray_len[c][d];
    if (n != v->ray_len[tc][td])
        return false;
    const uint8_t *a = v->ray_pool + v->ray_off[c][d], *b = v->ray_pool + v->ray_off[tc][td];
    for (int i = 0; i < n; i++)
        if (s->cell[a[i]] != b[i])
            return false;
    return true;
}

/* The rays of one class (d0 0: orthogonal, 1: diagonal) from c, mapped,
 * equal those from sigma(c) as sets of ordered lists. */
static bool same_rays(const tc_variant *v, const tc_symmetry *s, int c, int d0)
{
    int t = s->cell[c];
    for (int d = d0; d < 8; d += 2) {
        bool found = false;
        for (int e = d0; e < 8 && !found; e += 2)
            found = same_ray(v, s, c, d, t, e);
        if (!found)
            return false;
    }
    for (int e = d0; e < 8; e += 2) {
        bool found = false;
        for (int d = d0; d < 8 && !found; d += 2)
            found = same_ray(v, s, c, d, t, e);
        if (!found)
            return false;
    }
    return true;
}

static int map_cell(const tc_symmetry *s, int c) { return c < 0 ? -1 : s->cell[c]; }

static bool pawns_map(const tc_variant *v, const tc_symmetry *s, int c)
{
    int t = s->cell[c];
    for (int k = 0; k < 2; k++) {
        int k2 = k ^ s->swap_colours;
        if (map_cell(s, v->push1[k][c]) != v->push1[k2][t] || map_cell(s, v->push2[k][c]) != v->push2[k2][t] ||
            bits_has(&v->promo_cells[k], c) != bits_has(&v->promo_cells[k2], t) ||
            !same_set(s, v->pcap[k][c], v->npcap[k][c], v->pcap[k2][t], v->npcap[k2][t]) ||
            !same_set(s, v->pcap_from[k][c], v->npcap_from[k][c], v->pcap_from[k2][t], v->npcap_from[k2][t]))
            return false;
    }
    return true;
}

static bool moves_map(const tc_variant *v, const tc_symmetry *s)
{
    for (int c = 0; c < v->ncells; c++) {
        int t = s->cell[c];
        if (!same_set(s, v->king[c], v->nking[c], v->king[t], v->nking[t]) ||
            !same_set(s, v->knight[c], v->nknight[c], v->knight[t], v->nknight[t]) ||
            !same_set(s, v->from_pool + v->king_from_off[c], v->king_from_len[c],
                      v->from_pool + v->king_from_off[t], v->king_from_len[t]) ||
            !same_set(s, v->from_pool + v->knight_from_off[c], v->knight_from_len[c],
                      v->from_pool + v->knight_from_off[t], v->knight_from_len[t]) ||
            !same_rays(v, s, c, 0) || !same_rays(v, s, c, 1) || !pawns_map(v, s, c))
            return false;
    }
    return true;
}

/* Castling maps side for side (the kingside stays the kingside). */
static bool castling_maps(const tc_variant *v, const tc_symmetry *s)
{
    for (int k = 0; k < 2; k++) {
        int k2 = k ^ s->swap_colours;
        if (v->castle_ok[k] != v->castle_ok[k2])
            return false;
        if (!v->castle_ok[k])
            continue;
        if (s->cell[v->castle_king[k]] != v->castle_king[k2])
            return false;
        for (int side = 0; side < 2; side++) {
            if (v->castle_side[k][side] != v->castle_side[k2][side])
                return false;
            if (s->cell[v->castle_rook[k][side]] != v->castle_rook[k2][side] ||
                s->cell[v->castle_king_to[k][side]] != v->castle_king_to[k2][side] ||
                s->cell[v->castle_rook_to[k][side]] != v->castle_rook_to[k2][side])
                return false;
            for (int i = 0; i < 3; i++)
                if (s->cell[v->castle_safe[k][side][i]] != v->castle_safe[k2][side][i])
                    return false;
            tc_bits img;
            bits_clear(&img);
            BITS_FOREACH(c, v->castle_empty[k][side], { bits_set(&img, s->cell[c]); })
            if (memcmp(&img, &v->castle_empty[k2][side], sizeof img))
                return false;
        }
    }
    return true;
}

static void make_name(tc_symmetry *s)
{
    char *p = s->name;
    size_t left = sizeof s->name;
    int n;
#define PART(...)                                                               \
    do {                                                                        \
        n = snprintf(p, left, "%s", p == s->name ? "" : " ");                   \
        p += n, left -= (size_t)n;                                              \
        n = snprintf(p, left, __VA_ARGS__);                                     \
        p += n, left -= (size_t)n;                                              \
    } while (0)
    s->name[0] = 0;
    if (s->mirror_files)
        PART("mirror-files");
    if (s->shift_files)
        PART("shift-files+%d", s->shift_files);
    if (s->mirror_ranks && s->swap_colours)
        PART("flip-colours");
    else if (s->mirror_ranks)
        PART("mirror-ranks");
    else if (s->swap_colours)
        PART("swap-colours");
    if (s->shift_ranks)
        PART("shift-ranks+%d", s->shift_ranks);
    if (!s->name[0])
        PART("identity");
#undef PART
}

int tc_symmetry_make(const tc_variant *v, int mirror_files, int shift_files, int mirror_ranks,
                     int shift_ranks, int swap_colours, tc_symmetry *out)
{
    memset(out, 0, sizeof *out);
    out->mirror_files = !!mirror_files;
    out->mirror_ranks = !!mirror_ranks;
    out->shift_files = ((shift_files % v->W) + v->W) % v->W;
    out->shift_ranks = ((shift_ranks % v->H) + v->H) % v->H;
    out->swap_colours = !!swap_colours;
    for (int c = 0; c < v->ncells; c++) {
        int x = c % v->W, y = c / v->W;
        x = ((out->mirror_files ? v->W - 1 - x : x) + out->shift_files) % v->W;
        y = ((out->mirror_ranks ? v->H - 1 - y : y) + out->shift_ranks) % v->H;
        out->cell[c] = (uint8_t)(y * v->W + x);
    }
    make_name(out);
    if (!moves_map(v, out))
        return 0;
    out->with_castling = castling_maps(v, out);
    return 1;
}

int tc_symmetries(const tc_variant *v, tc_symmetry *out, int max)
{
    int n = 0;
    tc_symmetry cand;
    /* the identity comes first: no mirror, shift 0, no swap */
    for (int swap = 0; swap < 2; swap++)
        for (int mr = 0; mr < 2; mr++)
            for (int sr = 0; sr < v->H; sr++)
                for (int mf = 0; mf < 2; mf++)
                    for (int sf = 0; sf < v->W; sf++)
                        if (tc_symmetry_make(v, mf, sf, mr, sr, swap, &cand)) {
                            if (n < max)
                                out[n] = cand;
                            n++;
                        }
    return n;
}

int tc_symmetry_apply(const tc_symmetry *s, const tc_position *p, tc_position *out, tc_error *err)
{
    const tc_variant *v = p->v;
    if (out->v != v) {
        tc_set_error(err, "symmetry: the two positions are of different variants");
        return -1;
    }
    if (p->castle && !s->with_castling) {
        tc_set_error(err, "symmetry '%s' holds only without castling rights; the position has some", s->name);
        return -1;
    }
    uint8_t board[TC_MAX_CELLS] = {0};
    for (int c = 0; c < v->ncells; c++)
        if (p->board[c])
            board[s->cell[c]] = (uint8_t)(s->swap_colours ? p->board[c] ^ 8 : p->board[c]);
    char fen[1024];
    size_t k = (size_t)tc_board_write(v->W, v->H, board, fen);
    fen[k++] = ' ';
    fen[k++] = (p->side ^ s->swap_colours) ? 'b' : 'w';
    fen[k++] = ' ';
    int rights = p->castle;
    if (s->swap_colours)
        rights = ((rights & 3) << 2) | ((rights >> 2) & 3);
    if (!rights)
        fen[k++] = '-';
    for (int i = 0; i < 4; i++)
        if (rights & (1 << i))
            fen[k++] = "KQkq"[i];
    char ep[8];
    tc_cell_name(v, map_cell(s, p->ep), ep);
    snprintf(fen + k, sizeof fen - k, " %s %d %d", ep, p->halfmove, p->fullmove);
    return tc_position_set_fen(out, fen, err);
}
