/* The analysis queue's rows (games/analysis_store.h) from two connections,
 * as two server processes see them: the order of fairness (round-robin
 * between requesters, then the oldest), the per-requester and total
 * limits, one holder of a job at a time by its lease (renewed by the
 * holder, taken by another once it lapsed, the old holder then refused
 * both progress and result), a job given back, and one whose workers died
 * three times given up and queued again. On the suite's database
 * (SQLite, or TG_TEST_DB: make games-pg-test). */
#include "analysis_store.h"
#include "harness.h"
#include "store.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#define NGAMES 6

static char url[256];

static int order(tp_db *d, int64_t now, char (*ids)[TG_ID_LEN + 1], int max)
{
    tc_error e;
    int n = ta_candidates(d, now, ids, max, &e);
    CHECK(n >= 0, "candidates: %s", e.msg);
    return n;
}

void suite_analysis(void)
{
    tc_error e;
    th_test_db("analysis", url, sizeof url);
    tg_store *st = tg_store_open(url, &e); /* the schema */
    CHECK(st != NULL, "store: %s", e.msg);
    tp_db *a = st ? tp_db_open(url, &e) : NULL, *b = a ? tp_db_open(url, &e) : NULL;
    CHECK(a && b, "db: %s", e.msg);
    if (!a || !b) {
        tp_db_close(a);
        tg_store_close(st);
        return;
    }
    /* the suite's database may keep an earlier run's jobs */
    tp_db_exec(a, "DELETE FROM analysis", NULL, 0, NULL, NULL, &e);
    tc_variant_def def;
    CHECK(tc_preset_find("chess", &def, &e) == 0, "%s", e.msg);
    tg_clock untimed = {0};
    char g[NGAMES][TG_ID_LEN + 1];
    for (int i = 0; i < NGAMES; i++) {
        tg_game x;
        CHECK(tg_game_new(&x, &def, NULL, &untimed, -1, 0, 1000, &e) == TG_OK, "%s", e.msg);
        CHECK(tg_store_insert(st, &x, &e) == TG_OK, "insert: %s", e.msg);
        memcpy(g[i], x.id, sizeof g[i]);
        tg_game_free(&x);
    }
    unsigned nonce = (unsigned)time(NULL) ^ ((unsigned)clock() << 12);
    char ann[32], bob[32], cy[32];
    snprintf(ann, sizeof ann, "user:ann%x", nonce);
    snprintf(bob, sizeof bob, "user:bob%x", nonce);
    snprintf(cy, sizeof cy, "addr:cy%x", nonce);
    int64_t t = (int64_t)4e12;

    th_case("queue: three of Ann's, her fourth refused, Bob's first; asking twice changes nothing");
    for (int i = 0; i < 3; i++)
        CHECK(ta_queue(a, g[i], ann, 5000, t + i, 3, 100, &e) == 1, "Ann's game %d: %s", i, e.msg);
    CHECK(ta_queue(b, g[3], ann, 5000, t + 3, 3, 100, &e) == TA_EUSER, "Ann's fourth");
    CHECK(ta_queue(b, g[3], bob, 5000, t + 4, 3, 100, &e) == 1, "Bob's first: %s", e.msg);
    CHECK(ta_queue(b, g[0], bob, 5000, t + 5, 3, 100, &e) == 0, "g0 asked again");
    ta_job j;
    CHECK(ta_get(a, g[0], &j, &e) == 1 && j.state == TA_QUEUED && !strcmp(j.requester, ann) && j.nodes == 5000,
          "g0 as queued by Ann");
    ta_job_free(&j);
    CHECK(ta_get(a, g[5], &j, &e) == 0, "a game never asked has no row");
    CHECK(ta_waiting(a, &e) == 4, "four waiting");

    th_case("fairness: Ann's first, Bob's first, then Ann's second and third");
    char ids[8][TG_ID_LEN + 1];
    int n = order(b, t + 10, ids, 8);
    CHECK(n == 4 && !strcmp(ids[0], g[0]) && !strcmp(ids[1], g[3]) && !strcmp(ids[2], g[1]) && !strcmp(ids[3], g[2]),
          "the order (%d)", n);
    CHECK(ta_position(a, g[3], t + 10, &e) == 2 && ta_position(a, g[2], t + 10, &e) == 4, "positions");

    th_case("the lease: one holder; renewed; taken once lapsed; the old holder refused");
    int ca = ta_claim(a, g[0], "wa", t + 10, 10000, &e), cb = ta_claim(b, g[0], "wb", t + 10, 10000, &e);
    CHECK(ca == 1 && cb == 0, "both or neither claimed it: %d %d", ca, cb);
    CHECK(ta_position(a, g[0], t + 20, &e) == 0, "a running job has no place in the queue");
    /* Ann's running job still counts: Bob's first is next, before her second */
    n = order(b, t + 20, ids, 8);
    CHECK(n == 3 && !strcmp(ids[0], g[3]) && !strcmp(ids[1], g[1]), "the order with g0 running (%d)", n);
    CHECK(ta_claim(b, g[0], "wb", t + 5000, 10000, &e) == 0, "taken before it lapsed");
    CHECK(ta_progress(a, g[0], "wa", 3, 10, t + 6000, 10000, &e) == 1, "the holder renews it");
    CHECK(ta_claim(b, g[0], "wb", t + 15000, 10000, &e) == 0, "taken before the renewed lease lapsed");
    CHECK(ta_claim(b, g[0], "wb", t + 16011, 10000, &e) == 1, "not taken once lapsed");
    CHECK(ta_progress(a, g[0], "wa", 4, 10, t + 16020, 10000, &e) == 0, "the old holder's progress");
    CHECK(ta_finish(a, g[0], "wa", "{\"by\":\"wa\"}", t + 16030, &e) == 0, "the old holder's result");
    CHECK(ta_finish(b, g[0], "wb", "{\"by\":\"wb\"}", t + 16040, &e) == 1, "the holder's result: %s", e.msg);
    CHECK(ta_finish(b, g[0], "wb", "{\"by\":\"again\"}", t + 16050, &e) == 0, "a result written twice");
    CHECK(ta_get(b, g[0], &j, &e) == 1 && j.state == TA_DONE && j.attempts == 2 && j.result &&
              !strcmp(j.result, "{\"by\":\"wb\"}") && j.done_ms == t + 16040,
          "g0 done once, by wb, after two claims");
    ta_job_free(&j);

    th_case("limits: a done job frees Ann's place; the queue full for a newcomer");
    CHECK(ta_queue(a, g[4], ann, 5000, t + 17000, 3, 100, &e) == 1, "Ann's next after g0 was done: %s", e.msg);
    int waiting = ta_waiting(a, &e);
    CHECK(waiting == 4, "four waiting (%d)", waiting);
    CHECK(ta_queue(a, g[5], cy, 5000, t + 17001, 3, waiting, &e) == TA_EFULL, "the queue full");
    CHECK(ta_queue(a, g[5], cy, 5000, t + 17002, 3, waiting + 1, &e) == 1, "room for one more");

    th_case("a stopping worker gives its job back");
    CHECK(ta_claim(a, g[3], "wa", t + 18000, 10000, &e) == 1, "claimed");
    CHECK(ta_release(b, g[3], "wb", 0, NULL, &e) == 0, "given back by another");
    CHECK(ta_release(a, g[3], "wa", 0, NULL, &e) == 1, "given back");
    CHECK(ta_get(a, g[3], &j, &e) == 1 && j.state == TA_QUEUED && j.attempts == 0 && !j.owner[0],
          "queued again, its claim not counted");
    ta_job_free(&j);

    th_case("a job whose workers died three times is given up, and may be asked again");
    int64_t u = t + 20000;
    CHECK(ta_claim(a, g[1], "w1", u, 10, &e) == 1, "first claim");
    CHECK(ta_claim(b, g[1], "w2", u + 11, 10, &e) == 1, "second claim, the first lapsed");
    CHECK(ta_claim(a, g[1], "w3", u + 22, 10, &e) == 1, "third claim");
    CHECK(ta_claim(b, g[1], "w4", u + 33, 10, &e) == 0, "no fourth");
    n = order(a, u + 33, ids, 8);
    for (int i = 0; i < n; i++)
        CHECK(strcmp(ids[i], g[1]), "g1 still offered");
    CHECK(ta_sweep(b, u + 33, &e) == 1, "swept");
    CHECK(ta_get(a, g[1], &j, &e) == 1 && j.state == TA_FAILED && j.result && strstr(j.result, "3 times"),
          "failed, saying why");
    ta_job_free(&j);
    CHECK(ta_queue(a, g[1], bob, 5000, u + 40, 3, 100, &e) == 1, "asked again: %s", e.msg);
    CHECK(ta_get(a, g[1], &j, &e) == 1 && j.state == TA_QUEUED && j.attempts == 0 && !strcmp(j.requester, bob),
          "queued afresh for its new requester");
    ta_job_free(&j);

    tp_db_close(b);
    tp_db_close(a);
    tg_store_close(st);
}
