/* FEN: a position set from or written as FEN text (the board field itself
 * is read by placement.c). A FEN is checked against the rules, so this sits
 * above move generation. */
#include "internal.h"

#include <ctype.h>
#include <stdlib.h>

#define FEN_MAX_LEN 1000



/* ---------------------------------------------------------------- FEN */

/* Splits s into at most `max` space-separated fields. */
static int split_fields(const char *s, char fields[][FEN_MAX_LEN + 1], int max)
{
    int n = 0;
    while (*s) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            s++;
        if (!*s)
            break;
        if (n == max)
            return max + 1;
        int len = 0;
        while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
            if (len < FEN_MAX_LEN)
                fields[n][len++] = *s;
            s++;
        }
        fields[n][len] = '\0';
        n++;
    }
    return n;
}

static int parse_count(const char *s, const char *what, int *out, tc_error *err)
{
    long n = 0;
    if (!*s) {
        tc_set_error(err, "%s is empty", what);
        return -1;
    }
    if (s[0] == '-' && s[1] >= '0' && s[1] <= '9' && s[strspn(s + 1, "0123456789") + 1] == '\0') {
        tc_set_error(err, "%s '%s' is negative: it counts %s", what, s,
                     strstr(what, "halfmove") ? "plies since the last capture or pawn move, from 0"
                                              : "moves from 1");
        return -1;
    }
    for (const char *q = s; *q; q++) {
        if (*q < '0' || *q > '9') {
            tc_set_error(err, "%s '%s' is not a number", what, s);
            return -1;
        }
        n = n * 10 + (*q - '0');
        if (n > 1000000) {
            tc_set_error(err, "%s '%s' is too large", what, s);
            return -1;
        }
    }
    *out = (int)n;
    return 0;
}

/* Castling rights that the placement allows: per rook, where the setup
 * has that castling at all (docs/rules.md sections 4 and 7). */
static int castle_allowed(const tc_position *p)
{
    const tc_variant *v = p->v;
    int mask = 0;
    for (int col = 0; col < 2; col++) {
        if (!v->castle_ok[col] || p->board[v->castle_king[col]] != TC_PIECE(col, TC_KING))
            continue;
        for (int s = 0; s < 2; s++)
            if (v->castle_side[col][s] && p->board[v->castle_rook[col][s]] == TC_PIECE(col, TC_ROOK))
                mask |= 1 << (col * 2 + s);
    }
    return mask;
}

/* The en passant cell is kept only if a two-step move of the side not to
 * move explains it; returns the victim's cell or -1. */
static int ep_explained(const tc_position *p, int ep)
{
    const tc_variant *v = p->v;
    int them = !p->side;
    if (p->board[ep])
        return -1;
    for (int o = 0; o < v->ncells; o++)
        if (v->push1[them][o] == ep && v->push2[them][o] >= 0) {
            int d = v->push2[them][o];
            if (!p->board[o] && p->board[d] == TC_PIECE(them, TC_PAWN))
                return d;
        }
    return -1;
}

int tc_position_set_fen(tc_position *p, const char *fen, tc_error *err)
{
    const tc_variant *v = p->v;
    if (!fen) {
        tc_set_error(err, "FEN: empty");
        return -1;
    }
    size_t flen = strlen(fen);
    if (flen > FEN_MAX_LEN) {
        tc_set_error(err, "FEN: too long (%zu characters, at most %d)", flen, FEN_MAX_LEN);
        return -1;
    }
    static const char *const names[] = {"board", "side to move", "castling", "en passant",
                                        "halfmove clock", "fullmove number"};
    char f[6][FEN_MAX_LEN + 1];
    int nf = split_fields(fen, f, 6);
    if (nf == 0) {
        tc_set_error(err, "FEN: empty");
        return -1;
    }
    if (nf > 6) {
        tc_set_error(err, "FEN: more than 6 fields");
        return -1;
    }
    (void)names;
    tc_position *q = malloc(sizeof *q);
    if (!q) {
        tc_set_error(err, "out of memory");
        return -1;
    }
    *q = *p;
    q->hist = NULL;
    tc_position_clear(q);
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(v->W, v->H, f[0], strlen(f[0]), board, err)) {
        tc_error_prefix(err, "FEN: ");
        goto fail;
    }
    int kings[2] = {0, 0}, count[2] = {0, 0};
    for (int c = 0; c < v->ncells; c++) {
        int pc = board[c];
        if (!pc)
            continue;
        tc_put_piece(q, c, pc);
        count[TC_COLOUR(pc)]++;
        if (TC_TYPE(pc) == TC_KING)
            kings[TC_COLOUR(pc)]++;
        if (TC_TYPE(pc) == TC_PAWN && (c / v->W == v->back_rank[0] || c / v->W == v->back_rank[1])) {
            char nm[8];
            tc_cell_name(v, c, nm);
            tc_set_error(err, "FEN: pawn on a back rank (%s)", nm);
            goto fail;
        }
        if (TC_TYPE(pc) == TC_PAWN && tc_pawn_stuck(v, TC_COLOUR(pc), c, err)) {
            tc_error_prefix(err, "FEN: ");
            goto fail;
        }
    }
    if (kings[0] != 1 || kings[1] != 1) {
        tc_set_error(err, "FEN: needs exactly one king per side (white has %d, black has %d)", kings[0],
                     kings[1]);
        goto fail;
    }
    for (int col = 0; col < 2; col++)
        if ((long)count[col] * v->max_dest > TC_MAX_MOVES) {
            tc_set_error(err, "FEN: too many pieces for this board (%s has %d)", col ? "black" : "white",
                         count[col]);
            goto fail;
        }
    q->side = TC_WHITE;
    if (nf > 1) {
        if (strcmp(f[1], "w") == 0 || strcmp(f[1], "W") == 0)
            q->side = TC_WHITE;
        else if (strcmp(f[1], "b") == 0 || strcmp(f[1], "B") == 0)
            q->side = TC_BLACK;
        else {
            tc_set_error(err, "FEN: side to move '%s' is not 'w' or 'b'", f[1]);
            goto fail;
        }
    }
    int allowed = castle_allowed(q);
    q->castle = allowed;
    if (nf > 2) {
        q->castle = 0;
        if (strcmp(f[2], "-") != 0)
            for (const char *s = f[2]; *s; s++) {
                const char *k = strchr("KQkq", *s);
                if (!k || !*s) {
                    tc_set_error(err, "FEN: castling field '%s' has '%c' (expected KQkq or -)", f[2], *s);
                    goto fail;
                }
                q->castle |= 1 << (k - "KQkq");
            }
        q->castle &= allowed;
    }
    q->ep = -1;
    q->ep_victim = -1;
    q->ep_hashed = false;
    if (nf > 3 && strcmp(f[3], "-") != 0) {
        int e = tc_cell_parse(v, f[3]);
        if (e < 0) {
            tc_set_error(err, "FEN: en passant field '%s' is not '-' or a cell of the board", f[3]);
            goto fail;
        }
        int victim = ep_explained(q, e);
        if (victim >= 0) {
            q->ep = e;
            q->ep_victim = victim;
        }
    }
    q->halfmove = 0;
    q->fullmove = 1;
    if (nf > 4 && parse_count(f[4], "FEN: halfmove clock", &q->halfmove, err))
        goto fail;
    if (nf > 5 && parse_count(f[5], "FEN: fullmove number", &q->fullmove, err))
        goto fail;
    if (q->fullmove < 1)
        q->fullmove = 1;
    if (tc_attacked_occ(q, q->king[!q->side], q->side)) {
        tc_set_error(err, "FEN: the side not to move (%s) is in check", q->side ? "white" : "black");
        goto fail;
    }
    q->ep_hashed = q->ep >= 0 && tc_ep_possible(q);
    q->key = tc_compute_key(q);

    /* commit: keep p's history buffer */
    tc_undo *hist = p->hist;
    int cap = p->cap;
    *p = *q;
    p->hist = hist;
    p->cap = cap;
    p->ply = 0;
    tc_position_fen(p, p->start_fen, sizeof p->start_fen);
    free(q);
    return 0;
fail:
    free(q);
    return -1;
}

int tc_position_fen(const tc_position *p, char *buf, size_t n)
{
    const tc_variant *v = p->v;
    char tmp[1024];
    size_t k = (size_t)tc_board_write(v->W, v->H, p->board, tmp);
    tmp[k++] = ' ';
    tmp[k++] = p->side ? 'b' : 'w';
    tmp[k++] = ' ';
    if (!p->castle)
        tmp[k++] = '-';
    for (int i = 0; i < 4; i++)
        if (p->castle & (1 << i))
            tmp[k++] = "KQkq"[i];
    char ep[8];
    tc_cell_name(v, p->ep, ep);
    k += (size_t)sprintf(tmp + k, " %s %d %d", ep, p->halfmove, p->fullmove);
    return snprintf(buf, n, "%s", tmp);
}
