/* Rated results (games/rating_store.h, server/lobby.c; issue 29): results
 * count once, in the order the games ended, whatever else is pending;
 * games that never started are aborted; a game resigned before both
 * sides moved is aborted, not rated; between one pair of accounts only
 * the first 3 results in 24 hours change ratings; two connections (as two
 * server processes) counting at once lose no update. Games and their
 * lobby rows are written through the stores, as the lobby writes them.
 * Runs on a fresh SQLite file, or on the PostgreSQL database named by
 * TG_TEST_DB (make people-pg-test runs it there too). */
#define _DEFAULT_SOURCE
#include "harness.h"
#include "lobby.h"
#include "store.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char db_url[256];
static tc_variant_def torus;
static unsigned nonce;

static int64_t wall_ms(void) { return (int64_t)time(NULL) * 1000; }

/* A user with a name unique to this run; its id in id. */
static void user(tp_db *d, const char *name, char id[TP_ID_LEN + 1])
{
    tc_error e;
    tp_user u;
    memset(&u, 0, sizeof u);
    snprintf(u.name, sizeof u.name, "%s%x", name, nonce);
    static unsigned seq;
    snprintf(u.id, sizeof u.id, "%08x%024x", nonce, ++seq);
    snprintf(u.pwhash, sizeof u.pwhash, "x");
    char key[TP_NAME_MAX + 1];
    for (size_t i = 0; i <= strlen(u.name); i++)
        key[i] = (char)(u.name[i] >= 'A' && u.name[i] <= 'Z' ? u.name[i] + 32 : u.name[i]);
    CHECK(tp_user_create(d, &u, key, &e) == 0, "user %s: %s", u.name, e.msg);
    snprintf(id, TP_ID_LEN + 1, "%s", u.id);
}

/* A rated Fischer 5+3 torus game from the lobby, made at t: `plies` moves
 * (one a second), then, when resigner >= 0, that side resigns at end_ms. */
static void game(tg_store *st, tp_db *d, const char *white, const char *black, int64_t t, int plies, int resigner,
                 int64_t end_ms, char id[TG_ID_LEN + 1])
{
    static const char *const moves[] = {"e3", "e6", "d3", "d6"};
    tc_error e;
    tg_clock ck = {TG_CLOCK_FISCHER, 300000, 3000, 0, 0};
    tg_game g;
    CHECK(tg_game_new(&g, &torus, NULL, &ck, -1, 1, t, &e) == TG_OK, "%s", e.msg);
    for (int i = 0; i < plies; i++)
        CHECK(tg_game_move(&g, i % 2 ? TC_BLACK : TC_WHITE, moves[i], t + 1000 * (i + 1), &e) == TG_OK, "%s", e.msg);
    if (resigner >= 0)
        CHECK(tg_game_resign(&g, resigner, end_ms, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_store_insert(st, &g, &e) == TG_OK, "%s", e.msg);
    tp_lobby_game lg;
    memset(&lg, 0, sizeof lg);
    snprintf(lg.game_id, sizeof lg.game_id, "%s", g.id);
    snprintf(lg.variant, sizeof lg.variant, "torus");
    snprintf(lg.white, sizeof lg.white, "%s", white);
    snprintf(lg.black, sizeof lg.black, "%s", black);
    lg.rated = 1;
    CHECK(tp_lobby_game_insert(d, &lg, t, &e) == 0, "%s", e.msg);
    snprintf(id, TG_ID_LEN + 1, "%s", g.id);
    tg_game_free(&g);
}

static tg_rating rating(tp_db *d, const char *id, int *found)
{
    tc_error e;
    tg_rating r = tg_rating_new();
    *found = tp_rating_of(d, id, "torus", &r, &e);
    return r;
}

static int games_of(tp_db *d, const char *id)
{
    tc_error e;
    tp_rating_row rows[8];
    int n = tp_ratings_of(d, id, rows, 8, &e);
    for (int i = 0; i < n; i++)
        if (!strcmp(rows[i].variant, "torus"))
            return rows[i].games;
    return 0;
}

static void count_all(srv_lobby *L)
{
    for (int i = 0; i < 8; i++)
        srv_lobby_count_results(L);
}

static void test_never_started(tp_db *d, tg_store *st, srv_lobby *L)
{
    th_case("finding 1: 34 rated games that never start block no later result");
    char a[TP_ID_LEN + 1], b[TP_ID_LEN + 1], c[TP_ID_LEN + 1], dd[TP_ID_LEN + 1], gid[TG_ID_LEN + 1];
    char idle[34][TG_ID_LEN + 1];
    user(d, "Idla", a);
    user(d, "Idlb", b);
    user(d, "Cara", c);
    user(d, "Dora", dd);
    int64_t t0 = wall_ms() - 3600 * 1000;
    for (int i = 0; i < 34; i++)
        game(st, d, a, b, t0 + i, 0, -1, 0, idle[i]);
    game(st, d, c, dd, t0 + 100000, 2, TC_WHITE, t0 + 200000, gid);
    count_all(L);
    int fc = 0, fd = 0;
    tg_rating rc = rating(d, c, &fc), rd = rating(d, dd, &fd);
    tg_rating n0 = tg_rating_new();
    CHECK(fc == 1 && fd == 1 && fabs(rd.r - tg_rating_after_game(n0, n0, 1).r) < 1e-6 &&
              fabs(rc.r - tg_rating_after_game(n0, n0, 0).r) < 1e-6,
          "Cara's loss to Dora was not counted behind 34 unstarted games (found %d %d, %.1f %.1f)", fc, fd, rc.r, rd.r);

    th_case("a Fischer game whose first move does not come in 5 minutes is aborted; its result changes nothing");
    tc_error e;
    tg_game g;
    CHECK(tg_store_load(st, idle[0], &g, &e) == TG_OK && tg_game_rebuild(&g, &e) == TG_OK, "%s", e.msg);
    CHECK(tg_game_check_flag(&g, g.created_ms + 5 * 60 * 1000 - 1) == 0 && !strcmp(g.result, "*"),
          "aborted before 5 minutes: %s", g.result);
    for (int i = 0; i < 34; i++) { /* as the server's rescan finds them */
        tg_game h;
        CHECK(tg_store_load(st, idle[i], &h, &e) == TG_OK && tg_game_rebuild(&h, &e) == TG_OK, "%s", e.msg);
        int64_t v = h.version;
        CHECK(tg_game_check_flag(&h, h.created_ms + 5 * 60 * 1000) == 1 && !strcmp(h.result, "-") &&
                  strstr(h.termination, "White did not make a first move"),
              "game %d after 5 minutes: %s %s", i, h.result, h.termination);
        CHECK(tg_store_save(st, &h, v, 0, &e) == TG_OK, "%s", e.msg);
        tg_game_free(&h);
    }
    tg_game_free(&g);
    count_all(L);
    int fa = 0;
    rating(d, a, &fa);
    CHECK(fa == 0, "an aborted game gave Idla a rating");

    th_case("finding 2: a rated game resigned before both sides moved is aborted, not rated");
    char r0[TG_ID_LEN + 1], r1[TG_ID_LEN + 1];
    game(st, d, a, b, t0 + 300000, 0, TC_WHITE, t0 + 301000, r0);
    game(st, d, a, b, t0 + 302000, 1, TC_BLACK, t0 + 303000, r1);
    CHECK(tg_store_load(st, r0, &g, &e) == TG_OK, "%s", e.msg);
    CHECK(!strcmp(g.result, "-") && !strcmp(g.termination, "White aborted the game"), "resigned at ply 0: %s %s",
          g.result, g.termination);
    tg_game_free(&g);
    CHECK(tg_store_load(st, r1, &g, &e) == TG_OK, "%s", e.msg);
    CHECK(!strcmp(g.result, "-"), "resigned at ply 1: %s", g.result);
    tg_game_free(&g);
    count_all(L);
    rating(d, a, &fa);
    CHECK(fa == 0 && games_of(d, b) == 0, "a game resigned before both moved changed a rating");
}

static void test_farming(tp_db *d, tg_store *st, srv_lobby *L)
{
    th_case("finding 2: 9 rated wins over one account in 10 s: only the first 3 change ratings, the rest say why");
    char e1[TP_ID_LEN + 1], f1[TP_ID_LEN + 1], gid[TG_ID_LEN + 1];
    user(d, "Farmer", e1);
    user(d, "Feeder", f1);
    int64_t t = wall_ms() - 60 * 1000;
    for (int i = 0; i < 9; i++) /* Feeder (Black) resigns after two plies, a game a second */
        game(st, d, e1, f1, t + 1000 * i, 2, TC_BLACK, t + 1000 * i + 900, gid);
    count_all(L);
    int found = 0;
    tg_rating got = rating(d, e1, &found), want = tg_rating_new(), loser = tg_rating_new();
    for (int i = 0; i < 3; i++) {
        tg_rating w2 = tg_rating_after_game(want, loser, 1);
        loser = tg_rating_after_game(loser, want, 0);
        want = w2;
    }
    CHECK(found == 1 && games_of(d, e1) == 3 && fabs(got.r - want.r) < 1e-6,
          "Farmer: %d games, %.1f (3 counted wins give %.1f)", games_of(d, e1), got.r, want.r);
    char *html = srv_lobby_player_games(L, NULL, e1);
    int notes = 0;
    for (const char *p = html; p && (p = strstr(p, "not counted: farming limit")); p++)
        notes++;
    CHECK(notes == 6, "the player page marks the 6 results that did not count: %d", notes);
    free(html);
}

typedef struct {
    srv_lobby *L;
    int handled;
} counter;

static void *count_thread(void *arg)
{
    counter *c = arg;
    for (int idle = 0; idle < 3;) {
        int n = srv_lobby_count_results(c->L);
        c->handled += n;
        idle = n ? 0 : idle + 1;
    }
    return NULL;
}

static void test_two_processes(tp_db *d, tg_store *st, srv_lobby *L)
{
    th_case("finding 11: two connections counting at once: one player's 30 results all count, in order");
    char g1[TP_ID_LEN + 1], opp[30][TP_ID_LEN + 1], gid[TG_ID_LEN + 1];
    user(d, "Gina", g1);
    int64_t t = wall_ms() - 120 * 1000;
    for (int i = 0; i < 30; i++) {
        char name[16];
        snprintf(name, sizeof name, "Opp%02d", i);
        user(d, name, opp[i]);
        game(st, d, g1, opp[i], t + 1000 * i, 2, TC_BLACK, t + 1000 * i + 500, gid);
    }
    tc_error e;
    tp_db *d2 = tp_db_open(db_url, &e);
    CHECK(d2 != NULL, "%s", e.msg);
    srv_lobby *L2 = d2 ? srv_lobby_start(d2, db_url, 0, &e) : NULL;
    CHECK(L2 != NULL, "%s", e.msg);
    counter c1 = {L, 0}, c2 = {L2, 0};
    pthread_t th1, th2;
    pthread_create(&th1, NULL, count_thread, &c1);
    pthread_create(&th2, NULL, count_thread, &c2);
    pthread_join(th1, NULL);
    pthread_join(th2, NULL);
    srv_lobby_stop(L2);
    tp_db_close(d2);
    tg_rating want = tg_rating_new();
    for (int i = 0; i < 30; i++)
        want = tg_rating_after_game(want, tg_rating_new(), 1);
    int found = 0;
    tg_rating got = rating(d, g1, &found);
    CHECK(found == 1 && games_of(d, g1) == 30 && fabs(got.r - want.r) < 1e-6 && fabs(got.rd - want.rd) < 1e-6,
          "Gina after 30 wins: %d games, %.3f/%.3f (in order, one at a time: %.3f/%.3f)", games_of(d, g1), got.r,
          got.rd, want.r, want.rd);
}

void suite_ratings(void)
{
    tc_error e;
    th_test_db("ratings", db_url, sizeof db_url);
    CHECK(tc_preset_find("torus", &torus, &e) == 0, "%s", e.msg);
    nonce = (unsigned)time(NULL) ^ ((unsigned)clock() << 16);
    tg_store *st = tg_store_open(db_url, &e); /* the schema */
    CHECK(st != NULL, "store: %s", e.msg);
    tp_db *d = st ? tp_db_open(db_url, &e) : NULL;
    srv_lobby *L = d ? srv_lobby_start(d, db_url, 0, &e) : NULL;
    CHECK(L != NULL, "lobby: %s", e.msg);
    if (!L) {
        tp_db_close(d);
        tg_store_close(st);
        return;
    }
    test_never_started(d, st, L);
    test_farming(d, st, L);
    test_two_processes(d, st, L);
    srv_lobby_stop(L);
    tp_db_close(d);
    tg_store_close(st);
}
