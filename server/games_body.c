/* The API's requests and answers: see games_body.h. */
#include "games_body.h"

#include "render.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

void srv_api_json(srv_response *r, int status, json_t *v)
{
    size_t len = 0;
    char *text = srv_json_text(v, &len);
    if (!text) {
        srv_route_error(r, 500, 1, "out of memory");
        return;
    }
    r->status = status;
    r->type = SRV_TYPE_JSON;
    r->cache = "no-store";
    r->owned = text;
    r->body = text;
    r->len = len;
}

void srv_api_reset(srv_response *r)
{
    memset(r, 0, sizeof *r);
    r->fd = -1;
    r->status = 200;
    r->cache = "no-cache";
}


/* Reads a JSON object body with only the named fields. NULL with the
 * answer set on bad input. */
static json_t *read_body(const char *body, size_t len, const char *const *fields, srv_response *r)
{
    json_error_t je;
    json_t *v = json_loadb(body, len, JSON_REJECT_DUPLICATES, &je);
    if (!v) {
        srv_route_error(r, 400, 1, "malformed JSON at line %d column %d: %s", je.line, je.column, je.text);
        return NULL;
    }
    if (!json_is_object(v)) {
        json_decref(v);
        srv_route_error(r, 400, 1, "the body must be a JSON object");
        return NULL;
    }
    const char *key;
    json_t *val;
    json_object_foreach(v, key, val)
    {
        int known = 0;
        for (int i = 0; fields[i] && !known; i++)
            known = !strcmp(key, fields[i]);
        if (!known) {
            srv_route_error(r, 400, 1, "unknown field '%.64s'", key);
            json_decref(v);
            return NULL;
        }
    }
    return v;
}

/* An optional string field: -1 (answer set) when present but not a string
 * of at most max bytes. */
static int str_field(json_t *o, const char *name, size_t max, const char **out, srv_response *r)
{
    json_t *v = json_object_get(o, name);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v)) {
        srv_route_error(r, 400, 1, "field '%s' must be a string", name);
        return -1;
    }
    if (json_string_length(v) > max || strlen(json_string_value(v)) != json_string_length(v)) {
        srv_route_error(r, 400, 1, "field '%s' is longer than %zu bytes or holds a NUL", name, max);
        return -1;
    }
    *out = json_string_value(v);
    return 0;
}

static int int_field(json_t *o, const char *name, long long lo, long long hi, long long *out, srv_response *r)
{
    json_t *v = json_object_get(o, name);
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
        srv_route_error(r, 400, 1, "field '%s' must be an integer from %lld to %lld", name, lo, hi);
        return -1;
    }
    *out = json_integer_value(v);
    return 1;
}


/* Reads and checks a create request: 0, or -1 with the answer set. */
int srv_api_create_body(const char *body, size_t len, srv_create_req *q, srv_response *r)
{
    static const char *const fields[] = {"variant", "page", "fen", "clock", "engine", "level", NULL};
    memset(q, 0, sizeof *q);
    q->engine_side = -1;
    q->level = 10;
    json_t *b = q->body = read_body(body, len, fields, r);
    if (!b)
        return -1;
    const char *engine;
    if (str_field(b, "variant", 63, &q->slug, r) || str_field(b, "page", SRV_MAX_PAGE_TEXT, &q->page, r) ||
        str_field(b, "fen", 700, &q->fen, r) || str_field(b, "engine", 8, &engine, r) ||
        int_field(b, "level", 1, 20, &q->level, r) < 0)
        goto bad;
    if (!q->slug == !q->page) {
        srv_route_error(r, 400, 1, "give either 'variant' (a slug) or 'page' (a page's front matter)");
        goto bad;
    }
    if (engine && strcmp(engine, "none")) {
        if (!strcmp(engine, "white"))
            q->engine_side = TC_WHITE;
        else if (!strcmp(engine, "black"))
            q->engine_side = TC_BLACK;
        else {
            srv_route_error(r, 400, 1, "field 'engine' must be \"white\", \"black\" or null");
            goto bad;
        }
    }
    json_t *cj = json_object_get(b, "clock");
    if (cj && !json_is_null(cj)) {
        static const char *const cf[] = {"kind", "initial_ms", "increment_ms", "days", NULL};
        const char *kind = NULL;
        if (!json_is_object(cj)) {
            srv_route_error(r, 400, 1, "field 'clock' must be an object or null");
            goto bad;
        }
        const char *key;
        json_t *val;
        json_object_foreach(cj, key, val)
        {
            int known = 0;
            for (int i = 0; cf[i]; i++)
                known |= !strcmp(cf[i], key);
            if (!known) {
                srv_route_error(r, 400, 1, "unknown field 'clock.%.64s'", key);
                goto bad;
            }
        }
        if (str_field(cj, "kind", 20, &kind, r))
            goto bad;
        long long ini = 0, inc = 0, days = 0;
        if (int_field(cj, "initial_ms", 0, 30LL * 86400000, &ini, r) < 0 ||
            int_field(cj, "increment_ms", 0, 86400000, &inc, r) < 0 || int_field(cj, "days", 0, 365, &days, r) < 0)
            goto bad;
        if (kind && !strcmp(kind, "fischer")) {
            q->clock.kind = TG_CLOCK_FISCHER;
            q->clock.initial_ms = ini;
            q->clock.increment_ms = inc;
        } else if (kind && !strcmp(kind, "correspondence")) {
            q->clock.kind = TG_CLOCK_CORRESPONDENCE;
            q->clock.days = (int)days;
        } else if (!kind || strcmp(kind, "none")) {
            srv_route_error(r, 400, 1, "clock.kind must be \"fischer\", \"correspondence\" or \"none\"");
            goto bad;
        }
    }
    return 0;
bad:
    json_decref(b);
    q->body = NULL;
    return -1;
}

/* The variant a create request names: 0, or -1 with the answer set. */
int srv_api_create_variant(const srv_site *site, const srv_create_req *q, tc_variant_def *def, srv_response *r)
{
    tc_error err;
    if (q->slug) {
        const srv_page *p = site ? srv_site_find(site, q->slug) : NULL;
        if (p)
            *def = p->def;
        else if (tc_preset_find(q->slug, def, &err)) {
            srv_route_error(r, 404, 1, "no variant '%.64s'", q->slug);
            return -1;
        }
    } else if (tc_frontmatter_parse(q->page, strlen(q->page), def, &err)) {
        srv_route_error(r, 400, 1, "page: %s", err.msg);
        return -1;
    } else {
        /* A custom page's identity is "custom:" and a hash of its text:
         * slugs hold only a-z, 0-9 and '-', so it can never pose as a hub
         * variant (in lists, on the game page, in the PGN). */
        uint64_t h = 1469598103934665603ull;
        for (const char *p = q->page; *p; p++)
            h = (h ^ (unsigned char)*p) * 1099511628211ull;
        snprintf(def->name, sizeof def->name, "custom:%016llx", (unsigned long long)h);
    }
    return 0;
}


/* Reads and checks the body of an action: the body (the caller's to
 * free), or NULL with the answer set. */
json_t *srv_api_action_body(const char *action, const char *body, size_t len, const char **move_out,
                            const char **what_out, srv_response *r)
{
    static const char *const fields[] = {"token", "move", "action", "text", "csrf", NULL};
    json_t *b = read_body(body, len, fields, r);
    if (!b)
        return NULL;
    const char *tok = NULL, *move = NULL, *what = NULL, *text = NULL;
    if (str_field(b, "token", 64, &tok, r) || str_field(b, "move", 32, &move, r) ||
        str_field(b, "action", 16, &what, r) || str_field(b, "text", SRV_CHAT_MAX, &text, r)) {
        json_decref(b);
        return NULL;
    }
    int is_move = !strcmp(action, "move"), is_draw = !strcmp(action, "draw"), is_tb = !strcmp(action, "takeback"),
        is_resign = !strcmp(action, "resign"), is_rematch = !strcmp(action, "rematch"),
        is_abort = !strcmp(action, "abort"), is_chat = !strcmp(action, "chat"),
        is_cw = !strcmp(action, "chat-watchers");
    if (!is_move && !is_draw && !is_tb && !is_resign && !is_rematch && !is_abort && !is_chat && !is_cw) {
        srv_route_error(r, 404, 1,
                        "no such action '%.32s': move, draw, takeback, resign, abort, rematch, chat or chat-watchers",
                        action);
        json_decref(b);
        return NULL;
    }
    if (is_move && !move) {
        srv_route_error(r, 400, 1, "field 'move' (SAN or coordinates) is missing");
        json_decref(b);
        return NULL;
    }
    if ((is_draw || is_tb) && !what) {
        srv_route_error(r, 400, 1, "field 'action' is missing: %s", is_draw ? "offer, accept or decline" : "request, accept or decline");
        json_decref(b);
        return NULL;
    }
    if (is_chat && (!text || !text[0])) {
        srv_route_error(r, 400, 1, "field 'text' (the chat line, 1 to %d bytes) is missing", SRV_CHAT_MAX);
        json_decref(b);
        return NULL;
    }
    if (is_cw && (!what || (strcmp(what, "on") && strcmp(what, "off")))) {
        srv_route_error(r, 400, 1, "field 'action' must be on or off (whether watchers may read the players' chat)");
        json_decref(b);
        return NULL;
    }
    if (is_rematch && what && strcmp(what, "offer") && strcmp(what, "accept") && strcmp(what, "decline")) {
        srv_route_error(r, 400, 1, "rematch action must be offer, accept or decline");
        json_decref(b);
        return NULL;
    }
    *move_out = is_chat ? text : move;
    *what_out = what;
    return b;
}

