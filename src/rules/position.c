/* Position: board state, make/unmake, keys and repetition counts. Positions
 * are started in setup.c, read and written as FEN in fen.c, and judged
 * (mate, draws, perft) in status.c. */
#include "internal.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- pieces */

void tc_put_piece(tc_position *p, int cell, int piece)
{
    p->board[cell] = (uint8_t)piece;
    bits_set(&p->occ[TC_COLOUR(piece)], cell);
    bits_set(&p->pieces[piece], cell);
    p->key ^= p->v->zob_piece[piece][cell];
    if (TC_TYPE(piece) == TC_KING)
        p->king[TC_COLOUR(piece)] = cell;
}

void tc_remove_piece(tc_position *p, int cell)
{
    int piece = p->board[cell];
    p->board[cell] = 0;
    bits_reset(&p->occ[TC_COLOUR(piece)], cell);
    bits_reset(&p->pieces[piece], cell);
    p->key ^= p->v->zob_piece[piece][cell];
}

uint64_t tc_compute_key(const tc_position *p)
{
    uint64_t k = 0;
    for (int c = 0; c < p->v->ncells; c++)
        if (p->board[c])
            k ^= p->v->zob_piece[p->board[c]][c];
    k ^= p->v->zob_castle[p->castle];
    if (p->ep_hashed)
        k ^= p->v->zob_ep[p->ep];
    if (p->side)
        k ^= p->v->zob_side;
    return k;
}

/* No pieces, key 0, no plies played; the history buffer stays allocated. */
void tc_position_clear(tc_position *p)
{
    memset(p->board, 0, sizeof p->board);
    for (int i = 0; i < 2; i++)
        bits_clear(&p->occ[i]);
    for (int i = 0; i < 16; i++)
        bits_clear(&p->pieces[i]);
    p->key = 0;
    p->ply = 0;
}

/* ---------------------------------------------------------------- objects */



tc_position *tc_position_clone(const tc_position *p)
{
    tc_position *q = malloc(sizeof *q);
    if (!q)
        return NULL;
    *q = *p;
    q->hist = NULL;
    q->cap = 0;
    if (p->ply) {
        q->hist = malloc(sizeof *q->hist * (size_t)p->cap);
        if (!q->hist) {
            free(q);
            return NULL;
        }
        memcpy(q->hist, p->hist, sizeof *q->hist * (size_t)p->ply);
        q->cap = p->cap;
    }
    return q;
}

void tc_position_free(tc_position *p)
{
    if (!p)
        return;
    free(p->hist);
    free(p);
}

const tc_variant *tc_position_variant(const tc_position *p) { return p->v; }
int tc_piece_at(const tc_position *p, int cell)
{
    return cell >= 0 && cell < p->v->ncells ? p->board[cell] : 0;
}
int tc_side_to_move(const tc_position *p) { return p->side; }
int tc_ep_cell(const tc_position *p) { return p->ep; }
int tc_castling(const tc_position *p) { return p->castle; }
int tc_halfmove_clock(const tc_position *p) { return p->halfmove; }
int tc_fullmove_number(const tc_position *p) { return p->fullmove; }
int tc_king_cell(const tc_position *p, int colour) { return p->king[colour & 1]; }
uint64_t tc_key(const tc_position *p) { return p->key; }
int tc_ply_count(const tc_position *p) { return p->ply; }
const char *tc_position_start_fen(const tc_position *p) { return p->start_fen; }
tc_move tc_history_move(const tc_position *p, int i)
{
    return i >= 0 && i < p->ply ? p->hist[i].move : 0;
}
tc_move tc_last_move(const tc_position *p) { return p->ply ? p->hist[p->ply - 1].move : 0; }

/* ---------------------------------------------------------------- make/unmake */

#ifdef TC_DEBUG
#include <assert.h>
/* Debug builds (make sanitize) check after every make and unmake that the
 * cell sets, king cells and key agree with the mailbox. */
static void check_invariants(const tc_position *p)
{
    tc_bits occ[2], pcs[16];
    for (int i = 0; i < 2; i++)
        bits_clear(&occ[i]);
    for (int i = 0; i < 16; i++)
        bits_clear(&pcs[i]);
    for (int c = 0; c < p->v->ncells; c++)
        if (p->board[c]) {
            bits_set(&occ[TC_COLOUR(p->board[c])], c);
            bits_set(&pcs[p->board[c]], c);
        }
    for (int i = 0; i < 2; i++) {
        assert(memcmp(&occ[i], &p->occ[i], sizeof occ[i]) == 0);
        assert(p->board[p->king[i]] == TC_PIECE(i, TC_KING));
    }
    for (int i = 0; i < 16; i++)
        assert(memcmp(&pcs[i], &p->pieces[i], sizeof pcs[i]) == 0);
    assert(p->key == tc_compute_key(p));
}
#define CHECK_INVARIANTS(p) check_invariants(p)
#else
#define CHECK_INVARIANTS(p) ((void)0)
#endif

static tc_undo *push_undo(tc_position *p)
{
    if (p->ply == p->cap) {
        int ncap = p->cap ? p->cap * 2 : 256;
        tc_undo *h = realloc(p->hist, sizeof *h * (size_t)ncap);
        if (!h)
            abort(); /* a few KB; nothing sensible remains to be done */
        p->hist = h;
        p->cap = ncap;
    }
    tc_undo *u = &p->hist[p->ply++];
    u->castle = (uint8_t)p->castle;
    u->ep = (int16_t)p->ep;
    u->ep_victim = (int16_t)p->ep_victim;
    u->ep_hashed = p->ep_hashed;
    u->halfmove = p->halfmove;
    u->key = p->key;
    return u;
}

void tc_make_move(tc_position *p, tc_move m)
{
    const tc_variant *v = p->v;
    tc_undo *u = push_undo(p);
    int us = p->side, from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), kind = TC_MOVE_KIND(m);
    int pc = p->board[from];
    u->move = m;
    u->captured = 0;
    if (p->ep_hashed)
        p->key ^= v->zob_ep[p->ep];
    p->key ^= v->zob_castle[p->castle];
    p->halfmove++;
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q) {
        int s = kind == TC_MOVE_CASTLE_Q;
        int rook = v->castle_rook[us][s];
        tc_remove_piece(p, from);
        tc_remove_piece(p, rook);
        tc_put_piece(p, v->castle_king_to[us][s], pc);
        tc_put_piece(p, v->castle_rook_to[us][s], TC_PIECE(us, TC_ROOK));
    } else {
        int capcell = kind == TC_MOVE_EP ? p->ep_victim : to;
        if (p->board[capcell]) {
            u->captured = p->board[capcell];
            tc_remove_piece(p, capcell);
            p->halfmove = 0;
        }
        tc_remove_piece(p, from);
        int promo = TC_MOVE_PROMO(m);
        tc_put_piece(p, to, promo ? TC_PIECE(us, promo) : pc);
        if (TC_TYPE(pc) == TC_PAWN)
            p->halfmove = 0;
    }
    p->castle &= v->castle_clear[from] & v->castle_clear[to];
    p->key ^= v->zob_castle[p->castle];
    p->ep = p->ep_victim = -1;
    p->ep_hashed = false;
    if (us == TC_BLACK)
        p->fullmove++;
    p->side = !us;
    p->key ^= v->zob_side;
    if (kind == TC_MOVE_DOUBLE) {
        p->ep = v->push1[us][from];
        p->ep_victim = to;
        if (tc_ep_possible(p)) {
            p->ep_hashed = true;
            p->key ^= v->zob_ep[p->ep];
        }
    }
    CHECK_INVARIANTS(p);
}

void tc_unmake_move(tc_position *p)
{
    if (p->ply == 0)
        return;
    const tc_variant *v = p->v;
    tc_undo *u = &p->hist[--p->ply];
    tc_move m = u->move;
    int them = p->side, us = !them;
    int from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m), kind = TC_MOVE_KIND(m);
    p->side = us;
    if (us == TC_BLACK)
        p->fullmove--;
    if (kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q) {
        int s = kind == TC_MOVE_CASTLE_Q;
        tc_remove_piece(p, v->castle_king_to[us][s]);
        tc_remove_piece(p, v->castle_rook_to[us][s]);
        tc_put_piece(p, from, TC_PIECE(us, TC_KING));
        tc_put_piece(p, v->castle_rook[us][s], TC_PIECE(us, TC_ROOK));
    } else {
        int pc = p->board[to];
        tc_remove_piece(p, to);
        tc_put_piece(p, from, TC_MOVE_PROMO(m) ? TC_PIECE(us, TC_PAWN) : pc);
        if (u->captured)
            tc_put_piece(p, kind == TC_MOVE_EP ? u->ep_victim : to, u->captured);
    }
    p->castle = u->castle;
    p->ep = u->ep;
    p->ep_victim = u->ep_victim;
    p->ep_hashed = u->ep_hashed;
    p->halfmove = u->halfmove;
    p->key = u->key;
    CHECK_INVARIANTS(p);
}

void tc_make_null(tc_position *p)
{
    tc_undo *u = push_undo(p);
    u->move = 0;
    u->captured = 0;
    if (p->ep_hashed)
        p->key ^= p->v->zob_ep[p->ep];
    p->ep = p->ep_victim = -1;
    p->ep_hashed = false;
    p->side = !p->side;
    p->key ^= p->v->zob_side;
    p->halfmove++;
}

void tc_unmake_null(tc_position *p)
{
    tc_undo *u = &p->hist[--p->ply];
    p->side = !p->side;
    p->ep = u->ep;
    p->ep_victim = u->ep_victim;
    p->ep_hashed = u->ep_hashed;
    p->halfmove = u->halfmove;
    p->key = u->key;
}

/* ---------------------------------------------------------------- status */

int tc_repetitions(const tc_position *p)
{
    int n = 1;
    int stop = p->ply - p->halfmove;
    if (stop < 0)
        stop = 0;
    for (int i = p->ply - 2; i >= stop; i -= 2)
        if (p->hist[i].key == p->key)
            n++;
    return n;
}




/* ---------------------------------------------------------------- perft */



