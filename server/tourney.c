/* Tournaments (tourney.h): the forms' checks, the pairer and the
 * operator's schedule. The lists and pages are tourney_pages.c's. */
#include "tourney_internal.h"

#include "lobby_store.h"
#include "tourney.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- clocks */

/// The clocks a tournament may have: the lobby's and two faster ones.
static const struct {
    const char *key, *label;
    tg_clock clock;
} clocks[] = {
    {"1+0", "1+0", {TG_CLOCK_FISCHER, 60000, 0, 0, 0}},
    {"2+1", "2+1", {TG_CLOCK_FISCHER, 120000, 1000, 0, 0}},
    {"3+2", "3+2", {TG_CLOCK_FISCHER, 180000, 2000, 0, 0}},
    {"5+3", "5+3", {TG_CLOCK_FISCHER, 300000, 3000, 0, 0}},
    {"10+5", "10+5", {TG_CLOCK_FISCHER, 600000, 5000, 0, 0}},
    {"15+10", "15+10", {TG_CLOCK_FISCHER, 900000, 10000, 0, 0}},
    {"30+20", "30+20", {TG_CLOCK_FISCHER, 1800000, 20000, 0, 0}},
    {"corr1", "1 day a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 1, 0}},
    {"corr2", "2 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 2, 0}},
    {"corr3", "3 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 3, 0}},
    {"corr5", "5 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 5, 0}},
    {"corr7", "7 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 7, 0}},
    {"corr14", "14 days a move", {TG_CLOCK_CORRESPONDENCE, 0, 0, 14, 0}},
};
#define NCLOCKS ((int)(sizeof clocks / sizeof clocks[0]))

const tg_clock *srv_tourney_clock(const char *key)
{
    for (int i = 0; key && i < NCLOCKS; i++)
        if (!strcmp(key, clocks[i].key))
            return &clocks[i].clock;
    return NULL;
}

const char *srv_tourney_clock_label(const tg_clock *c, char *buf, size_t n)
{
    for (int i = 0; i < NCLOCKS; i++)
        if (clocks[i].clock.kind == c->kind && clocks[i].clock.initial_ms == c->initial_ms &&
            clocks[i].clock.increment_ms == c->increment_ms && clocks[i].clock.days == c->days)
            return clocks[i].label;
    snprintf(buf, n, "?");
    return buf;
}

/* ---------------------------------------------------------------- the object */

srv_tourneys *srv_tourneys_start(tp_db *db, const char *url, int64_t day_ms, tc_error *err)
{
    srv_tourneys *T = calloc(1, sizeof *T);
    if (!T) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    T->db = db;
    T->day_ms = day_ms;
    T->games = tg_store_open(url, err);
    if (!T->games) {
        free(T);
        return NULL;
    }
    unsigned char raw[16];
    tg_random_bytes(raw, sizeof raw);
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(T->owner + 2 * i, 3, "%02x", raw[i]);
    pthread_mutex_init(&T->lock, NULL);
    return T;
}

void srv_tourneys_stop(srv_tourneys *T)
{
    if (!T)
        return;
    tc_error err;
    tp_tourney_lease_drop(T->db, T->owner, &err); /* another process takes over at once */
    tg_store_close(T->games);
    pthread_mutex_destroy(&T->lock);
    free(T);
}

void srv_tourneys_set_site(srv_tourneys *T, const srv_site *(*fn)(void *ctx), void *ctx)
{
    pthread_mutex_lock(&T->lock);
    T->site_fn = fn;
    T->site_ctx = ctx;
    pthread_mutex_unlock(&T->lock);
}

const srv_site *srv_tourneys_site(srv_tourneys *T)
{
    pthread_mutex_lock(&T->lock);
    const srv_site *s = T->site_fn ? T->site_fn(T->site_ctx) : NULL;
    pthread_mutex_unlock(&T->lock);
    return s;
}

static void new_id(char id[TP_TOURNEY_ID_LEN + 1])
{
    unsigned char raw[TP_TOURNEY_ID_LEN / 2];
    tg_random_bytes(raw, sizeof raw);
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(id + 2 * i, 3, "%02x", raw[i]);
}

/* ---------------------------------------------------------------- forms */

static int number(const char *s, int lo, int hi, int *out)
{
    if (!s || !*s || s[0] == '+' || s[0] == ' ' || s[0] == '-')
        return -1;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

/* A name: 3 to TP_TOURNEY_NAME_MAX bytes of printable ASCII or UTF-8
 * letters (bytes >= 0x80 are let through; the pages escape every name),
 * no control characters, not blank. */
static int bad_name(const char *s, char *msg, size_t n)
{
    size_t len = s ? strlen(s) : 0;
    if (len < 3 || len > TP_TOURNEY_NAME_MAX) {
        snprintf(msg, n, "a tournament's name has 3 to %d bytes (this one has %zu)", TP_TOURNEY_NAME_MAX, len);
        return 1;
    }
    int letters = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            snprintf(msg, n, "a tournament's name has no control characters");
            return 1;
        }
        letters += c != ' ';
    }
    if (!letters) {
        snprintf(msg, n, "a tournament's name is not blank");
        return 1;
    }
    return 0;
}

int srv_tourney_create(srv_tourneys *T, const srv_site *site, const char *user_id, const char *name,
                       const srv_tourney_form *f, int64_t now_ms, char *id, char *msg, size_t n)
{
    tc_error err;
    tp_tourney t;
    memset(&t, 0, sizeof t);
    if (bad_name(f->name, msg, n))
        return 400;
    const char *kind = f->kind && *f->kind ? f->kind : "arena";
    if (!strcmp(kind, "arena"))
        t.kind = TP_ARENA;
    else if (!strcmp(kind, "round-robin"))
        t.kind = TP_ROUND_ROBIN;
    else {
        snprintf(msg, n, "kind must be arena or round-robin, not '%.20s'", kind);
        return 400;
    }
    const srv_page *p = f->variant && *f->variant ? srv_site_find(site, f->variant) : NULL;
    if (!p) {
        snprintf(msg, n, "no variant '%.64s': pick one of the hub's pages", f->variant ? f->variant : "");
        return 400;
    }
    const tg_clock *ck = srv_tourney_clock(f->clock);
    if (!ck) {
        snprintf(msg, n, "clock must be one of 1+0, 2+1, 3+2, 5+3, 10+5, 15+10, 30+20, corr1, corr2, corr3, corr5, "
                 "corr7, corr14, not '%.20s'", f->clock ? f->clock : "");
        return 400;
    }
    if (t.kind == TP_ARENA && ck->kind != TG_CLOCK_FISCHER) {
        snprintf(msg, n, "an arena lasts minutes: it needs a Fischer clock (correspondence suits a round-robin)");
        return 400;
    }
    if (f->rated && *f->rated && strcmp(f->rated, "0") && strcmp(f->rated, "1") && strcmp(f->rated, "on")) {
        snprintf(msg, n, "rated must be 1 or 0, not '%.20s'", f->rated);
        return 400;
    }
    t.rated = f->rated && (!strcmp(f->rated, "1") || !strcmp(f->rated, "on"));
    int starts_in = 0, minutes = 0, maxp = 0;
    if (number(f->starts_in ? f->starts_in : "0", 0, SRV_TOURNEY_AHEAD_MIN, &starts_in)) {
        snprintf(msg, n, "starts_in is the minutes until the start, 0 to %d", SRV_TOURNEY_AHEAD_MIN);
        return 400;
    }
    if (t.kind == TP_ARENA && number(f->minutes, 1, SRV_ARENA_MAX_MIN, &minutes)) {
        snprintf(msg, n, "an arena's minutes are a whole number from 1 to %d", SRV_ARENA_MAX_MIN);
        return 400;
    }
    /* a round-robin ends when its games end: the form's arena length is
     * not read for one */
    int top = t.kind == TP_ARENA ? SRV_ARENA_MAX_PLAYERS : TT_RR_MAX;
    if (f->max_players && *f->max_players ? number(f->max_players, 2, top, &maxp) : (maxp = top, 0)) {
        snprintf(msg, n, "max_players is a whole number from 2 to %d for %s", top,
                 t.kind == TP_ARENA ? "an arena" : "a round-robin");
        return 400;
    }
    int mine = tp_tourney_count_created(T->db, user_id, &err);
    if (mine < 0) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    if (mine >= SRV_TOURNEYS_PER_USER) {
        snprintf(msg, n, "you have %d upcoming or running tournaments already: at most %d", mine,
                 SRV_TOURNEYS_PER_USER);
        return 429;
    }
    int open = tp_tourney_count_open(T->db, &err);
    if (open < 0) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    if (open >= SRV_TOURNEYS_OPEN) {
        snprintf(msg, n, "the hub has %d upcoming or running tournaments: join one, or try later", open);
        return 429;
    }
    new_id(t.id);
    snprintf(t.name, sizeof t.name, "%s", f->name);
    snprintf(t.variant, sizeof t.variant, "%s", p->slug);
    t.clock = *ck;
    snprintf(t.creator_id, sizeof t.creator_id, "%s", user_id);
    snprintf(t.creator_name, sizeof t.creator_name, "%s", name);
    t.starts_ms = now_ms + (int64_t)starts_in * 60000;
    t.minutes = minutes;
    t.ends_ms = t.kind == TP_ARENA ? t.starts_ms + (int64_t)minutes * 60000 : 0;
    t.max_players = maxp;
    t.created_ms = now_ms;
    if (tp_tourney_insert(T->db, &t, &err)) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    snprintf(id, TP_TOURNEY_ID_LEN + 1, "%s", t.id);
    return 201;
}

static int load(srv_tourneys *T, const char *tid, tp_tourney *t, char *msg, size_t n)
{
    tc_error err;
    int found = tid && strlen(tid) == TP_TOURNEY_ID_LEN ? tp_tourney_get(T->db, tid, t, &err) : 0;
    if (found < 0) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    if (!found) {
        snprintf(msg, n, "no tournament '%.20s'", tid ? tid : "");
        return 404;
    }
    return 0;
}

int srv_tourney_join(srv_tourneys *T, const char *user_id, const char *name, const char *tid, int64_t now_ms,
                     char *msg, size_t n)
{
    tc_error err;
    tp_tourney t;
    int st = load(T, tid, &t, msg, n);
    if (st)
        return st;
    if (t.state >= TP_FINISHED) {
        snprintf(msg, n, "this tournament is over");
        return 409;
    }
    if (t.state == TP_RUNNING && t.kind == TP_ROUND_ROBIN) {
        snprintf(msg, n, "this round-robin has started: its table was drawn for the players it had");
        return 409;
    }
    if (t.state == TP_RUNNING && now_ms >= t.ends_ms) {
        snprintf(msg, n, "this arena has ended: its last games are being played");
        return 409;
    }
    tp_entrant me;
    int in = tp_entrant_get(T->db, t.id, user_id, &me, &err);
    int ne = in < 0 ? -1 : tp_entrants_count(T->db, t.id, &err);
    if (ne < 0) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    if (in && me.active) {
        snprintf(msg, n, "you are in this tournament already");
        return 409;
    }
    if (!in && ne >= t.max_players) {
        snprintf(msg, n, "this tournament is full (%d players)", t.max_players);
        return 409;
    }
    int rc = tp_entrant_join(T->db, t.id, user_id, name, ne, now_ms, &err);
    if (rc < 0) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    snprintf(msg, n, "%s", in ? "back in the tournament" : "joined");
    return 200;
}

int srv_tourney_withdraw(srv_tourneys *T, const char *user_id, const char *tid, char *msg, size_t n)
{
    tc_error err;
    tp_tourney t;
    int st = load(T, tid, &t, msg, n);
    if (st)
        return st;
    if (t.state >= TP_FINISHED) {
        snprintf(msg, n, "this tournament is over");
        return 409;
    }
    if (t.state == TP_RUNNING && t.kind == TP_ROUND_ROBIN) {
        snprintf(msg, n, "a round-robin under way cannot be left: resign the games you do not want to play");
        return 409;
    }
    int rc = tp_entrant_withdraw(T->db, t.id, user_id, &err);
    if (rc < 0) {
        snprintf(msg, n, "the tournaments' store failed: %s", err.msg);
        return 500;
    }
    if (!rc) {
        snprintf(msg, n, "you are not playing in this tournament");
        return 409;
    }
    snprintf(msg, n, "withdrawn: join again to come back");
    return 200;
}

int srv_tourney_of_game(srv_tourneys *T, const char *game_id, char id[TP_TOURNEY_ID_LEN + 1],
                        char name[TP_TOURNEY_NAME_MAX + 1])
{
    tc_error err;
    return tp_tourney_of_game(T->db, game_id, id, name, &err);
}
