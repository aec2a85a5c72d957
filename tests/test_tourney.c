/* Tournaments' rules (games/tourney_rules.h): Berger tables for 2 to 16
 * players (every pair meets exactly once, nobody twice in a round, one
 * bye a round for odd counts and one per player, colours within one of
 * even), the arena's points with streaks against lichess's rule as
 * written out here, and the arena's pairing (never the last opponent,
 * nearest score, the longest waiter, colours). */
#include "harness.h"
#include "store.h"
#include "tourney.h"
#include "tourney_rules.h"
#include "tourney_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void berger(void)
{
    for (int n = 2; n <= TT_RR_MAX; n++) {
        th_case("berger: %d players", n);
        int rounds = tt_berger_rounds(n);
        CHECK(rounds == (n % 2 ? n : n - 1), "%d rounds", rounds);
        int met[TT_RR_MAX][TT_RR_MAX], whites[TT_RR_MAX], games[TT_RR_MAX], byes[TT_RR_MAX];
        memset(met, 0, sizeof met);
        memset(whites, 0, sizeof whites);
        memset(games, 0, sizeof games);
        memset(byes, 0, sizeof byes);
        for (int r = 0; r < rounds; r++) {
            int w[TT_RR_MAX], b[TT_RR_MAX], bye, seen[TT_RR_MAX] = {0};
            int boards = tt_berger_round(n, r, w, b, &bye);
            CHECK(boards == n / 2, "round %d: %d boards", r, boards);
            CHECK((n % 2 == 0) == (bye < 0), "round %d: bye %d", r, bye);
            if (bye >= 0) {
                byes[bye]++;
                seen[bye]++;
            }
            for (int k = 0; k < boards; k++) {
                CHECK(w[k] >= 0 && w[k] < n && b[k] >= 0 && b[k] < n && w[k] != b[k], "board %d: %d-%d", k, w[k],
                      b[k]);
                if (w[k] < 0 || w[k] >= n || b[k] < 0 || b[k] >= n)
                    continue;
                seen[w[k]]++;
                seen[b[k]]++;
                met[w[k]][b[k]]++;
                met[b[k]][w[k]]++;
                whites[w[k]]++;
                games[w[k]]++;
                games[b[k]]++;
            }
            for (int p = 0; p < n; p++)
                CHECK(seen[p] == 1, "round %d: player %d appears %d times", r, p, seen[p]);
        }
        for (int p = 0; p < n; p++) {
            for (int q = 0; q < n; q++)
                if (p != q)
                    CHECK(met[p][q] == 1, "%d and %d meet %d times", p, q, met[p][q]);
            CHECK(games[p] == n - 1, "player %d plays %d games", p, games[p]);
            CHECK(byes[p] == n % 2, "player %d has %d byes", p, byes[p]);
            int blacks = games[p] - whites[p];
            CHECK(abs(whites[p] - blacks) <= 1, "player %d: %d Whites, %d Blacks", p, whites[p], blacks);
        }
    }
    th_case("berger: bad input");
    int w[TT_RR_MAX], b[TT_RR_MAX], bye;
    CHECK(tt_berger_rounds(1) == 0 && tt_berger_rounds(17) == 0, "1 or 17 players");
    CHECK(tt_berger_round(4, 3, w, b, &bye) == -1, "round 3 of 4 players");
    CHECK(tt_berger_round(4, -1, w, b, &bye) == -1, "round -1");
    CHECK(tt_berger_round(17, 0, w, b, &bye) == -1, "17 players");
}

static void points(void)
{
    th_case("arena points: a streak doubles from the third win in a row");
    /* W W W D W W W L W: 2, 2, 4 (on fire), 2 (a draw on fire, which ends
     * it), 2, 2, 4, 0, 2 */
    const tt_outcome seq[] = {TT_WON, TT_WON, TT_WON, TT_DRAWN, TT_WON, TT_WON, TT_WON, TT_LOSS, TT_WON};
    const int want[] = {2, 2, 4, 2, 2, 2, 4, 0, 2};
    int streak = 0, total = 0;
    for (int i = 0; i < 9; i++) {
        int after, p = tt_arena_points(streak, seq[i], &after);
        CHECK(p == want[i], "game %d: %d points, want %d", i + 1, p, want[i]);
        streak = after;
        total += p;
    }
    CHECK(total == 20, "total %d", total);
    CHECK(streak == 1, "streak after W: %d", streak);
    th_case("arena points: without a streak");
    int after;
    CHECK(tt_arena_points(0, TT_DRAWN, &after) == 1 && after == 0, "a draw");
    CHECK(tt_arena_points(1, TT_LOSS, &after) == 0 && after == 0, "a loss");
    CHECK(tt_arena_points(1, TT_WON, &after) == 2 && after == 2, "a second win");
    CHECK(tt_arena_points(5, TT_LOSS, &after) == 0 && after == 0, "a loss on fire");
}

static tt_waiter waiter(int self, int score, int last, int whites, long long since)
{
    tt_waiter w = {score, last, self, whites, since};
    return w;
}

static void pairing(void)
{
    int pairs[TT_ARENA_MAX][2];
    th_case("arena pairing: nearest score, never the last opponent");
    /* scores 10, 9, 8, 2: 0 last played 1, so 0 gets 2 (8), and 1 gets 3 */
    tt_waiter w[4] = {waiter(0, 10, 1, 0, 5), waiter(1, 9, 0, 0, 5), waiter(2, 8, -1, 0, 5),
                      waiter(3, 2, -1, 0, 5)};
    int np = tt_arena_pair(w, 4, pairs);
    CHECK(np == 2, "%d pairs", np);
    int partner[4] = {-1, -1, -1, -1};
    for (int i = 0; i < np; i++)
        partner[pairs[i][0]] = pairs[i][1], partner[pairs[i][1]] = pairs[i][0];
    CHECK(partner[0] == 2 && partner[1] == 3, "0-%d, 1-%d", partner[0], partner[1]);

    th_case("arena pairing: two players who just met wait");
    tt_waiter two[2] = {waiter(0, 4, 1, 0, 1), waiter(1, 2, 0, 0, 2)};
    CHECK(tt_arena_pair(two, 2, pairs) == 0, "paired again at once");
    two[1].last_opp = 5; /* only one side's last game was the other: still refused */
    CHECK(tt_arena_pair(two, 2, pairs) == 0, "paired again with one side's last opponent");
    two[0].last_opp = -1;
    two[1].last_opp = -1;
    CHECK(tt_arena_pair(two, 2, pairs) == 1, "two fresh players");

    th_case("arena pairing: colours to the one with fewer Whites, ties to the longest waiter");
    tt_waiter c[2] = {waiter(0, 0, -1, 1, 1), waiter(1, 0, -1, 0, 2)};
    CHECK(tt_arena_pair(c, 2, pairs) == 1 && pairs[0][0] == 1, "White: %d", pairs[0][0]);
    c[0].whites = 0;
    CHECK(tt_arena_pair(c, 2, pairs) == 1 && pairs[0][0] == 0, "White: %d", pairs[0][0]);

    th_case("arena pairing: among equal scores, the longest waiter first");
    tt_waiter e[3] = {waiter(0, 6, -1, 0, 30), waiter(1, 6, -1, 0, 10), waiter(2, 6, -1, 0, 20)};
    CHECK(tt_arena_pair(e, 3, pairs) == 1, "one pair of three");
    int left = 3 - pairs[0][0] - pairs[0][1];
    CHECK(left == 0, "the newest waiter (0) is left, not %d", left);

    th_case("arena pairing: random rounds never pair last opponents or anyone twice");
    unsigned seed = 12345;
    for (int round = 0; round < 200; round++) {
        tt_waiter r[40];
        int n = 2 + (int)(seed % 39);
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            int last = (int)(seed >> 8) % (n + 1) - 1;
            r[i] = waiter(i, (int)(seed >> 16) % 12, last == i ? -1 : last, (int)(seed >> 4) % 3 - 1,
                          (long long)(seed >> 12) % 1000);
        }
        np = tt_arena_pair(r, n, pairs);
        int used[40] = {0};
        for (int i = 0; i < np; i++) {
            int a = pairs[i][0], b = pairs[i][1];
            CHECK(a != b && !used[a] && !used[b], "round %d: %d-%d reused", round, a, b);
            CHECK(r[a].last_opp != b && r[b].last_opp != a, "round %d: %d-%d met last", round, a, b);
            used[a] = used[b] = 1;
        }
        /* whoever waits has nobody allowed left to wait with */
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                CHECK(used[a] || used[b] || r[a].last_opp == b || r[b].last_opp == a,
                      "round %d: %d and %d both wait though allowed", round, a, b);
    }
}

/* The pairer's lease from two connections (two processes): one holder
 * at a time, renewed by it, taken by the other once lapsed or given up;
 * a game counted once. On the suite's database (SQLite, or TG_TEST_DB). */
static char url[256]; /* the suite's database (th_test_db keeps it here) */

static void lease(void)
{
    tc_error e;
    th_test_db("tourney", url, sizeof url);
    tg_store *st = tg_store_open(url, &e); /* the schema */
    CHECK(st != NULL, "store: %s", e.msg);
    tp_db *a = st ? tp_db_open(url, &e) : NULL, *b = a ? tp_db_open(url, &e) : NULL;
    CHECK(a && b, "db: %s", e.msg);
    if (!a || !b) {
        tp_db_close(a);
        tg_store_close(st);
        return;
    }
    char pa[32], pb[32];
    unsigned nonce = (unsigned)time(NULL) ^ ((unsigned)clock() << 12);
    snprintf(pa, sizeof pa, "a%x", nonce);
    snprintf(pb, sizeof pb, "b%x", nonce);
    int64_t t = (int64_t)4e12; /* far ahead of any earlier run's lease */
    th_case("lease: one holder at a time");
    /* the suite's database may keep an earlier run's lease: free it */
    tp_db_exec(a, "UPDATE tournament_lease SET owner = '', until_ms = 0", NULL, 0, NULL, NULL, &e);
    int ha = tp_tourney_lease(a, pa, t, 10000, &e), hb = tp_tourney_lease(b, pb, t + 1, 10000, &e);
    CHECK(ha + hb == 1, "both or neither hold it: %d %d", ha, hb);
    const char *holder = ha ? pa : pb, *other = ha ? pb : pa;
    tp_db *dh = ha ? a : b, *dother = ha ? b : a;
    CHECK(tp_tourney_lease(dh, holder, t + 3000, 10000, &e) == 1, "the holder renews it");
    CHECK(tp_tourney_lease(dother, other, t + 12000, 10000, &e) == 0, "taken before it lapsed");
    CHECK(tp_tourney_lease(dother, other, t + 13001, 10000, &e) == 1, "not taken once lapsed");
    CHECK(tp_tourney_lease(dh, holder, t + 14000, 10000, &e) == 0, "the old holder still holds it");
    CHECK(tp_tourney_lease_drop(dother, other, &e) == 1, "given up");
    CHECK(tp_tourney_lease(dh, holder, t + 14001, 10000, &e) == 1, "not taken after it was given up");
    tp_tourney_lease_drop(dh, holder, &e);

    th_case("a game is counted once");
    tp_tourney tr;
    memset(&tr, 0, sizeof tr);
    snprintf(tr.id, sizeof tr.id, "%012x", nonce);
    snprintf(tr.name, sizeof tr.name, "Lease test");
    snprintf(tr.variant, sizeof tr.variant, "torus");
    tr.clock.kind = TG_CLOCK_FISCHER;
    tr.max_players = 8;
    CHECK(tp_tourney_insert(a, &tr, &e) == 0, "insert: %s", e.msg);
    snprintf(tr.sched_key, sizeof tr.sched_key, "weekly@%x", nonce);
    snprintf(tr.id, sizeof tr.id, "%011xs", nonce);
    CHECK(tp_tourney_insert(a, &tr, &e) == 0, "a scheduled one: %s", e.msg);
    snprintf(tr.id, sizeof tr.id, "%011xt", nonce);
    CHECK(tp_tourney_insert(b, &tr, &e) == TP_EUNIQUE, "the same schedule entry made twice");
    snprintf(tr.id, sizeof tr.id, "%012x", nonce);
    tp_tgame g;
    memset(&g, 0, sizeof g);
    snprintf(g.game_id, sizeof g.game_id, "%016x", nonce);
    snprintf(g.white, sizeof g.white, "w");
    snprintf(g.black, sizeof g.black, "b");
    CHECK(tp_tgame_insert(a, tr.id, &g, &e) == 0, "game: %s", e.msg);
    snprintf(g.result, sizeof g.result, "1-0");
    g.white_pts = 2;
    CHECK(tp_tgame_count(a, &g, &e) == 1, "the first count");
    CHECK(tp_tgame_count(b, &g, &e) == 0, "counted again");
    CHECK(tp_tgames_open(b, tr.id, &e) == 0, "open games left");

    th_case("a pairer that stalled past its lease writes nothing; a player is claimed for one game at a time");
    int64_t t2 = t + 100000;
    CHECK(tp_tourney_lease(dh, holder, t2, 10000, &e) == 1, "taken: %s", e.msg);
    CHECK(tp_tourney_lease_held(dh, holder, t2 + 9000, &e) == 1, "held within its time");
    CHECK(tp_tourney_lease_held(dother, other, t2 + 9000, &e) == 0, "not held by the other");
    CHECK(tp_tourney_lease(dother, other, t2 + 10001, 10000, &e) == 1, "the other takes it once lapsed");
    CHECK(tp_tourney_lease_held(dh, holder, t2 + 10002, &e) == 0, "the stalled holder sees it lost");
    CHECK(tp_tourney_lease_held(dother, other, t2 + 10002, &e) == 1, "the new holder holds it");
    tp_tourney_lease_drop(dother, other, &e);
    tp_user pu[2];
    const char *pn[2] = {"claimw", "claimb"};
    for (int i = 0; i < 2; i++) {
        memset(&pu[i], 0, sizeof pu[i]);
        snprintf(pu[i].id, sizeof pu[i].id, "%s%x", pn[i], nonce);
        snprintf(pu[i].name, sizeof pu[i].name, "%s%x", pn[i], nonce & 0xfff);
        snprintf(pu[i].pwhash, sizeof pu[i].pwhash, "x");
        char key[TP_NAME_MAX + 1];
        snprintf(key, sizeof key, "%s", pu[i].name);
        CHECK(tp_user_create(a, &pu[i], key, &e) == 0, "user: %s", e.msg);
        CHECK(tp_entrant_join(a, tr.id, pu[i].id, pu[i].name, -1, t2, &e) == 1, "join: %s", e.msg);
    }
    CHECK(tp_entrant_claim(a, tr.id, pu[0].id, "", "g1", &e) == 1, "claimed for g1");
    CHECK(tp_entrant_claim(b, tr.id, pu[0].id, "", "g2", &e) == 0, "not for a second game meanwhile");
    CHECK(tp_entrant_withdraw(a, tr.id, pu[1].id, &e) == 1, "withdrawn");
    CHECK(tp_entrant_claim(b, tr.id, pu[1].id, "", "g2", &e) == 0, "a withdrawn player is not claimed");
    CHECK(tp_entrant_claim(a, tr.id, pu[0].id, "g1", "", &e) == 1, "released");
    CHECK(tp_entrant_claim(b, tr.id, pu[0].id, "", "g2", &e) == 1, "then claimed again");
    tp_db_close(b);
    tp_db_close(a);
    tg_store_close(st);
}

/* The operator's schedule: a good file, and bad lines named with what is
 * wrong. */
static void schedule(void)
{
    char path[300];
    tc_error e;
    tp_db *d = tp_db_open(url, &e);
    srv_tourneys *T = d ? srv_tourneys_start(d, url, 0, &e) : NULL;
    CHECK(T != NULL, "start: %s", e.msg);
    if (!T) {
        tp_db_close(d);
        return;
    }
    snprintf(path, sizeof path, "%s/sched-%d.txt", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    static const struct {
        const char *text, *error; /* NULL: accepted */
    } cases[] = {
        {"# a comment\n\narena weekly sun 18:00 60m klein-bottle 3+2 rated Klein bottle weekly arena\n"
         "round-robin daily 12:00 8p torus corr1 casual Daily torus\n", NULL},
        {"swiss daily 12:00 8p torus 3+2 rated Nope\n", ":1: the kind is arena or round-robin"},
        {"arena weekly sunday 18:00 60m torus 3+2 rated Nope\n", ":1: 'sunday' is not a day"},
        {"\narena daily 24:00 60m torus 3+2 rated Nope\n", ":2: the start is HH:MM in UTC"},
        {"arena daily 18:00 400m torus 3+2 rated Nope\n", ":1: an arena's size is its minutes, 1m to 360m"},
        {"round-robin daily 18:00 17p torus 3+2 rated Nope\n", ":1: a round-robin's size is its most players"},
        {"arena daily 18:00 60m torus corr3 rated Nope\n", ":1: the clock is one of"},
        {"arena daily 18:00 60m torus 3+2 maybe Nope\n", ":1: say rated or casual"},
        {"arena daily 18:00 60m torus 3+2 rated X\n", ":1: the name (the rest of the line) has 3 to 60 bytes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("schedule: case %zu", i);
        FILE *f = fopen(path, "w");
        CHECK(f != NULL, "cannot write %s", path);
        if (!f)
            break;
        fputs(cases[i].text, f);
        fclose(f);
        int rc = srv_tourneys_schedule(T, path, &e);
        if (!cases[i].error)
            CHECK(rc == 0, "refused: %s", e.msg);
        else
            CHECK(rc == -1 && strstr(e.msg, cases[i].error), "want '%s', got rc %d '%s'", cases[i].error, rc,
                  rc ? e.msg : "");
    }
    th_case("schedule: a missing file");
    CHECK(srv_tourneys_schedule(T, "/nonexistent/sched.txt", &e) == -1 && strstr(e.msg, "cannot read"), "%s",
          e.msg);
    remove(path);
    srv_tourneys_stop(T);
    tp_db_close(d);
}

void suite_tourney(void)
{
    berger();
    points();
    pairing();
    lease();
    schedule();
}
