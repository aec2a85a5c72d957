/* `topochess tactics`: tactic puzzles from play (docs/puzzles.md,
 * "Tactics from play"): positions of seeded engine self-play games and of
 * PGN files judged by tc_tactic_find, de-duplicated up to the board's
 * symmetries, printed as text, JSON or EPD. The self-play and the output
 * are here; what makes a tactic is the library's (topochess_tactics.h). */
#include "cli.h"
#include "topochess_explain.h"
#include "topochess_tactics.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PGN 16
/* a self-play game stops here, or when one side is this far ahead */
#define GAME_MAX_PLIES 200
#define GAME_DECIDED 1500

/// The command's options.
typedef struct tactics_opts {
    tc_variant_def def;
    int variant_given;
    const char *pgn[MAX_PGN];
    int npgn;
    long long games;   /* -1: as many as --count needs (at most max_games) */
    uint64_t seed, play_nodes;
    int count, json, epd, random_plies, progress, min_line;
    tc_tactic_options sel;
} tactics_opts;

/// The run: the engines, the puzzles kept and their keys.
typedef struct tactics_run {
    const tactics_opts *o;
    tc_variant *v;
    tc_engine *finder, *player;
    tc_symmetry *syms;
    int nsyms;
    tc_tactic *kept;
    char (*source)[96];
    int nkept;
    uint64_t *seen; /* keys of the kept puzzles' line positions, the winner to move */
    int nseen;
    uint64_t positions, dupes;
} tactics_run;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: topochess tactics [--variant NAME | --variant-file PAGE] [--count 20] [--games N]\n"
            "         [--seed 1] [--nodes 20000] [--confirm 4] [--play-nodes N] [--random-plies 8]\n"
            "         [--margin 200] [--min-score 150] [--max-second 300] [--min-gain 200]\n"
            "         [--max-line 15] [--min-line 1] [--pgn FILE ...] [--json | --epd] [--progress]\n"
            "tactic puzzles from engine self-play (seeded) and from PGN files (docs/puzzles.md):\n"
            "a position where one move wins clearly more than every other, found with --nodes and\n"
            "confirmed with --confirm times as many; stops after --count puzzles or --games games;\n"
            "--min-line 3 keeps only lines of 3 plies or more (no single captures)\n");
}

static int number(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end = NULL;
    long long n = (s && ((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
                      ? strtoll(s, &end, 10)
                      : lo - 1;
    if (!end || *end || n < lo || n > hi) {
        fprintf(stderr, "topochess: tactics: %s takes a number from %lld to %lld, not '%s'\n", opt, lo, hi,
                s ? s : "");
        return -1;
    }
    *out = n;
    return 0;
}

enum {
    O_VARIANT, O_VARIANT_FILE, O_COUNT, O_GAMES, O_SEED, O_NODES, O_CONFIRM, O_PLAY_NODES, O_RANDOM,
    O_MARGIN, O_MIN_SCORE, O_MAX_SECOND, O_MIN_GAIN, O_MAX_LINE, O_MIN_LINE, O_PGN, O_JSON, O_EPD, O_PROGRESS, NOPTS
};

/* 1 after --help, -1 after printing the problem. */
static int parse_options(int argc, char **argv, tactics_opts *p)
{
    static const char *const names[NOPTS] = {
        "--variant", "--variant-file", "--count",      "--games",    "--seed",     "--nodes",
        "--confirm", "--play-nodes",   "--random-plies", "--margin", "--min-score", "--max-second",
        "--min-gain", "--max-line",    "--min-line",   "--pgn",        "--json",     "--epd",      "--progress"};
    const char *val[NOPTS] = {0};
    tc_tactic_options_default(&p->sel);
    p->count = 20;
    p->games = -1;
    p->seed = 1;
    p->random_plies = 8;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return 1;
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        int k = 0;
        while (k < NOPTS && !(strlen(names[k]) == len && !strncmp(names[k], a, len)))
            k++;
        if (k == NOPTS || a[0] != '-') {
            int near = a[0] == '-' ? tc_closest_name(a, names, NOPTS) : -1;
            if (a[0] != '-')
                fprintf(stderr, "topochess: tactics takes options only (got '%s'; try 'topochess tactics --help')\n",
                        a);
            else if (near >= 0)
                fprintf(stderr, "topochess: tactics: unknown option '%.*s': did you mean '%s'?\n", (int)len, a,
                        names[near]);
            else
                fprintf(stderr, "topochess: tactics: unknown option '%.*s' (try 'topochess tactics --help')\n",
                        (int)len, a);
            return -1;
        }
        if (k >= O_JSON) {
            if (eq) {
                fprintf(stderr, "topochess: tactics: %s takes no value (got '%s')\n", names[k], a);
                return -1;
            }
            *(k == O_JSON ? &p->json : k == O_EPD ? &p->epd : &p->progress) = 1;
            continue;
        }
        const char *value = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!value || !*value || (!eq && value[0] == '-' && value[1] == '-')) {
            fprintf(stderr, "topochess: tactics: %s needs a value\n", names[k]);
            return -1;
        }
        if (k == O_PGN) { /* --pgn A B C: every word up to the next option */
            for (;;) {
                if (p->npgn == MAX_PGN) {
                    fprintf(stderr, "topochess: tactics: at most %d PGN files\n", MAX_PGN);
                    return -1;
                }
                p->pgn[p->npgn++] = value;
                if (eq || i + 1 >= argc || argv[i + 1][0] == '-')
                    break;
                value = argv[++i];
            }
            continue;
        }
        if (val[k]) {
            fprintf(stderr, "topochess: tactics: %s given twice\n", names[k]);
            return -1;
        }
        val[k] = value;
    }
    if (p->json && p->epd) {
        fprintf(stderr, "topochess: tactics: give --json or --epd, not both\n");
        return -1;
    }
    if (val[O_VARIANT] && val[O_VARIANT_FILE]) {
        fprintf(stderr, "topochess: tactics: give --variant or --variant-file, not both\n");
        return -1;
    }
    tc_error err;
    if (val[O_VARIANT_FILE] ? tc_variant_file_load(val[O_VARIANT_FILE], &p->def, &err)
                            : tc_preset_find(val[O_VARIANT] ? val[O_VARIANT] : "chess", &p->def, &err)) {
        fprintf(stderr, "topochess: tactics: %s\n", err.msg);
        return -1;
    }
    p->variant_given = val[O_VARIANT] || val[O_VARIANT_FILE];
    long long n;
    static const struct { int k; long long lo, hi; } ranges[] = {
        {O_COUNT, 1, 10000},      {O_GAMES, 0, 1000000},     {O_NODES, 100, 100000000},
        {O_CONFIRM, 2, 64},       {O_PLAY_NODES, 1, 100000000}, {O_RANDOM, 0, 40},
        {O_MARGIN, 1, 10000},     {O_MIN_SCORE, 0, 10000},   {O_MAX_SECOND, -10000, 10000},
        {O_MIN_GAIN, 1, 10000},   {O_MAX_LINE, 1, TC_TACTIC_MAX_LINE}, {O_MIN_LINE, 1, TC_TACTIC_MAX_LINE}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        int k = ranges[r].k;
        if (!val[k])
            continue;
        if (number(names[k], val[k], ranges[r].lo, ranges[r].hi, &n))
            return -1;
        switch (k) {
        case O_COUNT: p->count = (int)n; break;
        case O_GAMES: p->games = n; break;
        case O_NODES: p->sel.nodes = (uint64_t)n; break;
        case O_CONFIRM: p->sel.confirm = (int)n; break;
        case O_PLAY_NODES: p->play_nodes = (uint64_t)n; break;
        case O_RANDOM: p->random_plies = (int)n; break;
        case O_MARGIN: p->sel.margin = (int)n; break;
        case O_MIN_SCORE: p->sel.min_score = (int)n; break;
        case O_MAX_SECOND: p->sel.max_second = (int)n; break;
        case O_MIN_GAIN: p->sel.min_gain = (int)n; break;
        case O_MAX_LINE: p->sel.max_line = (int)n; break;
        case O_MIN_LINE: p->min_line = (int)n; break;
        }
    }
    if (val[O_SEED]) {
        char *end;
        unsigned long long s = strtoull(val[O_SEED], &end, 10);
        if (*val[O_SEED] < '0' || *val[O_SEED] > '9' || *end) {
            fprintf(stderr, "topochess: tactics: --seed takes a whole number, not '%s'\n", val[O_SEED]);
            return -1;
        }
        p->seed = s;
    }
    if (p->min_line > p->sel.max_line) {
        fprintf(stderr, "topochess: tactics: --min-line %d is more than --max-line %d\n", p->min_line,
                p->sel.max_line);
        return -1;
    }
    if (p->games < 0 && p->npgn) /* PGN files alone, unless games are asked for too */
        p->games = 0;
    if (!p->play_nodes)
        p->play_nodes = p->sel.nodes / 10 > 200 ? p->sel.nodes / 10 : 200;
    return 0;
}

/* ---------------------------------------------------------------- keeping */

/* Judges one position; keeps it when it is a new tactic. -1 on an error. */
static int consider(tactics_run *r, const tc_position *p, const char *source)
{
    if (r->nkept >= r->o->count)
        return 0;
    uint64_t key = tc_key(p);
    for (int i = 0; i < r->nseen; i++)
        if (r->seen[i] == key) { /* a later position of a puzzle kept */
            r->dupes++;
            return 0;
        }
    r->positions++;
    tc_tactic *t = &r->kept[r->nkept];
    tc_error err;
    int found = tc_tactic_find(r->finder, p, &r->o->sel, t, NULL, 0, &err);
    if (found < 0) {
        fprintf(stderr, "topochess: tactics: %s\n", err.msg);
        return -1;
    }
    if (!found || t->nline < r->o->min_line) /* --min-line 3: no single captures */
        return 0;
    t->key = tc_tactic_class_key(p, r->syms, r->nsyms);
    for (int i = 0; i < r->nkept; i++)
        if (r->kept[i].key == t->key) {
            r->dupes++;
            return 0;
        }
    snprintf(r->source[r->nkept], sizeof r->source[0], "%s", source);
    r->nkept++;
    tc_position *q = tc_position_clone(p);
    for (int i = 0; q && i + 2 < t->nline; i += 2) {
        tc_make_move(q, t->line[i]);
        tc_make_move(q, t->line[i + 1]);
        r->seen[r->nseen++] = tc_key(q);
    }
    tc_position_free(q);
    if (r->o->progress)
        fprintf(stderr, "tactics: %d found (%s), %llu positions judged\n", r->nkept, source,
                (unsigned long long)r->positions);
    return 0;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Self-play game g: random_plies random moves (or one more) fixed by the
 * seed and g, then the engine at play_nodes a move for both sides; every
 * position after the opening judged. */
static int play_game(tactics_run *r, long long g, tc_position *p, tc_movelist *list)
{
    const tactics_opts *o = r->o;
    uint64_t rng = o->seed ^ (0x5851f42d4c957f2dull * ((uint64_t)g + 1));
    splitmix(&rng);
    tc_position_reset(p);
    int plies = o->random_plies + (int)(splitmix(&rng) & 1);
    for (int i = 0; i < plies && tc_position_status(p) == TC_ONGOING; i++) {
        int n = tc_generate_legal(p, list);
        tc_make_move(p, list->moves[splitmix(&rng) % (uint64_t)n]);
    }
    tc_engine_new_game(r->player);
    for (int ply = tc_ply_count(p); ply < GAME_MAX_PLIES && r->nkept < o->count; ply++) {
        if (tc_position_status(p) != TC_ONGOING)
            break;
        int white = 0, black = 0, cells = tc_variant_cells(r->v);
        for (int c = 0; c < cells; c++) {
            static const int val[7] = {0, 100, 300, 300, 500, 900, 0};
            int pc = tc_piece_at(p, c);
            *(TC_COLOUR(pc) == TC_WHITE ? &white : &black) += pc ? val[TC_TYPE(pc)] : 0;
        }
        if (abs(white - black) >= GAME_DECIDED)
            break;
        char source[96];
        snprintf(source, sizeof source, "self-play seed %llu game %lld ply %d", (unsigned long long)o->seed, g,
                 ply);
        if (consider(r, p, source))
            return -1;
        tc_engine_set_position(r->player, p);
        tc_limits lim;
        tc_limits_init(&lim);
        lim.nodes = o->play_nodes;
        tc_move m = tc_engine_search(r->player, &lim, NULL, NULL).best;
        if (!m)
            break;
        tc_make_move(p, m);
    }
    return 0;
}

/* Every position of every game of a PGN file on the command's board. */
static int read_pgn(tactics_run *r, const char *path)
{
    size_t len;
    char *text = cli_read_file(path, &len);
    if (!text)
        return -1;
    tc_pgn_reader rd;
    tc_pgn_reader_init(&rd, text, len);
    tc_pgn_game g;
    memset(&g, 0, sizeof g);
    tc_error err;
    int status = 0, index = 0, other = 0;
    for (int got; status == 0 && r->nkept < r->o->count && (got = tc_pgn_read_game(&rd, &g, &err)) != 0;
         tc_pgn_game_free(&g)) {
        index++;
        if (got < 0) {
            fprintf(stderr, "topochess: tactics: %s: %s (game skipped)\n", path, err.msg);
            continue;
        }
        tc_variant_def gdef;
        if (tc_pgn_game_def(&g, &r->o->def, &gdef, &err) || strcmp(gdef.name, r->o->def.name)) {
            other++;
            continue;
        }
        tc_position *p = tc_position_new(r->v);
        if (!p) {
            status = -1;
            break;
        }
        const char *fen = tc_pgn_tag(&g, "FEN"), *setup = tc_pgn_tag(&g, "SetUp");
        if (fen && !(setup && !strcmp(setup, "0")) && tc_position_set_fen(p, fen, &err)) {
            fprintf(stderr, "topochess: tactics: %s: game %d: %s (game skipped)\n", path, index, err.msg);
            tc_position_free(p);
            continue;
        }
        for (int i = 0; i <= g.nmoves && status == 0; i++) {
            char source[96];
            snprintf(source, sizeof source, "%.60s game %d ply %d", path, index, i);
            if (consider(r, p, source))
                status = -1;
            tc_move m;
            if (i == g.nmoves || tc_move_parse(p, g.moves[i], &m, &err))
                break; /* an illegal move ends the game's positions */
            tc_make_move(p, m);
        }
        tc_position_free(p);
    }
    tc_pgn_game_free(&g);
    if (other)
        fprintf(stderr, "topochess: tactics: %s: %d game%s on another board than %s left out\n", path, other,
                other == 1 ? "" : "s", r->o->def.name);
    free(text);
    return status;
}

/* ---------------------------------------------------------------- output */

static void print_line(const tc_tactic *t)
{
    for (int i = 0; i < t->nline; i++) {
        int ply = i + t->side;
        if (ply % 2 == 0)
            printf("%s%d.", i ? " " : "", ply / 2 + 1);
        else if (i == 0)
            printf("1...");
        printf(" %s", t->line_san[i]);
    }
}

static void print_json(const tc_tactic *t, const char *source, int first)
{
    char text[256];
    tc_tactic_theme_text(t, text, sizeof text);
    printf("%s{\"variant\":", first ? "" : ",\n");
    cli_json_string(t->variant);
    printf(",\"fen\":");
    cli_json_string(t->fen);
    printf(",\"side\":\"%s\",\"mate\":%d,\"gain\":%d,\"score\":%d,\"second\":%d,\"margin\":%d,", t->side ? "black" : "white",
           t->mate, t->gain, t->score, t->second, t->margin);
    printf("\"found\":{\"depth\":%d,\"nodes\":%llu,\"score\":%d,\"second\":%d},", t->depth_found,
           (unsigned long long)t->nodes_found, t->found_score, t->found_second);
    printf("\"confirmed\":{\"depth\":%d,\"nodes\":%llu},\"themes\":[", t->depth_confirmed,
           (unsigned long long)t->nodes_confirmed);
    for (unsigned b = 1, k = 0; b < (1u << TC_THEME_COUNT); b <<= 1)
        if (t->themes & b)
            printf("%s\"%s\"", k++ ? "," : "", tc_tactic_theme_name(b));
    printf("],\"joins\":[");
    static const char *const join_names[4] = {"file", "rank", "twist", "fold"};
    for (int b = 0, k = 0; b < 4; b++)
        if (t->joins & (1 << b))
            printf("%s\"%s\"", k++ ? "," : "", join_names[b]);
    printf("],\"text\":");
    cli_json_string(text);
    printf(",\"line\":[");
    for (int i = 0; i < t->nline; i++)
        printf("%s\"%s\"", i ? "," : "", t->line_san[i]);
    printf("],\"line_uci\":[");
    for (int i = 0; i < t->nline; i++)
        printf("%s\"%s\"", i ? "," : "", t->line_uci[i]);
    printf("],\"source\":");
    cli_json_string(source);
    printf("}");
}

/* EPD: the FEN's first four fields, bm, pv, and the rest as comments. */
static void print_epd(const tc_tactic *t, int number)
{
    char text[256];
    tc_tactic_theme_text(t, text, sizeof text);
    const char *f = t->fen;
    for (int fields = 0; *f && fields < 4; f++) {
        fields += *f == ' ';
        if (fields < 4)
            putchar(*f);
    }
    printf(" bm %s; pv", t->line_san[0]);
    for (int i = 0; i < t->nline; i++)
        printf(" %s", t->line_san[i]);
    printf("; id \"%s tactic %d\"; c0 \"%s\"; c1 \"margin %d, depth %d confirmed at %d\";\n", t->variant, number,
           text, t->margin, t->depth_found, t->depth_confirmed);
}

static void print_text(const tc_tactic *t, const char *source, int number)
{
    char text[256];
    tc_tactic_theme_text(t, text, sizeof text);
    printf("%d. %s to move: %s\n   FEN: %s\n   line: ", number, t->side ? "Black" : "White", text, t->fen);
    print_line(t);
    printf("\n   uci:");
    for (int i = 0; i < t->nline; i++)
        printf(" %s", t->line_uci[i]);
    printf("\n   margin %d (best %d, second %d); found at depth %d, confirmed at depth %d; %s\n", t->margin,
           t->score, t->second, t->depth_found, t->depth_confirmed, source);
}

int cmd_tactics(cli_ctx *c)
{
    tactics_opts o;
    memset(&o, 0, sizeof o);
    int pr = parse_options(c->argc, c->argv, &o);
    if (pr) {
        if (pr > 0)
            usage(stdout);
        return pr > 0 ? 0 : 1;
    }
    if (o.npgn && !o.variant_given) { /* the board of the first game */
        size_t len;
        char *text = cli_read_file(o.pgn[0], &len);
        if (!text)
            return 1;
        tc_pgn_reader rd;
        tc_pgn_reader_init(&rd, text, len);
        tc_pgn_game g;
        memset(&g, 0, sizeof g);
        tc_error err;
        tc_variant_def chess = o.def;
        if (tc_pgn_read_game(&rd, &g, &err) > 0 && tc_pgn_game_def(&g, &chess, &o.def, &err))
            o.def = chess;
        tc_pgn_game_free(&g);
        free(text);
    }
    tactics_run r;
    memset(&r, 0, sizeof r);
    r.o = &o;
    tc_error err;
    int status = 1;
    if (!(r.v = tc_variant_new(&o.def, &err))) {
        fprintf(stderr, "topochess: tactics: variant %s: %s\n", o.def.name, err.msg);
        return 1;
    }
    r.finder = tc_engine_new(r.v, 16, 1);
    r.player = tc_engine_new(r.v, 16, 1);
    r.syms = malloc(sizeof *r.syms * TC_MAX_SYMMETRIES);
    r.kept = calloc((size_t)o.count + 1, sizeof *r.kept);
    r.source = calloc((size_t)o.count + 1, sizeof *r.source);
    r.seen = calloc((size_t)o.count * (TC_TACTIC_MAX_LINE / 2) + 1, sizeof *r.seen);
    tc_position *p = tc_position_new(r.v);
    tc_movelist *list = malloc(sizeof *list);
    if (!r.finder || !r.player || !r.syms || !r.kept || !r.source || !r.seen || !p || !list) {
        fprintf(stderr, "topochess: tactics: out of memory\n");
        goto done;
    }
    r.nsyms = tc_symmetries(r.v, r.syms, TC_MAX_SYMMETRIES);
    for (int i = 0; i < o.npgn; i++)
        if (read_pgn(&r, o.pgn[i]))
            goto done;
    long long max_games = o.games >= 0 ? o.games : 100000, played = 0;
    for (long long g = 0; g < max_games && r.nkept < o.count; g++, played++)
        if (play_game(&r, g, p, list))
            goto done;
    if (o.json) {
        printf("{\"variant\":");
        cli_json_string(o.def.name);
        printf(",\"seed\":%llu,\"nodes\":%llu,\"confirm\":%d,\"games\":%lld,\"positions\":%llu,\"count\":%d,"
               "\"tactics\":[\n",
               (unsigned long long)o.seed, (unsigned long long)o.sel.nodes, o.sel.confirm, played,
               (unsigned long long)r.positions, r.nkept);
        for (int i = 0; i < r.nkept; i++)
            print_json(&r.kept[i], r.source[i], i == 0);
        printf("]}\n");
    } else if (o.epd) {
        for (int i = 0; i < r.nkept; i++)
            print_epd(&r.kept[i], i + 1);
    } else {
        printf("%d tactic%s on %s (seed %llu, nodes %llu confirmed at %llu)\n", r.nkept, r.nkept == 1 ? "" : "s",
               o.def.name, (unsigned long long)o.seed, (unsigned long long)o.sel.nodes,
               (unsigned long long)(o.sel.nodes * (uint64_t)o.sel.confirm));
        for (int i = 0; i < r.nkept; i++)
            print_text(&r.kept[i], r.source[i], i + 1);
        printf("tactics: %d from %lld self-play game%s and %d PGN file%s, %llu positions judged, %llu repeat%s "
               "left out\n",
               r.nkept, played, played == 1 ? "" : "s", o.npgn, o.npgn == 1 ? "" : "s",
               (unsigned long long)r.positions, (unsigned long long)r.dupes, r.dupes == 1 ? "" : "s");
    }
    status = 0;
done:
    free(list);
    tc_position_free(p);
    free(r.seen);
    free(r.source);
    free(r.kept);
    free(r.syms);
    tc_engine_free(r.player);
    tc_engine_free(r.finder);
    tc_variant_free(r.v);
    return status;
}
