/* Hosted games: moves judged by the rules library, clocks kept by the
 * server, offers and results. See game.h. */
#define _DEFAULT_SOURCE
#include "game.h"

#include "dead_share.h"
#include "topochess_endgame.h"

#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define DAY_MS TG_DAY_MS

static tg_code fail(tc_error *err, tg_code code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return code;
}

int tg_random_bytes(void *buf, size_t n)
{
    unsigned char *p = buf;
    while (n) {
        ssize_t k = getrandom(p, n, 0);
        if (k < 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static int random_hex(char *out, size_t bytes)
{
    unsigned char raw[32];
    if (bytes > sizeof raw || tg_random_bytes(raw, bytes))
        return -1;
    for (size_t i = 0; i < bytes; i++)
        snprintf(out + 2 * i, 3, "%02x", raw[i]);
    return 0;
}

/* ---------------------------------------------------------------- life */

int64_t tg_clock_day_ms(const tg_clock *c) { return c->day_ms > 0 ? c->day_ms : DAY_MS; }

/* Whether colour has its king alone: it can never checkmate, on any board
 * (a king never gives check). */
static int bare_king(const tc_position *p, int colour)
{
    int n = tc_variant_cells(tc_position_variant(p));
    for (int c = 0; c < n; c++) {
        int piece = tc_piece_at(p, c);
        if (piece && TC_COLOUR(piece) == colour && TC_TYPE(piece) != TC_KING)
            return 0;
    }
    return 1;
}

static tg_code check_clock(const tg_clock *c, tc_error *err)
{
    switch (c->kind) {
    case TG_CLOCK_NONE:
        return TG_OK;
    case TG_CLOCK_FISCHER:
        if (c->initial_ms < 1000 || c->initial_ms > 7 * DAY_MS)
            return fail(err, TG_EBADINPUT, "clock: initial time must be 1 s to 7 days, not %lld ms",
                        (long long)c->initial_ms);
        if (c->increment_ms < 0 || c->increment_ms > 3600 * 1000)
            return fail(err, TG_EBADINPUT, "clock: increment must be 0 to 3600 s, not %lld ms",
                        (long long)c->increment_ms);
        return TG_OK;
    case TG_CLOCK_CORRESPONDENCE:
        if (c->days < 1 || c->days > 60)
            return fail(err, TG_EBADINPUT, "clock: days per move must be 1 to 60, not %d", c->days);
        if (c->day_ms < 0 || c->day_ms > DAY_MS)
            return fail(err, TG_EBADINPUT, "clock: a day lasts at most %lld ms, not %lld ms", (long long)DAY_MS,
                        (long long)c->day_ms);
        return TG_OK;
    }
    return fail(err, TG_EBADINPUT, "clock: unknown kind");
}

/* The position's status, dead positions decided by the board's solved
 * endings (docs/rules.md section 6) over one table per board shared by
 * every game of the process (dead_share.h), asked only when a position
 * could be dead: a pawnless one of at most 4 pieces. */
static tc_status game_status(tg_game *g)
{
    int pieces = 0, cells = tc_variant_cells(g->variant);
    for (int c = 0; c < cells && pieces <= 4; c++) {
        int pc = tc_piece_at(g->pos, c);
        pieces += pc ? (TC_TYPE(pc) == TC_PAWN ? 5 : 1) : 0;
    }
    return pieces <= 4 ? tg_dead_status(&g->def, g->pos) : tc_game_status(NULL, g->pos);
}

tg_code tg_game_new(tg_game *g, const tc_variant_def *def, const char *fen, const tg_clock *clock,
                    int engine_side, int engine_level, int64_t now_ms, tc_error *err)
{
    memset(g, 0, sizeof *g);
    g->engine_side = -1;
    g->draw_offer = g->takeback_offer = -1;
    tg_code rc = check_clock(clock, err);
    if (rc)
        return rc;
    if (engine_side < -1 || engine_side > 1)
        return fail(err, TG_EBADINPUT, "engine: side must be white, black or none");
    if (engine_side >= 0 && (engine_level < 1 || engine_level > 20))
        return fail(err, TG_EBADINPUT, "engine: level must be 1 to 20, not %d", engine_level);
    g->def = *def;
    g->variant = tc_variant_new(def, err);
    if (!g->variant)
        return TG_EBADINPUT;
    g->pos = tc_position_new(g->variant);
    if (!g->pos) {
        tg_game_free(g);
        return fail(err, TG_EINTERNAL, "out of memory");
    }
    if (fen && fen[0] && tc_position_set_fen(g->pos, fen, err)) {
        tg_game_free(g);
        return TG_EBADINPUT;
    }
    snprintf(g->start_fen, sizeof g->start_fen, "%s", tc_position_start_fen(g->pos));
    if (random_hex(g->id, TG_ID_LEN / 2) || random_hex(g->token[0], TG_TOKEN_LEN / 2) ||
        random_hex(g->token[1], TG_TOKEN_LEN / 2)) {
        tg_game_free(g);
        return fail(err, TG_EINTERNAL, "no random numbers from the system");
    }
    g->clock = *clock;
    g->engine_side = engine_side;
    g->engine_level = engine_side >= 0 ? engine_level : 0;
    for (int s = 0; s < 2; s++)
        g->remaining_ms[s] = clock->kind == TG_CLOCK_FISCHER ? clock->initial_ms : -1;
    g->turn_started_ms = g->created_ms = g->updated_ms = now_ms;
    strcpy(g->result, "*");
    g->version = 1;
    /* a set-up position may already be over */
    tc_status st = game_status(g);
    if (st != TC_ONGOING) {
        strcpy(g->result, st == TC_CHECKMATE ? (tc_side_to_move(g->pos) == TC_WHITE ? "0-1" : "1-0") : "1/2-1/2");
        snprintf(g->termination, sizeof g->termination, "%s", tc_status_text(st));
    }
    return TG_OK;
}

tg_code tg_game_rebuild(tg_game *g, tc_error *err)
{
    tc_position_free(g->pos);
    tc_variant_free(g->variant);
    g->pos = NULL;
    g->variant = tc_variant_new(&g->def, err);
    if (!g->variant)
        return TG_EINTERNAL;
    g->pos = tc_position_new(g->variant);
    if (!g->pos || tc_position_set_fen(g->pos, g->start_fen, err))
        return fail(err, TG_EINTERNAL, "game %s: its start FEN does not load", g->id);
    for (int i = 0; i < g->nmoves; i++) {
        tc_move m;
        tc_error e;
        if (tc_move_parse(g->pos, g->moves[i].uci, &m, &e))
            return fail(err, TG_EINTERNAL, "game %s: stored move %d '%s' does not replay: %s", g->id, i + 1,
                        g->moves[i].uci, e.msg);
        tc_make_move(g->pos, m);
    }
    return TG_OK;
}

void tg_game_free(tg_game *g)
{
    tc_position_free(g->pos);
    tc_variant_free(g->variant);
    free(g->moves);
    g->pos = NULL;
    g->variant = NULL;
    g->moves = NULL;
    g->nmoves = g->cap = 0;
}

int tg_game_side_of(const tg_game *g, const char *token)
{
    if (!token)
        return -1;
    size_t n = strnlen(token, TG_TOKEN_LEN + 1);
    int side = -1;
    for (int s = 0; s < 2; s++) {
        unsigned diff = n != TG_TOKEN_LEN;
        for (size_t i = 0; i < TG_TOKEN_LEN; i++)
            diff |= (unsigned char)g->token[s][i] ^ (unsigned char)(i < n ? token[i] : 0);
        if (diff == 0)
            side = s;
    }
    return side;
}

/* ---------------------------------------------------------------- state */

bool tg_game_active(const tg_game *g) { return strcmp(g->result, "*") == 0; }
int tg_game_turn(const tg_game *g) { return tc_side_to_move(g->pos); }

/* Fischer clocks start once each side has moved once. */
static bool clock_running(const tg_game *g)
{
    if (g->clock.kind == TG_CLOCK_FISCHER)
        return g->nmoves >= 2;
    return g->clock.kind == TG_CLOCK_CORRESPONDENCE;
}

int64_t tg_game_clock_left(const tg_game *g, int side, int64_t now_ms)
{
    int64_t base;
    if (g->clock.kind == TG_CLOCK_NONE)
        return -1;
    base = g->clock.kind == TG_CLOCK_FISCHER ? g->remaining_ms[side] : g->clock.days * tg_clock_day_ms(&g->clock);
    if (side != tg_game_turn(g) || !tg_game_active(g) || !clock_running(g))
        return base;
    int64_t left = base - (now_ms - g->turn_started_ms);
    return left > 0 ? left : 0;
}

static void finish(tg_game *g, const char *result, const char *why, int64_t now_ms)
{
    snprintf(g->result, sizeof g->result, "%s", result);
    snprintf(g->termination, sizeof g->termination, "%s", why);
    g->draw_offer = g->takeback_offer = -1;
    g->updated_ms = now_ms;
    g->version++;
}

static const char *win_for(int side) { return side == TC_WHITE ? "1-0" : "0-1"; }

int tg_game_check_flag(tg_game *g, int64_t now_ms)
{
    if (!tg_game_active(g))
        return 0;
    int turn = tg_game_turn(g);
    /* a game that never started (a side has not moved yet) is aborted, not
     * lost: a Fischer clock does not run before each side's first move, so
     * such a game would otherwise wait for ever */
    if (g->nmoves < 2 && g->clock.kind == TG_CLOCK_FISCHER && now_ms - g->turn_started_ms >= TG_ABANDON_MS) {
        finish(g, TG_RESULT_ABORTED,
               turn == TC_WHITE ? "aborted: White did not make a first move" : "aborted: Black did not make a first move",
               now_ms);
        return 1;
    }
    if (!clock_running(g))
        return 0;
    if (tg_game_clock_left(g, turn, now_ms) > 0)
        return 0;
    if (g->clock.kind == TG_CLOCK_FISCHER)
        g->remaining_ms[turn] = 0;
    if (g->nmoves < 2) /* a correspondence game whose first moves never came */
        finish(g, TG_RESULT_ABORTED,
               turn == TC_WHITE ? "aborted: White did not make a first move" : "aborted: Black did not make a first move",
               now_ms);
    else if (bare_king(g->pos, !turn)) /* a lone king never gives check, so never mates */
        finish(g, "1/2-1/2",
               turn == TC_WHITE ? "White ran out of time, Black has a bare king: draw"
                                : "Black ran out of time, White has a bare king: draw",
               now_ms);
    else if (tg_dead_can_mate(&g->def, g->pos, !turn) == 0) /* FIDE 6.9, by the board's tables */
        finish(g, "1/2-1/2",
               turn == TC_WHITE ? "White ran out of time, Black can never mate: draw"
                                : "Black ran out of time, White can never mate: draw",
               now_ms);
    else
        finish(g, win_for(!turn), turn == TC_WHITE ? "White lost on time" : "Black lost on time", now_ms);
    return 1;
}

static tg_code need_active(tg_game *g, int64_t now_ms, tc_error *err)
{
    tg_game_check_flag(g, now_ms);
    if (!tg_game_active(g))
        return fail(err, TG_ECONFLICT, "the game is over (%s, %s)", g->result, g->termination);
    return TG_OK;
}

static int colour_of_ply(const tg_game *g, int ply)
{
    int first = strstr(g->start_fen, " b ") ? TC_BLACK : TC_WHITE;
    return (first + ply) & 1;
}

tg_code tg_game_move(tg_game *g, int side, const char *text, int64_t now_ms, tc_error *err)
{
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    int turn = tg_game_turn(g);
    if (side != turn)
        return fail(err, TG_ECONFLICT, "it is not your turn: %s to move", turn == TC_WHITE ? "White" : "Black");
    if (!text || strnlen(text, 64) >= 64)
        return fail(err, TG_EBADINPUT, "move: expected SAN or coordinates of at most 63 characters");
    if (g->nmoves >= TG_MAX_PLIES)
        return fail(err, TG_ECONFLICT, "the game has reached %d plies", TG_MAX_PLIES);
    tc_move m;
    if (tc_move_parse(g->pos, text, &m, err))
        return TG_EBADINPUT;
    if (g->nmoves == g->cap) {
        int ncap = g->cap ? 2 * g->cap : 64;
        tg_move_rec *nm = realloc(g->moves, sizeof *nm * (size_t)ncap);
        if (!nm)
            return fail(err, TG_EINTERNAL, "out of memory");
        g->moves = nm;
        g->cap = ncap;
    }
    tg_move_rec *r = &g->moves[g->nmoves];
    memset(r, 0, sizeof *r);
    tc_move_to_uci(g->pos, m, r->uci);
    tc_move_to_san(g->pos, m, r->san);
    r->at_ms = now_ms;
    r->clock_ms = -1;
    if (g->clock.kind == TG_CLOCK_FISCHER) {
        if (clock_running(g))
            g->remaining_ms[side] -= now_ms - g->turn_started_ms;
        g->remaining_ms[side] += g->clock.increment_ms;
        r->clock_ms = g->remaining_ms[side];
    } else if (g->clock.kind == TG_CLOCK_CORRESPONDENCE) {
        r->clock_ms = g->clock.days * tg_clock_day_ms(&g->clock);
    }
    tc_make_move(g->pos, m);
    g->nmoves++;
    if (g->draw_offer == !side) /* playing on declines the opponent's offer */
        g->draw_offer = -1;
    g->takeback_offer = -1;
    g->turn_started_ms = now_ms;
    g->updated_ms = now_ms;
    g->version++;
    tc_status st = game_status(g);
    if (st == TC_CHECKMATE)
        finish(g, win_for(side), "checkmate", now_ms);
    else if (st != TC_ONGOING)
        finish(g, "1/2-1/2", tc_status_text(st), now_ms);
    return TG_OK;
}

tg_code tg_game_resign(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (g->nmoves < 2) /* before both sides moved there is nothing to lose: an abort */
        finish(g, TG_RESULT_ABORTED, side == TC_WHITE ? "White aborted the game" : "Black aborted the game", now_ms);
    else
        finish(g, win_for(!side), side == TC_WHITE ? "White resigned" : "Black resigned", now_ms);
    return TG_OK;
}

tg_code tg_game_abort(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (g->nmoves >= 2)
        return fail(err, TG_ECONFLICT, "a game can be aborted only in its first two plies (%d played): resign instead",
                    g->nmoves);
    finish(g, TG_RESULT_ABORTED, side == TC_WHITE ? "White aborted the game" : "Black aborted the game", now_ms);
    return TG_OK;
}

tg_code tg_game_offer_rematch(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    if (tg_game_active(g))
        return fail(err, TG_ECONFLICT, "the game is not over yet");
    if (g->draw_offer == side)
        return fail(err, TG_ECONFLICT, "your rematch offer stands already");
    g->draw_offer = side;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

tg_code tg_game_decline_rematch(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    (void)side;
    if (tg_game_active(g))
        return fail(err, TG_ECONFLICT, "the game is not over yet");
    if (g->draw_offer < 0)
        return fail(err, TG_ECONFLICT, "there is no rematch offer to decline");
    g->draw_offer = -1;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

tg_code tg_game_offer_draw(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (g->draw_offer == !side) {
        finish(g, "1/2-1/2", "draw agreed", now_ms);
        return TG_OK;
    }
    if (g->draw_offer == side)
        return fail(err, TG_ECONFLICT, "your draw offer stands already");
    g->draw_offer = side;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

tg_code tg_game_decline_draw(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    (void)side;
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (g->draw_offer < 0)
        return fail(err, TG_ECONFLICT, "there is no draw offer");
    g->draw_offer = -1;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

/* The number of plies since side's last move, inclusive; 0 if it has none. */
static int plies_back_to(const tg_game *g, int side)
{
    for (int i = g->nmoves - 1; i >= 0; i--)
        if (colour_of_ply(g, i) == side)
            return g->nmoves - i;
    return 0;
}

tg_code tg_game_request_takeback(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (!plies_back_to(g, side))
        return fail(err, TG_ECONFLICT, "you have no move to take back");
    if (g->takeback_offer == side)
        return fail(err, TG_ECONFLICT, "your takeback request stands already");
    g->takeback_offer = side;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

tg_code tg_game_accept_takeback(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (g->takeback_offer != !side)
        return fail(err, TG_ECONFLICT, "your opponent has not asked to take back");
    int asker = !side, n = plies_back_to(g, asker);
    for (int i = 0; i < n; i++)
        tc_unmake_move(g->pos);
    g->nmoves -= n;
    /* each side's clock as it stood after its last remaining move */
    if (g->clock.kind == TG_CLOCK_FISCHER)
        for (int s = 0; s < 2; s++) {
            g->remaining_ms[s] = g->clock.initial_ms;
            for (int i = g->nmoves - 1; i >= 0; i--)
                if (colour_of_ply(g, i) == s) {
                    g->remaining_ms[s] = g->moves[i].clock_ms;
                    break;
                }
        }
    g->takeback_offer = g->draw_offer = -1;
    g->turn_started_ms = now_ms;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

tg_code tg_game_decline_takeback(tg_game *g, int side, int64_t now_ms, tc_error *err)
{
    (void)side;
    tg_code rc = need_active(g, now_ms, err);
    if (rc)
        return rc;
    if (g->takeback_offer < 0)
        return fail(err, TG_ECONFLICT, "there is no takeback request");
    g->takeback_offer = -1;
    g->updated_ms = now_ms;
    g->version++;
    return TG_OK;
}

/* ---------------------------------------------------------------- PGN */

static void clock_text(int64_t ms, char *buf, size_t n)
{
    if (ms < 0)
        ms = 0;
    snprintf(buf, n, "%lld:%02lld:%02lld", (long long)(ms / 3600000), (long long)(ms / 60000 % 60),
             (long long)(ms / 1000 % 60));
}

/* The game's PGN, plain (review NULL) or with a review's notes
 * (tc_review_pgn) and an Annotator tag. */
static void game_pgn(const tg_game *g, const char *event, const tg_pgn_review *review, FILE *out)
{
    char date[16] = "????.??.??", tcontrol[48] = "-", wclock[24], bclock[24], white[48], black[48];
    time_t t = (time_t)(g->created_ms / 1000);
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(date, sizeof date, "%Y.%m.%d", &tm);
    if (g->clock.kind == TG_CLOCK_FISCHER)
        snprintf(tcontrol, sizeof tcontrol, "%lld+%lld", (long long)(g->clock.initial_ms / 1000),
                 (long long)(g->clock.increment_ms / 1000));
    else if (g->clock.kind == TG_CLOCK_CORRESPONDENCE)
        snprintf(tcontrol, sizeof tcontrol, "1/%lld", (long long)(g->clock.days * tg_clock_day_ms(&g->clock) / 1000));
    clock_text(g->remaining_ms[0], wclock, sizeof wclock);
    clock_text(g->remaining_ms[1], bclock, sizeof bclock);
    for (int s = 0; s < 2; s++)
        snprintf(s ? black : white, sizeof white, g->engine_side == s ? "topochess level %d" : "Player",
                 g->engine_level);
    /* the board's size and the start FEN in every game: a reader can
     * check (or rebuild) the board whatever the Variant tag names */
    char board[24];
    snprintf(board, sizeof board, "%dx%d", g->def.width, g->def.height);
    const char *pgn_result = strcmp(g->result, TG_RESULT_ABORTED) ? g->result : "*";
    const char *tags[] = {"SetUp", "1", "FEN", g->start_fen, "Board", board,
                          "Event",   event && *event ? event : "topochess hub game", "Site", "topochess hub",
                          "Date",    date,                 "White",       white,
                          "Black",   black,                "Result",      pgn_result,
                          "Variant", g->def.name,          "TimeControl", tcontrol,
                          "Termination", g->termination[0] ? g->termination : "unterminated",
                          "GameId",  g->id,                "WhiteClock",  wclock,
                          "BlackClock", bclock,        "Annotator",   review ? review->annotator : ""};
    int ntags = (int)(sizeof tags / sizeof tags[0]) / 2;
    if (!review)
        ntags--;
    else if (g->clock.kind != TG_CLOCK_FISCHER) /* the clocks out, the Annotator in their place */
        tags[2 * (ntags - 3)] = tags[2 * (ntags - 1)], tags[2 * (ntags - 3) + 1] = tags[2 * (ntags - 1) + 1];
    if (g->clock.kind != TG_CLOCK_FISCHER)
        ntags -= 2;
    if (review)
        tc_review_pgn(g->pos, review->moves, review->sides, tags, ntags, pgn_result, out);
    else
        tc_pgn_write(g->pos, tags, ntags, pgn_result, out);
}

void tg_game_pgn(const tg_game *g, const char *event, FILE *out) { game_pgn(g, event, NULL, out); }

void tg_game_pgn_reviewed(const tg_game *g, const char *event, const tg_pgn_review *review, FILE *out)
{
    game_pgn(g, event, review, out);
}
