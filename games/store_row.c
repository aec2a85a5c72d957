/* Game records as rows (see store_row.h). */
#include "store_row.h"

#include "glicko2.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void put_int(tg_value *v, int64_t x)
{
    v->is_int = true;
    v->i = x;
    snprintf(v->buf, sizeof v->buf, "%" PRId64, x);
    v->s = v->buf;
}

static void put_text(tg_value *v, const char *s)
{
    v->is_int = false;
    v->s = s;
}

void tg_row_from_game(const tg_game *g, tg_value r[TG_GAME_NCOLUMNS])
{
    int k = 0;
    put_text(&r[k++], g->id);
    put_text(&r[k++], g->token[0]);
    put_text(&r[k++], g->token[1]);
    put_text(&r[k++], g->def.name);
    put_text(&r[k++], g->def.title);
    put_text(&r[k++], g->def.description);
    put_int(&r[k++], g->def.width);
    put_int(&r[k++], g->def.height);
    put_int(&r[k++], g->def.files);
    put_int(&r[k++], g->def.ranks);
    put_int(&r[k++], g->def.seam);
    put_text(&r[k++], g->def.setup);
    put_text(&r[k++], g->start_fen);
    put_int(&r[k++], g->clock.kind);
    put_int(&r[k++], g->clock.initial_ms);
    put_int(&r[k++], g->clock.increment_ms);
    put_int(&r[k++], g->clock.days);
    put_int(&r[k++], g->engine_side);
    put_int(&r[k++], g->engine_level);
    put_int(&r[k++], g->remaining_ms[0]);
    put_int(&r[k++], g->remaining_ms[1]);
    put_int(&r[k++], g->turn_started_ms);
    put_int(&r[k++], g->draw_offer);
    put_int(&r[k++], g->takeback_offer);
    put_text(&r[k++], g->result);
    put_text(&r[k++], g->termination);
    put_int(&r[k++], g->nmoves);
    put_int(&r[k++], g->version);
    put_int(&r[k++], g->created_ms);
    put_int(&r[k++], g->updated_ms);
    put_int(&r[k++], tg_clock_day_ms(&g->clock));
}

static const char *const column_names[TG_GAME_NCOLUMNS] = {
    "id", "white_token", "black_token", "variant", "title", "description", "width", "height", "files", "ranks",
    "seam", "setup", "start_fen", "clock_kind", "initial_ms", "increment_ms", "days", "engine_side",
    "engine_level", "white_ms", "black_ms", "turn_started_ms", "draw_offer", "takeback_offer", "result",
    "termination", "nmoves", "version", "created_ms", "updated_ms", "day_ms"};

static int get_int(const char *const *t, int k, int64_t lo, int64_t hi, int64_t *out, tc_error *err)
{
    char *end;
    errno = 0;
    long long x = t[k] ? strtoll(t[k], &end, 10) : 0;
    if (!t[k] || errno || *end || x < lo || x > hi) {
        snprintf(err->msg, sizeof err->msg, "stored game: column %s holds '%.40s'", column_names[k],
                 t[k] ? t[k] : "NULL");
        return -1;
    }
    *out = x;
    return 0;
}

static int get_text(const char *const *t, int k, char *dst, size_t n, tc_error *err)
{
    if (!t[k] || strlen(t[k]) >= n) {
        snprintf(err->msg, sizeof err->msg, "stored game: column %s is missing or too long", column_names[k]);
        return -1;
    }
    memcpy(dst, t[k], strlen(t[k]) + 1);
    return 0;
}

int tg_row_to_game(const char *const t[TG_GAME_NCOLUMNS], tg_game *g, tc_error *err)
{
    int64_t x[TG_GAME_NCOLUMNS] = {0};
    static const int64_t big = INT64_MAX / 4;
    static const struct {
        int col;
        int64_t lo, hi;
    } ints[] = {{6, 2, TC_MAX_FILES}, {7, 2, TC_MAX_RANKS}, {8, 0, 1},        {9, 0, 3},
                {10, 0, TC_MAX_RANKS}, {13, 0, 2},       {14, 0, big},       {15, 0, big},
                {16, 0, 1000},        {17, -1, 1},       {18, 0, 20},        {19, -1, big},
                {20, -1, big},        {21, 0, big},      {22, -1, 1},        {23, -1, 1},
                {26, 0, TG_MAX_PLIES}, {27, 0, big},     {28, 0, big},       {29, 0, big},
                {30, 1, TG_DAY_MS}};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        if (get_int(t, ints[i].col, ints[i].lo, ints[i].hi, &x[ints[i].col], err))
            return -1;
    if (get_text(t, 0, g->id, sizeof g->id, err) || get_text(t, 1, g->token[0], sizeof g->token[0], err) ||
        get_text(t, 2, g->token[1], sizeof g->token[1], err) ||
        get_text(t, 3, g->def.name, sizeof g->def.name, err) ||
        get_text(t, 4, g->def.title, sizeof g->def.title, err) ||
        get_text(t, 5, g->def.description, sizeof g->def.description, err) ||
        get_text(t, 11, g->def.setup, sizeof g->def.setup, err) ||
        get_text(t, 12, g->start_fen, sizeof g->start_fen, err) ||
        get_text(t, 24, g->result, sizeof g->result, err) ||
        get_text(t, 25, g->termination, sizeof g->termination, err))
        return -1;
    g->def.width = (int)x[6];
    g->def.height = (int)x[7];
    g->def.files = (tc_file_rule)x[8];
    g->def.ranks = (tc_rank_rule)x[9];
    g->def.seam = (int)x[10];
    g->clock.kind = (tg_clock_kind)x[13];
    g->clock.initial_ms = x[14];
    g->clock.increment_ms = x[15];
    g->clock.days = (int)x[16];
    g->engine_side = (int)x[17];
    g->engine_level = (int)x[18];
    g->remaining_ms[0] = x[19];
    g->remaining_ms[1] = x[20];
    g->turn_started_ms = x[21];
    g->draw_offer = (int)x[22];
    g->takeback_offer = (int)x[23];
    g->nmoves = (int)x[26];
    g->version = x[27];
    g->created_ms = x[28];
    g->updated_ms = x[29];
    g->clock.day_ms = x[30] == TG_DAY_MS ? 0 : x[30];
    return 0;
}

int tg_row_add_move(tg_game *g, const char *uci, const char *san, int64_t at_ms, int64_t clock_ms)
{
    if (g->nmoves == g->cap) {
        int ncap = g->cap ? 2 * g->cap : 64;
        tg_move_rec *nm = realloc(g->moves, sizeof *nm * (size_t)ncap);
        if (!nm)
            return -1;
        g->moves = nm;
        g->cap = ncap;
    }
    tg_move_rec *r = &g->moves[g->nmoves++];
    memset(r, 0, sizeof *r);
    snprintf(r->uci, sizeof r->uci, "%s", uci ? uci : "");
    snprintf(r->san, sizeof r->san, "%s", san ? san : "");
    r->at_ms = at_ms;
    r->clock_ms = clock_ms;
    return 0;
}

void tg_summary_ratings(tg_game_summary *g, double wr, double wrd, double br, double brd)
{
    double r[2] = {wr, br}, rd[2] = {wrd, brd};
    int *rating[2] = {&g->white_rating, &g->black_rating}, *prov[2] = {&g->white_provisional, &g->black_provisional};
    for (int s = 0; s < 2; s++) {
        if (!(s ? g->black : g->white)[0]) {
            *rating[s] = 0, *prov[s] = 0;
        } else if (rd[s] < 0) {
            *rating[s] = (int)TG_RATING_START, *prov[s] = 1;
        } else {
            tg_rating t = {r[s], rd[s], TG_VOL_START};
            *rating[s] = (int)(r[s] + 0.5), *prov[s] = tg_rating_provisional(t);
        }
    }
}
