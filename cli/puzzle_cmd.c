/* `topochess puzzles`: mate puzzles from the solved endings of a board
 * (docs/puzzles.md); `topochess puzzle --fen FEN`: solve one in the
 * terminal, each move judged by the tables, the defence played by them. */
#include "cli.h"
#include "topochess_explain.h"
#include "topochess_puzzle.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_MATERIALS 8

/// The options of both commands, read by parse_options.
typedef struct puzzle_opts {
    tc_variant_def def;
    const char *materials[MAX_MATERIALS];
    int nmaterials;
    char material_buf[MAX_MATERIALS][8];
    const char *fen, *tables;
    int count, json, threads;
    tc_puzzle_options sel;
} puzzle_opts;

static int number(const char *cmd, const char *opt, const char *s, long lo, long hi, long *out)
{
    char *end = NULL;
    long n = (s && *s >= '0' && *s <= '9') ? strtol(s, &end, 10) : -1;
    if (!end || *end || n < lo || n > hi) {
        fprintf(stderr, "topochess: %s: %s takes a number from %ld to %ld, not '%s'\n", cmd, opt, lo, hi, s ? s : "");
        return -1;
    }
    *out = n;
    return 0;
}

/* Adds "KRK" or "KRK,KQK" to the list, each checked as an ending name. */
static int add_materials(const char *cmd, const char *text, puzzle_opts *p)
{
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        tc_error err;
        if (p->nmaterials == MAX_MATERIALS) {
            fprintf(stderr, "topochess: %s: at most %d materials\n", cmd, MAX_MATERIALS);
            return -1;
        }
        if (tc_egtb_normalise(w, p->material_buf[p->nmaterials], &err)) {
            fprintf(stderr, "topochess: %s: --material: %s\n", cmd, err.msg);
            return -1;
        }
        p->materials[p->nmaterials] = p->material_buf[p->nmaterials];
        p->nmaterials++;
    }
    if (!p->nmaterials) {
        fprintf(stderr, "topochess: %s: --material needs an ending name like KRK\n", cmd);
        return -1;
    }
    return 0;
}

/* The options of `puzzles` (generate) or `puzzle` (solve one); 1 after
 * --help, -1 after printing the problem. */
static int parse_options(const char *cmd, int generate, int argc, char **argv, puzzle_opts *p)
{
    static const char *const names[] = {"--variant", "--variant-file", "--material", "--count",    "--seed",
                                        "--min-mate", "--max-mate",    "--max-best", "--tables",   "--fen",
                                        "--threads",  "--json",         "--allow-check"};
    enum { NOPTS = sizeof names / sizeof names[0] };
    const char *val[NOPTS] = {0};
    tc_puzzle_options_default(&p->sel);
    p->count = 20;
    p->threads = 2;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        int k = 0;
        while (k < NOPTS && !(strlen(names[k]) == len && !strncmp(names[k], a, len)))
            k++;
        /* --fen is for `puzzle`, the selection options for `puzzles` */
        int fits = k < NOPTS && (k == 0 || k == 1 || k == 8 || k == 10 || (k == 9) != generate);
        if (k == NOPTS || a[0] != '-') {
            int near = a[0] == '-' ? tc_closest_name(a, names, NOPTS) : -1;
            if (a[0] != '-')
                fprintf(stderr, "topochess: %s takes options only (got '%s'; try 'topochess %s --help')\n", cmd, a,
                        cmd);
            else if (near >= 0)
                fprintf(stderr, "topochess: %s: unknown option '%.*s': did you mean '%s'?\n", cmd, (int)len, a,
                        names[near]);
            else
                fprintf(stderr, "topochess: %s: unknown option '%.*s' (try 'topochess %s --help')\n", cmd, (int)len,
                        a, cmd);
            return -1;
        }
        if (!fits) {
            fprintf(stderr, "topochess: %s does not apply to '%s' (try 'topochess %s --help')\n", names[k], cmd, cmd);
            return -1;
        }
        if (k >= 11) {
            if (eq) {
                fprintf(stderr, "topochess: %s: %s takes no value (got '%s')\n", cmd, names[k], a);
                return -1;
            }
            *(k == 11 ? &p->json : &p->sel.allow_check) = 1;
            continue;
        }
        const char *value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!value || !*value) {
            fprintf(stderr, "topochess: %s: %s needs a value\n", cmd, names[k]);
            return -1;
        }
        if (k == 2) {
            if (add_materials(cmd, value, p))
                return -1;
            continue;
        }
        if (val[k]) {
            fprintf(stderr, "topochess: %s: %s given twice\n", cmd, names[k]);
            return -1;
        }
        val[k] = value;
    }
    if (val[0] && val[1]) {
        fprintf(stderr, "topochess: %s: give --variant or --variant-file, not both\n", cmd);
        return -1;
    }
    tc_error err;
    if (val[1] ? tc_variant_file_load(val[1], &p->def, &err)
               : tc_preset_find(val[0] ? val[0] : "chess", &p->def, &err)) {
        fprintf(stderr, "topochess: %s: %s\n", cmd, err.msg);
        return -1;
    }
    long n;
    if (val[3]) {
        if (number(cmd, "--count", val[3], 1, 100000, &n))
            return -1;
        p->count = (int)n;
    }
    if (val[4]) {
        char *end;
        unsigned long long s = strtoull(val[4], &end, 10);
        if (*val[4] < '0' || *val[4] > '9' || *end) {
            fprintf(stderr, "topochess: %s: --seed takes a whole number, not '%s'\n", cmd, val[4]);
            return -1;
        }
        p->sel.seed = s;
    }
    long hi = (TC_EGTB_MAX_PLIES + 1) / 2;
    if (val[5]) {
        if (number(cmd, "--min-mate", val[5], 1, hi, &n))
            return -1;
        p->sel.min_mate = (int)n;
    }
    if (val[6]) {
        if (number(cmd, "--max-mate", val[6], 1, hi, &n))
            return -1;
        p->sel.max_mate = (int)n;
    }
    if (p->sel.min_mate > p->sel.max_mate) {
        fprintf(stderr, "topochess: %s: --min-mate %d is more than --max-mate %d\n", cmd, p->sel.min_mate,
                p->sel.max_mate);
        return -1;
    }
    if (val[7]) {
        if (number(cmd, "--max-best", val[7], 1, TC_PUZZLE_MAX_ACCEPTED, &n))
            return -1;
        p->sel.max_best = (int)n;
    }
    if (val[10]) {
        if (number(cmd, "--threads", val[10], 1, 8, &n))
            return -1;
        p->threads = (int)n;
    }
    p->tables = val[8];
    p->fen = val[9];
    if (!generate && !p->fen) {
        fprintf(stderr, "topochess: %s needs --fen FEN (a position from 'topochess puzzles')\n", cmd);
        return -1;
    }
    if (generate && !p->nmaterials)
        add_materials(cmd, "KQK,KRK", p);
    return 0;
}

/* The solved set of a material: read from DIR when --tables DIR holds it,
 * else solved here (and written to DIR when given). */
static tc_egtb *tables_for(const char *cmd, const tc_variant *v, const char *material, const puzzle_opts *p)
{
    tc_error err;
    char name[128], path[4200];
    if (p->tables) {
        tc_egtb_file_name(v, material, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", p->tables, name);
        if (access(path, R_OK) == 0) {
            tc_egtb *t = tc_egtb_load(v, path, &err);
            if (!t)
                fprintf(stderr, "topochess: %s: %s\n", cmd, err.msg);
            return t;
        }
    }
    tc_egtb_options opt = {.threads = p->threads, .progress = stderr};
    tc_egtb *t = tc_egtb_solve(v, material, &opt, &err);
    if (!t) {
        fprintf(stderr, "topochess: %s: %s\n", cmd, err.msg);
        return NULL;
    }
    if (p->tables && tc_egtb_save(t, p->tables, &err))
        fprintf(stderr, "topochess: %s: tables not kept: %s\n", cmd, err.msg);
    return t;
}

static void json_list(const char *key, const char (*items)[24], const char (*uci)[16], int n, int use_uci)
{
    printf(",\"%s\":[", key);
    for (int i = 0; i < n; i++) {
        printf("%s", i ? "," : "");
        cli_json_string(use_uci ? uci[i] : items[i]);
    }
    printf("]");
}

static void print_json(const tc_puzzle *z, int first)
{
    printf("%s{\"title\":", first ? "" : ",\n");
    cli_json_string(z->title);
    printf(",\"variant\":");
    cli_json_string(z->variant);
    printf(",\"material\":\"%s\",\"fen\":", z->material);
    cli_json_string(z->fen);
    printf(",\"side\":\"%s\",\"mate_in\":%d", z->side ? "black" : "white", z->mate_in);
    json_list("accepted", z->accepted_san, z->accepted_uci, z->naccepted, 0);
    json_list("accepted_uci", z->accepted_san, z->accepted_uci, z->naccepted, 1);
    json_list("line", z->line_san, z->line_uci, z->nline, 0);
    json_list("line_uci", z->line_san, z->line_uci, z->nline, 1);
    printf("}");
}

/* "1. Qd5 Kc2 2. Qd3+" or "1... Qd5 2. Kc2" from the side to move. */
static void print_line(const char (*san)[24], int n, int side)
{
    for (int i = 0; i < n; i++) {
        int ply = i + side;
        if (ply % 2 == 0)
            printf(" %d.", ply / 2 + 1);
        else if (i == 0)
            printf(" 1...");
        printf(" %s", san[i]);
    }
}

static void print_text(const tc_puzzle *z, int number)
{
    printf("%d. %s (%s)\n   FEN: %s\n   best:", number, z->title, z->material, z->fen);
    for (int i = 0; i < z->naccepted; i++)
        printf("%s %s", i ? "," : "", z->accepted_san[i]);
    printf("\n   line:");
    print_line(z->line_san, z->nline, z->side);
    printf("\n");
}

int cmd_puzzles(cli_ctx *c)
{
    puzzle_opts p;
    memset(&p, 0, sizeof p);
    int r = parse_options("puzzles", 1, c->argc, c->argv, &p);
    if (r) {
        if (r > 0)
            printf("usage: topochess puzzles [--variant NAME | --variant-file PAGE] [--material KRK[,KQK]]...\n"
                   "         [--count 20] [--seed 0] [--min-mate 3] [--max-mate 15] [--max-best 1]\n"
                   "         [--allow-check] [--tables DIR] [--threads 2] [--json]\n"
                   "mate puzzles from the solved endings (docs/puzzles.md); materials KQK,KRK by default;\n"
                   "--count puzzles in all, shared between the materials; --allow-check: the side to move\n"
                   "may start in check; --tables DIR reads the solved tables there, or keeps them there\n");
        return r > 0 ? 0 : 1;
    }
    tc_error err;
    tc_variant *v = tc_variant_new(&p.def, &err);
    if (!v) {
        fprintf(stderr, "topochess: puzzles: variant %s: %s\n", p.def.name, err.msg);
        return 1;
    }
    tc_puzzle *list = calloc((size_t)p.count, sizeof *list);
    if (!list) {
        fprintf(stderr, "topochess: puzzles: out of memory for %d puzzles\n", p.count);
        tc_variant_free(v);
        return 1;
    }
    /* each material gets an equal share; a material that runs short
     * leaves its share to the others, asked again for more (the walk is
     * the same, so the puzzles after the ones taken are new) */
    tc_egtb *sets[MAX_MATERIALS] = {NULL};
    int got[MAX_MATERIALS] = {0}, full[MAX_MATERIALS] = {0};
    int total = 0, status = 0;
    for (int i = 0; i < p.nmaterials && !status; i++)
        if (!(sets[i] = tables_for("puzzles", v, p.materials[i], &p)))
            status = 1;
    for (int pass = 0; pass < 2 && !status; pass++)
        for (int i = 0; i < p.nmaterials && total < p.count && !status; i++) {
            if (pass && !full[i])
                continue;
            int left = pass ? 1 : p.nmaterials - i;
            int want = (p.count - total + left - 1) / left;
            tc_puzzle *more = pass ? calloc((size_t)(got[i] + want), sizeof *more) : list + total;
            int n = more ? tc_puzzles_generate(sets[i], &p.sel, more, pass ? got[i] + want : want, &err) : -1;
            if (n < 0) {
                fprintf(stderr, "topochess: %s\n", more ? err.msg : "puzzles: out of memory");
                status = 1;
            } else {
                int fresh = pass ? n - got[i] : n;
                if (pass)
                    memcpy(list + total, more + got[i], (size_t)fresh * sizeof *more);
                full[i] = fresh == want;
                got[i] += fresh;
                total += fresh;
            }
            if (pass)
                free(more);
        }
    for (int i = 0; i < p.nmaterials; i++) {
        if (sets[i] && !status)
            fprintf(stderr, "puzzles: %s on %s: %d\n", p.materials[i], p.def.name, got[i]);
        tc_egtb_free(sets[i]);
    }
    if (!status) {
        if (p.json) {
            printf("{\"variant\":");
            cli_json_string(p.def.name);
            printf(",\"seed\":%llu,\"min_mate\":%d,\"max_mate\":%d,\"max_best\":%d,\"count\":%d,\"puzzles\":[\n",
                   (unsigned long long)p.sel.seed, p.sel.min_mate, p.sel.max_mate, p.sel.max_best, total);
            for (int i = 0; i < total; i++)
                print_json(&list[i], i == 0);
            printf("]}\n");
        } else {
            printf("%d puzzle%s on %s (seed %llu, mate in %d to %d, at most %d best move%s)\n", total,
                   total == 1 ? "" : "s", p.def.name,
                   (unsigned long long)p.sel.seed, p.sel.min_mate, p.sel.max_mate, p.sel.max_best,
                   p.sel.max_best == 1 ? "" : "s");
            for (int i = 0; i < total; i++)
                print_text(&list[i], i + 1);
        }
    }
    free(list);
    tc_variant_free(v);
    return status;
}

/* ---------------------------------------------------------------- solving one */

static const char *const piece_names[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};

/* The rest of the solution from p: the winner's first best move, the
 * tables' defence, to the mate. p is left as it was. */
static void print_solution(const tc_egtb *t, tc_position *p)
{
    char san[TC_PUZZLE_MAX_LINE][24];
    int n = 0, side = tc_side_to_move(p), winner = side;
    while (n < TC_PUZZLE_MAX_LINE && tc_position_status(p) == TC_ONGOING) {
        tc_move m = 0;
        tc_egtb_result r;
        if (tc_side_to_move(p) == winner) {
            if (tc_puzzle_best_moves(t, p, &m, 1) < 1)
                break;
        } else if (!(m = tc_egtb_best_move(t, p, &r)))
            break;
        tc_move_to_san(p, m, san[n++]);
        tc_make_move(p, m);
    }
    for (int i = 0; i < n; i++)
        tc_unmake_move(p);
    printf("solution:");
    print_line((const char(*)[24])san, n, side);
    printf("\n");
}

static void print_hint(const tc_egtb *t, tc_position *p)
{
    tc_move best[TC_PUZZLE_MAX_ACCEPTED];
    int n = tc_puzzle_best_moves(t, p, best, TC_PUZZLE_MAX_ACCEPTED);
    if (n < 1)
        return;
    int type = TC_TYPE(tc_piece_at(p, TC_MOVE_FROM(best[0])));
    printf("hint: %d move%s mate%s fastest; one moves the %s\n", n, n == 1 ? "" : "s", n == 1 ? "s" : "",
           piece_names[type]);
}

/* Reads the player's moves from standard input until the mate, `solution`,
 * `quit` or the end of input. */
static int solve_loop(const tc_egtb *t, tc_position *p, int winner, int mate_in)
{
    char line[256];
    for (;;) {
        printf("%s to move> ", winner ? "Black" : "White");
        fflush(stdout);
        if (!fgets(line, sizeof line, stdin)) {
            printf("\nunsolved (end of input)\n");
            return 0;
        }
        char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        s[strcspn(s, " \t\r\n")] = '\0';
        if (!*s)
            continue;
        if (!strcmp(s, "quit") || !strcmp(s, "q")) {
            printf("unsolved\n");
            return 0;
        }
        if (!strcmp(s, "solution")) {
            print_solution(t, p);
            return 0;
        }
        if (!strcmp(s, "hint")) {
            print_hint(t, p);
            continue;
        }
        if (!strcmp(s, "board")) {
            cli_draw_board_compact(p, stdout, winner == TC_WHITE, 0);
            continue;
        }
        tc_puzzle_answer a;
        tc_error err;
        if (tc_puzzle_check(t, p, s, &a, &err)) {
            fprintf(stderr, "topochess: puzzle: %s\n", err.msg);
            return 1;
        }
        printf("%s\n", a.message);
        if (a.verdict != TC_PUZZLE_BEST) {
            printf("try again ('hint', 'solution' or 'quit')\n");
            continue;
        }
        tc_make_move(p, a.move);
        if (a.mates) {
            printf("solved: mate in %d\n", mate_in);
            return 0;
        }
        if (!a.reply) {
            printf("the game is over: %s\n", tc_status_text(tc_position_status(p)));
            return 0;
        }
        printf("%s plays %s\n", winner ? "White" : "Black", a.reply_san);
        tc_make_move(p, a.reply);
        cli_draw_board_compact(p, stdout, winner == TC_WHITE, 0);
    }
}

int cmd_puzzle(cli_ctx *c)
{
    puzzle_opts o;
    memset(&o, 0, sizeof o);
    int r = parse_options("puzzle", 0, c->argc, c->argv, &o);
    if (r) {
        if (r > 0)
            printf("usage: topochess puzzle --fen FEN [--variant NAME | --variant-file PAGE] [--tables DIR] "
                   "[--threads 2]\n"
                   "solve a mate puzzle in the terminal: each move is judged by the solved tables (best,\n"
                   "slower, not winning, illegal) and the tables defend; 'hint', 'board', 'solution', 'quit'\n");
        return r > 0 ? 0 : 1;
    }
    tc_error err;
    tc_variant *v = tc_variant_new(&o.def, &err);
    if (!v) {
        fprintf(stderr, "topochess: puzzle: variant %s: %s\n", o.def.name, err.msg);
        return 1;
    }
    tc_position *p = tc_position_new(v);
    tc_egtb *t = NULL;
    int status = 1;
    char material[16];
    tc_egtb_result res;
    if (!p)
        goto done;
    if (tc_position_set_fen(p, o.fen, &err)) {
        fprintf(stderr, "topochess: puzzle: %s\n", err.msg);
        goto done;
    }
    if (!tc_egtb_material_of(p, material)) {
        fprintf(stderr, "topochess: puzzle: the position is not a pawnless ending of at most %d pieces "
                        "(puzzles come from the solved endings)\n", TC_EGTB_MAX_PIECES);
        goto done;
    }
    if (!(t = tables_for("puzzle", v, material, &o)))
        goto done;
    int winner = tc_side_to_move(p);
    if (tc_egtb_probe(t, p, &res) || res.wdl <= 0) {
        fprintf(stderr, "topochess: puzzle: %s to move does not win this position (%s by the tables)\n",
                winner ? "Black" : "White", res.wdl < 0 ? "a loss" : "a draw");
        goto done;
    }
    if (tc_position_status(p) != TC_ONGOING) {
        fprintf(stderr, "topochess: puzzle: the game is already over (%s)\n", tc_status_text(tc_position_status(p)));
        goto done;
    }
    char title[128];
    tc_puzzle_title(v, winner, (res.plies + 1) / 2, title, sizeof title);
    printf("%s (%s, %s)\n", title, material, o.def.name);
    cli_draw_board_compact(p, stdout, winner == TC_WHITE, 0);
    printf("type a move (SAN or coordinates), 'hint', 'board', 'solution' or 'quit'\n");
    status = solve_loop(t, p, winner, (res.plies + 1) / 2);
done:
    tc_egtb_free(t);
    tc_position_free(p);
    tc_variant_free(v);
    return status;
}
