/* Rules: the seed facts of docs/rules.md section 8 and the legality rules of
 * sections 4 to 6 (checks and pins through wraps, castling, en passant,
 * promotion, pawn directions on 8x14 boards, game end, dead positions). */
#include "harness.h"
#include "topochess_endgame.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Builds a FEN from a list like "Ke1 ke8 Bc1" (upper case White). */
static void fen_from_pieces(const tc_variant *v, const char *pieces, char side, char *out, size_t n)
{
    int W = tc_variant_width(v), H = tc_variant_height(v);
    char board[TC_MAX_CELLS];
    memset(board, 0, sizeof board);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", pieces);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        int c = th_cell(v, t + 1);
        if (c >= 0)
            board[c] = t[0];
    }
    size_t k = 0;
    for (int y = H - 1; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < W; x++) {
            char pc = board[y * W + x];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                k += (size_t)snprintf(out + k, n - k, "%d", empty);
            empty = 0;
            k += (size_t)snprintf(out + k, n - k, "%c", pc);
        }
        if (empty)
            k += (size_t)snprintf(out + k, n - k, "%d", empty);
        if (y)
            k += (size_t)snprintf(out + k, n - k, "/");
    }
    snprintf(out + k, n - k, " %c - - 0 1", side);
}

static tc_position *at_pieces(const tc_variant *v, const char *pieces, char side)
{
    char fen[800];
    fen_from_pieces(v, pieces, side, fen, sizeof fen);
    return th_at_fen(v, fen);
}

/* 1 if `text` is a legal move (parsed leniently), with the move in *m. */
static int legal(const tc_position *p, const char *text, tc_move *m)
{
    tc_error err;
    tc_move tmp;
    return tc_move_parse(p, text, m ? m : &tmp, &err) == 0;
}

static void play(tc_position *p, const char *moves)
{
    tc_error err;
    CHECK(tc_play_moves(p, moves, &err) == 0, "'%s': %s", moves, err.msg);
}

static bool ray_starts_with(const tc_variant *v, const char *from, int dir, const char *const *cells, int n)
{
    int out[TC_MAX_CELLS];
    int len = tc_ray(v, th_cell(v, from), dir, out);
    if (len < n)
        return false;
    for (int i = 0; i < n; i++)
        if (out[i] != th_cell(v, cells[i]))
            return false;
    return true;
}

static bool has_legal(const tc_position *p, int from, int to, int kind)
{
    tc_movelist *l = malloc(sizeof *l);
    bool found = false;
    if (!l)
        return false;
    int n = tc_generate_legal(p, l);
    for (int i = 0; i < n; i++)
        if (TC_MOVE_FROM(l->moves[i]) == from && TC_MOVE_TO(l->moves[i]) == to &&
            (kind < 0 || TC_MOVE_KIND(l->moves[i]) == kind))
            found = true;
    free(l);
    return found;
}

enum { N = 0, NE, E, SE, S, SW, W, NW };

/* ---------------------------------------------------------------- section 8 */

static void seed_mobius(void)
{
    th_case("rules 8.1: mobius sample game and its adjacency facts");
    tc_variant *v = th_variant("mobius");
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    tc_step_result r;

    play(p, "1. d12 e11");
    r = tc_step(v, th_cell(v, "d12"), 0, -1);
    CHECK(r.cell == th_cell(v, "e11"), "d12 S should be e11 across the twist");
    r = tc_step(v, th_cell(v, "e11"), 0, 1);
    CHECK(r.cell == th_cell(v, "d12"), "e11 N should be d12 across the twist");
    CHECK(tc_piece_at(p, th_cell(v, "d12")) == TC_PIECE(TC_WHITE, TC_PAWN) &&
              tc_piece_at(p, th_cell(v, "e11")) == TC_PIECE(TC_BLACK, TC_PAWN),
          "pawns on d12 and e11");
    /* the two pawns block each other */
    CHECK(!legal(p, "d11", NULL) && !legal(p, "d12d11", NULL), "d12 cannot push: e11 is in front of it");

    play(p, "2. c12");
    r = tc_step(v, th_cell(v, "c12"), 1, -1);
    CHECK(r.cell == th_cell(v, "e11"), "c12 SE should be e11");
    CHECK(tc_attacked(p, th_cell(v, "e11"), TC_WHITE), "c12 pawn attacks e11");
    tc_move m;
    CHECK(legal(p, "exc12", &m) && TC_MOVE_FROM(m) == th_cell(v, "e11") && TC_MOVE_TO(m) == th_cell(v, "c12"),
          "exc12 is legal");

    play(p, "2... exc12");
    /* e14 still shuts the bishop's diagonal, and nothing else of White's
     * reaches c12 */
    CHECK(!tc_attacked(p, th_cell(v, "c12"), TC_WHITE), "c12 is not attacked before 3. e12");
    play(p, "3. e12");
    CHECK(!tc_attacked(p, th_cell(v, "c12"), TC_BLACK), "c12 is not defended before 3...g11");
    static const char *const diag[] = {"e14", "d13", "c12"};
    CHECK(ray_starts_with(v, "f1", SW, diag, 3), "ray f1 SW should go e14, d13, c12");
    CHECK(tc_attacked(p, th_cell(v, "c12"), TC_WHITE), "White attacks c12");

    play(p, "3... g11");
    r = tc_step(v, th_cell(v, "g11"), -1, 1);
    CHECK(r.cell == th_cell(v, "c12"), "g11 NW should be c12");
    CHECK(tc_attacked(p, th_cell(v, "c12"), TC_BLACK), "g11 defends c12");
    CHECK(legal(p, "Bxc12", &m) && TC_MOVE_FROM(m) == th_cell(v, "f1"), "the bishop on f1 can take on c12");
    play(p, "4. Bxc12");
    CHECK(has_legal(p, th_cell(v, "g11"), th_cell(v, "c12"), -1), "g11 recaptures on c12");
    CHECK(tc_ply_count(p) == 7, "7 plies played");
    tc_position_free(p);
    tc_variant_free(v);
}

static void seed_cylindrical(void)
{
    th_case("rules 8.2: monteiro-cylinder sample, knight on e9 defends f7");
    tc_variant *v = th_variant("monteiro-cylinder");
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    play(p, "1. e4 e11 2. Bc4 Bc11 3. Qh5 Ne9");
    CHECK(tc_ply_count(p) == 6, "all six plies played");
    CHECK(tc_piece_at(p, th_cell(v, "e9")) == TC_PIECE(TC_BLACK, TC_KNIGHT), "black knight on e9");
    int out[8];
    int n = tc_knight_targets(v, th_cell(v, "e9"), out);
    bool f7 = false;
    for (int i = 0; i < n; i++)
        f7 |= out[i] == th_cell(v, "f7");
    CHECK(f7, "f7 is a knight target of e9");
    CHECK(tc_attacked(p, th_cell(v, "f7"), TC_BLACK), "Black defends f7");
    /* Qxf7 is then no mate: the king can take back or the knight can */
    tc_move m;
    CHECK(legal(p, "Qxf7", &m), "Qxf7 is legal");
    tc_make_move(p, m);
    CHECK(has_legal(p, th_cell(v, "e9"), th_cell(v, "f7"), -1), "Nxf7 recaptures");
    tc_position_free(p);
    tc_variant_free(v);
}

static void seed_rook_rays(void)
{
    static const char *const twisted[] = {"mobius", "klein-bottle"};
    static const char *const plain[] = {"monteiro-cylinder", "torus"};
    static const char *const tw_cells[] = {"e9", "e10", "e11", "d12", "d13", "d14", "d1"};
    static const char *const pl_cells[] = {"e9", "e10", "e11", "e12", "e13", "e14", "e1"};
    for (int i = 0; i < 2; i++) {
        th_case("rules 8.3: %s rook ray from e8 N reaches d1", twisted[i]);
        tc_variant *v = th_variant(twisted[i]);
        if (!v)
            continue;
        CHECK(ray_starts_with(v, "e8", N, tw_cells, 7), "e8 N should pass e9 e10 e11 d12 d13 d14 to d1");
        /* and the kings face queens in the start position's files */
        tc_position *p = tc_position_new(v);
        CHECK(tc_piece_at(p, th_cell(v, "d1")) == TC_PIECE(TC_WHITE, TC_QUEEN), "White queen on d1");
        tc_position_free(p);
        tc_variant_free(v);
    }
    for (int i = 0; i < 2; i++) {
        th_case("rules 8.3: %s rook ray from e8 N reaches e1", plain[i]);
        tc_variant *v = th_variant(plain[i]);
        if (!v)
            continue;
        CHECK(ray_starts_with(v, "e8", N, pl_cells, 7), "e8 N should pass e9 .. e14 to e1");
        tc_variant_free(v);
    }
}

static void seed_bishops(void)
{
    th_case("rules 8.4: mobius bishop a6 reaches b12 and changes colour");
    tc_variant *v = th_variant("mobius");
    if (v) {
        static const char *const cells[] = {"b7", "c8", "d9", "e10", "f11", "b12"};
        CHECK(ray_starts_with(v, "a6", NE, cells, 6), "a6 NE should go b7 c8 d9 e10 f11 b12");
        int a6 = th_cell(v, "a6"), b12 = th_cell(v, "b12");
        int ca = (tc_cell_x(v, a6) + tc_cell_y(v, a6)) & 1, cb = (tc_cell_x(v, b12) + tc_cell_y(v, b12)) & 1;
        CHECK(ca != cb, "a6 and b12 should have different colours");
        tc_variant_free(v);
    }
    static const char *const bound[] = {"chess", "cylinder", "torus"};
    for (int i = 0; i < 3; i++) {
        th_case("rules 8.4: %s bishops never change colour", bound[i]);
        tc_variant *b = th_variant(bound[i]);
        if (!b)
            continue;
        int out[TC_MAX_CELLS], bad = 0;
        for (int c = 0; c < tc_variant_cells(b); c++)
            for (int d = NE; d < 8; d += 2) {
                int n = tc_ray(b, c, d, out);
                for (int k = 0; k < n; k++)
                    bad += ((tc_cell_x(b, c) + tc_cell_y(b, c)) & 1) != ((tc_cell_x(b, out[k]) + tc_cell_y(b, out[k])) & 1);
            }
        CHECK(bad == 0, "%d bishop ray cells change colour", bad);
        tc_variant_free(b);
    }
}

static void seed_folding_king(void)
{
    th_case("rules 8.5: folding king destination counts");
    tc_variant *v = th_variant("folding");
    if (!v)
        return;
    static const char *const six[] = {"a1", "d1", "e1", "h1", "a8", "d8", "e8", "h8"};
    int eight = 0, out[8];
    for (int c = 0; c < 64; c++) {
        int n = tc_king_targets(v, c, out);
        bool special = false;
        for (int i = 0; i < 8; i++)
            special |= c == th_cell(v, six[i]);
        char name[8];
        tc_cell_name(v, c, name);
        CHECK(n == (special ? 6 : 8), "king on %s has %d destinations", name, n);
        eight += n == 8;
    }
    CHECK(eight == 56, "%d cells give 8 destinations", eight);
    int n = tc_king_targets(v, th_cell(v, "e8"), out);
    static const char *const want[] = {"f8", "f7", "e7", "d7", "d8", "c8"};
    int hits = 0;
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < n; k++)
            hits += out[k] == th_cell(v, want[i]);
    CHECK(n == 6 && hits == 6, "e8 king targets should be f8 f7 e7 d7 d8 c8");
    tc_variant_free(v);
}

/* ---------------------------------------------------------------- legality */

static void wrap_checks_and_pins(void)
{
    th_case("rules: cylinder rook checks around the a/h join");
    tc_variant *cy = th_variant("cylinder"), *ch = th_variant("chess");
    if (!cy || !ch)
        goto out;
    /* knight d1 blocks the flat path a1-h1; the wrap path a1-h1 is clear */
    const char *fen = "8/8/8/8/8/4K3/8/R2N3k b - - 0 1";
    tc_position *p = th_at_fen(cy, fen), *q = th_at_fen(ch, fen);
    if (p && q) {
        CHECK(tc_in_check(p), "cylinder: h1 is in check from a1");
        CHECK(!tc_in_check(q), "chess: h1 is not in check");
        CHECK(!legal(p, "Kg1", NULL), "cylinder: Kg1 stays on the rook's line through the left cell");
        CHECK(!legal(p, "Ka2", NULL), "cylinder: Ka2 is on the a-file");
        CHECK(legal(p, "Kxa1", NULL), "cylinder: Kxa1 (across the join) is legal");
        CHECK(legal(p, "Kh2", NULL) && legal(p, "Kg2", NULL), "cylinder: Kh2 and Kg2 are legal");
        tc_movelist *l = malloc(sizeof *l);
        if (l) {
            CHECK(tc_generate_legal(p, l) == 3, "cylinder: 3 legal moves (Kg2, Kh2, Kxa1), got %d",
                  tc_generate_legal(p, l));
            free(l);
        }
        CHECK(legal(q, "Kg1", NULL), "chess: Kg1 is legal");
    }
    tc_position_free(p);
    tc_position_free(q);

    th_case("rules: cylinder knight pinned across the a/h join");
    fen = "4k3/8/8/8/8/8/8/Nr2b2K w - - 0 1";
    p = th_at_fen(cy, fen);
    q = th_at_fen(ch, fen);
    if (p && q) {
        CHECK(!tc_in_check(p) && !tc_in_check(q), "no check");
        int a1 = th_cell(cy, "a1"), pinned = 0, free_moves = 0;
        tc_movelist *l = malloc(sizeof *l);
        if (l) {
            int n = tc_generate_legal(p, l);
            for (int i = 0; i < n; i++)
                pinned += TC_MOVE_FROM(l->moves[i]) == a1;
            n = tc_generate_legal(q, l);
            for (int i = 0; i < n; i++)
                free_moves += TC_MOVE_FROM(l->moves[i]) == a1;
            free(l);
        }
        CHECK(pinned == 0, "cylinder: the a1 knight has %d moves, should be pinned", pinned);
        CHECK(free_moves == 2, "chess: the a1 knight has %d moves, expected 2", free_moves);
    }
    tc_position_free(p);
    tc_position_free(q);

    th_case("rules: torus rook checks from the far side of a blocked rank");
    {
        tc_variant *to = th_variant("torus"), *fl = th_variant("chess");
        if (to && fl) {
            /* b5 blocks the short way; on the torus the rook still sees d5
             * round the back of rank 5 */
            tc_position *t = at_pieces(to, "Kh1 kd5 Ra5 Nb5", 'b');
            tc_position *c = at_pieces(fl, "Kh1 kd5 Ra5 Nb5", 'b');
            if (t && c) {
                CHECK(tc_in_check(t), "torus: d5 is in check");
                CHECK(!legal(t, "Kc5", NULL) && !legal(t, "Ke5", NULL), "torus: the king cannot stay on rank 5");
                CHECK(legal(t, "Ke4", NULL), "torus: Ke4 is legal");
                CHECK(!tc_in_check(c), "chess: no check");
                CHECK(legal(c, "Kc5", NULL), "chess: Kc5 is legal");
            }
            tc_position_free(t);
            tc_position_free(c);
        }
        tc_variant_free(to);
        tc_variant_free(fl);
    }
out:
    tc_variant_free(cy);
    tc_variant_free(ch);
}

static void castling(void)
{
    tc_variant *ch = th_variant("chess"), *fo = th_variant("folding");
    if (!ch || !fo)
        goto out;
    tc_move m;
    tc_position *p;

    th_case("rules: castling both ways on an open path");
    p = th_at_fen(ch, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    if (p) {
        CHECK(legal(p, "O-O", &m) && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_K, "O-O");
        CHECK(legal(p, "O-O-O", &m) && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_Q, "O-O-O");
        CHECK(legal(p, "e1h1", &m) && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_K, "king takes own rook is castling");
        CHECK(legal(p, "e1g1", &m) && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_K, "e1g1 is castling on chess");
        tc_make_move(p, m);
        CHECK(tc_piece_at(p, th_cell(ch, "g1")) == TC_PIECE(TC_WHITE, TC_KING) &&
                  tc_piece_at(p, th_cell(ch, "f1")) == TC_PIECE(TC_WHITE, TC_ROOK) &&
                  !tc_piece_at(p, th_cell(ch, "h1")) && !tc_piece_at(p, th_cell(ch, "e1")),
              "after O-O: Kg1, Rf1");
        CHECK((tc_castling(p) & 3) == 0 && (tc_castling(p) & 12) == 12, "White's rights gone, Black's kept");
        tc_unmake_move(p);
        CHECK(tc_castling(p) == 15, "unmake restores rights");
    }
    tc_position_free(p);

    th_case("rules: no castling through, into or out of check");
    p = th_at_fen(ch, "4kr2/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    if (p) {
        CHECK(!legal(p, "O-O", NULL), "f1 is attacked: no O-O");
        CHECK(legal(p, "O-O-O", NULL), "O-O-O is fine");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    if (p) {
        CHECK(!legal(p, "O-O", NULL), "g1 is attacked: no O-O");
        CHECK(legal(p, "O-O-O", NULL), "O-O-O is fine");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    if (p) {
        CHECK(!legal(p, "O-O-O", NULL), "d1 is attacked: no O-O-O");
        CHECK(legal(p, "O-O", NULL), "O-O is fine");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "2k5/8/8/4r3/8/8/8/R3K2R w KQ - 0 1");
    if (p) {
        CHECK(tc_in_check(p), "in check");
        CHECK(!legal(p, "O-O", NULL) && !legal(p, "O-O-O", NULL), "no castling out of check");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    if (p)
        CHECK(legal(p, "O-O-O", NULL), "b1 attacked does not stop O-O-O");
    tc_position_free(p);
    p = th_at_fen(ch, "4k3/8/8/8/8/8/8/RN2K1NR w KQ - 0 1");
    if (p)
        CHECK(!legal(p, "O-O", NULL) && !legal(p, "O-O-O", NULL), "pieces between: no castling");
    tc_position_free(p);

    th_case("rules: castling blocked by attacks across the cylinder join");
    {
        tc_variant *cy = th_variant("cylinder");
        /* e7 sees c1 (e7 f6 g5 h4 a3 b2 c1) and g1 (e7 d6 c5 b4 a3 h2 g1)
         * only round the a/h join */
        const char *fen = "4k3/4b3/8/8/8/8/8/R3K2R w KQ - 0 1";
        tc_position *c = cy ? th_at_fen(cy, fen) : NULL, *f = th_at_fen(ch, fen);
        if (c && f) {
            CHECK(!tc_in_check(c), "cylinder: e1 is not attacked");
            CHECK(tc_attacked(c, th_cell(cy, "c1"), TC_BLACK) && tc_attacked(c, th_cell(cy, "g1"), TC_BLACK),
                  "cylinder: c1 and g1 attacked by the bishop");
            CHECK(!legal(c, "O-O", NULL) && !legal(c, "O-O-O", NULL), "cylinder: no castling");
            CHECK(legal(f, "O-O", NULL) && legal(f, "O-O-O", NULL), "chess: both castlings");
        }
        tc_position_free(c);
        tc_position_free(f);
        tc_variant_free(cy);
    }

    th_case("rules: castling rights lost after king and rook moves");
    p = th_at_fen(ch, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    if (p) {
        play(p, "Rh2");
        CHECK(tc_castling(p) == (2 | 4 | 8), "after Rh2 rights are Qkq, got %d", tc_castling(p));
        play(p, "Ke7");
        CHECK(tc_castling(p) == 2, "after ...Ke7 rights are Q, got %d", tc_castling(p));
        play(p, "Rh1 Ke8");
        CHECK(tc_castling(p) == 2, "moving back does not restore rights");
        CHECK(!legal(p, "O-O", NULL), "no O-O after the rook moved");
        play(p, "Kd1");
        CHECK(tc_castling(p) == 0, "after Kd1 no rights");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    if (p) {
        play(p, "Rxa8+");
        CHECK(tc_castling(p) == (1 | 4), "capturing the a8 rook removes Q and q, got %d", tc_castling(p));
    }
    tc_position_free(p);

    th_case("rules: folding e1c1 king step and O-O-O are two moves");
    p = th_at_fen(fo, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    if (p) {
        int e1 = th_cell(fo, "e1"), c1 = th_cell(fo, "c1");
        CHECK(has_legal(p, e1, c1, TC_MOVE_NORMAL), "plain king step e1 -> c1 across the fold");
        CHECK(has_legal(p, e1, c1, TC_MOVE_CASTLE_Q), "O-O-O");
        CHECK(legal(p, "O-O", NULL), "O-O");
        tc_error err;
        CHECK(tc_move_from_uci(p, "e1c1", &m, &err) == 0 && TC_MOVE_KIND(m) == TC_MOVE_NORMAL,
              "e1c1 is the plain king step");
        char buf[16];
        tc_move_to_uci(p, m, buf);
        CHECK(strcmp(buf, "e1c1") == 0, "plain step written '%s'", buf);
        CHECK(tc_move_from_uci(p, "e1a1", &m, &err) == 0 && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_Q,
              "e1a1 is O-O-O");
        tc_move_to_uci(p, m, buf);
        CHECK(strcmp(buf, "e1a1") == 0, "O-O-O written '%s'", buf);
        CHECK(legal(p, "O-O", &m), "O-O");
        tc_move_to_uci(p, m, buf);
        CHECK(strcmp(buf, "e1g1") == 0, "O-O written '%s' (no clash on the king side)", buf);
        CHECK(tc_move_from_uci(p, "e1h1", &m, &err) == 0 && TC_MOVE_KIND(m) == TC_MOVE_CASTLE_K,
              "e1h1 is O-O");
    }
    tc_position_free(p);
out:
    tc_variant_free(ch);
    tc_variant_free(fo);
}

static void en_passant(void)
{
    th_case("rules: en passant capture and cell");
    tc_variant *ch = th_variant("chess"), *cy = th_variant("cylinder"), *mc = th_variant("monteiro-cylinder");
    if (!ch || !cy || !mc)
        goto out;
    tc_move m;
    tc_position *p = th_at_fen(ch, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    if (p) {
        play(p, "d5");
        CHECK(tc_ep_cell(p) == th_cell(ch, "d6"), "ep cell d6 after d7-d5");
        CHECK(legal(p, "exd6", &m) && TC_MOVE_KIND(m) == TC_MOVE_EP, "exd6 e.p. is legal");
        tc_make_move(p, m);
        CHECK(!tc_piece_at(p, th_cell(ch, "d5")) && tc_piece_at(p, th_cell(ch, "d6")) == TC_PIECE(TC_WHITE, TC_PAWN),
              "the d5 pawn is gone, White pawn on d6");
        CHECK(tc_halfmove_clock(p) == 0, "a capture resets the clock");
        tc_unmake_move(p);
        CHECK(tc_piece_at(p, th_cell(ch, "d5")) == TC_PIECE(TC_BLACK, TC_PAWN), "unmake puts d5 back");
        play(p, "Kd2 Kd8");
        CHECK(!legal(p, "exd6", NULL), "en passant lasts one ply only");
    }
    tc_position_free(p);

    th_case("rules: en passant that exposes the king is illegal");
    p = th_at_fen(ch, "7k/3p4/8/K3P2r/8/8/8/8 b - - 0 1");
    if (p) {
        play(p, "d5");
        CHECK(!legal(p, "exd6", NULL), "exd6 would open rank 5 to the rook");
        CHECK(legal(p, "e6", NULL), "e6 is fine");
    }
    tc_position_free(p);

    th_case("rules: en passant across the cylinder join");
    p = th_at_fen(cy, "4k3/7p/8/P7/8/8/8/4K3 b - - 0 1");
    if (p) {
        play(p, "h5");
        CHECK(legal(p, "axh6", &m) && TC_MOVE_KIND(m) == TC_MOVE_EP, "axh6 e.p. through the a/h join");
    }
    tc_position_free(p);

    th_case("rules: 8x14 en passant cell after 14 -> 12");
    p = tc_position_new(mc);
    if (p) {
        play(p, "e12");
        CHECK(tc_ep_cell(p) == th_cell(mc, "e13"), "ep cell e13 after e14-e12");
        play(p, "d11");
        CHECK(tc_ep_cell(p) == th_cell(mc, "d10"), "ep cell d10 after d9-d11");
    }
    tc_position_free(p);
out:
    tc_variant_free(ch);
    tc_variant_free(cy);
    tc_variant_free(mc);
}

static void promotion(void)
{
    th_case("rules: promotion gives four moves");
    tc_variant *ch = th_variant("chess");
    if (!ch)
        return;
    tc_position *p = th_at_fen(ch, "8/3P3k/8/8/8/8/8/K7 w - - 0 1");
    if (p) {
        tc_movelist *l = malloc(sizeof *l);
        int seen = 0, count = 0;
        if (l) {
            int n = tc_generate_legal(p, l);
            for (int i = 0; i < n; i++)
                if (TC_MOVE_FROM(l->moves[i]) == th_cell(ch, "d7")) {
                    count++;
                    CHECK(TC_MOVE_TO(l->moves[i]) == th_cell(ch, "d8"), "promotion to d8");
                    seen |= 1 << TC_MOVE_PROMO(l->moves[i]);
                }
            free(l);
        }
        CHECK(count == 4, "d7 pawn has %d moves, expected 4", count);
        CHECK(seen == ((1 << TC_QUEEN) | (1 << TC_ROOK) | (1 << TC_BISHOP) | (1 << TC_KNIGHT)), "Q, R, B, N");
        tc_move m;
        CHECK(legal(p, "d8=N", &m) && TC_MOVE_PROMO(m) == TC_KNIGHT, "d8=N");
        tc_make_move(p, m);
        CHECK(tc_piece_at(p, th_cell(ch, "d8")) == TC_PIECE(TC_WHITE, TC_KNIGHT), "a knight on d8");
        tc_unmake_move(p);
        CHECK(tc_piece_at(p, th_cell(ch, "d7")) == TC_PIECE(TC_WHITE, TC_PAWN), "unmake gives the pawn back");
    }
    tc_position_free(p);
    tc_variant_free(ch);

    th_case("rules: Black promotes on rank 1 from rank 14 over the rank join");
    static const char *const joined[] = {"monteiro-cylinder", "torus", "mobius", "klein-bottle"};
    for (int i = 0; i < 4; i++) {
        tc_variant *v = th_variant(joined[i]);
        if (!v)
            continue;
        tc_position *q = at_pieces(v, "Kh3 kh10 pc14", 'b');
        if (q) {
            tc_move m;
            CHECK(legal(q, "c1=Q", &m) && TC_MOVE_FROM(m) == th_cell(v, "c14") && TC_MOVE_PROMO(m) == TC_QUEEN,
                  "%s: c14-c1=Q", joined[i]);
            CHECK(legal(q, "c1=N", NULL) && !legal(q, "c1", NULL), "%s: c1 needs a promotion piece", joined[i]);
        }
        tc_position_free(q);
        tc_variant_free(v);
    }
}

/* Pawn moves of the side to move from rank `from` go to ranks `r1`, `r2`. */
static void check_pawn_ranks(const tc_position *p, int from, int r1, int r2, const char *what)
{
    const tc_variant *v = tc_position_variant(p);
    tc_movelist *l = malloc(sizeof *l);
    if (!l)
        return;
    int n = tc_generate_legal(p, l), one = 0, two = 0, other = 0;
    for (int i = 0; i < n; i++) {
        int f = TC_MOVE_FROM(l->moves[i]), t = TC_MOVE_TO(l->moves[i]);
        if (TC_TYPE(tc_piece_at(p, f)) != TC_PAWN || tc_cell_y(v, f) + 1 != from)
            continue;
        int r = tc_cell_y(v, t) + 1;
        if (r == r1 && tc_cell_x(v, t) == tc_cell_x(v, f))
            one++;
        else if (r == r2 && tc_cell_x(v, t) == tc_cell_x(v, f) && TC_MOVE_KIND(l->moves[i]) == TC_MOVE_DOUBLE)
            two++;
        else
            other++;
    }
    CHECK(one == 8 && two == 8 && other == 0, "%s: %d single, %d double, %d other pawn moves", what, one, two,
          other);
    free(l);
}

static void pawn_directions(void)
{
    static const char *const longs[] = {"monteiro-cylinder", "torus", "mobius", "klein-bottle"};
    for (int i = 0; i < 4; i++) {
        th_case("rules: %s pawn directions", longs[i]);
        tc_variant *v = th_variant(longs[i]);
        if (!v)
            continue;
        tc_position *p = tc_position_new(v);
        check_pawn_ranks(p, 2, 3, 4, "White rank 2 goes N");
        check_pawn_ranks(p, 14, 13, 12, "White rank 14 goes S");
        tc_move m;
        CHECK(legal(p, "e14e12", &m) && TC_MOVE_KIND(m) == TC_MOVE_DOUBLE, "e14e12 is a two-step");
        play(p, "a3");
        check_pawn_ranks(p, 7, 6, 5, "Black rank 7 goes S");
        check_pawn_ranks(p, 9, 10, 11, "Black rank 9 goes N");
        tc_position_free(p);
        /* beyond the start ranks: White on 9-14 goes S, Black on 2-7 goes S */
        p = at_pieces(v, "Ke1 ke8 Pc10 Pf5 pc4 pf10", 'w');
        if (p) {
            CHECK(legal(p, "c9", NULL) && !legal(p, "c11", NULL), "White c10 goes S");
            CHECK(legal(p, "f6", NULL) && !legal(p, "f4", NULL), "White f5 goes N");
            CHECK(!legal(p, "c8", NULL), "White c10 has no two-step (not a start rank)");
            play(p, "Kd1");
            CHECK(legal(p, "c3", NULL) && !legal(p, "c5", NULL), "Black c4 goes S");
            CHECK(legal(p, "f11", NULL) && !legal(p, "f9", NULL), "Black f10 goes N");
        }
        tc_position_free(p);
        tc_variant_free(v);
    }
}

static void game_end(void)
{
    tc_variant *ch = th_variant("chess"), *cy = th_variant("cylinder");
    if (!ch || !cy)
        goto out;
    tc_position *p;

    th_case("rules: checkmate and stalemate");
    p = tc_position_new(ch);
    play(p, "f3 e5 g4 Qh4");
    CHECK(tc_position_status(p) == TC_CHECKMATE, "fool's mate is checkmate");
    tc_position_free(p);
    p = th_at_fen(ch, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    if (p)
        CHECK(tc_position_status(p) == TC_STALEMATE, "chess: stalemate");
    tc_position_free(p);
    /* the same placement on the cylinder: the king escapes over the join */
    p = th_at_fen(cy, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    if (p) {
        CHECK(tc_position_status(p) == TC_ONGOING, "cylinder: not stalemate");
        CHECK(legal(p, "Ka8", NULL), "cylinder: Ka8 across the join");
    }
    tc_position_free(p);
    /* a back-rank mate on the cylinder that the flat board does not have */
    p = th_at_fen(cy, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    tc_position *q = th_at_fen(ch, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    if (p && q) {
        CHECK(tc_position_status(q) == TC_CHECKMATE, "chess: back-rank mate");
        CHECK(tc_position_status(p) == TC_CHECKMATE, "cylinder: back-rank mate (h8 joins a8)");
    }
    tc_position_free(p);
    tc_position_free(q);

    th_case("rules: 50-move rule");
    p = th_at_fen(ch, "4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    if (p) {
        CHECK(tc_position_status(p) == TC_ONGOING, "99 plies: game goes on");
        play(p, "Ra2");
        CHECK(tc_halfmove_clock(p) == 100, "clock 100");
        CHECK(tc_position_status(p) == TC_DRAW_FIFTY, "100 plies: draw");
    }
    tc_position_free(p);
    p = th_at_fen(ch, "4k3/8/8/8/8/8/8/R3K3 b - - 100 80");
    if (p)
        CHECK(tc_position_status(p) == TC_DRAW_FIFTY, "FEN with clock 100: draw");
    tc_position_free(p);
    /* mate on the 100th ply is mate */
    p = th_at_fen(ch, "k7/8/1K6/8/8/8/8/7R w - - 99 80");
    if (p) {
        play(p, "Rh8#");
        CHECK(tc_position_status(p) == TC_CHECKMATE, "mate beats the 50-move rule");
    }
    tc_position_free(p);

    th_case("rules: threefold repetition by a knight shuffle");
    p = tc_position_new(ch);
    play(p, "Nf3 Nf6 Ng1 Ng8");
    CHECK(tc_repetitions(p) == 2, "twice after one shuffle, got %d", tc_repetitions(p));
    CHECK(tc_position_status(p) == TC_ONGOING, "not yet a draw");
    play(p, "Nf3 Nf6 Ng1");
    CHECK(tc_position_status(p) == TC_ONGOING, "different side to move: not the same position");
    play(p, "Ng8");
    CHECK(tc_repetitions(p) == 3, "three times, got %d", tc_repetitions(p));
    CHECK(tc_position_status(p) == TC_DRAW_REPETITION, "threefold repetition");
    tc_position_free(p);
    /* the start position twice, but castling rights changed in between */
    p = tc_position_new(ch);
    play(p, "Nf3 Nf6 Rg1 Rg8 Rh1 Rh8 Ng1 Ng8 Nf3 Nf6 Ng1 Ng8");
    CHECK(tc_position_status(p) == TC_ONGOING, "lost castling rights make it a different position");
    tc_position_free(p);
out:
    tc_variant_free(ch);
    tc_variant_free(cy);
}

static void dead_positions(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        th_case("rules: %s dead positions", def->name);
        tc_error err;
        tc_variant *v = tc_variant_new(def, &err);
        CHECK(v != NULL, "%s: %s", def->name, err.msg);
        if (!v)
            continue;
        bool flat = strcmp(def->name, "chess") == 0;
        static const struct {
            const char *pieces;
            int flat_dead;
        } cases[] = {
            {"Kb2 kg6", 1},             {"Kb2 kg6 Bd4", 1},      {"Kb2 kg6 Nd4", 1},
            {"Kb2 kg6 bf6", 1},         {"Kb2 kg6 nc6", 1},      {"Kb2 kg6 Bd4 bc5", 1},
            {"Kb2 kg6 Bd4 bc4", 0},     {"Kb2 kg6 Nd4 nc6", 0},  {"Kb2 kg6 Bd4 Nc4", 0},
            {"Kb2 kg6 Rd4", 0},         {"Kb2 kg6 Pd4", 0},      {"Kb2 kg6 qd5", 0},
            {"Kb2 kg6 Bd4 Bc5", 1},
        };
        for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
            tc_position *p = tc_position_new(v);
            char fen[800];
            fen_from_pieces(v, cases[k].pieces, 'w', fen, sizeof fen);
            if (p && tc_position_set_fen(p, fen, &err)) {
                /* a minor piece may give check across a join: let that side move */
                fen_from_pieces(v, cases[k].pieces, 'b', fen, sizeof fen);
                CHECK(tc_position_set_fen(p, fen, &err) == 0, "%s: %s", fen, err.msg);
            }
            if (!p)
                continue;
            int want = cases[k].flat_dead && (flat || k == 0);
            CHECK(tc_is_dead_position(p) == want, "%s: dead should be %d", cases[k].pieces, want);
            if (want)
                CHECK(tc_position_status(p) == TC_DRAW_DEAD, "%s: status should be dead", cases[k].pieces);
            else
                CHECK(tc_position_status(p) != TC_DRAW_DEAD, "%s: status should not be dead", cases[k].pieces);
            tc_position_free(p);
        }
        tc_variant_free(v);
    }
    th_case("rules: cylinder K+N v K is left to the solved endings, which call it dead");
    tc_variant *cy = th_variant("cylinder");
    if (cy) {
        tc_position *p = at_pieces(cy, "Ke1 ke8 Nb1", 'w');
        tc_error err;
        tc_dead_table *d = tc_dead_table_new(cy, &err);
        if (p && d) {
            CHECK(!tc_is_dead_position(p) && tc_position_status(p) == TC_ONGOING, "the rules alone: goes on");
            CHECK(tc_game_status(d, p) == TC_DRAW_DEAD, "with the tables: dead (docs/rules.md section 6)");
        }
        tc_dead_table_free(d);
        tc_position_free(p);
        tc_variant_free(cy);
    }
}

void suite_rules(void)
{
    seed_mobius();
    seed_cylindrical();
    seed_rook_rays();
    seed_bishops();
    seed_folding_king();
    wrap_checks_and_pins();
    castling();
    en_passant();
    promotion();
    pawn_directions();
    game_end();
    dead_positions();
}
