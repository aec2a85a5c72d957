/* Analysis in the terminal: `analyse [depth N] [time SECONDS] [lines K]`
 * in `topochess play`, and `topochess analyse ...` on a position given with
 * --variant/--fen/--play. The engine searches to the limit given (a second
 * by default) and the best K lines are printed in SAN with their scores
 * for White; when the position's material is a solved one (pawnless, at
 * most TC_EGTB_MAX_PIECES pieces) the tables' exact verdict follows, and a
 * dead position (docs/rules.md section 6) is said to be one. */
#include "cli.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define ANALYSE_USAGE "analyse [depth N] [time SECONDS] [lines K]"
#define ANALYSE_MAX_SECONDS 3600
#define ANALYSE_MAX_PLIES 24 /* of a line shown; longer ones end with "..." */
/* A 4-piece ending whose table is larger is not solved for a verdict (a
 * 16x16 board's would take minutes and gigabytes). */
#define ANALYSE_MAX_ENTRIES (64ull << 20)

struct cli_analysis {
    tc_egtb *table; /* the last ending solved, kept for the next analyse */
    const tc_variant *table_variant;
};

cli_analysis *cli_analysis_new(void) { return calloc(1, sizeof(cli_analysis)); }

void cli_analysis_free(cli_analysis *a)
{
    if (!a)
        return;
    tc_egtb_free(a->table);
    free(a);
}

/// One search's lines: the last report of each, by MultiPV index.
typedef struct lines_seen {
    tc_search_info line[TC_ENGINE_MAX_MULTIPV];
    int have[TC_ENGINE_MAX_MULTIPV];
} lines_seen;

static void on_info(const tc_search_info *in, void *ctx)
{
    lines_seen *s = ctx;
    int k = (in->multipv > 0 ? in->multipv : 1) - 1;
    if (k >= TC_ENGINE_MAX_MULTIPV || in->pv_len < 1)
        return;
    /* an exact report replaces everything; a bound only fills a gap */
    if (in->bound == TC_BOUND_EXACT || !s->have[k] || in->depth > s->line[k].depth) {
        s->line[k] = *in;
        s->have[k] = 1;
    }
}

/* The score for White: "+0.35", "-1.20", "#3" (White mates in 3), "#-3". */
static void score_text(int white_to_move, int score, int mate, char *buf, size_t n)
{
    if (mate)
        snprintf(buf, n, "#%d", white_to_move ? mate : -mate);
    else
        snprintf(buf, n, "%+.2f", (white_to_move ? score : -score) / 100.0);
}

/* The line in SAN with move numbers ("12... Nf6 13. Bg5"), from p. */
static void line_san(const tc_position *p, const tc_move *pv, int len, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    tc_position *q = tc_position_clone(p);
    for (int i = 0; q && i < len && tc_is_legal(q, pv[i]); i++) {
        if (i == ANALYSE_MAX_PLIES) {
            snprintf(buf + used, n - used, " ...");
            break;
        }
        char san[32], num[24] = "";
        tc_move_to_san(q, pv[i], san);
        int white = tc_side_to_move(q) == TC_WHITE;
        if (white)
            snprintf(num, sizeof num, "%d. ", tc_fullmove_number(q));
        else if (i == 0)
            snprintf(num, sizeof num, "%d... ", tc_fullmove_number(q));
        int w = snprintf(buf + used, n - used, "%s%s%s", i ? " " : "", num, san);
        if (w < 0 || (size_t)w >= n - used)
            break;
        used += (size_t)w;
        tc_make_move(q, pv[i]);
    }
    tc_position_free(q);
}

/* The solved-ending verdict of p, if its material is one: the table is
 * solved (or kept from the last call) and probed. */
static void print_verdict(cli_analysis *a, tc_dead_table *dead, const tc_position *p, FILE *out)
{
    if (dead && tc_dead_position(dead, p)) {
        fprintf(out, "verdict: dead position, a draw: no sequence of legal moves can checkmate (docs/rules.md section 6)\n");
        return;
    }
    char material[16], ending[16];
    tc_error err;
    if (!tc_egtb_material_of(p, material) || tc_egtb_normalise(material, ending, &err))
        return; /* pawns, or too many pieces: no tables */
    const tc_variant *v = tc_position_variant(p);
    if (!a->table || a->table_variant != v || strcmp(tc_egtb_name(a->table), ending)) {
        tc_egtb_free(a->table);
        a->table = NULL;
        if (strlen(ending) > 3) {
            fprintf(out, "solving the ending %s on this board for the verdict...\n", ending);
            fflush(out);
        }
        tc_egtb_options opt = {0, NULL, ANALYSE_MAX_ENTRIES, NULL, NULL};
        a->table = tc_egtb_solve(v, ending, &opt, &err);
        a->table_variant = v;
        if (!a->table) {
            fprintf(out, "verdict: the ending %s is not solved here: %s\n", ending, err.msg);
            return;
        }
    }
    tc_egtb_result r;
    tc_position *q = tc_position_clone(p);
    tc_move best = q ? tc_egtb_best_move(a->table, q, &r) : 0;
    if (!q || tc_egtb_probe(a->table, p, &r)) {
        tc_position_free(q);
        return;
    }
    int mover = tc_side_to_move(p);
    const char *name = mover == TC_WHITE ? "White" : "Black", *other = mover == TC_WHITE ? "Black" : "White";
    char san[32] = "";
    if (best)
        tc_move_to_san(p, best, san);
    if (r.wdl == 0)
        fprintf(out, "verdict (solved ending %s): a draw with best play%s%s\n", ending, best ? "; the tables play " : "",
                san);
    else
        fprintf(out, "verdict (solved ending %s): %s wins, mate in %d move%s (%d pl%s)%s%s\n", ending,
                r.wdl > 0 ? name : other, (r.plies + 1) / 2, (r.plies + 1) / 2 == 1 ? "" : "s", r.plies,
                r.plies == 1 ? "y" : "ies", best ? "; the tables play " : "", san);
    tc_position_free(q);
}

/* Reads "depth N", "time SECONDS", "lines K" in any order into lim;
 * -1 after printing the problem. */
static int read_limits(char *args, tc_limits *lim, FILE *out, const char *pre)
{
    char *save = NULL;
    for (char *w = strtok_r(args, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        int is_depth = !strcmp(w, "depth"), is_time = !strcmp(w, "time");
        int is_lines = !strcmp(w, "lines") || !strcmp(w, "multipv");
        if (!is_depth && !is_time && !is_lines) {
            fprintf(out, "%sanalyse: unknown word '%.40s' (usage: " ANALYSE_USAGE ")\n", pre, w);
            return -1;
        }
        char *v = strtok_r(NULL, " \t", &save), *end;
        if (!v) {
            fprintf(out, "%sanalyse: '%s' needs a number (usage: " ANALYSE_USAGE ")\n", pre, w);
            return -1;
        }
        errno = 0;
        if (is_time) {
            double s = strtod(v, &end);
            if (*end || errno || !(s > 0) || s > ANALYSE_MAX_SECONDS) {
                fprintf(out, "%sanalyse: time takes seconds above 0 and up to %d (like 2 or 0.5), not '%.40s'\n",
                        pre, ANALYSE_MAX_SECONDS, v);
                return -1;
            }
            lim->movetime = (int64_t)(s * 1000) > 0 ? (int64_t)(s * 1000) : 1;
            continue;
        }
        long x = strtol(v, &end, 10);
        long hi = is_depth ? TC_ENGINE_MAX_PLY : TC_ENGINE_MAX_MULTIPV;
        if (*end || errno || x < 1 || x > hi) {
            fprintf(out, "%sanalyse: %s takes a whole number from 1 to %ld, not '%.40s'\n", pre,
                    is_depth ? "depth" : "lines", hi, v);
            return -1;
        }
        if (is_depth)
            lim->depth = (int)x;
        else
            lim->multipv = (int)x;
    }
    if (!lim->depth && !lim->movetime)
        lim->movetime = 1000; /* a second unless told */
    return 0;
}

int cli_analyse(cli_analysis *a, tc_engine *eng, tc_dead_table *dead, const tc_position *p, const char *args,
                FILE *out, FILE *err_out)
{
    /* the command's complaints go to standard error as "topochess: ..." */
    const char *pre = err_out == stderr ? "topochess: " : "";
    char words[256];
    if (strlen(args) >= sizeof words) {
        fprintf(err_out, "%sanalyse: too many words (usage: " ANALYSE_USAGE ")\n", pre);
        return -1;
    }
    snprintf(words, sizeof words, "%s", args);
    tc_limits lim;
    tc_limits_init(&lim);
    if (read_limits(words, &lim, err_out, pre))
        return -1;
    tc_status st = tc_position_status(p);
    if (st == TC_CHECKMATE || st == TC_STALEMATE) {
        fprintf(out, "nothing to analyse: %s\n", tc_status_text(st));
        return 0;
    }
    if (tc_engine_set_position(eng, p)) {
        fprintf(err_out, "%sanalyse: the engine cannot take this position\n", pre);
        return -1;
    }
    lines_seen *seen = calloc(1, sizeof *seen);
    if (!seen) {
        fprintf(err_out, "%sanalyse: out of memory\n", pre);
        return -1;
    }
    tc_search_result r = tc_engine_search(eng, &lim, on_info, seen);
    int white = tc_side_to_move(p) == TC_WHITE, want = lim.multipv > 1 ? lim.multipv : 1;
    fprintf(out, "analysis: depth %d, %.1f s, %llu nodes (scores for White)\n", r.depth, r.time_ms / 1000.0,
            (unsigned long long)r.nodes);
    int shown = 0;
    for (int k = 0; k < want; k++) {
        if (!seen->have[k])
            continue;
        const tc_search_info *in = &seen->line[k];
        char score[24], line[2048];
        score_text(white, in->score, in->mate, score, sizeof score);
        line_san(p, in->pv, in->pv_len, line, sizeof line);
        fprintf(out, "  %d. %6s  %s\n", k + 1, score, line);
        shown++;
    }
    if (!shown && r.best) { /* no report came (a root the tables or a single move decided) */
        char score[24], line[64];
        score_text(white, r.score, r.mate, score, sizeof score);
        line_san(p, &r.best, 1, line, sizeof line);
        fprintf(out, "  1. %6s  %s\n", score, line);
    }
    if (st != TC_ONGOING && st != TC_DRAW_DEAD)
        fprintf(out, "note: %s (the game is over by rule; the lines are what the board allows)\n", tc_status_text(st));
    free(seen);
    print_verdict(a, dead, p, out);
    return 0;
}

/* `topochess analyse [depth N] [time SECONDS] [lines K]` on the position of
 * the common options. */
int cmd_analyse(cli_ctx *c)
{
    char args[256] = "";
    size_t len = 0;
    for (int i = 0; i < c->argc; i++) {
        int w = snprintf(args + len, sizeof args - len, "%s%s", i ? " " : "", c->argv[i]);
        if (w < 0 || (size_t)w >= sizeof args - len) {
            fprintf(stderr, "topochess: analyse: too many words (usage: topochess " ANALYSE_USAGE ")\n");
            return 1;
        }
        len += (size_t)w;
    }
    tc_engine *eng = tc_engine_new(c->variant, 64, 1);
    cli_analysis *a = cli_analysis_new();
    tc_error err;
    tc_dead_table *dead = tc_dead_table_new(c->variant, &err);
    int status = 1;
    if (!eng || !a)
        fprintf(stderr, "topochess: analyse: out of memory\n");
    else
        status = cli_analyse(a, eng, dead, c->pos, args, stdout, stderr) ? 1 : 0;
    tc_dead_table_free(dead);
    cli_analysis_free(a);
    tc_engine_free(eng);
    return status;
}
