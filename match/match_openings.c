/* `topochess match` openings: the start of each pair of games, read from a
 * file (one FEN or one move list per line) or made of random legal moves,
 * and which engine has White in each game. */
#include "match.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- openings */

int match_white_engine(int game) { return game % 2; }
int match_opening_index(int game, int nopenings) { return nopenings > 0 ? game / 2 % nopenings : 0; }

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* `plies` random legal moves from the start, retried while they end the game. */
static char *random_opening(const tc_variant *v, uint64_t *rng, int plies)
{
    size_t size = (size_t)plies * 8 + 1;
    char *out = malloc(size);
    tc_position *p = tc_position_new(v);
    tc_movelist *list = malloc(sizeof *list);
    if (!out || !p || !list) {
        free(out);
        out = NULL;
        goto done;
    }
    for (int attempt = 0; attempt < 100; attempt++) {
        tc_position_reset(p);
        size_t used = 0;
        out[0] = '\0';
        for (int i = 0; i < plies; i++) {
            int n = tc_generate_legal(p, list);
            if (n == 0)
                break;
            tc_move m = list->moves[splitmix(rng) % (uint64_t)n];
            char text[32];
            tc_move_to_uci(p, m, text);
            used += (size_t)snprintf(out + used, size - used, "%s%s", used ? " " : "", text);
            tc_make_move(p, m);
        }
        if (tc_position_status(p) == TC_ONGOING)
            break;
    }
done:
    free(list);
    tc_position_free(p);
    return out;
}

/* Applies an opening to a fresh position; 0 or -1 with err. */
int match_apply_opening(tc_position *p, const match_opening *o, tc_error *err)
{
    tc_position_reset(p);
    if (o->fen && tc_position_set_fen(p, o->fen, err))
        return -1;
    return tc_play_moves(p, o->moves, err);
}

void match_free_openings(match_opening *list, int n)
{
    for (int i = 0; list && i < n; i++) {
        free(list[i].fen);
        free(list[i].moves);
    }
    free(list);
}

/* An EPD line's position: its first four fields (board, side, castling,
 * en passant) with clocks 0 1; the operations after them are ignored. 1 if
 * the line has four fields. */
static int epd_fen(const char *line, char *out, size_t size)
{
    const char *s = line;
    size_t used = 0;
    for (int f = 0; f < 4; f++) {
        s += strspn(s, " \t");
        size_t k = strcspn(s, " \t;");
        if (!k || used + k + 8 >= size)
            return 0;
        memcpy(out + used, s, k);
        used += k;
        out[used++] = ' ';
        s += k;
    }
    snprintf(out + used, size - used, "0 1");
    return 1;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    if (n < k)
        return 0;
    for (size_t i = 0; i < k; i++)
        if ((s[n - k + i] | 0x20) != suffix[i])
            return 0;
    return 1;
}

/* Each game of a PGN file is an opening: its FEN tag (if any) and its
 * moves, at most max_plies of them (0: all), checked and rewritten in
 * coordinates. */
static int read_openings_pgn(const tc_variant *v, const char *path, int max_plies, match_opening **out,
                             int *count, FILE *log)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(log, "match: cannot open openings file '%s'\n", path);
        return -1;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = realloc(text, cap);
            if (!grown)
                break;
            text = grown;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    fclose(f);
    tc_pgn_game *g = calloc(1, sizeof *g);
    tc_position *p = tc_position_new(v);
    match_opening *list = NULL;
    int n = 0, status = text && g && p ? 0 : -1, games = 0;
    tc_pgn_reader r;
    tc_error err;
    if (!status)
        tc_pgn_reader_init(&r, text, len);
    while (!status) {
        int got = tc_pgn_read_game(&r, g, &err);
        if (got < 0) {
            fprintf(log, "match: %s: %s\n", path, err.msg);
            status = -1;
            break;
        }
        if (got == 0)
            break;
        games++;
        const char *fen = tc_pgn_tag(g, "FEN");
        tc_position_reset(p);
        if (fen && tc_position_set_fen(p, fen, &err)) {
            fprintf(log, "match: %s: game %d: %s\n", path, games, err.msg);
            status = -1;
        }
        int plies = max_plies > 0 && max_plies < g->nmoves ? max_plies : g->nmoves;
        size_t size = (size_t)plies * 8 + 1;
        char *moves = malloc(size);
        size_t used = 0;
        if (!moves)
            status = -1;
        else
            moves[0] = '\0';
        for (int i = 0; !status && i < plies; i++) {
            tc_move m;
            char uci[32];
            if (tc_move_parse(p, g->moves[i], &m, &err)) {
                fprintf(log, "match: %s: game %d, ply %d '%s': %s\n", path, games, i + 1, g->moves[i], err.msg);
                status = -1;
                break;
            }
            tc_move_to_uci(p, m, uci);
            used += (size_t)snprintf(moves + used, size - used, "%s%s", used ? " " : "", uci);
            tc_make_move(p, m);
        }
        /* fen points into the game's tags: copied before they are freed */
        char *fen_copy = !status && fen ? strdup(fen) : NULL;
        tc_pgn_game_free(g);
        if (status) {
            free(moves);
            break;
        }
        match_opening *grown = realloc(list, (size_t)(n + 1) * sizeof *grown);
        if (!grown) {
            free(moves);
            free(fen_copy);
            status = -1;
            break;
        }
        list = grown;
        list[n].fen = fen_copy;
        list[n].moves = moves;
        n++;
    }
    free(g);
    free(text);
    tc_position_free(p);
    if (status == 0 && n == 0) {
        fprintf(log, "match: openings file '%s' has no games\n", path);
        status = -1;
    }
    if (status) {
        match_free_openings(list, n);
        return -1;
    }
    *out = list;
    *count = n;
    return 0;
}

/* One FEN (or EPD line) or one move list per line; blank lines and '#'
 * comments skipped. */
static int read_openings_file(const tc_variant *v, const char *path, match_opening **out, int *count,
                              FILE *log)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(log, "match: cannot open openings file '%s'\n", path);
        return -1;
    }
    tc_position *p = tc_position_new(v);
    match_opening *list = NULL;
    int n = 0, cap = 0, lineno = 0, status = 0;
    char line[8192];
    while (p && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line + strspn(line, " \t");
        s[strcspn(s, "\r\n")] = '\0';
        if (!*s || *s == '#')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            match_opening *grown = realloc(list, (size_t)cap * sizeof *grown);
            if (!grown) {
                status = -1;
                break;
            }
            list = grown;
        }
        tc_error fen_err, move_err;
        char epd[800];
        tc_position_reset(p);
        if (tc_position_set_fen(p, s, &fen_err) == 0) {
            list[n].fen = strdup(s);
            list[n].moves = strdup("");
        } else if (epd_fen(s, epd, sizeof epd) && tc_position_set_fen(p, epd, &move_err) == 0) {
            list[n].fen = strdup(epd);
            list[n].moves = strdup("");
        } else if (tc_position_reset(p), tc_play_moves(p, s, &move_err) == 0) {
            list[n].fen = NULL;
            list[n].moves = strdup(s);
        } else {
            fprintf(log, "match: %s:%d: neither a FEN (%s) nor moves (%s)\n", path, lineno,
                    fen_err.msg, move_err.msg);
            status = -1;
            break;
        }
        n++;
    }
    fclose(f);
    tc_position_free(p);
    if (status == 0 && n == 0) {
        fprintf(log, "match: openings file '%s' has no openings\n", path);
        status = -1;
    }
    if (status) {
        match_free_openings(list, n);
        return -1;
    }
    *out = list;
    *count = n;
    return 0;
}

/* The score of a short search from the opening's end, for the side to
 * move; 1 if it could be had. */
static int opening_score(tc_engine *e, tc_position *p, const match_opening *o, int depth, int *score)
{
    tc_error err;
    if (match_apply_opening(p, o, &err) || tc_position_status(p) != TC_ONGOING || tc_engine_set_position(e, p))
        return 0;
    tc_engine_new_game(e);
    tc_limits l;
    tc_limits_init(&l);
    l.depth = depth;
    tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
    *score = r.score;
    return r.best != 0;
}

int match_make_openings(const match_config *cfg, const tc_variant *v, match_opening **out, int *count,
                        FILE *log)
{
    if (cfg->openings_file[0] && has_suffix(cfg->openings_file, ".pgn"))
        return read_openings_pgn(v, cfg->openings_file, cfg->plies_given ? cfg->plies : 0, out, count, log);
    if (cfg->openings_file[0])
        return read_openings_file(v, cfg->openings_file, out, count, log);
    int n = cfg->openings > 0 ? cfg->openings : 1;
    match_opening *list = calloc((size_t)n, sizeof *list);
    if (!list)
        return -1;
    uint64_t rng = cfg->seed;
    int balance = cfg->openings > 0 && cfg->balance_cp > 0;
    tc_engine *e = balance ? tc_engine_new(v, 16, 1) : NULL;
    tc_position *p = balance ? tc_position_new(v) : NULL;
    if (balance && (!e || !p)) {
        tc_engine_free(e);
        tc_position_free(p);
        free(list);
        return -1;
    }
    long tried = 0;
    for (int i = 0; i < n; i++) {
        /* unbalanced candidates are redrawn; after 200 the closest is kept */
        int best = -1;
        char *kept = NULL;
        for (int attempt = 0; attempt < (balance ? 200 : 1); attempt++) {
            match_opening cand = {NULL, cfg->openings > 0 ? random_opening(v, &rng, cfg->plies) : strdup("")};
            if (!cand.moves)
                break;
            int score = 0;
            tried++;
            if (balance && !opening_score(e, p, &cand, cfg->balance_depth, &score)) {
                free(cand.moves);
                continue;
            }
            score = score < 0 ? -score : score;
            if (best < 0 || score < best) {
                free(kept);
                kept = cand.moves;
                best = score;
            } else {
                free(cand.moves);
            }
            if (best <= cfg->balance_cp)
                break;
        }
        list[i].moves = kept;
        if (!list[i].moves) {
            match_free_openings(list, n);
            tc_engine_free(e);
            tc_position_free(p);
            return -1;
        }
    }
    if (balance)
        fprintf(log, "match: %d openings within %d cp at depth %d, from %ld random ones\n", n, cfg->balance_cp,
                cfg->balance_depth, tried);
    tc_engine_free(e);
    tc_position_free(p);
    *out = list;
    *count = n;
    return 0;
}
