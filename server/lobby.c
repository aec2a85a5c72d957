/* The lobby (lobby.h). */
#include "lobby.h"
#include "lobby_internal.h"

#include "accounts.h"
#include "buf.h"
#include "respond.h"
#include "games_api.h"
#include "notify.h"
#include "render.h"
#include "rating_store.h"
#include "store.h"
#include "streams.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
/* Something in the lobby changed (tell: here, so every process must
 * hear): the thread looks at the lists again now, and on PostgreSQL every
 * other process's too, through NOTIFY (their listeners wake them). */
static void lobby_changed(srv_lobby *L, int tell)
{
    tc_error err;
    if (tell && tp_db_shared(L->db) && tp_db_notify(L->db, "tg_lobby", "lobby 1", &err))
        fprintf(stderr, "topochess serve: lobby: %s\n", err.msg);
    pthread_mutex_lock(&L->sleep_lock);
    L->dirty = 1;
    pthread_cond_signal(&L->wake);
    pthread_mutex_unlock(&L->sleep_lock);
}

/* A notification from another process (or the listener's connection
 * made again: what changed meanwhile was not told), on the listener's
 * thread. */
static void on_note(const char *word, int64_t n, void *ctx)
{
    (void)word, (void)n;
    lobby_changed(ctx, 0);
}

/* ---------------------------------------------------------------- seeks */

static int number(const char *s, int lo, int hi, int *out)
{
    if (!s || !*s) {
        *out = 0;
        return 0;
    }
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < lo || v > hi || s[0] == '+' || s[0] == ' ')
        return -1;
    *out = (int)v;
    return 0;
}

int srv_lobby_seek(srv_lobby *L, const srv_site *site, const char *user_id, const char *name,
                   const srv_seek_form *f, char *id, char *msg, size_t n)
{
    tc_error err;
    const srv_page *p = f->variant && *f->variant ? srv_site_find(site, f->variant) : NULL;
    if (!p) {
        snprintf(msg, n, "no variant '%.64s': pick one of the hub's pages", f->variant ? f->variant : "");
        return 400;
    }
    const tg_clock *ck = f->clock ? srv_lobby_clock(f->clock) : NULL;
    if (!ck) {
        snprintf(msg, n, "clock must be one of 3+2, 5+3, 10+5, 15+10, 30+20, corr1, corr2, corr3, corr5, corr7, corr14, "
                 "not '%.20s'",
                 f->clock ? f->clock : "");
        return 400;
    }
    const char *color = f->color && *f->color ? f->color : "random";
    if (strcmp(color, "white") && strcmp(color, "black") && strcmp(color, "random")) {
        snprintf(msg, n, "color must be white, black or random, not '%.20s'", color);
        return 400;
    }
    int rated = 0, lo = 0, hi = 0;
    if (f->rated && *f->rated && strcmp(f->rated, "0")) {
        if (strcmp(f->rated, "1") && strcmp(f->rated, "on")) {
            snprintf(msg, n, "rated must be 1 or 0, not '%.20s'", f->rated);
            return 400;
        }
        rated = 1;
    }
    if (number(f->min_rating, 400, 3500, &lo) || number(f->max_rating, 400, 3500, &hi)) {
        snprintf(msg, n, "a rating bound is a whole number from 400 to 3500");
        return 400;
    }
    if (lo && hi && lo > hi) {
        snprintf(msg, n, "the lowest rating (%d) is above the highest (%d)", lo, hi);
        return 400;
    }
    tp_user target;
    memset(&target, 0, sizeof target);
    if (f->target) {
        char key[TP_NAME_MAX + 1], why[160];
        int found = srv_name_check(f->target, key, why, sizeof why) ? 0 : tp_user_by_key(L->db, key, &target, &err);
        if (found < 0) {
            snprintf(msg, n, "the lobby's store failed: %s", err.msg);
            return 500;
        }
        if (!found) {
            snprintf(msg, n, "no player '%.40s' to challenge", f->target);
            return 404;
        }
        if (!strcmp(target.id, user_id)) {
            snprintf(msg, n, "you cannot challenge yourself");
            return 400;
        }
    }
    const char *addr = f->addr ? f->addr : "";
    int mine = tp_seeks_count_user(L->db, user_id, &err);
    int here = mine < 0 ? -1 : tp_seeks_count_addr(L->db, addr, &err);
    int open = here < 0 ? -1 : tp_seeks_count_open(L->db, &err);
    if (mine < 0 || here < 0 || open < 0) {
        snprintf(msg, n, "the lobby's store failed: %s", err.msg);
        return 500;
    }
    if (mine >= SRV_SEEKS_PER_USER) {
        snprintf(msg, n, "you have %d open seeks and challenges already: at most %d", mine, SRV_SEEKS_PER_USER);
        return 429;
    }
    if (here >= SRV_SEEKS_PER_ADDR) {
        snprintf(msg, n, "%d open seeks and challenges come from your address already (%.47s): at most %d per "
                 "address; withdraw one or wait for it to be taken", here, addr, SRV_SEEKS_PER_ADDR);
        return 429;
    }
    if (open >= SRV_SEEKS_MAX) {
        snprintf(msg, n, "the lobby is full (%d open seeks): accept one, or try again later", open);
        return 429;
    }
    tp_seek s;
    memset(&s, 0, sizeof s);
    unsigned char raw[TP_SEEK_ID_LEN / 2];
    tg_random_bytes(raw, sizeof raw);
    for (size_t i = 0; i < sizeof raw; i++)
        snprintf(s.id + 2 * i, 3, "%02x", raw[i]);
    snprintf(s.user_id, sizeof s.user_id, "%s", user_id);
    snprintf(s.name, sizeof s.name, "%s", name);
    snprintf(s.variant, sizeof s.variant, "%s", p->slug);
    s.clock = *ck;
    s.rated = rated;
    snprintf(s.color, sizeof s.color, "%s", color);
    s.min_rating = lo;
    s.max_rating = hi;
    snprintf(s.target_user, sizeof s.target_user, "%s", target.id);
    snprintf(s.target_name, sizeof s.target_name, "%s", target.name);
    snprintf(s.addr, sizeof s.addr, "%s", addr);
    tg_rating r = tg_rating_new();
    if (tp_rating_of(L->db, user_id, p->slug, &r, &err) < 0) {
        snprintf(msg, n, "the lobby's store failed: %s", err.msg);
        return 500;
    }
    s.rating = (int)(r.r + 0.5);
    s.provisional = tg_rating_provisional(r);
    s.created_ms = s.seen_ms = now_ms();
    if (tp_seek_insert(L->db, &s, &err)) {
        snprintf(msg, n, "the lobby's store failed: %s", err.msg);
        return 500;
    }
    snprintf(id, TP_SEEK_ID_LEN + 1, "%s", s.id);
    if (target.id[0]) { /* the challenged player hears of it wherever they are */
        char text[512], label[32];
        snprintf(text, sizeof text, "%s challenges you to a %s game of %s (%s).", name, rated ? "rated" : "casual",
                 p->title, srv_lobby_clock_label(ck, label, sizeof label));
        srv_notify(L->db, target.id, "challenge", "", text, "/lobby");
    }
    lobby_changed(L, 1);
    return 201;
}

int srv_lobby_accept(srv_lobby *L, const srv_site *site, const char *user_id, const char *seek_id,
                     char *location, size_t ln, char *msg, size_t n)
{
    tc_error err;
    tp_seek s;
    int found = tp_seek_get(L->db, seek_id, &s, &err);
    if (found < 0) {
        snprintf(msg, n, "the lobby's store failed: %s", err.msg);
        return 500;
    }
    if (!found) {
        snprintf(msg, n, "no seek '%.20s' (withdrawn, expired or never made)", seek_id);
        return 404;
    }
    if (s.taken_by[0]) {
        snprintf(msg, n, "this seek was taken by someone else first");
        return 409;
    }
    if (!strcmp(s.user_id, user_id)) {
        snprintf(msg, n, "this is your own seek: wait for someone else to accept it");
        return 409;
    }
    if (s.target_user[0] && strcmp(s.target_user, user_id)) {
        snprintf(msg, n, "this challenge is for %s", s.target_name);
        return 403;
    }
    const srv_page *p = srv_site_find(site, s.variant);
    if (!p) {
        snprintf(msg, n, "the variant '%.64s' is no longer served", s.variant);
        return 409;
    }
    tg_rating mine = tg_rating_new();
    if (tp_rating_of(L->db, user_id, s.variant, &mine, &err) < 0) {
        snprintf(msg, n, "the lobby's store failed: %s", err.msg);
        return 500;
    }
    int r = (int)(mine.r + 0.5);
    if ((s.min_rating && r < s.min_rating) || (s.max_rating && r > s.max_rating)) {
        snprintf(msg, n, "your %s rating (%d) is outside this seek's range (%d to %d)", p->title, r,
                 s.min_rating ? s.min_rating : 0, s.max_rating ? s.max_rating : 9999);
        return 403;
    }
    tg_game g;
    s.clock.day_ms = s.clock.kind == TG_CLOCK_CORRESPONDENCE ? L->day_ms : 0;
    if (tg_game_new(&g, &p->def, NULL, &s.clock, -1, 1, now_ms(), &err) != TG_OK) {
        snprintf(msg, n, "the game cannot be made: %s", err.msg);
        return 409;
    }
    int owner_white;
    if (!strcmp(s.color, "random")) {
        unsigned char b = 0;
        tg_random_bytes(&b, 1);
        owner_white = b & 1;
    } else {
        owner_white = !strcmp(s.color, "white");
    }
    int owner = owner_white ? TC_WHITE : TC_BLACK, taker = !owner_white ? TC_WHITE : TC_BLACK;
    /* the seek is taken (once, by one request of any process) before the
     * game is written */
    int took = tp_seek_take(L->db, s.id, user_id, g.id, g.token[owner], &err);
    if (took <= 0) {
        tg_game_free(&g);
        if (took < 0)
            snprintf(msg, n, "the lobby's store failed: %s", err.msg);
        else
            snprintf(msg, n, "this seek was taken by someone else first");
        return took < 0 ? 500 : 409;
    }
    tp_lobby_game lg;
    memset(&lg, 0, sizeof lg);
    snprintf(lg.game_id, sizeof lg.game_id, "%s", g.id);
    snprintf(lg.variant, sizeof lg.variant, "%s", s.variant);
    snprintf(lg.white, sizeof lg.white, "%s", owner_white ? s.user_id : user_id);
    snprintf(lg.black, sizeof lg.black, "%s", owner_white ? user_id : s.user_id);
    lg.rated = s.rated;
    if (tg_store_insert(L->games, &g, &err) != TG_OK || tp_lobby_game_insert(L->db, &lg, now_ms(), &err)) {
        tg_game_free(&g);
        snprintf(msg, n, "the game cannot be stored: %s", err.msg);
        return 500;
    }
    snprintf(location, ln, "/game/%s#token=%s", g.id, g.token[taker]);
    tp_game_players pl;
    if (s.clock.kind == TG_CLOCK_CORRESPONDENCE && tp_game_players_of(L->db, g.id, &pl, &err) == 1) {
        /* the owner of a correspondence seek is seldom there when it is taken */
        char text[512], url[160];
        snprintf(text, sizeof text, "%s accepted your %s: %s, %d day%s a move; you play %s.", pl.name[taker],
                 s.target_user[0] ? "challenge" : "seek", p->title, s.clock.days, s.clock.days == 1 ? "" : "s",
                 owner == TC_WHITE ? "White: your move" : "Black");
        snprintf(url, sizeof url, "/game/%s#token=%s", g.id, g.token[owner]);
        srv_notify(L->db, s.user_id, owner == TC_WHITE ? "turn" : "start", g.id, text, url);
    }
    tg_game_free(&g);
    lobby_changed(L, 1);
    return 303;
}

int srv_lobby_decline(srv_lobby *L, const char *user_id, const char *seek_id, char *msg, size_t n)
{
    tc_error err;
    int rc = tp_challenge_decline(L->db, seek_id, user_id, &err);
    if (rc <= 0) {
        snprintf(msg, n, "%s", rc < 0 ? err.msg : "no open challenge to you with that id");
        return rc < 0 ? 500 : 404;
    }
    lobby_changed(L, 1);
    return 303;
}

int srv_lobby_cancel(srv_lobby *L, const char *user_id, const char *seek_id, char *msg, size_t n)
{
    tc_error err;
    int rc = tp_seek_delete(L->db, seek_id, user_id, &err);
    if (rc <= 0) {
        snprintf(msg, n, "%s", rc < 0 ? err.msg : "no open seek of yours with that id");
        return rc < 0 ? 500 : 404;
    }
    lobby_changed(L, 1);
    return 303;
}

/* ---------------------------------------------------------------- streams */

static void push(lwatch *w, const char *text, size_t n) { srv_sse_push(&w->q, text, n); }

static ssize_t lobby_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    return srv_sse_read(&((lwatch *)cls)->q, buf, max);
}

/* A stream closed: when it was its owner's last here, the owner's open
 * seeks go. */
static void lobby_free(void *cls)
{
    lwatch *w = cls;
    srv_lobby *L = w->L;
    pthread_mutex_lock(&L->reg);
    int others = 0;
    for (lwatch **p = &L->ws; *p;) {
        if (*p == w) {
            *p = w->next;
            continue;
        }
        others += w->user_id[0] && !strcmp((*p)->user_id, w->user_id) && !(*p)->inbox_only;
        p = &(*p)->next;
    }
    pthread_mutex_unlock(&L->reg);
    if (w->user_id[0] && !others && !w->inbox_only) {
        tc_error err;
        if (tp_seeks_delete_user_open(L->db, w->user_id, &err) > 0)
            lobby_changed(L, 1);
    }
    srv_sse_destroy(&w->q);
    free(w);
}

enum MHD_Result srv_lobby_stream(srv_lobby *L, struct MHD_Connection *c, const char *user_id, const char *addr,
                                 int inbox_only)
{
    lwatch *w = calloc(1, sizeof *w);
    if (!w)
        return MHD_NO;
    w->L = L;
    w->inbox_only = inbox_only;
    snprintf(w->addr, sizeof w->addr, "%s", addr ? addr : "?");
    snprintf(w->user_id, sizeof w->user_id, "%s", user_id ? user_id : "");
    srv_buf first = {0};
    srv_buf_str(&first, "retry: 2000\n");
    if (!inbox_only) {
        size_t len = 0;
        char *list = srv_lobby_json(L, &len);
        srv_buf_printf(&first, "event: seeks\ndata: %s\n\n", list ? list : "{\"seeks\":[]}");
        free(list);
    }
    if (w->user_id[0]) { /* the count as it is now: later ones come when it changes */
        tc_error err;
        int unread = tp_notes_unread(L->db, w->user_id, &err);
        if (unread >= 0)
            srv_buf_printf(&first, "event: inbox\ndata: {\"unread\":%d}\n\n", unread);
    }
    srv_sse_init(&w->q, c, first.p);
    srv_buf_free(&first);
    pthread_mutex_lock(&L->reg);
    /* the game streams' limits (streams.h), counted over this lobby's */
    int mine = 0, all = 0;
    for (lwatch *x = L->ws; x; x = x->next) {
        all++;
        mine += !strcmp(x->addr, w->addr);
    }
    if (!L->closing && (mine >= SRV_STREAMS_PER_ADDR || all >= SRV_MAX_STREAMS)) {
        pthread_mutex_unlock(&L->reg);
        srv_sse_destroy(&w->q);
        free(w);
        return srv_http_streams_full(c, all >= SRV_MAX_STREAMS, SRV_STREAMS_PER_ADDR, SRV_MAX_STREAMS, NULL);
    }
    if (L->closing)
        srv_sse_end(&w->q, NULL); /* the server stops: the stream ends at once */
    w->next = L->ws;
    L->ws = w;
    pthread_mutex_unlock(&L->reg);
    if (w->user_id[0])
        lobby_changed(L, 0); /* its challenges and taken seeks, to it */
    /* pinged every 3 s: a client that reads nothing for SRV_LOBBY_TIMEOUT
     * is closed */
    return srv_sse_respond(c, lobby_read, w, lobby_free, NULL, SRV_LOBBY_TIMEOUT);
}

void srv_lobby_close_streams(srv_lobby *L)
{
    if (!L)
        return;
    pthread_mutex_lock(&L->reg);
    L->closing = 1;
    for (lwatch *w = L->ws; w; w = w->next)
        srv_sse_end(&w->q, NULL);
    pthread_mutex_unlock(&L->reg);
}

/* ---------------------------------------------------------------- results */

int srv_lobby_count_results(srv_lobby *L)
{
    tc_error err;
    tp_counted c;
    int handled = 0, rc = 0;
    /* in the order the games ended, each in its own transaction; a beat
     * handles at most SRV_RESULTS_PER_BEAT (the next goes on) */
    while (handled < SRV_RESULTS_PER_BEAT && (rc = tp_result_count_next(L->db, now_ms(), &c, &err)) == 1)
        handled++;
    if (rc < 0)
        fprintf(stderr, "topochess serve: lobby: counting results: %s\n", err.msg);
    return handled;
}

/* ---------------------------------------------------------------- the thread */

/* One tick. changed: the lobby changed (here, or told by another
 * process): publish the list when it differs, tell owners here of their
 * taken seeks and players of their challenges. beat (every
 * SRV_LOBBY_BEAT_MS): sweep stale seeks, keep the open seeks of owners
 * here alive, ping the streams, count results. Nothing else asks the
 * database: an idle lobby is quiet. */
static void tick(srv_lobby *L, int changed, int beat)
{
    tc_error err;
    int64_t t = now_ms();
    if (beat && tp_seeks_sweep(L->db, t - SRV_SEEK_STALE_MS, t - SRV_SEEK_LIFE_MS, t - SRV_CORR_SEEK_LIFE_MS, &err) > 0) {
        lobby_changed(L, 1);
        pthread_mutex_lock(&L->sleep_lock);
        L->dirty = 0; /* handled below */
        pthread_mutex_unlock(&L->sleep_lock);
        changed = 1;
    }
    /* the users with a stream here (lobby[i]: one of them a lobby page's) */
    char (*users)[TP_ID_LEN + 1] = NULL;
    char *lobby = NULL;
    int nu = 0, cap = 0;
    pthread_mutex_lock(&L->reg);
    for (lwatch *w = L->ws; w; w = w->next) {
        if (!w->user_id[0])
            continue;
        int dup = -1;
        for (int i = 0; i < nu && dup < 0; i++)
            if (!strcmp(users[i], w->user_id))
                dup = i;
        if (dup >= 0) {
            lobby[dup] |= !w->inbox_only;
            continue;
        }
        if (nu == cap) {
            cap = cap ? 2 * cap : 16;
            void *grown = realloc(users, (size_t)cap * sizeof *users);
            if (!grown)
                break;
            users = grown;
            grown = realloc(lobby, (size_t)cap);
            if (!grown)
                break;
            lobby = grown;
        }
        lobby[nu] = (char)!w->inbox_only;
        snprintf(users[nu++], TP_ID_LEN + 1, "%s", w->user_id);
    }
    pthread_mutex_unlock(&L->reg);
    for (int i = 0; i < nu; i++) {
        if (beat && lobby[i])
            tp_seeks_touch(L->db, users[i], t, &err);
        if (!changed && !beat)
            continue;
        int slot = -1;
        for (int k = 0; k < L->ncounts && slot < 0; k++)
            if (!strcmp(L->counts[k].user_id, users[i]))
                slot = k;
        if (slot < 0) {
            void *grown = realloc(L->counts, (size_t)(L->ncounts + 1) * sizeof *L->counts);
            if (!grown)
                continue;
            L->counts = grown;
            slot = L->ncounts++;
            snprintf(L->counts[slot].user_id, TP_ID_LEN + 1, "%s", users[i]);
            L->counts[slot].n = L->counts[slot].unread = -1;
        }
        /* the inbox's unread count, when it changed (here or on another
         * process: a NOTIFY wakes this thread on PostgreSQL, the beat
         * finds it on SQLite) */
        int unread = tp_notes_unread(L->db, users[i], &err);
        if (unread >= 0 && unread != L->counts[slot].unread) {
            L->counts[slot].unread = unread;
            char ev[96];
            int len = snprintf(ev, sizeof ev, "event: inbox\ndata: {\"unread\":%d}\n\n", unread);
            pthread_mutex_lock(&L->reg);
            for (lwatch *w = L->ws; w; w = w->next)
                if (!strcmp(w->user_id, users[i]))
                    push(w, ev, (size_t)len);
            pthread_mutex_unlock(&L->reg);
        }
        if (!changed)
            continue;
        /* a challenge to a user with a stream here: tell its pages */
        tp_seek ch[16];
        int nc = tp_challenges(L->db, users[i], 1, ch, 16, &err);
        if (nc >= 0 && nc != L->counts[slot].n) {
            L->counts[slot].n = nc;
            char ev[96];
            int len = snprintf(ev, sizeof ev, "event: challenges\ndata: {\"to_you\":%d}\n\n", nc);
            pthread_mutex_lock(&L->reg);
            for (lwatch *w = L->ws; w; w = w->next)
                if (!strcmp(w->user_id, users[i]))
                    push(w, ev, (size_t)len);
            pthread_mutex_unlock(&L->reg);
        }
        if (!lobby[i]) /* a taken seek is told to a lobby page, which follows it */
            continue;
        tp_seek taken[4];
        int k = tp_seeks_taken_of(L->db, users[i], taken, 4, &err);
        for (int j = 0; j < k; j++) {
            char ev[256];
            int len = snprintf(ev, sizeof ev, "event: start\ndata: {\"url\":\"/game/%s#token=%s\"}\n\n",
                               taken[j].game_id, taken[j].owner_token);
            pthread_mutex_lock(&L->reg);
            for (lwatch *w = L->ws; w; w = w->next)
                if (!strcmp(w->user_id, users[i]))
                    push(w, ev, (size_t)len);
            pthread_mutex_unlock(&L->reg);
            tp_seek_told(L->db, taken[j].id, &err);
        }
    }
    /* forget the counts of users with no stream here any more */
    int kept = 0;
    for (int k = 0; k < L->ncounts; k++) {
        int here = 0;
        for (int i = 0; i < nu && !here; i++)
            here = !strcmp(users[i], L->counts[k].user_id);
        if (here)
            L->counts[kept++] = L->counts[k];
    }
    L->ncounts = kept;
    free(users);
    free(lobby);
    size_t len = 0;
    pthread_mutex_lock(&L->reg);
    int watched = 0;
    for (lwatch *w = L->ws; w && !watched; w = w->next)
        watched = !w->inbox_only;
    pthread_mutex_unlock(&L->reg);
    char *list = watched && changed ? srv_lobby_json(L, &len) : NULL;
    if (watched && !changed) {
        /* the list as last published */
    } else if (!watched) {
        free(L->last); /* the next watcher is sent the list when it comes */
        L->last = NULL;
    } else if (list && (!L->last || strcmp(list, L->last))) {
        srv_buf ev = {0};
        srv_buf_printf(&ev, "event: seeks\ndata: %s\n\n", list);
        pthread_mutex_lock(&L->reg);
        for (lwatch *w = L->ws; w && !ev.failed; w = w->next)
            if (!w->inbox_only)
                push(w, ev.p, ev.len);
        pthread_mutex_unlock(&L->reg);
        srv_buf_free(&ev);
        free(L->last);
        L->last = list;
    } else {
        free(list);
    }
    /* a comment every few seconds: a suspended stream is not watched by the
     * daemon, so only a write finds out that its client left; it also keeps
     * proxies from closing idle streams */
    if (beat) {
        pthread_mutex_lock(&L->reg);
        for (lwatch *w = L->ws; w; w = w->next)
            push(w, ": ping\n\n", 8);
        pthread_mutex_unlock(&L->reg);
    }
    if (beat) {
        srv_lobby_count_results(L);
        /* the inbox keeps a notification TP_NOTE_LIFE_MS (one process at
         * a time may do it twice: a delete is idempotent) */
        if (t - L->pruned_ms > 600000) {
            L->pruned_ms = t;
            tp_notes_prune(L->db, t - TP_NOTE_LIFE_MS, &err);
        }
    }
    if (beat) {
        pthread_mutex_lock(&L->reg);
        int (*fn)(void *, int64_t) = L->on_beat;
        void *ctx = L->on_beat_ctx;
        pthread_mutex_unlock(&L->reg);
        if (fn)
            fn(ctx, now_ms());
    }
}

void srv_lobby_on_beat(srv_lobby *L, int (*fn)(void *ctx, int64_t now_ms), void *ctx)
{
    pthread_mutex_lock(&L->reg);
    L->on_beat = fn;
    L->on_beat_ctx = ctx;
    pthread_mutex_unlock(&L->reg);
}

static void *lobby_main(void *arg)
{
    srv_lobby *L = arg;
    int64_t next_beat = now_ms() + SRV_LOBBY_BEAT_MS;
    int changed = 1;
    while (!atomic_load(&L->stop)) {
        int64_t t = now_ms();
        int beat = t >= next_beat;
        if (beat)
            next_beat = t + SRV_LOBBY_BEAT_MS;
        tick(L, changed, beat);
        /* sleep until a change (lobby_changed) or the next beat */
        struct timespec until = {(time_t)(next_beat / 1000), (long)(next_beat % 1000) * 1000000L};
        pthread_mutex_lock(&L->sleep_lock);
        while (!L->dirty && !atomic_load(&L->stop) && now_ms() < next_beat)
            if (pthread_cond_timedwait(&L->wake, &L->sleep_lock, &until))
                break;
        changed = L->dirty;
        L->dirty = 0;
        pthread_mutex_unlock(&L->sleep_lock);
    }
    return NULL;
}

srv_lobby *srv_lobby_start(tp_db *db, const char *url, long long day_ms, tc_error *err)
{
    srv_lobby *L = calloc(1, sizeof *L);
    if (!L) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    L->db = db;
    L->day_ms = day_ms;
    L->games = tg_store_open(url, err);
    if (!L->games) {
        free(L);
        return NULL;
    }
    pthread_mutex_init(&L->reg, NULL);
    pthread_mutex_init(&L->sleep_lock, NULL);
    pthread_cond_init(&L->wake, NULL);
    /* other processes' changes come by NOTIFY (PostgreSQL); on SQLite one
     * process makes them all */
    if (tp_db_shared(db) && !(L->listener = tg_store_listen_on(url, "tg_lobby", on_note, L, err))) {
        tg_store_close(L->games);
        free(L);
        return NULL;
    }
    if (pthread_create(&L->thread, NULL, lobby_main, L)) {
        snprintf(err->msg, sizeof err->msg, "cannot start the lobby's thread");
        tg_listener_stop(L->listener);
        tg_store_close(L->games);
        free(L);
        return NULL;
    }
    return L;
}

void srv_lobby_stop(srv_lobby *L)
{
    if (!L)
        return;
    pthread_mutex_lock(&L->sleep_lock);
    atomic_store(&L->stop, 1);
    pthread_cond_signal(&L->wake);
    pthread_mutex_unlock(&L->sleep_lock);
    pthread_join(L->thread, NULL);
    if (L->listener)
        tg_listener_stop(L->listener);
    tg_store_close(L->games);
    free(L->last);
    free(L->counts);
    pthread_mutex_destroy(&L->reg);
    pthread_mutex_destroy(&L->sleep_lock);
    pthread_cond_destroy(&L->wake);
    free(L);
}
