/* mategen: writes the mate suite tests/data/mates.epd (see docs/search.md).
 *
 * Positions come from two sources on every preset: the solved endings
 * (4-piece materials sampled at random, kept when the tables give a mate
 * in 2..4), and games played on the board (random moves mixed with short
 * engine searches), kept when the exact solver on the library's moves
 * finds a mate in 1..3 and at least five pieces stand. Every kept position
 * is solved again on refgen's moves, which share no code with the library
 * or the engine: the shortest mate and the set of first moves must agree,
 * else the position is dropped and reported. Each line also says whether
 * the mate needs the board's joins (the same FEN on a flat board of the
 * same size has no mate that fast, or not by the same moves).
 *
 * usage: build/mategen OUT [SEED [PRESET...]]   (make mates-data: every
 * preset, well over a quarter of an hour on a loaded 2-core machine);
 * MATEGEN_PARTS=endgames or =games runs one source only. */
#include "matesolve.h"
#include "topochess.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Positions with more first moves than this mate too easily to be worth a line. */
#define MATES_MAX_FIRST 8

static uint64_t rng_state;
static uint64_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int count_pieces(const tc_position *p, int ncells)
{
    int n = 0;
    for (int c = 0; c < ncells; c++)
        n += tc_piece_at(p, c) != 0;
    return n;
}

static void moves_text(const ms_result *r, char *buf, size_t n)
{
    buf[0] = '\0';
    for (int i = 0; i < r->nfirst; i++) {
        if (i)
            strncat(buf, " ", n - strlen(buf) - 1);
        strncat(buf, r->first[i], n - strlen(buf) - 1);
    }
}

static bool same(const ms_result *a, const ms_result *b)
{
    if (a->n != b->n || a->nfirst != b->nfirst)
        return false;
    for (int i = 0; i < a->nfirst; i++)
        if (strcmp(a->first[i], b->first[i]))
            return false;
    return true;
}

typedef struct {
    FILE *out;
    const tc_variant *v, *flat;
    int kept[MS_MAX_MATE + 1][2]; /* by n, by source */
    int dropped;
} gen;

/* Verifies a candidate with refgen and writes it; false if dropped. */
static bool keep(gen *g, tc_position *p, const ms_result *lib, const char *source)
{
    char fen[720];
    tc_position_fen(p, fen, sizeof fen);
    ms_result ref;
    ms_solve_ref(p, lib->n, 0, &ref);
    if (!same(lib, &ref)) {
        fprintf(stderr, "mategen: %s %s: library solver says mate %d, refgen mate %d (or other moves): dropped\n",
                tc_variant_def_of(g->v)->name, fen, lib->n, ref.n);
        g->dropped++;
        return false;
    }
    const char *joins = "-";
    if (g->flat) {
        tc_position *q = tc_position_new(g->flat);
        tc_error err;
        ms_result fl;
        if (q && tc_position_set_fen(q, fen, &err) == 0) {
            ms_solve_lib(q, lib->n, 0, &fl);
            joins = same(lib, &fl) ? "no" : "yes";
        } else
            joins = "yes"; /* not even a legal position on the flat board */
        tc_position_free(q);
    }
    char mv[600];
    moves_text(lib, mv, sizeof mv);
    fprintf(g->out, "%s ; %s ; mate %d ; moves %s ; joins %s ; from %s\n", tc_variant_def_of(g->v)->name, fen,
            lib->n, mv, joins, source);
    fflush(g->out);
    return true;
}

/* A FEN with the given pieces (TC_PIECE values) on the given cells. */
static void fen_of(const tc_variant *v, const int *cells, const int *pieces, int k, int side, char *buf)
{
    static const char letters[] = " PNBRQK  pnbrqk";
    int w = tc_variant_width(v), h = tc_variant_height(v);
    char *o = buf;
    for (int y = h - 1; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < w; x++) {
            int c = tc_cell(v, x, y), piece = 0;
            for (int i = 0; i < k; i++)
                if (cells[i] == c)
                    piece = pieces[i];
            if (!piece) {
                empty++;
                continue;
            }
            if (empty)
                o += sprintf(o, "%d", empty);
            empty = 0;
            *o++ = letters[piece];
        }
        if (empty)
            o += sprintf(o, "%d", empty);
        if (y)
            *o++ = '/';
    }
    sprintf(o, " %c - - 0 1", side ? 'b' : 'w');
}

static int piece_of(char c, int colour)
{
    const char *t = strchr("PNBRQK", c);
    return t ? TC_PIECE(colour, (int)(t - "PNBRQK") + 1) : 0;
}

/* Random placements of a 4-piece ending, White (the stronger side) to move. */
static void from_endgame(gen *g, const char *ending, int want_per_n)
{
    tc_error err;
    tc_egtb_options opt = {.threads = 2};
    tc_egtb *t = tc_egtb_solve(g->v, ending, &opt, &err);
    if (!t) {
        fprintf(stderr, "mategen: %s: %s\n", ending, err.msg);
        return;
    }
    int pieces[4], k = 0, colour = -1;
    for (const char *c = tc_egtb_name(t); *c; c++) {
        if (*c == 'K')
            colour++;
        pieces[k++] = piece_of(*c, colour);
    }
    int n = tc_variant_cells(g->v), got[MS_MAX_MATE + 1] = {0};
    tc_position *p = tc_position_new(g->v);
    for (int tries = 0; tries < 400000 && p; tries++) {
        int cells[4];
        bool clash = false;
        for (int i = 0; i < k; i++) {
            cells[i] = (int)(rng() % (uint64_t)n);
            for (int j = 0; j < i; j++)
                clash |= cells[i] == cells[j];
        }
        char fen[720];
        fen_of(g->v, cells, pieces, k, 0, fen);
        if (clash || tc_position_set_fen(p, fen, &err) != 0)
            continue;
        if (tc_attacked(p, tc_king_cell(p, 1), 0))
            continue; /* the side not to move is in check */
        tc_egtb_result r;
        if (tc_egtb_probe(t, p, &r) != 0 || r.wdl <= 0)
            continue;
        int mate = (r.plies + 1) / 2;
        if (mate < 2 || mate > 4 || got[mate] >= want_per_n)
            continue;
        ms_result lib;
        ms_solve_lib(p, mate, 0, &lib);
        if (lib.nfirst > MATES_MAX_FIRST)
            continue;
        if (lib.n != mate) {
            fprintf(stderr, "mategen: %s %s: tables say mate %d, the solver %d: dropped\n", ending, fen, mate, lib.n);
            g->dropped++;
            continue;
        }
        char src[32];
        snprintf(src, sizeof src, "endgame-%s", tc_egtb_name(t));
        if (keep(g, p, &lib, src)) {
            got[mate]++;
            g->kept[mate][0]++;
        }
    }
    tc_position_free(p);
    tc_egtb_free(t);
}

/* Games of random moves and short engine searches; positions with a short
 * mate for the side to move and at least five pieces. */
static void from_games(gen *g, int games, const int *want)
{
    tc_engine *e = tc_engine_new(g->v, 16, 1);
    tc_position *p = tc_position_new(g->v);
    int got[MS_MAX_MATE + 1] = {0}, ncells = tc_variant_cells(g->v);
    for (int game = 0; game < games && e && p; game++) {
        bool done = true;
        for (int n = 1; n <= 3; n++)
            done &= got[n] >= want[n];
        if (done)
            break;
        tc_position_reset(p);
        for (int ply = 0; ply < 240; ply++) {
            tc_movelist ml;
            tc_generate_legal(p, &ml);
            if (ml.count == 0 || tc_halfmove_clock(p) >= 100)
                break;
            tc_engine_set_position(e, p);
            tc_limits l;
            tc_limits_init(&l);
            l.nodes = 300 + rng() % 1500;
            tc_search_result res = tc_engine_search(e, &l, NULL, NULL);
            /* every position is solved to a mate in 2; a mate in 3 only
             * where the engine's short search smells one (a filter: the
             * solvers decide) */
            if (ply >= 6 && count_pieces(p, ncells) >= 5) {
                ms_result lib;
                ms_solve_lib(p, res.mate > 0 && res.mate <= 4 ? 3 : 2, 3000000, &lib);
                if (lib.n > 0 && lib.nfirst <= MATES_MAX_FIRST && got[lib.n] < want[lib.n] &&
                    keep(g, p, &lib, "game")) {
                    got[lib.n]++;
                    g->kept[lib.n][1]++;
                }
            }
            tc_move m = ply < 8 || rng() % 4 == 0 ? ml.moves[rng() % (uint64_t)ml.count] : res.best;
            tc_make_move(p, m);
        }
    }
    tc_position_free(p);
    tc_engine_free(e);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: mategen OUT [SEED [PRESET...]]\n");
        return 2;
    }
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) * 0x9e3779b97f4a7c15ull + 1 : 0x1234567ull;
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fprintf(out, "# The mate suite: <variant> ; <FEN> ; mate <N> ; moves <every first move that mates in N> ;\n"
                 "# joins <yes: the same FEN on a flat board of that size mates otherwise or not at all> ;\n"
                 "# from <endgame-MATERIAL or game>. Written by tools/mategen.c (make mates-data), checked\n"
                 "# by two exact solvers (the library's moves and refgen's); do not edit by hand.\n");
    int total = 0, dropped = 0;
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        bool chosen = argc <= 3;
        for (int a = 3; a < argc; a++)
            chosen |= strcmp(argv[a], def->name) == 0;
        if (!chosen)
            continue;
        tc_error err;
        tc_variant *v = tc_variant_new(def, &err);
        tc_variant_def fd = *def;
        fd.files = TC_FILES_OPEN;
        fd.ranks = TC_RANKS_OPEN;
        bool curved = def->files != TC_FILES_OPEN || def->ranks != TC_RANKS_OPEN;
        tc_variant *flat = curved ? tc_variant_new(&fd, &err) : NULL;
        gen g = {out, v, flat, {{0}}, 0};
        if (!v)
            continue;
        static const char *endings[] = {"KQKR", "KRKN", "KBNK", "KBBK"};
        const char *parts = getenv("MATEGEN_PARTS"); /* "endgames", "games" or unset: both */
        for (int k = 0; k < 4 && (!parts || !strcmp(parts, "endgames")); k++)
            from_endgame(&g, endings[k], 1);
        static const int want[4] = {0, 2, 4, 4};
        if (!parts || !strcmp(parts, "games"))
            from_games(&g, 60, want);
        int kept = 0;
        for (int n = 1; n <= MS_MAX_MATE; n++)
            kept += g.kept[n][0] + g.kept[n][1];
        fprintf(stderr, "mategen: %s: %d positions (endgames: mate 2/3/4: %d/%d/%d; games: mate 1/2/3: %d/%d/%d), %d dropped\n",
                def->name, kept, g.kept[2][0], g.kept[3][0], g.kept[4][0], g.kept[1][1], g.kept[2][1], g.kept[3][1],
                g.dropped);
        total += kept;
        dropped += g.dropped;
        tc_variant_free(flat);
        tc_variant_free(v);
    }
    fclose(out);
    fprintf(stderr, "mategen: %d positions written to %s, %d dropped\n", total, argv[1], dropped);
    return dropped ? 1 : 0;
}
