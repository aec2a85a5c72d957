/* Hosted games: the game model (tokens, turns, moves judged by the rules,
 * clocks, offers, takebacks, results, PGN) and the store (records that come
 * back as they went in, stale saves refused, every acknowledged move kept
 * when the writing process is killed). The store tests run on SQLite, or on
 * the PostgreSQL database named by TG_TEST_DB (make games-pg-test). */
#define _DEFAULT_SOURCE
#include "dead_share.h"
#include "harness.h"
#include "store.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static tc_variant_def preset(const char *name)
{
    tc_variant_def d;
    tc_error e;
    memset(&d, 0, sizeof d);
    CHECK(tc_preset_find(name, &d, &e) == 0, "%s", e.msg);
    return d;
}

static const tg_clock untimed = {TG_CLOCK_NONE, 0, 0, 0, 0};

static int play(tg_game *g, const char *moves, int64_t t)
{
    char buf[512], *save = NULL;
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *m = strtok_r(buf, " ", &save); m; m = strtok_r(NULL, " ", &save)) {
        tc_error e;
        tg_code rc = tg_game_move(g, tg_game_turn(g), m, t, &e);
        if (rc) {
            CHECK(0, "move %s: %d %s", m, rc, e.msg);
            return -1;
        }
    }
    return 0;
}

static void fen_of(const tg_game *g, char *buf) { tc_position_fen(g->pos, buf, 720); }

static void test_tokens_and_turns(void)
{
    th_case("a new game has an id and two different 128-bit tokens, and only they name a side");
    tg_game g;
    tc_error e;
    tc_variant_def d = preset("mobius");
    CHECK(tg_game_new(&g, &d, NULL, &untimed, -1, 0, 1000, &e) == TG_OK, "%s", e.msg);
    CHECK(strlen(g.id) == TG_ID_LEN && strspn(g.id, "0123456789abcdef") == TG_ID_LEN, "id %s", g.id);
    CHECK(strlen(g.token[0]) == 32 && strlen(g.token[1]) == 32 && strcmp(g.token[0], g.token[1]),
          "tokens %s %s", g.token[0], g.token[1]);
    CHECK(tg_game_side_of(&g, g.token[0]) == TC_WHITE && tg_game_side_of(&g, g.token[1]) == TC_BLACK, "sides");
    char wrong[40];
    snprintf(wrong, sizeof wrong, "%s", g.token[0]);
    wrong[31] = wrong[31] == '0' ? '1' : '0';
    CHECK(tg_game_side_of(&g, wrong) == -1, "a token off by one digit");
    wrong[31] = '\0';
    CHECK(tg_game_side_of(&g, wrong) == -1, "a truncated token");
    CHECK(tg_game_side_of(&g, "") == -1 && tg_game_side_of(&g, NULL) == -1, "empty token");

    th_case("moves are judged by the rules: the Moebius sample game, out of turn, illegal");
    CHECK(play(&g, "d12 e11 c12 exc12 e12 g11", 2000) == 0, "sample game");
    char fen[720];
    fen_of(&g, fen);
    /* the FEN the rules library gives for the same moves */
    tc_variant *v = tc_variant_new(&d, &e);
    tc_position *p = tc_position_new(v);
    const char *sample[] = {"d12", "e11", "c12", "exc12", "e12", "g11"};
    for (int i = 0; i < 6; i++) {
        tc_move m;
        CHECK(tc_move_parse(p, sample[i], &m, &e) == 0, "%s", e.msg);
        tc_make_move(p, m);
    }
    char want[720];
    tc_position_fen(p, want, sizeof want);
    CHECK(!strcmp(fen, want), "fen %s, want %s", fen, want);
    tc_position_free(p);
    tc_variant_free(v);
    CHECK(g.nmoves == 6 && !strcmp(g.moves[3].san, "exc12") && !strcmp(g.moves[3].uci, "e11c12"),
          "records: %d, %s %s", g.nmoves, g.moves[3].san, g.moves[3].uci);
    CHECK(tg_game_move(&g, TC_BLACK, "a8", 3000, &e) == TG_ECONFLICT && strstr(e.msg, "not your turn"),
          "out of turn: %s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "Ke5", 3000, &e) == TG_EBADINPUT && e.msg[0], "illegal: %s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "zz9", 3000, &e) == TG_EBADINPUT, "garbage");
    CHECK(g.nmoves == 6, "a refused move changed the game");
    tg_game_free(&g);

    th_case("mate ends the game, and nothing can be played after the end");
    d = preset("chess");
    CHECK(tg_game_new(&g, &d, NULL, &untimed, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    play(&g, "f3 e5 g4 Qh4#", 10);
    CHECK(!tg_game_active(&g) && !strcmp(g.result, "0-1") && !strcmp(g.termination, "checkmate"), "result %s %s",
          g.result, g.termination);
    CHECK(tg_game_move(&g, TC_WHITE, "a3", 20, &e) == TG_ECONFLICT && strstr(e.msg, "over"), "after mate: %s",
          e.msg);
    CHECK(tg_game_resign(&g, TC_WHITE, 20, &e) == TG_ECONFLICT, "resign after mate");
    tg_game_free(&g);

    th_case("a game from a FEN; a bad FEN is refused with the reason");
    CHECK(tg_game_new(&g, &d, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", &untimed, TC_BLACK, 5, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(g.engine_side == TC_BLACK && g.engine_level == 5 && strstr(g.start_fen, "4K2R"), "start %s", g.start_fen);
    tg_game_free(&g);
    CHECK(tg_game_new(&g, &d, "4k3/8/8/8/8/8/8/4K2X w - - 0 1", &untimed, -1, 0, 0, &e) == TG_EBADINPUT &&
              strstr(e.msg, "FEN"),
          "bad FEN: %s", e.msg);
    CHECK(tg_game_new(&g, &d, NULL, &untimed, TC_WHITE, 99, 0, &e) == TG_EBADINPUT, "level 99");
}

static void test_clocks(void)
{
    tg_game g;
    tc_error e;
    tc_variant_def d = preset("klein-bottle");
    th_case("Fischer clocks start after each side's first move and gain the increment");
    tg_clock fischer = {TG_CLOCK_FISCHER, 60000, 2000, 0, 0};
    CHECK(tg_game_new(&g, &d, NULL, &fischer, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    tc_error e2;
    CHECK(tg_game_move(&g, TC_WHITE, "d12", 5000, &e2) == TG_OK, "%s", e2.msg);  /* no clock yet */
    CHECK(tg_game_move(&g, TC_BLACK, "e11", 9000, &e2) == TG_OK, "%s", e2.msg);  /* no clock yet */
    CHECK(g.remaining_ms[0] == 62000 && g.remaining_ms[1] == 62000, "after the first moves: %lld %lld",
          (long long)g.remaining_ms[0], (long long)g.remaining_ms[1]);
    /* White thinks 3 s: 62 - 3 + 2 = 61 s */
    CHECK(tg_game_move(&g, TC_WHITE, "c12", 12000, &e2) == TG_OK, "%s", e2.msg);
    CHECK(g.remaining_ms[0] == 61000, "white %lld", (long long)g.remaining_ms[0]);
    CHECK(tg_game_clock_left(&g, TC_BLACK, 20000) == 54000, "black's clock runs: %lld",
          (long long)tg_game_clock_left(&g, TC_BLACK, 20000));
    CHECK(tg_game_clock_left(&g, TC_WHITE, 20000) == 61000, "white's clock stands");
    CHECK(tg_game_check_flag(&g, 12000 + 61999) == 0 && tg_game_active(&g), "flag too early");
    CHECK(tg_game_move(&g, TC_BLACK, "exc12", 12000 + 62001, &e2) == TG_ECONFLICT && strstr(e2.msg, "lost on time"),
          "a move after the flag fell: %s", e2.msg);
    CHECK(!strcmp(g.result, "1-0") && g.remaining_ms[1] == 0, "flag: %s", g.result);
    tg_game_free(&g);

    th_case("correspondence: a move is due within its days");
    tg_clock corr = {TG_CLOCK_CORRESPONDENCE, 0, 0, 2, 0};
    CHECK(tg_game_new(&g, &d, NULL, &corr, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "d12", 86400000LL, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_move(&g, TC_BLACK, "e11", 86400000LL * 2, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_check_flag(&g, 86400000LL * 4 - 1) == 0, "white has two days");
    CHECK(tg_game_check_flag(&g, 86400000LL * 4 + 1) == 1 && !strcmp(g.result, "0-1"), "overdue: %s", g.result);
    tg_game_free(&g);

    th_case("correspondence: a shortened day (serve --day-ms) keeps its length; a side that can never mate (a bare king, a knight against a queen on the torus) cannot win on time");
    tg_clock quick = {TG_CLOCK_CORRESPONDENCE, 0, 0, 3, 1000};
    tc_variant_def chess = preset("chess");
    CHECK(tg_game_new(&g, &chess, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", &quick, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "Qd2", 100, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_move(&g, TC_BLACK, "Ke7", 200, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_clock_left(&g, TC_WHITE, 1200) == 2000, "three days of 1 s: %lld left",
          (long long)tg_game_clock_left(&g, TC_WHITE, 1200));
    CHECK(tg_game_check_flag(&g, 200 + 3000 - 1) == 0, "White has three short days");
    CHECK(tg_game_check_flag(&g, 200 + 3000) == 1 && !strcmp(g.result, "1/2-1/2") &&
              !strcmp(g.termination, "White ran out of time, Black has a bare king: draw"),
          "White's flag against a bare king: %s %s", g.result, g.termination);
    tg_game_free(&g);
    CHECK(tg_game_new(&g, &chess, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", &quick, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "Qd2", 100, &e2) == TG_OK && tg_game_move(&g, TC_BLACK, "Kf7", 200, &e2) == TG_OK &&
              tg_game_move(&g, TC_WHITE, "Qd3", 300, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_check_flag(&g, 300 + 3000) == 1 && !strcmp(g.result, "1-0") && !strcmp(g.termination, "Black lost on time"),
          "Black's flag against a queen: %s %s", g.result, g.termination);
    tg_game_free(&g);
    /* on the torus a knight can never mate a king and queen (the one-sided
     * help-mate pass; a live position: the queen can mate) */
    tc_variant_def torus = preset("torus");
    const char *kqkn = "1Q6/8/8/8/1n6/8/8/8/8/K7/8/3k4/8/8 w - - 0 1";
    CHECK(tg_game_new(&g, &torus, kqkn, &quick, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "a5a6", 100, &e2) == TG_OK && tg_game_move(&g, TC_BLACK, "b10a12", 200, &e2) == TG_OK,
          "%s", e2.msg);
    CHECK(tg_game_check_flag(&g, 200 + 3000) == 1 && !strcmp(g.result, "1/2-1/2") &&
              !strcmp(g.termination, "White ran out of time, Black can never mate: draw"),
          "White's flag against a knight on the torus: %s %s", g.result, g.termination);
    tg_game_free(&g);
    CHECK(tg_game_new(&g, &torus, kqkn, &quick, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "a5a6", 100, &e2) == TG_OK && tg_game_move(&g, TC_BLACK, "b10a12", 200, &e2) == TG_OK &&
              tg_game_move(&g, TC_WHITE, "a6a5", 300, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_check_flag(&g, 300 + 3000) == 1 && !strcmp(g.result, "1-0") && !strcmp(g.termination, "Black lost on time"),
          "Black's flag against the queen on the torus: %s %s", g.result, g.termination);
    tg_game_free(&g);
    tg_clock long_day = {TG_CLOCK_CORRESPONDENCE, 0, 0, 3, 86400001};
    CHECK(tg_game_new(&g, &chess, NULL, &long_day, -1, 0, 0, &e) == TG_EBADINPUT && strstr(e.msg, "a day lasts"),
          "a day over 24 h: %s", e.msg);

    th_case("a game that never started is aborted, not lost: a first move overdue, or none in 5 minutes");
    CHECK(tg_game_new(&g, &d, NULL, &corr, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "d12", 86400000LL, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_check_flag(&g, 86400000LL * 3 + 1) == 1 && !strcmp(g.result, "-") &&
              !strcmp(g.termination, "aborted: Black did not make a first move"),
          "Black's first move overdue: %s %s", g.result, g.termination);
    tg_game_free(&g);
    CHECK(tg_game_new(&g, &d, NULL, &fischer, -1, 0, 1000, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_check_flag(&g, 1000 + TG_ABANDON_MS - 1) == 0, "aborted before 5 minutes");
    CHECK(tg_game_move(&g, TC_WHITE, "d12", 1000 + TG_ABANDON_MS - 1, &e2) == TG_OK, "%s", e2.msg);
    CHECK(tg_game_check_flag(&g, 1000 + 2 * TG_ABANDON_MS - 2) == 0, "Black's 5 minutes run from White's move");
    CHECK(tg_game_check_flag(&g, 1000 + 2 * TG_ABANDON_MS - 1) == 1 && !strcmp(g.result, "-") &&
              !strcmp(g.termination, "aborted: Black did not make a first move"),
          "Black never moved: %s %s", g.result, g.termination);
    tg_game_free(&g);
    CHECK(tg_game_new(&g, &d, NULL, &fischer, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, TC_WHITE, "d12", 1000, &e2) == TG_OK && tg_game_resign(&g, TC_BLACK, 2000, &e2) == TG_OK &&
              !strcmp(g.result, "-") && !strcmp(g.termination, "Black aborted the game"),
          "a resignation before both moved aborts: %s %s", g.result, g.termination);
    tg_game_free(&g);

    th_case("bad clocks are refused");
    tg_clock bad = {TG_CLOCK_FISCHER, 10, 0, 0, 0};
    CHECK(tg_game_new(&g, &d, NULL, &bad, -1, 0, 0, &e) == TG_EBADINPUT && strstr(e.msg, "initial"), "%s", e.msg);
    tg_clock bad2 = {TG_CLOCK_CORRESPONDENCE, 0, 0, 0, 0};
    CHECK(tg_game_new(&g, &d, NULL, &bad2, -1, 0, 0, &e) == TG_EBADINPUT && strstr(e.msg, "days"), "%s", e.msg);
}

static void test_offers(void)
{
    tg_game g;
    tc_error e;
    tc_variant_def d = preset("mobius");
    th_case("draw offers: playing on declines, the opponent's offer accepted by offering back");
    CHECK(tg_game_new(&g, &d, NULL, &untimed, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    play(&g, "d12 e11", 1);
    CHECK(tg_game_offer_draw(&g, TC_WHITE, 2, &e) == TG_OK && g.draw_offer == TC_WHITE, "offer");
    CHECK(tg_game_offer_draw(&g, TC_WHITE, 2, &e) == TG_ECONFLICT, "offer twice");
    play(&g, "c12 exc12", 3); /* White's offer stands through its own move; Black plays on */
    CHECK(g.draw_offer == -1, "playing on must decline the offer");
    CHECK(tg_game_decline_draw(&g, TC_BLACK, 4, &e) == TG_ECONFLICT, "nothing to decline");
    CHECK(tg_game_offer_draw(&g, TC_BLACK, 4, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_offer_draw(&g, TC_WHITE, 5, &e) == TG_OK && !strcmp(g.result, "1/2-1/2") &&
              !strcmp(g.termination, "draw agreed"),
          "agreed: %s %s", g.result, g.termination);
    tg_game_free(&g);

    th_case("takebacks: asked, accepted by the opponent, back to the asker's turn; clocks restored");
    tg_clock fischer = {TG_CLOCK_FISCHER, 60000, 0, 0, 0};
    CHECK(tg_game_new(&g, &d, NULL, &fischer, -1, 0, 0, &e) == TG_OK, "%s", e.msg);
    play(&g, "d12 e11", 0);
    CHECK(tg_game_move(&g, TC_WHITE, "c12", 10000, &e) == TG_OK, "%s", e.msg); /* white 50 s */
    CHECK(tg_game_move(&g, TC_BLACK, "exc12", 25000, &e) == TG_OK, "%s", e.msg); /* black 45 s */
    CHECK(g.remaining_ms[0] == 50000 && g.remaining_ms[1] == 45000, "clocks %lld %lld",
          (long long)g.remaining_ms[0], (long long)g.remaining_ms[1]);
    CHECK(tg_game_accept_takeback(&g, TC_BLACK, 26000, &e) == TG_ECONFLICT, "accept with no request");
    CHECK(tg_game_request_takeback(&g, TC_WHITE, 26000, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_accept_takeback(&g, TC_WHITE, 26000, &e) == TG_ECONFLICT, "the asker cannot accept");
    CHECK(tg_game_accept_takeback(&g, TC_BLACK, 27000, &e) == TG_OK, "%s", e.msg);
    CHECK(g.nmoves == 2 && tg_game_turn(&g) == TC_WHITE, "plies %d", g.nmoves);
    CHECK(g.remaining_ms[0] == 60000 && g.remaining_ms[1] == 60000, "clocks restored: %lld %lld",
          (long long)g.remaining_ms[0], (long long)g.remaining_ms[1]);
    CHECK(tg_game_request_takeback(&g, TC_BLACK, 28000, &e) == TG_OK &&
              tg_game_decline_takeback(&g, TC_WHITE, 28000, &e) == TG_OK && g.takeback_offer == -1,
          "decline");
    th_case("resignation, and the PGN of a hosted game");
    CHECK(tg_game_resign(&g, TC_BLACK, 30000, &e) == TG_OK && !strcmp(g.result, "1-0"), "resign");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tg_game_pgn(&g, NULL, f);
    fclose(f);
    CHECK(buf && strstr(buf, "[Variant \"mobius\"]") && strstr(buf, "[Result \"1-0\"]") &&
              strstr(buf, "[TimeControl \"60+0\"]") && strstr(buf, "[Termination \"Black resigned\"]") &&
              strstr(buf, "1. d12 e11 1-0"),
          "pgn:\n%s", buf ? buf : "");
    free(buf);
    tg_game_free(&g);
}

/* ---------------------------------------------------------------- store */

static char db_path[256];

static tg_store *open_store(tc_error *e)
{
    return tg_store_open(th_test_db("games", db_path, sizeof db_path), e);
}

static void test_store(void)
{
    tc_error e;
    th_case("the store opens at the newest schema");
    tg_store *s = open_store(&e);
    CHECK(s != NULL, "%s", e.msg);
    if (!s)
        return;
    CHECK(tg_store_schema_version(s) == tg_migrations[tg_nmigrations - 1].version, "schema %d",
          tg_store_schema_version(s));
    tg_store *again = open_store(&e); /* migrations apply once */
    CHECK(again && tg_store_schema_version(again) == tg_store_schema_version(s), "reopen: %s", e.msg);

    th_case("%s: a game comes back as it went in, moves and clocks included", tg_store_kind(s));
    tg_game g, h;
    tc_variant_def d = preset("klein-bottle");
    tg_clock fischer = {TG_CLOCK_FISCHER, 300000, 3000, 0, 0};
    CHECK(tg_game_new(&g, &d, NULL, &fischer, TC_BLACK, 7, 1000, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_store_insert(s, &g, &e) == TG_OK, "%s", e.msg);
    int stored = 0;
    const char *moves[] = {"d12", "e11", "c12", "exc12"};
    for (int i = 0; i < 4; i++) {
        int64_t version = g.version;
        CHECK(tg_game_move(&g, tg_game_turn(&g), moves[i], 2000 + 1000 * i, &e) == TG_OK, "%s", e.msg);
        CHECK(tg_store_save(s, &g, version, stored, &e) == TG_OK, "%s", e.msg);
        stored = g.nmoves;
    }
    CHECK(tg_store_load(again, g.id, &h, &e) == TG_OK && tg_game_rebuild(&h, &e) == TG_OK, "%s", e.msg);
    char f1[720], f2[720];
    fen_of(&g, f1);
    if (h.pos) {
        fen_of(&h, f2);
        CHECK(!strcmp(f1, f2), "fen %s vs %s", f1, f2);
    }
    CHECK(h.nmoves == 4 && !strcmp(h.moves[3].san, "exc12") && h.moves[3].at_ms == 5000 &&
              h.moves[3].clock_ms == g.moves[3].clock_ms,
          "moves");
    CHECK(!strcmp(h.token[0], g.token[0]) && !strcmp(h.token[1], g.token[1]) && h.version == g.version &&
              h.remaining_ms[0] == g.remaining_ms[0] && h.remaining_ms[1] == g.remaining_ms[1] &&
              h.turn_started_ms == g.turn_started_ms && h.engine_side == TC_BLACK && h.engine_level == 7 &&
              h.clock.increment_ms == 3000 && !strcmp(h.def.name, "klein-bottle"),
          "record fields differ");

    th_case("%s: a stale save is refused, so two writers cannot both win", tg_store_kind(s));
    int64_t v0 = h.version;
    CHECK(tg_game_move(&h, tg_game_turn(&h), "e12", 9000, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_store_save(again, &h, v0, 4, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_move(&g, tg_game_turn(&g), "a3", 9500, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_store_save(s, &g, v0, 4, &e) == TG_ECONFLICT, "the second writer must be refused: %s", e.msg);

    th_case("%s: a takeback deletes the taken-back moves", tg_store_kind(s));
    tg_game_free(&g);
    CHECK(tg_store_load(s, h.id, &g, &e) == TG_OK && tg_game_rebuild(&g, &e) == TG_OK && g.nmoves == 5, "%s", e.msg);
    int64_t v1 = g.version;
    CHECK(tg_game_request_takeback(&g, TC_WHITE, 10000, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_store_save(s, &g, v1, 5, &e) == TG_OK, "%s", e.msg);
    v1 = g.version;
    CHECK(tg_game_accept_takeback(&g, TC_BLACK, 11000, &e) == TG_OK && g.nmoves == 4, "%s", e.msg);
    CHECK(tg_store_save(s, &g, v1, 5, &e) == TG_OK, "%s", e.msg);
    tg_game_free(&h);
    CHECK(tg_store_load(again, g.id, &h, &e) == TG_OK && h.nmoves == 4 && tg_game_rebuild(&h, &e) == TG_OK,
          "after takeback: %d moves, %s", h.nmoves, e.msg);

    th_case("%s: lists by variant, and unknown or malformed ids are not found", tg_store_kind(s));
    tg_game_summary list[8];
    int n = tg_store_list(s, "klein-bottle", 8, list, &e);
    bool seen = false;
    for (int i = 0; i < n; i++)
        seen |= !strcmp(list[i].id, g.id) && list[i].nmoves == 4 && !strcmp(list[i].variant, "klein-bottle");
    CHECK(n >= 1 && seen, "list: %d %s", n, e.msg);
    CHECK(tg_store_list(s, "chess-960", 8, list, &e) == 0, "another variant");
    tg_game x;
    CHECK(tg_store_load(s, "0123456789abcdef", &x, &e) == TG_ENOTFOUND, "unknown id");
    tg_game_free(&x);
    CHECK(tg_store_load(s, "../../etc/passwd", &x, &e) == TG_ENOTFOUND, "malformed id");
    CHECK(tg_store_load(s, "'; DROP TABLE games; --", &x, &e) == TG_ENOTFOUND, "an injection attempt");
    tg_game_free(&x);
    tg_game_free(&g);
    tg_game_free(&h);
    tg_store_close(again);
    tg_store_close(s);
}

/* A child process plays a game, saving each move and reporting each
 * acknowledgement on a pipe; it is killed with SIGKILL mid-game. The game
 * read back holds every acknowledged move. */
static void test_kill(void)
{
    th_case("killing the writing process with SIGKILL loses no acknowledged move");
    tc_error e;
    tg_store *s = open_store(&e);
    CHECK(s != NULL, "%s", e.msg);
    if (!s)
        return;
    tg_game g;
    tc_variant_def d = preset("torus");
    CHECK(tg_game_new(&g, &d, NULL, &untimed, -1, 0, 0, &e) == TG_OK && tg_store_insert(s, &g, &e) == TG_OK, "%s",
          e.msg);
    char id[TG_ID_LEN + 1];
    snprintf(id, sizeof id, "%s", g.id);
    tg_game_free(&g);
    tg_store_close(s);
    int fd[2];
    CHECK(pipe(fd) == 0, "pipe");
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        tc_error ce;
        tg_store *cs = open_store(&ce);
        tg_game cg;
        if (!cs || tg_store_load(cs, id, &cg, &ce) || tg_game_rebuild(&cg, &ce))
            _exit(2);
        /* legal moves picked by a fixed rule until killed: each saved, then acked */
        static tc_movelist list;
        for (int i = 0;; i++) {
            int64_t v = cg.version;
            int stored = cg.nmoves;
            char uci[16];
            int n = tc_generate_legal(cg.pos, &list);
            if (n <= 0)
                _exit(5);
            tc_move_to_uci(cg.pos, list.moves[(i * 7919 + 13) % n], uci);
            if (tg_game_move(&cg, tg_game_turn(&cg), uci, i, &ce) ||
                tg_store_save(cs, &cg, v, stored, &ce))
                _exit(3);
            int k = cg.nmoves;
            if (write(fd[1], &k, sizeof k) != sizeof k)
                _exit(4);
        }
    }
    close(fd[1]);
    int acked = 0, k;
    while (acked < 40 && read(fd[0], &k, sizeof k) == sizeof k)
        acked = k;
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    close(fd[0]);
    CHECK(WIFSIGNALED(status) && acked >= 40, "the child did not run as planned (acked %d)", acked);
    s = open_store(&e);
    CHECK(s && tg_store_load(s, id, &g, &e) == TG_OK && tg_game_rebuild(&g, &e) == TG_OK, "%s", e.msg);
    CHECK(g.nmoves >= acked, "stored %d moves, %d were acknowledged", g.nmoves, acked);
    tg_game_free(&g);
    tg_store_close(s);
}

typedef struct {
    char id[TG_ID_LEN + 1];
    int64_t version;
    int count;
} heard;

static void on_change(const char *id, int64_t version, void *ctx)
{
    heard *h = ctx;
    snprintf(h->id, sizeof h->id, "%s", id);
    h->version = version;
    __atomic_add_fetch(&h->count, 1, __ATOMIC_SEQ_CST);
}

static void test_listen(void)
{
    const char *url = getenv("TG_TEST_DB");
    if (!url || !url[0])
        return;
    th_case("postgresql: a save in one connection is heard by a listener on another");
    tc_error e;
    heard h = {"", 0, 0};
    tg_listener *l = tg_store_listen(url, on_change, &h, &e);
    tg_store *s = tg_store_open(url, &e);
    CHECK(l && s, "%s", e.msg);
    if (l && s) {
        tg_game g;
        tc_variant_def d = preset("mobius");
        CHECK(tg_game_new(&g, &d, NULL, &untimed, -1, 0, 0, &e) == TG_OK && tg_store_insert(s, &g, &e) == TG_OK, "%s",
              e.msg);
        int64_t v = g.version;
        CHECK(tg_game_move(&g, TC_WHITE, "d12", 1, &e) == TG_OK && tg_store_save(s, &g, v, 0, &e) == TG_OK, "%s",
              e.msg);
        for (int i = 0; i < 100 && !__atomic_load_n(&h.count, __ATOMIC_SEQ_CST); i++)
            usleep(50 * 1000); /* up to 5 s */
        CHECK(h.count >= 1 && !strcmp(h.id, g.id) && h.version == g.version, "heard %d: %s %lld", h.count, h.id,
              (long long)h.version);
        tg_game_free(&g);
    }
    tg_listener_stop(l);
    tg_store_close(s);
}

/* Whether id is among the store's pending games at now (paging max at a
 * time, as the server's rescan does). */
static int pending_has(tg_store *s, const char *id, int64_t now, int max)
{
    tg_game_summary list[8];
    char after[TG_ID_LEN + 1] = "";
    tc_error e;
    for (;;) {
        int n = tg_store_pending(s, after, now, max, list, &e);
        CHECK(n >= 0, "pending: %s", e.msg);
        for (int i = 0; i < n; i++) {
            CHECK(strcmp(list[i].id, after) > 0, "pending: ids in order");
            if (!strcmp(list[i].id, id))
                return 1;
            memcpy(after, list[i].id, sizeof after);
        }
        if (n < max)
            return 0;
    }
}

static void test_pending(void)
{
    tc_error e;
    tg_store *s = open_store(&e);
    CHECK(s != NULL, "%s", e.msg);
    if (!s)
        return;
    th_case("%s: the games waiting for the server, however old, and only those", tg_store_kind(s));
    tc_variant_def d = preset("chess");
    tg_game wait_w, wait_b, human, timed, over;
    CHECK(tg_game_new(&wait_w, &d, NULL, &untimed, TC_WHITE, 3, 5, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_new(&wait_b, &d, "4k3/8/8/8/8/8/8/4K2R b K - 0 1", &untimed, TC_BLACK, 3, 5, &e) == TG_OK, "%s",
          e.msg);
    CHECK(tg_game_new(&human, &d, NULL, &untimed, TC_BLACK, 3, 5, &e) == TG_OK, "%s", e.msg);
    tg_clock minute = {TG_CLOCK_FISCHER, 60000, 0, 0, 0};
    CHECK(tg_game_new(&timed, &d, NULL, &minute, -1, 0, 1000, &e) == TG_OK, "%s", e.msg);
    play(&timed, "e4 e5", 2000); /* Black moved at 2 s: White's clock runs, a minute left */
    CHECK(tg_game_new(&over, &d, NULL, &untimed, TC_WHITE, 3, 5, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_resign(&over, TC_BLACK, 6, &e) == TG_OK, "%s", e.msg);
    tg_game *all[] = {&wait_w, &wait_b, &human, &timed, &over};
    for (int i = 0; i < 5; i++)
        CHECK(tg_store_insert(s, all[i], &e) == TG_OK, "%s", e.msg);
    for (int max = 1; max <= 8; max += 7) {
        CHECK(pending_has(s, wait_w.id, 10000, max), "engine (white) to move: pending (pages of %d)", max);
        CHECK(pending_has(s, wait_b.id, 10000, max), "engine (black) to move from a FEN: pending");
        CHECK(!pending_has(s, human.id, 10000, max), "the person to move: not pending");
        CHECK(!pending_has(s, over.id, 10000, max), "a game over: not pending");
        CHECK(!pending_has(s, timed.id, 30000, max), "a clock with time left: not pending");
        CHECK(pending_has(s, timed.id, 62001, max), "a clock whose flag fell: pending");
    }
    for (int i = 0; i < 5; i++)
        tg_game_free(all[i]);
    tg_store_close(s);
}

/* docs/rules.md section 6: on the torus K+Q v K cannot mate at all (its tables
 * hold no checkmate), so taking the last knight ends the game. */
static void test_dead_position(void)
{
    th_case("a capture into a dead position ends the game in a draw (torus K+Q v K)");
    tg_game g;
    tc_error e;
    tc_variant_def d = preset("torus");
    CHECK(tg_game_new(&g, &d, "8/8/8/8/8/8/8/3k4/8/2n5/8/2Q5/8/4K3 w - - 0 1", &untimed, -1, 0, 1000, &e) == TG_OK,
          "%s", e.msg);
    CHECK(tg_game_active(&g), "K+Q v K+N goes on");
    CHECK(tg_game_move(&g, TC_WHITE, "Qxc5", 2000, &e) == TG_OK, "%s", e.msg);
    CHECK(!strcmp(g.result, "1/2-1/2") && !strcmp(g.termination, "draw: dead position"), "result %s (%s)",
          g.result, g.termination);
    tg_game_free(&g);
}

/* dead_share.h: every game of a board shares one verdict table, made once
 * per process; a game rebuilt (the store's cache reloading it) too. */
static void test_dead_shared(void)
{
    th_case("two games on one board share one dead-position table");
    tg_game a, b;
    tc_error e;
    tc_variant_def d = preset("torus");
    const char *fen = "8/8/8/8/8/8/8/3k4/8/2n5/8/2Q5/8/4K3 w - - 0 1";
    CHECK(tg_game_new(&a, &d, fen, &untimed, -1, 0, 1000, &e) == TG_OK, "%s", e.msg);
    const void *t = tg_dead_shared_table(&d);
    CHECK(t != NULL, "the torus has a shared table after a 4-piece game");
    CHECK(tg_game_new(&b, &d, fen, &untimed, -1, 0, 1000, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_dead_shared_table(&d) == t, "the second game has the same table");
    CHECK(tg_game_rebuild(&b, &e) == TG_OK && tg_dead_shared_table(&d) == t, "a rebuilt game too");
    CHECK(tg_game_move(&b, TC_WHITE, "Qxc5", 2000, &e) == TG_OK, "%s", e.msg);
    CHECK(!strcmp(b.result, "1/2-1/2") && !strcmp(b.termination, "draw: dead position"), "result %s (%s)",
          b.result, b.termination);
    tc_variant_def other = preset("chess");
    CHECK(tg_dead_shared_table(&other) != t, "another board: not the torus's table");
    tg_game_free(&a);
    tg_game_free(&b);
}

void suite_games(void)
{
    test_tokens_and_turns();
    tg_dead_set_wait_ms(60000); /* the tests wait for the marks; the server 250 ms */
    test_dead_position();
    test_dead_shared();
    test_clocks();
    test_offers();
    test_store();
    test_kill();
    test_pending();
    test_listen();
    if (db_path[0]) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "rm -rf '%.*s'", (int)(strrchr(db_path, '/') - db_path), db_path);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", db_path);
    }
}
