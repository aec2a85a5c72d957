/* The lobby and the home page through the people pages' handler
 * (server/people.h, lobby.h): seeks, accepting, the games list, the home
 * page's summary. Runs on SQLite, or on TG_TEST_DB's PostgreSQL (make
 * people-pg-test). */
#define _DEFAULT_SOURCE
#include "harness.h"
#include "lobby.h"
#include "people_client.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Signs up NAME (password "lobby password") from its own address; the
 * cookie and the CSRF token. */
static void member(srv_people *P, const char *name, char *cookie, char *token)
{
    char body[160], addr[32];
    snprintf(body, sizeof body, "name=%s&password=lobby+password&password2=lobby+password", name);
    snprintf(addr, sizeof addr, "192.0.2.%d", 100 + (int)(strlen(name) * 7 + (unsigned char)name[0]) % 100);
    answer a = ask(P, (call){"POST", "/signup", NULL, body, NULL, addr, NULL, NULL});
    CHECK(a.status == 303, "sign-up %s: %d %s", name, a.status, a.body);
    snprintf(cookie, 64, "%s", a.cookie);
    free(a.body);
    csrf_of(P, cookie, token, 64);
}

/* The id of the n-th open seek in /api/lobby ("" if none). */
static void seek_id(srv_people *P, int n, char *out)
{
    answer a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    const char *p = a.body;
    for (int i = 0; p && i <= n; i++) {
        p = strstr(p, "\"id\":\"");
        if (p)
            p += 6;
    }
    snprintf(out, TP_SEEK_ID_LEN + 1, "%.*s", p ? TP_SEEK_ID_LEN : 0, p ? p : "");
    free(a.body);
}

/* The id of the listed seek whose JSON holds `mark` (seeks made in one
 * millisecond are listed in id order, so a place in the list is no way to
 * name one); "" when none does. */
static void seek_with(srv_people *P, const char *mark, char *out)
{
    answer a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    const char *hit = a.body ? strstr(a.body, mark) : NULL, *id = NULL;
    for (const char *p = a.body; hit && (p = strstr(p, "\"id\":\"")) && p < hit; p += 6)
        id = p + 6;
    snprintf(out, TP_SEEK_ID_LEN + 1, "%.*s", id ? TP_SEEK_ID_LEN : 0, id ? id : "");
    free(a.body);
}

static void test_lobby(void)
{
    tc_error e;
    srv_site *site = srv_site_load("variants", NULL, &e);
    CHECK(site != NULL, "site: %s", e.msg);
    if (!site)
        return;
    the_site = site;
    srv_people *P = start(0, NULL);
    if (!P) {
        srv_site_free(site);
        return;
    }
    char ann[64], at[64], ben[64], bt[64], cid[64], ct[64], form[256], sid[TP_SEEK_ID_LEN + 1], url[96];
    member(P, "Ann", ann, at);
    member(P, "Ben", ben, bt);
    member(P, "Cid", cid, ct);

    th_case("seeks: anonymous 401, no CSRF token 403, bad fields 400 with the reason, none made");
    answer a = ask(P, (call){"POST", "/lobby/seek", NULL, "variant=klein-bottle&clock=5%2B3", NULL, NULL, NULL, NULL});
    CHECK(a.status == 401 && has(&a, "log in to post"), "anonymous: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/lobby/seek", ann, "variant=klein-bottle&clock=5%2B3", NULL, NULL, NULL, NULL});
    CHECK(a.status == 403, "no token: %d", a.status);
    free(a.body);
    struct {
        const char *fields, *needle;
    } bad[] = {{"variant=nope&clock=5%2B3", "no variant"},
               {"variant=torus&clock=1%2B0", "clock must be one of"},
               {"variant=torus&clock=5%2B3&color=green", "color must be"},
               {"variant=torus&clock=5%2B3&rated=yes", "rated must be"},
               {"variant=torus&clock=5%2B3&min_rating=1800&max_rating=1600", "is above the highest"},
               {"variant=torus&clock=5%2B3&min_rating=12", "400 to 3500"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(form, sizeof form, "csrf=%s&%s", at, bad[i].fields);
        a = ask(P, (call){"POST", "/lobby/seek", ann, form, NULL, NULL, NULL, NULL});
        CHECK(a.status == 400 && has(&a, bad[i].needle), "%s: %d", bad[i].fields, a.status);
        free(a.body);
    }
    seek_id(P, 0, sid);
    CHECK(!sid[0], "no seek was made: %s", sid);

    th_case("a rated Klein-bottle seek; its owner cannot take it; another player can, once; both land in the game");
    snprintf(form, sizeof form, "csrf=%s&variant=klein-bottle&clock=5%%2B3&rated=1&color=white", at);
    a = ask(P, (call){"POST", "/lobby/seek", ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strcmp(a.location, "/lobby"), "seek: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "\"name\":\"Ann\"") && has(&a, "\"variant\":\"klein-bottle\"") &&
              has(&a, "\"rated\":true") && has(&a, "\"clock\":\"5+3\"") && has(&a, "\"rating\":1500") &&
              has(&a, "\"provisional\":true"),
          "list: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 200 && has(&a, "Klein Bottle") && has(&a, "/accept\"") && has(&a, "Post a seek"),
          "lobby page for Ben");
    free(a.body);
    seek_id(P, 0, sid);
    CHECK(strlen(sid) == TP_SEEK_ID_LEN, "seek id '%s'", sid);
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", sid);
    snprintf(form, sizeof form, "csrf=%s", at);
    a = ask(P, (call){"POST", url, ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 409 && has(&a, "your own seek"), "own seek: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, "https://evil.test", NULL, NULL, NULL});
    CHECK(a.status == 403, "cross-origin accept: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strncmp(a.location, "/game/", 6) && strstr(a.location, "#token="), "accept: %d %s",
          a.status, a.location);
    char game[TG_ID_LEN + 1], ben_token[TG_TOKEN_LEN + 1];
    snprintf(game, sizeof game, "%.16s", a.location + 6);
    snprintf(ben_token, sizeof ben_token, "%s", strstr(a.location, "#token=") ? strstr(a.location, "#token=") + 7 : "");
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", ct);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 409 && has(&a, "taken"), "a taken seek: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ann, NULL, NULL, NULL, NULL, NULL});
    char mylink[96];
    snprintf(mylink, sizeof mylink, "/game/%s#token=", game);
    const char *mine = a.body ? strstr(a.body, mylink) : NULL;
    CHECK(has(&a, "Your games") && mine && strlen(mine) > 23 + TG_TOKEN_LEN &&
              strncmp(mine + strlen(mylink), ben_token, TG_TOKEN_LEN) && has(&a, "against Ben") &&
              has(&a, "you play White, your turn"),
          "Ann's lobby lists the game with her own token: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    char benlink[96];
    snprintf(benlink, sizeof benlink, "/game/%s#token=%s", game, ben_token);
    CHECK(has(&a, benlink) && has(&a, "you play Black, their turn"), "Ben's lobby: his token, their turn");
    free(a.body);
    tg_store *st = tg_store_open(db_url, &e);
    tg_game g;
    CHECK(st && tg_store_load(st, game, &g, &e) == TG_OK, "the game is stored: %s", e.msg);
    if (st && !strcmp(g.id, game)) {
        CHECK(tg_game_side_of(&g, ben_token) == TC_BLACK, "Ann asked for White: Ben's token is Black's");
        CHECK(g.clock.kind == TG_CLOCK_FISCHER && g.clock.initial_ms == 300000 && g.clock.increment_ms == 3000,
              "the seek's clock");
        CHECK(!strcmp(g.def.name, "klein-bottle"), "variant %s", g.def.name);

        th_case("the result of a rated game moves both ratings as Glicko-2 says, once");
        srv_lobby *L = srv_people_lobby(P);
        CHECK(srv_lobby_count_results(L) == 0, "nothing to count while the game goes on");
        int64_t v = g.version;
        int64_t now = (int64_t)time(NULL) * 1000; /* both sides move first: else a resignation aborts */
        CHECK(tg_game_rebuild(&g, &e) == TG_OK && tg_game_move(&g, TC_WHITE, "e3", now, &e) == TG_OK &&
                  tg_game_move(&g, TC_BLACK, "e6", now, &e) == TG_OK && tg_game_resign(&g, TC_WHITE, now, &e) == TG_OK,
              "resign: %s", e.msg);
        CHECK(tg_store_save(st, &g, v, 0, &e) == TG_OK, "save: %s", e.msg);
        /* the lobby's thread may count it first: either way, once */
        srv_lobby_count_results(L);
        CHECK(srv_lobby_count_results(L) == 0, "nothing left to count");
        tg_rating n0 = tg_rating_new();
        tg_rating won = tg_rating_after_game(n0, n0, 1), lost = tg_rating_after_game(n0, n0, 0);
        char want[64];
        a = ask(P, (call){"GET", "/@/Ben", NULL, NULL, NULL, NULL, NULL, NULL});
        snprintf(want, sizeof want, ">%.0f<abbr", won.r);
        CHECK(won.r > 1600 && has(&a, want) && has(&a, "<td>1</td>"), "Ben won: %s not in %s", want, a.body);
        free(a.body);
        a = ask(P, (call){"GET", "/@/Ann", NULL, NULL, NULL, NULL, NULL, NULL});
        snprintf(want, sizeof want, ">%.0f<abbr", lost.r);
        CHECK(lost.r < 1400 && has(&a, want) && has(&a, "<td>1</td>"), "Ann lost: %s", want);
        char link[64];
        snprintf(link, sizeof link, "<td>0-1</td><td><a href=\"/game/%s\">", game);
        CHECK(has(&a, "Rating history") && has(&a, "<h2>Games</h2>") && has(&a, link) &&
                  has(&a, "<a href=\"/@/Ann\">Ann</a> <span class=\"tc-rating\">(1500?)</span></td><td><a "
                          "href=\"/@/Ben\">Ben</a> <span class=\"tc-rating\">(1500?)</span>"),
              "Ann's page lists the game (White Ann, Black Ben, 0-1, the ratings they began with) and her "
              "history: %s", a.body);
        free(a.body);
        tg_game_free(&g);
    }
    tg_store_close(st);

    th_case("limits: 3 open seeks an account (429); withdrawing one; rating ranges keep others out (403)");
    int last = 0;
    for (int i = 0; i < SRV_SEEKS_PER_USER + 1; i++) {
        snprintf(form, sizeof form, "csrf=%s&variant=torus&clock=corr3", ct);
        a = ask(P, (call){"POST", "/lobby/seek", cid, form, NULL, NULL, NULL, NULL});
        last = a.status;
        free(a.body);
    }
    CHECK(last == 429, "the 4th seek: %d", last);
    seek_id(P, 0, sid);
    snprintf(url, sizeof url, "/lobby/seek/%s/cancel", sid);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "withdrawing another's seek: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", ct);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "withdraw: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s&variant=klein-bottle&clock=10%%2B5&min_rating=1580", ct);
    a = ask(P, (call){"POST", "/lobby/seek", cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "a seek with a range: %d", a.status);
    free(a.body);
    seek_with(P, "\"min_rating\":1580", sid);
    CHECK(sid[0], "the seek with a range is listed");
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", sid);
    snprintf(form, sizeof form, "csrf=%s", at);
    a = ask(P, (call){"POST", url, ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "outside this seek"), "Ann's rating is below the range: %d %s", a.status, a.body);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "Ben's is within it: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"POST", "/lobby/seek/000000000000/accept", ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "no such seek: %d", a.status);
    free(a.body);

    th_case("challenges: to oneself 400, to nobody 404, anonymous 401; only the named player may accept");
    snprintf(form, sizeof form, "csrf=%s&variant=torus&clock=corr3", ct);
    a = ask(P, (call){"POST", "/@/cid/challenge", cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 400 && has(&a, "challenge yourself"), "self: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s&variant=torus&clock=corr3", at);
    a = ask(P, (call){"POST", "/@/Nobody/challenge", ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404 && has(&a, "no player"), "nobody: %d", a.status);
    free(a.body);
    a = ask(P, (call){"POST", "/@/Ben/challenge", NULL, "variant=torus&clock=corr3", NULL, NULL, NULL, NULL});
    CHECK(a.status == 401, "anonymous: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/@/Ben/challenge", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(a.status == 405, "GET: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/@/Ben", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(has(&a, "action=\"/@/Ben/challenge\""), "Ben's page has a challenge form for Ann");
    free(a.body);
    a = ask(P, (call){"GET", "/@/Ann", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(!has(&a, "/challenge\""), "but not her own page");
    free(a.body);
    a = ask(P, (call){"POST", "/@/BEN/challenge", ann, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "Ann challenges Ben: %d %s", a.status, a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/api/lobby", NULL, NULL, NULL, NULL, NULL, NULL});
    CHECK(!has(&a, "\"name\":\"Ann\""), "a challenge is not in the public list: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    const char *ch = a.body ? strstr(a.body, "Challenges to you") : NULL;
    const char *dec = ch ? strstr(ch, "/decline\"") : NULL;
    char chid[TP_SEEK_ID_LEN + 1] = "";
    if (dec && dec - ch > TP_SEEK_ID_LEN)
        snprintf(chid, sizeof chid, "%.12s", dec - TP_SEEK_ID_LEN);
    CHECK(ch && strstr(ch, "Ann challenges you") && strlen(chid) == TP_SEEK_ID_LEN, "Ben sees it: %s", a.body);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(has(&a, "Your challenges") && has(&a, "Ben is challenged"), "Ann sees hers");
    free(a.body);
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", chid);
    snprintf(form, sizeof form, "csrf=%s", ct);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 403 && has(&a, "is for Ben"), "Cid cannot take Ben's challenge: %d", a.status);
    free(a.body);
    snprintf(url, sizeof url, "/lobby/seek/%s/decline", chid);
    a = ask(P, (call){"POST", url, cid, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 404, "nor decline it: %d", a.status);
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303, "Ben declines: %d", a.status);
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ann, NULL, NULL, NULL, NULL, NULL});
    CHECK(!has(&a, "Your challenges"), "declined: gone from Ann's lobby");
    free(a.body);
    snprintf(form, sizeof form, "csrf=%s&variant=mobius&clock=10%%2B5&color=black", at);
    a = ask(P, (call){"POST", "/@/Ben/challenge", ann, form, NULL, NULL, NULL, NULL});
    free(a.body);
    a = ask(P, (call){"GET", "/lobby", ben, NULL, NULL, NULL, NULL, NULL});
    ch = a.body ? strstr(a.body, "Challenges to you") : NULL;
    const char *acc = ch ? strstr(ch, "/accept\"") : NULL;
    if (acc && acc - ch > TP_SEEK_ID_LEN)
        snprintf(chid, sizeof chid, "%.12s", acc - TP_SEEK_ID_LEN);
    free(a.body);
    snprintf(url, sizeof url, "/lobby/seek/%s/accept", chid);
    snprintf(form, sizeof form, "csrf=%s", bt);
    a = ask(P, (call){"POST", url, ben, form, NULL, NULL, NULL, NULL});
    CHECK(a.status == 303 && !strncmp(a.location, "/game/", 6), "Ben accepts the second: %d %s", a.status, a.location);
    free(a.body);
    srv_people_stop(P);
    the_site = NULL;
    srv_site_free(site);
}

/* The home page's lobby summary escapes what it shows: a seek on a page
 * whose title is markup shows the title as text. */
static void test_home_summary(void)
{
    th_case("home page: the lobby summary, a page title of markup shown as text");
    FILE *f = fopen("variants/torus.md", "rb");
    CHECK(f != NULL, "variants/torus.md");
    if (!f)
        return;
    static char text[64 * 1024];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *title = strstr(text, "title: Toroidal Chess\n"), *slug = strstr(text, "slug: torus\n");
    CHECK(title && slug, "torus.md's front matter changed");
    if (!title || !slug)
        return;
    static char page[64 * 1024 + 64];
    snprintf(page, sizeof page, "%.*stitle: \"<b>Tor & us</b>\"\n%.*sslug: tor-us\n%s", (int)(title - text), text,
             (int)(slug - title - 22), title + 22, slug + 12);
    const char *names[] = {"tor-us.md"}, *texts[] = {page};
    tc_error e;
    srv_site *site = srv_site_from_texts("test", NULL, 1, names, texts, NULL, &e);
    CHECK(site && srv_site_find(site, "tor-us"), "site: %s", site ? "no page tor-us" : e.msg);
    if (!site || !srv_site_find(site, "tor-us")) {
        srv_site_free(site);
        return;
    }
    the_site = site;
    srv_people *P = start(0, NULL);
    if (P) {
        char esc[64], et[64], form[160];
        member(P, "Esc", esc, et);
        snprintf(form, sizeof form, "csrf=%s&variant=tor-us&clock=corr3", et);
        answer a = ask(P, (call){"POST", "/lobby/seek", esc, form, NULL, "198.51.100.77", NULL, NULL});
        CHECK(a.status == 303, "seek on tor-us: %d %s", a.status, a.body);
        free(a.body);
        a = ask(P, (call){"GET", "/", NULL, NULL, NULL, NULL, NULL, NULL});
        CHECK(a.status == 200 && has(&a, "href=\"/@/Esc\">Esc</a> (1500?): &lt;b&gt;Tor &amp; us&lt;/b&gt;, 3 days a move, casual") &&
                  !has(&a, "<b>Tor"),
              "the summary: %s", a.body ? strstr(a.body, "tc-lobby-summary") : "");
        free(a.body);
        srv_people_stop(P);
    }
    the_site = NULL;
    srv_site_free(site);
}

void suite_people_lobby(void)
{
    test_lobby();
    test_home_summary();
}
