/* `topochess endgame ENDING`: solves a pawnless ending on the chosen board
 * and prints the positions by result, the longest mate with its main line
 * and whether mate is possible at all; --json for the same as data, --out
 * DIR to keep the tables for the engine (UCI option EndgamePath). */
#include "cli.h"
#include "topochess_endgame.h"

#include <stdlib.h>
#include <string.h>

/* The main line from a FEN: each side plays the tables' best move. */
static int main_line(const tc_egtb *t, const tc_variant *v, const char *fen, char (*san)[24], int max)
{
    tc_position *p = tc_position_new(v);
    tc_error err;
    int n = 0;
    if (p && tc_position_set_fen(p, fen, &err) == 0)
        while (n < max) {
            tc_egtb_result r;
            tc_move m = tc_egtb_best_move(t, p, &r);
            if (!m)
                break;
            tc_move_to_san(p, m, san[n++]);
            tc_make_move(p, m);
        }
    tc_position_free(p);
    return n;
}

/* With --fen (or --play): the value of that position and its main line. */
static void print_position(const tc_egtb *t, cli_ctx *c, char (*line)[24])
{
    char fen[800];
    tc_position_fen(c->pos, fen, sizeof fen);
    tc_egtb_result r;
    printf("position: %s\n", fen);
    if (tc_egtb_probe(t, c->pos, &r)) {
        printf("  not of this ending\n");
        return;
    }
    const char *side = tc_side_to_move(c->pos) ? "Black" : "White";
    if (r.wdl > 0)
        printf("  %s to move mates in %d moves\n", side, (r.plies + 1) / 2);
    else if (r.wdl < 0)
        printf("  %s to move is mated in %d moves\n", side, r.plies / 2);
    else
        printf("  draw\n");
    int n = line ? main_line(t, c->variant, fen, line, r.wdl ? r.plies : 12) : 0;
    printf("  line:");
    for (int i = 0; i < n; i++)
        printf(" %s", line[i]);
    printf("\n");
}

static void print_counts(const char *label, uint64_t w, uint64_t d, uint64_t l, uint64_t mated)
{
    uint64_t all = w + d + l;
    printf("  %-15s %12llu %12llu %12llu %12llu   won %.2f%%\n", label, (unsigned long long)w,
           (unsigned long long)d, (unsigned long long)l, (unsigned long long)mated,
           all ? 100.0 * (double)w / (double)all : 0.0);
}

static void json_counts(const char *label, uint64_t w, uint64_t d, uint64_t l, uint64_t mated)
{
    printf("\"%s\":{\"win\":%llu,\"draw\":%llu,\"loss\":%llu,\"checkmated\":%llu}", label,
           (unsigned long long)w, (unsigned long long)d, (unsigned long long)l, (unsigned long long)mated);
}

int cmd_endgame(cli_ctx *c)
{
    /* the options were read by the command line (args.c) */
    const char *ending = c->argc ? c->argv[0] : NULL, *out_dir = c->out_dir;
    int json = c->json, threads = c->threads ? c->threads : 2;
    if (!ending) {
        fprintf(stderr, "topochess: endgame needs an ENDING, like KRK or KQKR\n");
        return 1;
    }
    tc_error err;
    tc_egtb_options opt = {.threads = threads, .progress = stderr};
    tc_egtb *t = tc_egtb_solve(c->variant, ending, &opt, &err);
    if (!t) {
        fprintf(stderr, "topochess: endgame: %s\n", err.msg);
        return 1;
    }
    if (out_dir && tc_egtb_save(t, out_dir, &err)) {
        fprintf(stderr, "topochess: endgame: %s\n", err.msg);
        tc_egtb_free(t);
        return 1;
    }
    tc_egtb_stats s;
    tc_egtb_stats_get(t, &s);
    int plies = s.longest_plies[TC_WHITE], moves = (plies + 1) / 2;
    char(*line)[24] = calloc(TC_EGTB_MAX_PLIES + 1, sizeof *line);
    int nline = line && plies ? main_line(t, c->variant, s.longest_fen[TC_WHITE], line, plies) : 0;
    /* a helpmate ends with a mate in one, which is a won position: mate is
     * possible exactly when some position is won (checkmates that no move
     * can reach do not count) */
    int possible = s.win[0] + s.win[1] > 0;
    const char *name = tc_egtb_name(t);
    if (json) {
        printf("{\"ending\":\"%s\",\"variant\":\"%s\",\"symmetries\":%d,\"table_entries\":%llu,"
               "\"seconds\":%.3f,",
               name, c->def.name, tc_egtb_symmetries(t), (unsigned long long)s.table_entries, s.seconds);
        json_counts("white_to_move", s.win[0], s.draw[0], s.loss[0], s.mates[0]);
        putchar(',');
        json_counts("black_to_move", s.win[1], s.draw[1], s.loss[1], s.mates[1]);
        printf(",\"longest_mate\":{\"moves\":%d,\"plies\":%d,\"fen\":\"%s\",\"line\":[", moves, plies,
               s.longest_fen[TC_WHITE]);
        for (int i = 0; i < nline; i++)
            printf("%s\"%s\"", i ? "," : "", line[i]);
        printf("]},\"example_checkmate\":{\"white_mated\":\"%s\",\"black_mated\":\"%s\"},", s.mate_fen[0],
               s.mate_fen[1]);
        printf("\"mate_possible\":%s}\n", possible ? "true" : "false");
    } else {
        char topo[64];
        tc_variant_topology_text(c->variant, topo, sizeof topo);
        printf("endgame %s on %s (%dx%d, %s)\n", name, c->def.name, tc_variant_width(c->variant),
               tc_variant_height(c->variant), topo);
        printf("board symmetries: %d; %llu table entries; solved in %.2f s\n", tc_egtb_symmetries(t),
               (unsigned long long)s.table_entries, s.seconds);
        printf("positions (for the side to move):\n");
        printf("  %-15s %12s %12s %12s %12s\n", "", "win", "draw", "loss", "checkmated");
        print_counts("white to move", s.win[0], s.draw[0], s.loss[0], s.mates[0]);
        print_counts("black to move", s.win[1], s.draw[1], s.loss[1], s.mates[1]);
        printf("longest mate: %d moves\n", moves);
        if (plies) {
            printf("  FEN: %s\n  line:", s.longest_fen[TC_WHITE]);
            for (int i = 0; i < nline; i++) {
                if (i % 2 == 0)
                    printf(" %d.", i / 2 + 1);
                printf(" %s", line[i]);
            }
            printf("\n");
        }
        for (int side = 0; side < 2; side++)
            if (s.mate_fen[side][0])
                printf("example checkmate (%s mated): %s\n", side ? "Black" : "White", s.mate_fen[side]);
        if (!possible && s.mates[0] + s.mates[1])
            printf("checkmate positions exist (%llu), but no move leads to one\n",
                   (unsigned long long)(s.mates[0] + s.mates[1]));
        printf("mate possible: %s\n", possible ? "yes" : "no");
        if (c->fen_arg || tc_ply_count(c->pos) > 0)
            print_position(t, c, line);
    }
    free(line);
    tc_egtb_free(t);
    return 0;
}

/* One row per ending: the share of positions the stronger side wins with
 * either side to move, the longest mate, and whether any checkmate exists;
 * then the endings that can never mate on this board. */
void cli_endgame_summary(const tc_variant *v, const char *const *endings, int n, uint64_t max_entries,
                         FILE *out)
{
    fprintf(out, "  %-6s %16s %16s %14s  %s\n", "ending", "won, W to move", "won, B to move", "longest mate",
            "mate possible");
    char never[128] = "";
    for (int i = 0; i < n; i++) {
        tc_error err;
        tc_egtb_options opt = {.threads = 2, .max_entries = max_entries};
        tc_egtb *t = tc_egtb_solve(v, endings[i], &opt, &err);
        if (!t) {
            fprintf(out, "  %-6s not solved here (%s): topochess endgame %s\n", endings[i], err.msg, endings[i]);
            continue;
        }
        tc_egtb_stats s;
        tc_egtb_stats_get(t, &s);
        uint64_t all0 = s.win[0] + s.draw[0] + s.loss[0], all1 = s.win[1] + s.draw[1] + s.loss[1];
        int mates = s.win[0] + s.win[1] > 0; /* as in `endgame`: some position is won */
        char longest[24];
        snprintf(longest, sizeof longest, "%d moves", (s.longest_plies[0] + 1) / 2);
        fprintf(out, "  %-6s %15.2f%% %15.2f%% %14s  %s\n", tc_egtb_name(t),
                all0 ? 100.0 * (double)s.win[0] / (double)all0 : 0.0,
                all1 ? 100.0 * (double)s.loss[1] / (double)all1 : 0.0, longest, mates ? "yes" : "no");
        if (!mates && strlen(never) + 8 < sizeof never)
            snprintf(never + strlen(never), sizeof never - strlen(never), " %s", tc_egtb_name(t));
        tc_egtb_free(t);
    }
    if (never[0])
        fprintf(out, "  can never mate on this board:%s\n", never);
}

/* Every pawnless material of 2..4 pieces, as the solver names them. */
static const char *const dead_rows[] = {"KK",   "KQK",  "KRK",  "KBK",  "KNK",  "KQQK", "KQRK",
                                        "KQBK", "KQNK", "KRRK", "KRBK", "KRNK", "KBBK", "KBNK",
                                        "KNNK", "KQKQ", "KQKR", "KQKB", "KQKN", "KRKR", "KRKB",
                                        "KRKN", "KBKB", "KBKN", "KNKN"};
#define NDEAD_ROWS ((int)(sizeof dead_rows / sizeof dead_rows[0]))

/* "1,580,208" */
static void grouped(uint64_t x, char *buf, size_t n)
{
    char raw[32];
    snprintf(raw, sizeof raw, "%llu", (unsigned long long)x);
    size_t len = strlen(raw), k = 0;
    for (size_t i = 0; i < len && k + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[k++] = ',';
        buf[k++] = raw[i];
    }
    buf[k] = '\0';
}

/* One cell of the table: dead, partly (how many of how many), not, or no
 * tables (the material is over the size limit on this board). */
static int dead_cell(tc_dead_table *d, const char *material, char *buf, size_t n, tc_error *err)
{
    tc_dead_count cnt;
    if (tc_dead_material_count(d, material, &cnt, err))
        return -1;
    char a[32], b[32];
    grouped(cnt.dead, a, sizeof a);
    grouped(cnt.total, b, sizeof b);
    if (!cnt.tables)
        snprintf(buf, n, "no tables");
    else if (cnt.dead == cnt.total)
        snprintf(buf, n, "dead");
    else if (cnt.dead == 0)
        snprintf(buf, n, "not");
    else
        snprintf(buf, n, "partly (%s of %s)", a, b);
    return 0;
}

/* `topochess dead`: the dead positions (docs/rules.md section 6) of each
 * pawnless material on every preset, as the Markdown table of
 * docs/rules-dead-positions.md; with --variant or --variant-file, that
 * board's column; with materials named ("KBK KRKN"), their rows only; with
 * --fen, that position's verdict and its reason; --out DIR keeps the marks
 * there as files. */
int cmd_dead(cli_ctx *c)
{
    tc_variant *made[16];
    const tc_variant *boards[16];
    const char *names[16];
    int n = 0;
    tc_error err;
    if (c->fen_arg && c->argc) {
        fprintf(stderr, "topochess: dead: --fen asks about one position; drop '%s' (materials are for the table)\n",
                c->argv[0]);
        return 1;
    }
    for (int i = 0; i < c->argc; i++) {
        char norm[8];
        if (tc_egtb_normalise(c->argv[i], norm, &err)) {
            fprintf(stderr, "topochess: dead: %s\n", err.msg);
            return 1;
        }
    }
    if (c->fen_arg) {
        tc_dead_table *d = tc_dead_table_new(c->variant, &err);
        if (!d) {
            fprintf(stderr, "topochess: dead: %s\n", err.msg);
            return 1;
        }
        tc_dead_table_set_dir(d, c->out_dir);
        char why[400];
        tc_dead_explain(d, c->pos, why, sizeof why);
        printf("%s\n", why);
        tc_dead_table_free(d);
        return 0;
    }
    if (c->variant_given) {
        boards[0] = c->variant;
        names[0] = c->def.name;
        made[0] = NULL;
        n = 1;
    } else {
        for (int i = 0; i < tc_preset_count() && n < 16; i++) {
            const tc_variant_def *d = tc_preset(i);
            if (!(made[n] = tc_variant_new(d, &err))) {
                fprintf(stderr, "topochess: dead: %s: %s\n", d->name, err.msg);
                for (int k = 0; k < n; k++)
                    tc_variant_free(made[k]);
                return 1;
            }
            boards[n] = made[n];
            names[n++] = d->name;
        }
    }
    tc_dead_table *tables[16] = {NULL};
    int status = 0;
    for (int k = 0; k < n && !status; k++) {
        if (!(tables[k] = tc_dead_table_new(boards[k], &err))) {
            fprintf(stderr, "topochess: dead: %s\n", err.msg);
            status = 1;
        } else
            tc_dead_table_set_dir(tables[k], c->out_dir);
    }
    if (!status) {
        printf("| material |");
        for (int k = 0; k < n; k++)
            printf(" %s |", names[k]);
        printf("\n|---|");
        for (int k = 0; k < n; k++)
            printf("---|");
        printf("\n");
        int rows = c->argc ? c->argc : NDEAD_ROWS;
        for (int r = 0; r < rows && !status; r++) {
            const char *row = c->argc ? c->argv[r] : dead_rows[r];
            printf("| %s |", row);
            for (int k = 0; k < n && !status; k++) {
                char cell[96];
                if (dead_cell(tables[k], row, cell, sizeof cell, &err)) {
                    fprintf(stderr, "topochess: dead: %s\n", err.msg);
                    status = 1;
                } else
                    printf(" %s |", cell);
            }
            printf("\n");
            fflush(stdout);
        }
    }
    for (int k = 0; k < n; k++) {
        tc_dead_table_free(tables[k]);
        if (!c->variant_given)
            tc_variant_free(made[k]);
    }
    return status;
}
