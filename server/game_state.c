/* A hosted game's public state: see game_state.h. */
#include "game_state.h"

#include <time.h>

int64_t srv_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *srv_side_name(int side) { return side == TC_WHITE ? "white" : side == TC_BLACK ? "black" : NULL; }

json_t *srv_side_json(int side)
{
    const char *n = srv_side_name(side);
    return n ? json_string(n) : json_null();
}

static json_t *clock_json(const tg_clock *c)
{
    switch (c->kind) {
    case TG_CLOCK_FISCHER:
        return json_pack("{s:s,s:I,s:I}", "kind", "fischer", "initial_ms", (json_int_t)c->initial_ms, "increment_ms",
                         (json_int_t)c->increment_ms);
    case TG_CLOCK_CORRESPONDENCE:
        return json_pack("{s:s,s:i,s:I}", "kind", "correspondence", "days", c->days, "day_ms",
                         (json_int_t)tg_clock_day_ms(c));
    default:
        return json_null();
    }
}

int srv_running_side(const tg_game *g)
{
    int runs = tg_game_active(g) && (g->clock.kind == TG_CLOCK_CORRESPONDENCE ||
                                     (g->clock.kind == TG_CLOCK_FISCHER && g->nmoves >= 2));
    return runs ? tg_game_turn(g) : -1;
}

int64_t srv_flag_deadline(const tg_game *g, int64_t now)
{
    int side = srv_running_side(g);
    if (side < 0)
        return 0;
    int64_t left = tg_game_clock_left(g, side, now);
    return now + (left > 0 ? left : 0);
}

int srv_engine_to_move(const tg_game *g)
{
    return g->engine_side >= 0 && tg_game_active(g) && tg_game_turn(g) == g->engine_side;
}

json_t *srv_state_json(const tg_game *g, int64_t now)
{
    char fen[800];
    tc_position_fen(g->pos, fen, sizeof fen);
    json_t *moves = json_array();
    for (int i = 0; i < g->nmoves; i++)
        json_array_append_new(moves, json_pack("{s:s,s:s,s:I,s:I}", "san", g->moves[i].san, "uci", g->moves[i].uci,
                                               "at_ms", (json_int_t)g->moves[i].at_ms, "clock_ms",
                                               (json_int_t)g->moves[i].clock_ms));
    int active = tg_game_active(g);
    json_t *clocks = json_null();
    if (g->clock.kind != TG_CLOCK_NONE) {
        int64_t w = tg_game_clock_left(g, TC_WHITE, now), b = tg_game_clock_left(g, TC_BLACK, now);
        clocks = json_pack("{s:I,s:I}", "white", (json_int_t)(w < 0 ? 0 : w), "black", (json_int_t)(b < 0 ? 0 : b));
    }
    json_t *engine = g->engine_side < 0 ? json_null()
                                        : json_pack("{s:s,s:i}", "side", srv_side_name(g->engine_side), "level",
                                                    g->engine_level);
    json_t *st = json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:I,s:I,s:I,s:I,s:I}",
                     "id", g->id, "variant", g->def.name, "title", g->def.title, "start_fen", g->start_fen, "fen",
                     fen, "moves", moves, "turn", srv_side_name(tg_game_turn(g)), "status",
                     active ? "active" : "ended", "result", g->result, "termination", g->termination, "clock",
                     clock_json(&g->clock), "clocks", clocks, "engine", engine, "draw_offer",
                     srv_side_json(active ? g->draw_offer : -1), "takeback_offer", srv_side_json(g->takeback_offer), "running",
                     srv_side_json(srv_running_side(g)), "check", tc_in_check(g->pos) != 0, "version",
                     (json_int_t)g->version, "now_ms", (json_int_t)now, "turn_started_ms",
                     (json_int_t)g->turn_started_ms, "created_ms", (json_int_t)g->created_ms, "updated_ms",
                     (json_int_t)g->updated_ms);
    /* after the end the offer stands for a new game */
    if (st)
        json_object_set_new(st, "rematch_offer", srv_side_json(active ? -1 : g->draw_offer));
    return st;
}
