/* Puzzles on the hub (server/puzzles_http.h, puzzle_judge.h, puzzle_import.h;
 * games/puzzle_store.h): the store (import, ids, the day's puzzle, the pick
 * near a rating), the rating of an attempt against Glicko-2 computed here
 * by the reference of test_glicko2.c (bisection, not the Illinois
 * iteration) with the hub's bounds on the deviation, the server's verdict
 * (a wrong move, a slower mate, another equally fast mate, illegal and
 * malformed moves, moves after the mate, an attempt that stops short), and
 * the routes through the people pages' handler (CSRF, unknown ids,
 * replayed attempts unrated, the rate limit, the account and player
 * pages). On SQLite, or TG_TEST_DB's PostgreSQL. */
#define _DEFAULT_SOURCE
#include "harness.h"
#include "people_client.h"
#include "puzzle_import.h"
#include "puzzle_judge.h"
#include "puzzle_store.h"
#include "puzzles_http.h"
#include "store.h"
#include "topochess_endgame.h"
#include "topochess_puzzle.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

tg_rating th_glicko2_reference(tg_rating p, const tg_rated_game *gs, int n, double tau);

/* One rated game by the reference, with the hub's bounds on rd. */
static tg_rating expected(tg_rating me, tg_rating opp, double score)
{
    tg_rated_game g = {opp, score};
    tg_rating r = th_glicko2_reference(me, &g, 1, 0.75);
    r.rd = r.rd < 45 ? 45 : r.rd > 500 ? 500 : r.rd;
    return r;
}

static int near(double a, double b) { return fabs(a - b) < 1e-6; }

/* A puzzle of chess KQK with at least two fastest first moves. */
static int two_best(tc_egtb *t, tc_puzzle *out)
{
    tc_puzzle_options o;
    tc_puzzle_options_default(&o);
    o.max_best = 3;
    o.seed = 7;
    tc_puzzle *list = calloc(60, sizeof *list);
    tc_error e;
    int n = list ? tc_puzzles_generate(t, &o, list, 60, &e) : 0;
    for (int i = 0; i < n; i++)
        if (list[i].naccepted >= 2) {
            *out = list[i];
            free(list);
            return 1;
        }
    free(list);
    return 0;
}

/* The line of fastest moves from p after first: the player's moves
 * (coordinates, spaces between) to the mate, the tables' defence between. */
static void fastest_line(tc_egtb *t, tc_position *p, const char *first, char *out, size_t n)
{
    out[0] = '\0';
    char text[16];
    snprintf(text, sizeof text, "%s", first);
    for (int ply = 0; ply < 60; ply++) {
        tc_puzzle_answer a;
        tc_error e;
        if (tc_puzzle_check(t, p, text, &a, &e) || a.verdict != TC_PUZZLE_BEST)
            return;
        char uci[16];
        tc_move_to_uci(p, a.move, uci);
        snprintf(out + strlen(out), n - strlen(out), "%s%s", out[0] ? " " : "", uci);
        tc_make_move(p, a.move);
        if (a.mates || !a.reply)
            return;
        tc_make_move(p, a.reply);
        tc_move best;
        if (tc_puzzle_best_moves(t, p, &best, 1) < 1)
            return;
        tc_move_to_uci(p, best, text);
    }
}

static void test_judge(void)
{
    th_case("the judge: best, slower, losing, illegal and malformed moves, another fastest mate, moves after mate");
    tc_variant_def def;
    tc_error e;
    CHECK(tc_preset_find("chess", &def, &e) == 0, "%s", e.msg);
    srv_judge *J = srv_judge_new();
    srv_judgement j;
    /* docs/puzzles.md: Qb8 Ka6 Kc4 Ka5 Qb5# is the mate in 3; Qd8+ mates in 5 */
    srv_judge_puzzle p = {&def, "ending", "KQK", "6Q1/8/8/k7/8/3K4/8/8 w - - 0 1", "", ""};
    tc_variant *v = tc_variant_new(&def, &e);
    tc_egtb *t = v ? tc_egtb_solve(v, "KQK", NULL, &e) : NULL;
    tc_position *pos = v ? tc_position_new(v) : NULL;
    CHECK(t && pos, "tables: %s", e.msg);
    if (!t || !pos)
        goto out;
    char line[400];
    tc_position_set_fen(pos, p.fen, &e);
    fastest_line(t, pos, "g8b8", line, sizeof line);
    CHECK(tc_position_status(pos) == TC_CHECKMATE, "the line ends in mate: %s", line);
    srv_judge_attempt(J, &p, line, &j);
    CHECK(j.verdict == SRV_JUDGE_SOLVED && strstr(j.message, "checkmate") && !strcmp(j.moves, line),
          "the fastest line solves it: %d %s (%s)", j.verdict, j.message, line);
    srv_judge_attempt(J, &p, "Qd8+", &j);
    CHECK(j.verdict == SRV_JUDGE_FAILED && j.failed_at == 0 && strstr(j.message, "slower") &&
              !strcmp(j.moves, "g8d8"),
          "a slower mate fails: %d %s", j.verdict, j.message);
    srv_judge_attempt(J, &p, "g8b8,a5a6", &j); /* the second word is the player's second move */
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "move 2"), "a move of the wrong side: %d %s", j.verdict,
          j.message);
    srv_judge_attempt(J, &p, "g8b8", &j);
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "goes on"), "stopping short: %d %s", j.verdict, j.message);
    srv_judge_attempt(J, &p, "Qxa5", &j);
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "illegal"), "illegal: %d %s", j.verdict, j.message);
    srv_judge_attempt(J, &p, "g8b8 <script>", &j);
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "character '<'"), "malformed: %d %s", j.verdict,
          j.message);
    srv_judge_attempt(J, &p, "", &j);
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "no moves"), "empty: %d %s", j.verdict, j.message);
    char many[2000] = "";
    for (int i = 0; i < SRV_JUDGE_MAX_MOVES + 1; i++)
        strcat(many, "g8b8 ");
    srv_judge_attempt(J, &p, many, &j);
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "more than"), "too many: %d %s", j.verdict, j.message);
    char after[480];
    snprintf(after, sizeof after, "%s a1a2", line);
    srv_judge_attempt(J, &p, after, &j);
    CHECK(j.verdict == SRV_JUDGE_BAD && strstr(j.message, "is mate"), "after the mate: %d %s", j.verdict, j.message);
    /* Qc7 stalemates where Qc8 mates: a move that lets the win go fails */
    srv_judge_puzzle stale_p = {&def, "ending", "KQK", "k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", "", ""};
    srv_judge_attempt(J, &stale_p, "c1c7", &j);
    CHECK(j.verdict == SRV_JUDGE_FAILED && strstr(j.message, "not winning"), "a stalemate fails: %d %s",
          j.verdict, j.message);

    th_case("another equally fast first move counts, not only the stored line's");
    tc_puzzle z;
    CHECK(two_best(t, &z), "a KQK puzzle with two fastest first moves");
    if (z.naccepted >= 2) {
        const char *other = z.accepted_uci[1];
        CHECK(strcmp(other, z.line_uci[0]), "the second accepted move is not the line's");
        tc_position_set_fen(pos, z.fen, &e);
        fastest_line(t, pos, other, line, sizeof line);
        CHECK(tc_position_status(pos) == TC_CHECKMATE, "mate after %s", line);
        srv_judge_puzzle zp = {&def, "ending", "KQK", z.fen, "", ""};
        srv_judge_attempt(J, &zp, line, &j);
        CHECK(j.verdict == SRV_JUDGE_SOLVED, "%s from %s: %d %s", line, z.fen, j.verdict, j.message);
    }

    th_case("a tactic is judged against its stored line");
    srv_judge_puzzle tp = {&def, "tactic", "", "6Q1/8/8/k7/8/3K4/8/8 w - - 0 1", "g8b8", "g8b8 a5a6 d3c4 a6a5 b8b5"};
    srv_judge_attempt(J, &tp, "g8b8 d3c4 b8b5", &j);
    CHECK(j.verdict == SRV_JUDGE_SOLVED, "the line: %d %s", j.verdict, j.message);
    srv_judge_attempt(J, &tp, "g8b8 d3c3", &j);
    CHECK(j.verdict == SRV_JUDGE_FAILED && j.failed_at == 1, "off the line: %d %s", j.verdict, j.message);
out:
    tc_position_free(pos);
    tc_egtb_free(t);
    tc_variant_free(v);
    srv_judge_free(J);
}

/* A user row for the store's tests. */
static void make_user(tp_db *d, const char *id, const char *name)
{
    tp_user u = {0};
    snprintf(u.id, sizeof u.id, "%s", id);
    snprintf(u.name, sizeof u.name, "%s", name);
    snprintf(u.pwhash, sizeof u.pwhash, "x");
    tc_error e;
    CHECK(tp_user_create(d, &u, name, &e) == 0, "user %s: %s", name, e.msg);
}

static void test_store(void)
{
    th_case("import: the command's JSON, ids from variant and FEN, a second import adds nothing, refusals counted");
    char url[256];
    th_test_db("puzzles", url, sizeof url);
    tc_error e;
    tg_store *s = tg_store_open(url, &e);
    CHECK(s != NULL, "%s", e.msg);
    tg_store_close(s);
    tp_db *d = tp_db_open(url, &e);
    CHECK(d != NULL, "%s", e.msg);
    if (!d)
        return;
    const char *json =
        "{\"variant\":\"chess\",\"puzzles\":[\n"
        "{\"title\":\"White mates in 3\",\"material\":\"KQK\",\"fen\":\"6Q1/8/8/k7/8/3K4/8/8 w - - 0 1\","
        "\"side\":\"white\",\"mate_in\":3,\"accepted_uci\":[\"g8b8\"],\"line\":[\"Qb8\",\"Ka6\",\"Kc4\",\"Ka5\","
        "\"Qb5#\"],\"line_uci\":[\"g8b8\",\"a5a6\",\"d3c4\",\"a6a5\",\"b8b5\"]},\n"
        "{\"material\":\"KRK\",\"fen\":\"7k/8/6K1/8/8/8/8/R7 w - - 0 1\",\"mate_in\":2,\"variant\":\"cylinder\","
        "\"line_uci\":[\"a1a2\",\"h8g8\",\"a2a8\"]},\n"
        "{\"kind\":\"tactic\",\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\",\"mate_in\":1,\"line_uci\":[\"a1a2\"],"
        "\"themes\":[\"fork-across-twist\"],\"rating\":1900},\n"
        "{\"fen\":\"8/8/8/8/8/8/8/K6k w - - 0 1\",\"mate_in\":0,\"line_uci\":[\"a1a2\"]},\n"
        "{\"kind\":\"tactic\",\"fen\":\"8/8/8/8/8/8/8/K6k b - - 0 1\",\"mate_in\":1,\"line_uci\":[\"a1a2\"],"
        "\"themes\":[\"a b\"]}]}";
    srv_import_count c;
    char msg[300];
    CHECK(srv_puzzles_import(d, json, strlen(json), 1000, &c, msg, sizeof msg) == 0 && c.added == 3 &&
              c.existing == 0 && c.refused == 2 && strstr(c.first_refusal, "puzzle 4: mate_in"),
          "%s: %d %d %d %s", msg, c.added, c.existing, c.refused, c.first_refusal);
    CHECK(srv_puzzles_import(d, json, strlen(json), 2000, &c, msg, sizeof msg) == 0 && c.added == 0 &&
              c.existing == 3,
          "again: %d added, %d there", c.added, c.existing);
    CHECK(srv_puzzles_import(d, "[1,", 3, 0, &c, msg, sizeof msg) == -1 && strstr(msg, "not JSON"), "%s", msg);
    char id[TP_PUZZLE_ID_LEN + 1];
    tp_puzzle_make_id("chess", "6Q1/8/8/k7/8/3K4/8/8 w - - 0 1", id);
    tp_puzzle_row *row = malloc(sizeof *row);
    CHECK(tp_puzzle_get(d, id, row, &e) == 1 && !strcmp(row->themes, "mate-in-3 KQK") &&
              !strcmp(row->line, "g8b8 a5a6 d3c4 a6a5 b8b5") && near(row->rating.r, 1200 + 60 * 2) &&
              near(row->rating.rd, TP_PUZZLE_START_RD) && !strcmp(row->kind, "ending"),
          "the row: %s %s %.1f", row->themes, row->line, row->rating.r);
    CHECK(tp_puzzle_count(d, "chess", NULL, &e) == 2 && tp_puzzle_count(d, "chess", "KQK", &e) == 1 &&
              tp_puzzle_count(d, "chess", "fork-across-twist", &e) == 1 && tp_puzzle_count(d, "chess", "KQ", &e) == 0,
          "counts by theme");
    char names[8][33];
    int counts[8];
    int nt = tp_puzzle_themes(d, "chess", names, counts, 8, &e);
    CHECK(nt == 3 && !strcmp(names[0], "KQK") && !strcmp(names[2], "mate-in-3"), "three themes in chess, by count then name: %d %s", nt, names[0]);

    th_case("the day's puzzle: chosen once, the same after more puzzles arrive; none for a variant without");
    tp_puzzle_row *day = malloc(sizeof *day);
    CHECK(tp_puzzle_daily(d, "chess", 20261205, day, &e) == 1, "%s", e.msg);
    char first[TP_PUZZLE_ID_LEN + 1];
    snprintf(first, sizeof first, "%s", day->id);
    const char *more = "[{\"variant\":\"chess\",\"material\":\"KRK\",\"fen\":\"8/1R6/5k2/8/8/3K4/8/8 w - - 0 1\","
                       "\"mate_in\":11,\"line_uci\":[\"d3e4\"]}]";
    CHECK(srv_puzzles_import(d, more, strlen(more), 3000, &c, msg, sizeof msg) == 0 && c.added == 1, "%s", msg);
    CHECK(tp_puzzle_daily(d, "chess", 20261205, day, &e) == 1 && !strcmp(day->id, first), "kept: %s", day->id);
    CHECK(tp_puzzle_daily(d, "torus", 20261205, day, &e) == 0, "none in the torus");

    th_case("an attempt: the first rated (Glicko-2 for the player and the puzzle, computed here), retries unrated");
    make_user(d, "00000000000000000000000000000001", "ann");
    tp_puzzle_outcome o;
    tg_rating pz = row->rating, me = tg_rating_new();
    CHECK(tp_puzzle_attempt(d, "00000000000000000000000000000001", id, 1, "g8b8", 5000, &o, &e) == 0 && o.rated,
          "%s", e.msg);
    tg_rating want_me = expected(me, pz, 1.0), want_pz = expected(pz, me, 0.0);
    CHECK(near(o.after.r, want_me.r) && near(o.after.rd, want_me.rd) && near(o.after.vol, want_me.vol),
          "player %.4f/%.4f want %.4f/%.4f", o.after.r, o.after.rd, want_me.r, want_me.rd);
    CHECK(o.after.r > me.r && o.puzzle_after.r < pz.r, "a solve raises the player and lowers the puzzle");
    CHECK(near(o.puzzle_after.r, want_pz.r) && near(o.puzzle_after.rd, want_pz.rd), "puzzle %.4f want %.4f",
          o.puzzle_after.r, want_pz.r);
    tp_puzzle_player pl;
    CHECK(tp_puzzle_player_get(d, "00000000000000000000000000000001", &pl, &e) == 1 && near(pl.rating.r, want_me.r) &&
              pl.attempts == 1 && pl.solved == 1,
          "stored: %.3f %d %d", pl.rating.r, pl.attempts, pl.solved);
    CHECK(tp_puzzle_attempt(d, "00000000000000000000000000000001", id, 0, "g8d8", 6000, &o, &e) == 0 && !o.rated &&
              o.n == 1 && near(o.after.r, want_me.r),
          "a retry is unrated: %d %d", o.rated, o.n);
    CHECK(tp_puzzle_get(d, id, row, &e) == 1 && row->plays == 2 && row->solves == 1 && near(row->rating.r, want_pz.r),
          "the puzzle: %d plays %.3f", row->plays, row->rating.r);
    tp_puzzle_step steps[4];
    int ns = tp_puzzle_history(d, "00000000000000000000000000000001", steps, 4, &e);
    CHECK(ns == 2 && !steps[0].rated && !steps[0].solved && steps[1].rated && steps[1].solved &&
              near(steps[1].after, want_me.r),
          "history: %d", ns);

    th_case("a failure against an established puzzle: the numbers again; the pick: nearest the rating, untried");
    make_user(d, "00000000000000000000000000000002", "bob");
    char tid[TP_PUZZLE_ID_LEN + 1];
    tp_puzzle_make_id("chess", "8/8/8/8/8/8/8/K6k w - - 0 1", tid);
    tp_puzzle_row *tr = malloc(sizeof *tr);
    CHECK(tp_puzzle_get(d, tid, tr, &e) == 1 && near(tr->rating.r, 1900), "the tactic's rating from the file");
    CHECK(tp_puzzle_attempt(d, "00000000000000000000000000000002", tid, 0, "a1b1", 7000, &o, &e) == 0, "%s", e.msg);
    want_me = expected(tg_rating_new(), tr->rating, 0.0);
    want_pz = expected(tr->rating, tg_rating_new(), 1.0);
    CHECK(near(o.after.r, want_me.r) && near(o.puzzle_after.r, want_pz.r) && o.after.r < 1500,
          "failed: %.4f want %.4f", o.after.r, want_me.r);
    tp_puzzle_row *pick = malloc(sizeof *pick);
    /* bob, now below 1500, has tried the tactic: the nearest of the rest */
    CHECK(tp_puzzle_pick(d, "chess", NULL, "00000000000000000000000000000002", o.after.r, 0, pick, &e) == 1 &&
              strcmp(pick->id, tid) && !strcmp(pick->id, id),
          "nearest untried: %s", pick->id);
    CHECK(tp_puzzle_pick(d, "chess", "fork-across-twist", "00000000000000000000000000000002", 1500, 0, pick, &e) ==
              1 && !strcmp(pick->id, tid),
          "all tried: the nearest of all");
    CHECK(tp_puzzle_pick(d, "chess", NULL, NULL, 0, 1, pick, &e) == 1, "a visitor's");
    free(pick);
    free(tr);
    free(day);
    free(row);
    tp_db_close(d);
}

/* The CSRF token of a cookie's session. */
static void token_of(srv_people *P, const char *cookie, char *out, size_t n) { csrf_of(P, cookie, out, n); }

static void test_http(void)
{
    tc_error e;
    srv_site *site = srv_site_load("variants", NULL, &e);
    CHECK(site != NULL, "site: %s", e.msg);
    if (!site)
        return;
    the_site = site;
    seed_puzzles = 1;
    srv_people *P = start(0, NULL);
    seed_puzzles = 0;
    if (!P) {
        srv_site_free(site);
        return;
    }
    th_case("a fresh hub has puzzles: the seeded presets, their day's puzzle on the home and variant pages");
    answer a = ask(P, (call){"GET", "/api/puzzles/daily?variant=chess", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"kind\":\"ending\"") && has(&a, "\"variant\":\"chess\""), "%d %s", a.status,
          a.body);
    char id[TP_PUZZLE_ID_LEN + 1] = "";
    const char *v = a.body ? strstr(a.body, "\"id\":\"") : NULL;
    if (v)
        snprintf(id, sizeof id, "%.16s", v + 6);
    char fen[200] = "";
    const char *f = a.body ? strstr(a.body, "\"fen\":\"") : NULL;
    if (f)
        snprintf(fen, sizeof fen, "%.*s", (int)strcspn(f + 7, "\""), f + 7);
    char material[16] = "";
    const char *m = a.body ? strstr(a.body, "\"material\":\"") : NULL;
    if (m)
        snprintf(material, sizeof material, "%.*s", (int)strcspn(m + 12, "\""), m + 12);
    free(a.body);
    a = ask(P, (call){"GET", "/v/chess", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "Puzzle of the day") && has(&a, id), "variant page: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "Puzzle of the day") && has(&a, "data-daily-puzzle"), "home: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/v/nosuch", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "an unknown variant page: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/api/puzzles/next?variant=torus", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404 && has(&a, "no puzzle in torus"), "the torus is not seeded: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/puzzles?variant=chess&theme=KRK", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\\u003c") == 0 && has(&a, "\"theme\":\"KRK\"") && has(&a, "\"material\":\"KRK\""),
          "the KRK theme page: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/puzzles?variant=chess&theme=no-such", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404 && has(&a, "no puzzle with the theme"), "an unknown theme: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/puzzles?variant=chess&theme=%3Cb%3E", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 400 && !has(&a, "<b>"), "a theme with markup: %d", a.status);
    free(a.body);

    th_case("an attempt: a visitor (401), no CSRF token (403), unknown id (404), malformed moves (400)");
    tc_variant_def def;
    tc_preset_find("chess", &def, &e);
    tc_variant *var = tc_variant_new(&def, &e);
    tc_egtb *t = tc_egtb_solve(var, material, NULL, &e);
    char body[600], line[400] = "";
    tc_position *pos = tc_position_new(var);
    tc_position_set_fen(pos, fen, &e);
    tc_move best;
    char first[16] = "";
    if (tc_puzzle_best_moves(t, pos, &best, 1) >= 1)
        tc_move_to_uci(pos, best, first);
    fastest_line(t, pos, first, line, sizeof line);
    CHECK(tc_position_status(pos) == TC_CHECKMATE, "a solving line for %s: %s", fen, line);
    answer s = ask(P, (call){"POST", "/signup", NULL, "name=Puzzler&password=klein+bottle&password2=klein+bottle",
                             NULL, NULL, NULL, NULL});
    char cookie[64], token[64], target[80];
    snprintf(cookie, sizeof cookie, "%s", s.cookie);
    free(s.body);
    token_of(P, cookie, token, sizeof token);
    snprintf(target, sizeof target, "/api/puzzles/%s/attempt", id);
    snprintf(body, sizeof body, "moves=%s", line);
    for (char *c = body; *c; c++)
        if (*c == ' ')
            *c = '+';
    a = ask(P, (call){"POST", target, NULL, body, NULL, NULL, NULL, NULL});
    CHECK(a.status == 401, "a visitor: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"POST", target, cookie, body, NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "CSRF"), "no token: %d %s", a.status, a.body);
    free(a.body);
    char with[700];
    snprintf(with, sizeof with, "%s&csrf=%s", body, token);
    a = ask(P, (call){"POST", "/api/puzzles/0123456789abcdef/attempt", cookie, with, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404 && has(&a, "no puzzle"), "unknown id: %d %s", a.status, a.body);
    free(a.body);
    char bad[200];
    snprintf(bad, sizeof bad, "moves=%%3Cscript%%3E&csrf=%s", token);
    a = ask(P, (call){"POST", target, cookie, bad, NULL, NULL, NULL, NULL});
    CHECK(a.status == 400 && has(&a, "character"), "malformed: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/api/puzzles/me", cookie, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"history\":[]"), "refusals recorded nothing: %s", a.body);
    free(a.body);

    th_case("solved: rated, the rating on the account and player pages; a replay is unrated");
    a = ask(P, (call){"POST", target, cookie, with, "http://hub.test", NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"result\":\"solved\"") && has(&a, "\"rated\":true"), "%d %s", a.status,
          a.body);
    int after = 0;
    const char *r = a.body ? strstr(a.body, "\"after\":") : NULL;
    if (r)
        after = atoi(r + 8);
    free(a.body);
    CHECK(after > 1500, "a solve raises the start rating: %d", after);
    a = ask(P, (call){"POST", target, cookie, with, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"rated\":false") && has(&a, "\"change\":0"), "replayed: %d %s", a.status,
          a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/account", cookie, NULL, NULL, NULL, NULL, NULL});
    char shown[64];
    snprintf(shown, sizeof shown, "1500 &rarr; %d", after);
    CHECK(a.status == 200 && has(&a, "tc-puzzle-history") && has(&a, shown) && has(&a, "retry, unrated"),
          "account page: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/@/Puzzler", NULL, NULL, NULL, NULL, NULL, NULL});
    snprintf(shown, sizeof shown, "Puzzle rating <strong>%d", after);
    CHECK(a.status == 200 && has(&a, shown), "player page: %s", a.body);
    free(a.body);

    th_case("a slower first move fails the next puzzle; the rate limit answers 429");
    a = ask(P, (call){"GET", "/api/puzzles/next?variant=chess", cookie, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && !has(&a, id), "the next is another puzzle: %s", a.body);
    free(a.body);
    for (int i = 0; i < SRV_PUZZLE_ATTEMPTS_PER_MINUTE + 2; i++) {
        a = ask(P, (call){"POST", target, cookie, with, NULL, NULL, NULL, NULL});
        int st = a.status;
        free(a.body);
        if (st == 429) {
            CHECK(i >= SRV_PUZZLE_ATTEMPTS_PER_MINUTE - 3, "429 after %d", i);
            break;
        }
        CHECK(i < SRV_PUZZLE_ATTEMPTS_PER_MINUTE, "no 429 after %d attempts: %d", i, st);
    }
    tc_position_free(pos);
    tc_egtb_free(t);
    tc_variant_free(var);
    srv_people_stop(P);
    the_site = NULL;
    srv_site_free(site);
}

void suite_puzzles_hub(void)
{
    test_judge();
    test_store();
    test_http();
}
