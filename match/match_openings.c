/* `topochess match` openings: the start of each pair of games, read from a
 * file (one FEN or one move list per line) or made of random legal moves,
 * and which engine has White in each game. */
#include "match.h"

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

/* One FEN or one move list per line; blank lines and '#' comments skipped. */
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
        tc_position_reset(p);
        if (tc_position_set_fen(p, s, &fen_err) == 0) {
            list[n].fen = strdup(s);
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

int match_make_openings(const match_config *cfg, const tc_variant *v, match_opening **out, int *count,
                        FILE *log)
{
    if (cfg->openings_file[0])
        return read_openings_file(v, cfg->openings_file, out, count, log);
    int n = cfg->openings > 0 ? cfg->openings : 1;
    match_opening *list = calloc((size_t)n, sizeof *list);
    if (!list)
        return -1;
    uint64_t rng = cfg->seed;
    for (int i = 0; i < n; i++) {
        list[i].moves = cfg->openings > 0 ? random_opening(v, &rng, cfg->plies) : strdup("");
        if (!list[i].moves) {
            match_free_openings(list, n);
            return -1;
        }
    }
    *out = list;
    *count = n;
    return 0;
}
