/* Puzzles on the hub: see puzzles_http.h. */
#include "puzzles_http.h"

#include "puzzle_import.h"
#include "puzzle_judge.h"
#include "puzzle_store.h"
#include "rate_limit.h"
#include "render.h"
#include "session.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct srv_puzzles {
    tp_db *db;
    srv_judge *judge;
    srv_rate *rate;
};

srv_puzzles *srv_puzzles_start(tp_db *db, int seed, tc_error *err)
{
    srv_puzzles *Z = calloc(1, sizeof *Z);
    if (!Z) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    Z->db = db;
    Z->judge = srv_judge_new();
    Z->rate = srv_rate_new(SRV_PUZZLE_ATTEMPTS_PER_MINUTE, NULL);
    if (!Z->judge || !Z->rate) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        srv_puzzles_stop(Z);
        return NULL;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (seed && srv_puzzles_seed(db, (int64_t)ts.tv_sec * 1000, err) < 0) {
        srv_puzzles_stop(Z);
        return NULL;
    }
    return Z;
}

void srv_puzzles_stop(srv_puzzles *Z)
{
    if (!Z)
        return;
    srv_judge_free(Z->judge);
    srv_rate_free(Z->rate);
    free(Z);
}

int srv_puzzles_owns(const char *path)
{
    return !strcmp(path, "/puzzles") || !strcmp(path, "/api/puzzles/next") || !strcmp(path, "/api/puzzles/daily") ||
           !strcmp(path, "/api/puzzles/me") || !strncmp(path, "/api/puzzles/", 13);
}

/* yyyymmdd of a time (UTC). */
static int utc_day(int64_t now_ms)
{
    time_t t = (time_t)(now_ms / 1000);
    struct tm tm;
    gmtime_r(&t, &tm);
    return (tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;
}

/* One parameter of a query ("" when absent); -1 when malformed or long. */
static int query_get(const char *q, const char *name, char *out, size_t n)
{
    out[0] = '\0';
    size_t nl = strlen(name);
    for (const char *s = q; s && *s;) {
        size_t len = strcspn(s, "&");
        if (len > nl && !strncmp(s, name, nl) && s[nl] == '=') {
            char tmp[3 * 64 + 1];
            if (len - nl - 1 >= sizeof tmp || len - nl - 1 >= 3 * n)
                return -1;
            long got = srv_url_decode(s + nl + 1, len - nl - 1, 1, tmp);
            if (got < 0 || (size_t)got >= n)
                return -1;
            memcpy(out, tmp, (size_t)got + 1);
            return 0;
        }
        s += len + (s[len] == '&');
    }
    return 0;
}

static int word_ok(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-'))
            return 0;
    return 1;
}

/* A space-separated list as a JSON array of strings. */
static json_t *words_json(const char *list)
{
    json_t *a = json_array();
    for (const char *s = list; s && *s;) {
        size_t len = strcspn(s, " ");
        if (len)
            json_array_append_new(a, json_stringn(s, len));
        s += len;
        while (*s == ' ')
            s++;
    }
    return a;
}

static json_t *puzzle_json(const tp_puzzle_row *p)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:i, s:s, s:o, s:i, s:i, s:i, s:o, s:o, s:o}", "id", p->id,
                     "variant", p->variant, "kind", p->kind, "material", p->material, "fen", p->fen, "side",
                     p->side ? "black" : "white", "mate_in", p->mate_in, "title", p->title, "themes",
                     words_json(p->themes), "rating", (int)(p->rating.r + 0.5), "plays", p->plays, "solves",
                     p->solves, "accepted_uci", words_json(p->accepted), "line_uci", words_json(p->line), "line",
                     words_json(p->line_san));
}

static json_t *rating_json(const tp_puzzle_player *pl, int known)
{
    return json_pack("{s:i, s:i, s:b, s:i, s:i, s:b}", "rating", (int)(pl->rating.r + 0.5), "rd",
                     (int)(pl->rating.rd + 0.5), "provisional", tg_rating_provisional(pl->rating), "attempts",
                     pl->attempts, "solved", pl->solved, "new", !known);
}

static void answer_json(srv_response *r, int status, json_t *v)
{
    size_t len = 0;
    char *text = v ? srv_json_text(v, &len) : NULL;
    if (!text) {
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    r->status = status;
    r->type = "application/json; charset=utf-8";
    r->owned = text;
    r->body = text;
    r->len = len;
    r->cache = "no-store";
}

/* The variant and theme of a query, checked: 0, or -1 with r answered. */
static int read_filter(const srv_puzzles_call *c, int api, char *variant, char *theme, char *id, srv_response *r)
{
    if (query_get(c->query, "variant", variant, 64) || query_get(c->query, "theme", theme, 33) ||
        query_get(c->query, "id", id, TP_PUZZLE_ID_LEN + 1)) {
        srv_route_error(r, 400, api, "a malformed or over-long variant, theme or id in the query");
        return -1;
    }
    if (!variant[0])
        snprintf(variant, 64, "chess");
    if (!c->site || !srv_site_find(c->site, variant)) {
        srv_route_error(r, 404, api, "no variant '%.64s' on this hub", variant);
        return -1;
    }
    snprintf(variant, 64, "%s", srv_site_find(c->site, variant)->slug);
    if (!word_ok(theme, 32) || !word_ok(id, TP_PUZZLE_ID_LEN)) {
        srv_route_error(r, 400, api, "a theme or an id is letters, digits and '-' only");
        return -1;
    }
    return 0;
}

/* The puzzle for a request: id's, else one near the player's rating (any
 * for a visitor). 1, 0 none, -1 with r answered. */
static int choose(srv_puzzles *Z, const tp_session *s, const char *variant, const char *theme, const char *id,
                  int api, tp_puzzle_row *out, srv_response *r)
{
    tc_error err;
    int got;
    if (id[0]) {
        got = tp_puzzle_get(Z->db, id, out, &err);
        if (got == 0 || (got > 0 && strcmp(out->variant, variant))) {
            srv_route_error(r, 404, api, "no puzzle '%s' in %s", id, variant);
            return -1;
        }
    } else {
        tp_puzzle_player pl;
        unsigned skip = (unsigned)rand();
        got = s ? tp_puzzle_player_get(Z->db, s->user_id, &pl, &err) : 0;
        if (got >= 0)
            got = tp_puzzle_pick(Z->db, variant, theme, s ? s->user_id : NULL, s ? pl.rating.r : 0, skip, out, &err);
    }
    if (got < 0)
        srv_route_error(r, 500, api, "the puzzle store failed: %s", err.msg);
    return got;
}

static json_t *themes_json(srv_puzzles *Z, const char *variant)
{
    char names[SRV_PUZZLE_THEMES][33];
    int counts[SRV_PUZZLE_THEMES];
    tc_error err;
    int n = tp_puzzle_themes(Z->db, variant, names, counts, SRV_PUZZLE_THEMES, &err);
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:s, s:i}", "name", names[i], "count", counts[i]));
    return a;
}

static void puzzles_page(srv_puzzles *Z, const tp_session *s, const srv_puzzles_call *c, srv_response *r)
{
    char variant[64], theme[33], id[TP_PUZZLE_ID_LEN + 1];
    if (read_filter(c, 0, variant, theme, id, r))
        return;
    const srv_page *p = srv_site_find(c->site, variant);
    tc_error err;
    tp_puzzle_row *row = malloc(sizeof *row);
    if (!row) {
        srv_route_error(r, 500, 0, "out of memory");
        return;
    }
    char practice[4];
    /* practice=1: the browser makes unrated puzzles from the endings itself */
    int got = query_get(c->query, "practice", practice, sizeof practice) == 0 && !strcmp(practice, "1")
                  ? 0
                  : choose(Z, s, variant, theme, id, 0, row, r);
    if (got < 0) {
        free(row);
        return;
    }
    if (!got && theme[0]) {
        free(row);
        srv_route_error(r, 404, 0, "no puzzle with the theme '%s' in %s: see /puzzles?variant=%s for its themes",
                        theme, variant, variant);
        return;
    }
    tp_puzzle_player pl;
    int known = s ? tp_puzzle_player_get(Z->db, s->user_id, &pl, &err) : 0;
    json_t *hub = json_pack("{s:o, s:s, s:o, s:o, s:s?, s:b}", "puzzle", got ? puzzle_json(row) : json_null(),
                            "theme", theme, "themes", themes_json(Z, variant), "player",
                            s && known >= 0 ? rating_json(&pl, known) : json_null(), "csrf", s ? s->csrf : NULL,
                            "signed_in", s != NULL);
    char *hub_text = hub ? srv_json_text(hub, NULL) : NULL;
    srv_buf data = {0};
    srv_buf_str(&data, "{\"variant\":");
    srv_buf_str(&data, p->detail_json.p);
    srv_buf_str(&data, ",\"hub\":");
    srv_buf_str(&data, hub_text ? hub_text : "null");
    srv_buf_str(&data, "}");
    free(hub_text);
    char *data_json = srv_buf_take(&data, NULL);
    srv_buf m = {0};
    srv_buf_str(&m, "<noscript><p>The puzzles need JavaScript.");
    if (got) {
        srv_buf_str(&m, " This one: ");
        srv_buf_html(&m, row->title);
        srv_buf_str(&m, ", FEN <code>");
        srv_buf_html(&m, row->fen);
        srv_buf_str(&m, "</code>.");
    }
    srv_buf_str(&m, "</p></noscript>\n<div id=\"tc-app\"></div>");
    char *main_html = srv_buf_take(&m, NULL);
    char title[256];
    snprintf(title, sizeof title, "Puzzles: %s%s%s", p->title, theme[0] ? ", " : "", theme);
    srv_doc d = {"puzzles", title, main_html ? main_html : "", data_json, p->slug};
    size_t len = 0;
    char *doc = data_json && main_html ? srv_render_document(&d, &len) : NULL;
    free(data_json);
    free(main_html);
    free(row);
    srv_route_page(r, doc, len);
    r->cache = "no-store";
}

/* The form's field (urlencoded) decoded into out; "" if none; -1 malformed. */
static int form_field(const char *body, size_t len, const char *name, char *out, size_t n)
{
    out[0] = '\0';
    size_t nl = strlen(name);
    for (size_t i = 0; i < len;) {
        size_t seg = i;
        while (seg < len && body[seg] != '&')
            seg++;
        if (seg - i > nl && !strncmp(body + i, name, nl) && body[i + nl] == '=') {
            if (seg - i - nl - 1 >= n)
                return -1;
            if (srv_url_decode(body + i + nl + 1, seg - i - nl - 1, 1, out) < 0)
                return -1;
        }
        i = seg + 1;
    }
    return 0;
}

static void attempt(srv_puzzles *Z, const tp_session *s, int stale, const srv_puzzles_call *c, const char *id,
                    int64_t now_ms, srv_response *r)
{
    char csrf[64], moves[1200], msg[300];
    const char *body = c->body ? c->body : "";
    if (c->len > 4096 || form_field(body, c->len, "csrf", csrf, sizeof csrf) ||
        form_field(body, c->len, "moves", moves, sizeof moves)) {
        srv_route_error(r, c->len > 4096 ? 413 : 400, 1,
                        "send the form moves=MOVES (coordinates, spaces between), csrf=TOKEN: at most 4096 bytes");
        return;
    }
    int refused = srv_session_change_check(s, stale, c->csrf && c->csrf[0] ? c->csrf : csrf, c->origin, c->host,
                                           c->fetch_site, "log in to have your puzzle attempts rated", msg,
                                           sizeof msg);
    if (refused) {
        srv_route_error(r, refused, 1, "%s", msg);
        return;
    }
    tp_puzzle_row *row = malloc(sizeof *row);
    tc_error err;
    int got = row ? tp_puzzle_get(Z->db, id, row, &err) : -1;
    if (got <= 0) {
        if (got == 0)
            srv_route_error(r, 404, 1, "no puzzle '%.20s'", id);
        else
            srv_route_error(r, 500, 1, "the puzzle store failed: %s", row ? err.msg : "out of memory");
        free(row);
        return;
    }
    const srv_page *p = c->site ? srv_site_find(c->site, row->variant) : NULL;
    if (!p) {
        srv_route_error(r, 404, 1, "puzzle %s is of the variant '%s', which this hub does not have", id, row->variant);
        free(row);
        return;
    }
    char key[48];
    snprintf(key, sizeof key, "puzzle:%s", s->user_id);
    if (!srv_rate_take_key(Z->rate, key)) {
        r->retry_after = 60 / SRV_PUZZLE_ATTEMPTS_PER_MINUTE + 1;
        srv_route_error(r, 429, 1, "more than %d puzzle attempts a minute: wait a moment",
                        SRV_PUZZLE_ATTEMPTS_PER_MINUTE);
        free(row);
        return;
    }
    srv_judge_puzzle jp = {&p->def, row->kind, row->material, row->fen, row->accepted, row->line};
    srv_judgement *j = malloc(sizeof *j);
    if (!j) {
        free(row);
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    srv_judge_attempt(Z->judge, &jp, moves, j);
    if (j->verdict == SRV_JUDGE_BAD || j->verdict == SRV_JUDGE_CANNOT) {
        srv_route_error(r, j->verdict == SRV_JUDGE_BAD ? 400 : 503, 1, "%s", j->message);
        free(j);
        free(row);
        return;
    }
    int solved = j->verdict == SRV_JUDGE_SOLVED;
    tp_puzzle_outcome o;
    if (tp_puzzle_attempt(Z->db, s->user_id, id, solved, j->moves, now_ms, &o, &err)) {
        srv_route_error(r, 500, 1, "the puzzle store failed: %s", err.msg);
    } else {
        json_t *v = json_pack(
            "{s:s, s:s, s:b, s:i, s:s, s:s, s:{s:i, s:i, s:i, s:i}, s:{s:i, s:i}}", "puzzle", id, "result",
            solved ? "solved" : "failed", "rated", o.rated, "failed_at", j->failed_at, "moves", j->moves,
            "message", j->message, "rating", "before", (int)(o.before.r + 0.5), "after", (int)(o.after.r + 0.5),
            "change", (int)(o.after.r + 0.5) - (int)(o.before.r + 0.5), "rd", (int)(o.after.rd + 0.5),
            "puzzle_rating", "before", (int)(o.puzzle_before.r + 0.5), "after", (int)(o.puzzle_after.r + 0.5));
        answer_json(r, 200, v);
    }
    free(j);
    free(row);
}

static void me_json(srv_puzzles *Z, const tp_session *s, int stale, srv_response *r)
{
    if (!s) {
        srv_route_error(r, 401, 1, "%s", stale ? "your session has ended: log in again" : "not logged in");
        return;
    }
    tc_error err;
    tp_puzzle_player pl;
    tp_puzzle_step steps[SRV_PUZZLE_HISTORY];
    int known = tp_puzzle_player_get(Z->db, s->user_id, &pl, &err);
    int n = known < 0 ? -1 : tp_puzzle_history(Z->db, s->user_id, steps, SRV_PUZZLE_HISTORY, &err);
    if (n < 0) {
        srv_route_error(r, 500, 1, "the puzzle store failed: %s", err.msg);
        return;
    }
    json_t *h = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(h, json_pack("{s:s, s:s, s:s, s:b, s:b, s:i, s:i, s:I}", "puzzle", steps[i].puzzle_id,
                                           "variant", steps[i].variant, "title", steps[i].title, "solved",
                                           steps[i].solved, "rated", steps[i].rated, "before",
                                           (int)(steps[i].before + 0.5), "after", (int)(steps[i].after + 0.5),
                                           "at_ms", (json_int_t)steps[i].at_ms));
    answer_json(r, 200, json_pack("{s:o, s:o}", "rating", rating_json(&pl, known), "history", h));
}

void srv_puzzles_http(srv_puzzles *Z, const tp_session *s, int stale, const srv_puzzles_call *c, int64_t now_ms,
                      srv_response *r)
{
    int api = !strncmp(c->path, "/api/", 5);
    int get = !strcmp(c->method, "GET") || !strcmp(c->method, "HEAD"), post = !strcmp(c->method, "POST");
    const char *rest = api ? c->path + 13 : NULL; /* after /api/puzzles/ */
    size_t idlen = rest ? strcspn(rest, "/") : 0;
    int is_attempt = rest && !strcmp(rest + idlen, "/attempt");
    if (is_attempt ? !post : !get) {
        r->allow = is_attempt ? 3 : 1;
        srv_route_error(r, 405, api, is_attempt ? "%s takes the attempt's form: POST" : "%s only reads (GET, HEAD)",
                        c->path);
        return;
    }
    if (!api) {
        puzzles_page(Z, s, c, r);
        return;
    }
    if (!strcmp(rest, "me")) {
        me_json(Z, s, stale, r);
        return;
    }
    char id[TP_PUZZLE_ID_LEN + 1];
    if (strcmp(rest, "next") && strcmp(rest, "daily")) {
        if (!idlen || idlen > TP_PUZZLE_ID_LEN || (rest[idlen] && !is_attempt)) {
            srv_route_error(r, 404, 1, "no such API route: %.200s", c->path);
            return;
        }
        snprintf(id, sizeof id, "%.*s", (int)idlen, rest);
        if (!word_ok(id, TP_PUZZLE_ID_LEN)) {
            srv_route_error(r, 404, 1, "no puzzle '%.20s'", id);
            return;
        }
        if (is_attempt) {
            attempt(Z, s, stale, c, id, now_ms, r);
            return;
        }
    }
    tp_puzzle_row *row = malloc(sizeof *row);
    if (!row) {
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    tc_error err;
    int got;
    if (!strcmp(rest, "next") || !strcmp(rest, "daily")) {
        char variant[64], theme[33], qid[TP_PUZZLE_ID_LEN + 1];
        if (read_filter(c, 1, variant, theme, qid, r)) {
            free(row);
            return;
        }
        got = rest[0] == 'd' ? tp_puzzle_daily(Z->db, variant, utc_day(now_ms), row, &err)
                             : choose(Z, s, variant, theme, qid, 1, row, r);
        if (got == 0)
            srv_route_error(r, 404, 1, "no puzzle in %s%s%s", variant, theme[0] ? " with the theme " : "", theme);
    } else {
        got = tp_puzzle_get(Z->db, id, row, &err);
        if (got == 0)
            srv_route_error(r, 404, 1, "no puzzle '%s'", id);
    }
    if (got < 0 && r->status < 400)
        srv_route_error(r, 500, 1, "the puzzle store failed: %s", err.msg);
    else if (got > 0)
        answer_json(r, 200, puzzle_json(row));
    free(row);
}

/* ---------------------------------------------------------------- parts of other pages */

void srv_puzzles_daily_html(srv_puzzles *Z, const srv_site *site, const char *variant, int64_t now_ms, srv_buf *b)
{
    if (!Z || !site)
        return;
    int day = utc_day(now_ms);
    tc_error err;
    const srv_page *p = variant ? srv_site_find(site, variant) : NULL;
    if (!variant) { /* the hub's: the variants with puzzles in turn, one a day */
        int with[256], n = 0;
        for (int i = 0; i < site->nvariants && n < 256; i++)
            if (tp_puzzle_count(Z->db, site->pages[i].slug, NULL, &err) > 0)
                with[n++] = i;
        if (!n)
            return;
        p = &site->pages[with[(now_ms / 86400000) % n]];
    }
    tp_puzzle_row *row = p ? malloc(sizeof *row) : NULL;
    if (!row || tp_puzzle_daily(Z->db, p->slug, day, row, &err) <= 0) {
        free(row);
        return;
    }
    char label[900];
    snprintf(label, sizeof label, "%s: %s", row->title, row->fen);
    char *svg = srv_render_position_svg(p->variant, row->fen, label, p->def.height > 8 ? 14 : 22, row->side);
    srv_buf_str(b, "<section class=\"tc-daily\" data-daily-puzzle=\"");
    srv_buf_html(b, row->id);
    srv_buf_str(b, "\"><h2>Puzzle of the day</h2><a class=\"tc-daily-board\" href=\"/puzzles?variant=");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "&amp;id=");
    srv_buf_html(b, row->id);
    srv_buf_str(b, "\">");
    srv_buf_str(b, svg ? svg : "");
    srv_buf_str(b, "</a><p class=\"tc-daily-title\"><a href=\"/puzzles?variant=");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "&amp;id=");
    srv_buf_html(b, row->id);
    srv_buf_str(b, "\">");
    srv_buf_html(b, row->title);
    srv_buf_str(b, "</a></p><p class=\"tc-note\">");
    srv_buf_html(b, p->title);
    srv_buf_printf(b, " &middot; rated %.0f &middot; played %d time%s &middot; <a href=\"/puzzles?variant=", row->rating.r,
                   row->plays, row->plays == 1 ? "" : "s");
    srv_buf_html(b, p->slug);
    srv_buf_str(b, "\">more puzzles</a></p></section>\n");
    free(svg);
    free(row);
}

int srv_puzzles_rating_html(srv_puzzles *Z, const char *user_id, srv_buf *b, tc_error *err)
{
    tp_puzzle_player pl;
    int known = tp_puzzle_player_get(Z->db, user_id, &pl, err);
    if (known < 0)
        return -1;
    srv_buf_str(b, "<h2>Puzzles</h2>\n");
    if (!known || !pl.attempts)
        srv_buf_str(b, "<p class=\"tc-none\">No rated puzzle yet.</p>\n");
    else
        srv_buf_printf(b,
                       "<p class=\"tc-puzzle-rating\">Puzzle rating <strong>%.0f%s</strong> (deviation %.0f), %d "
                       "rated puzzle%s, %d solved.</p>\n",
                       pl.rating.r, tg_rating_provisional(pl.rating) ? "?" : "", pl.rating.rd, pl.attempts,
                       pl.attempts == 1 ? "" : "s", pl.solved);
    return 0;
}

int srv_puzzles_history_html(srv_puzzles *Z, const srv_site *site, const char *user_id, srv_buf *b, tc_error *err)
{
    if (srv_puzzles_rating_html(Z, user_id, b, err))
        return -1;
    tp_puzzle_step steps[SRV_PUZZLE_HISTORY];
    int n = tp_puzzle_history(Z->db, user_id, steps, SRV_PUZZLE_HISTORY, err);
    if (n < 0)
        return -1;
    if (!n) {
        srv_buf_str(b, "<p><a href=\"/puzzles?variant=chess\">Solve a puzzle</a>: the first try at each is rated.</p>\n");
        return 0;
    }
    srv_buf_str(b, "<table class=\"tc-puzzle-history\"><thead><tr><th>Date</th><th>Puzzle</th><th>Result</th>"
                   "<th>Rating</th></tr></thead><tbody>\n");
    for (int i = 0; i < n; i++) {
        time_t at = (time_t)(steps[i].at_ms / 1000);
        struct tm tm;
        char day[24];
        gmtime_r(&at, &tm);
        strftime(day, sizeof day, "%Y-%m-%d %H:%M", &tm);
        const srv_page *p = site ? srv_site_find(site, steps[i].variant) : NULL;
        srv_buf_printf(b, "<tr data-puzzle=\"%s\"><td>%s</td><td><a href=\"/puzzles?variant=", steps[i].puzzle_id,
                       day);
        srv_buf_html(b, steps[i].variant);
        srv_buf_printf(b, "&amp;id=%s\">", steps[i].puzzle_id);
        srv_buf_html(b, steps[i].title);
        srv_buf_str(b, "</a> <span class=\"tc-puzzle-variant\">");
        srv_buf_html(b, p ? p->title : steps[i].variant);
        srv_buf_printf(b, "</span></td><td class=\"tc-%s\">%s</td>", steps[i].solved ? "solved" : "failed",
                       steps[i].solved ? "solved" : "failed");
        int before = (int)(steps[i].before + 0.5), after = (int)(steps[i].after + 0.5);
        if (steps[i].rated)
            srv_buf_printf(b, "<td class=\"tc-rating-change\">%d &rarr; %d (%+d)</td></tr>\n", before, after,
                           after - before);
        else
            srv_buf_str(b, "<td class=\"tc-note\">retry, unrated</td></tr>\n");
    }
    srv_buf_str(b, "</tbody></table>\n");
    return 0;
}

void srv_puzzles_variant_page(srv_puzzles *Z, const srv_site *site, const char *slug, int64_t now_ms,
                              srv_response *r)
{
    const srv_page *p = site ? srv_site_find(site, slug) : NULL;
    if (!p || !p->ok || !p->html.p) {
        char hint[300] = "";
        if (site)
            srv_site_suggest(site, slug, hint, sizeof hint);
        srv_route_error(r, 404, 0, "no variant page '%.64s': %s", slug, hint);
        return;
    }
    static const char mark[] = "<!--tc-daily-->";
    const char *at = strstr(p->html.p, mark);
    srv_buf b = {0};
    if (at) {
        srv_buf_put(&b, p->html.p, (size_t)(at - p->html.p));
        srv_puzzles_daily_html(Z, site, p->slug, now_ms, &b);
        srv_buf_str(&b, at + sizeof mark - 1);
    } else {
        srv_buf_str(&b, p->html.p);
    }
    size_t len = 0;
    char *doc = srv_buf_take(&b, &len);
    srv_route_page(r, doc, len);
    r->cache = "no-cache";
}
