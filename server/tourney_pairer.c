/* The tournaments' pairer (tourney.h, srv_tourneys_beat): each beat, on
 * the one process holding the lease, it makes the scheduled events,
 * starts the due ones, counts the games that ended (each once, in one
 * transaction with the players' rows), pairs the arenas' waiting players,
 * starts round-robins' next rounds and finishes what is over. */
#include "tourney_internal.h"

#include "lobby_store.h"
#include "notify.h"
#include "tourney.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXP SRV_ARENA_MAX_PLAYERS

static void say(const char *what, const tc_error *err)
{
    fprintf(stderr, "topochess serve: tournaments: %s: %s\n", what, err->msg);
}

static int find(const tp_entrant *es, int n, const char *user_id)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(es[i].user_id, user_id))
            return i;
    return -1;
}

/* Claims both players for game id and writes its tournament row, in one
 * transaction that checks the lease: a pairer that stalled past its lease
 * while another took it writes nothing, and a player already in a game
 * (or withdrawn) is not paired. 1 claimed, 0 not, -1. */
static int claim(srv_tourneys *T, const tp_tourney *t, const tp_tgame *tg, int64_t now_ms)
{
    tc_error err;
    if (tp_db_begin(T->db, &err)) {
        say("pairing", &err);
        return -1;
    }
    int held = tp_tourney_lease_held(T->db, T->owner, now_ms, &err);
    int w = held == 1 ? tp_entrant_claim(T->db, t->id, tg->white, "", tg->game_id, &err) : 0;
    int b = w == 1 ? tp_entrant_claim(T->db, t->id, tg->black, "", tg->game_id, &err) : 0;
    int ok = b == 1 && tp_tgame_insert(T->db, t->id, tg, &err) == 0;
    int fault = held < 0 || w < 0 || b < 0 || (b == 1 && !ok);
    if (tp_db_end(T->db, ok, &err) && ok) {
        ok = 0;
        fault = 1;
    }
    if (fault)
        say("pairing", &err);
    return fault ? -1 : ok;
}

/* Makes a game of the tournament between two players: both claimed (and
 * the game's tournament row written) first, then the game made as the
 * lobby makes one (the game store, a rated_games row: the players play it
 * signed in). 0, -1 (nothing made). */
static int make_game(srv_tourneys *T, const srv_page *p, const tp_tourney *t, int round, const tp_entrant *w,
                     const tp_entrant *b, int64_t now_ms)
{
    tc_error err;
    tg_game g;
    tg_clock clock = t->clock;
    clock.day_ms = clock.kind == TG_CLOCK_CORRESPONDENCE ? T->day_ms : 0; /* as the lobby's games */
    if (tg_game_new(&g, &p->def, NULL, &clock, -1, 1, now_ms, &err) != TG_OK) {
        say("a game cannot be made", &err);
        return -1;
    }
    tp_tgame tg;
    memset(&tg, 0, sizeof tg);
    snprintf(tg.game_id, sizeof tg.game_id, "%s", g.id);
    tg.round = round;
    snprintf(tg.white, sizeof tg.white, "%s", w->user_id);
    snprintf(tg.black, sizeof tg.black, "%s", b->user_id);
    tg.created_ms = now_ms;
    if (claim(T, t, &tg, now_ms) != 1) {
        tg_game_free(&g);
        return -1;
    }
    tp_lobby_game lg;
    memset(&lg, 0, sizeof lg);
    snprintf(lg.game_id, sizeof lg.game_id, "%s", g.id);
    snprintf(lg.variant, sizeof lg.variant, "%s", t->variant);
    snprintf(lg.white, sizeof lg.white, "%s", w->user_id);
    snprintf(lg.black, sizeof lg.black, "%s", b->user_id);
    lg.rated = t->rated;
    int bad = tg_store_insert(T->games, &g, &err) != TG_OK || tp_lobby_game_insert(T->db, &lg, now_ms, &err);
    if (bad) { /* the players go back to waiting; the row of a game never made goes */
        say("a game cannot be stored", &err);
        tp_arg a[] = {TP_TEXT(g.id)};
        tp_db_exec(T->db, "DELETE FROM tournament_games WHERE game_id = ?1", a, 1, NULL, NULL, &err);
        tp_entrant_claim(T->db, t->id, w->user_id, g.id, "", &err);
        tp_entrant_claim(T->db, t->id, b->user_id, g.id, "", &err);
    } else if (t->clock.kind == TG_CLOCK_CORRESPONDENCE) { /* its players are seldom there */
        char text[512], url[160];
        for (int s = 0; s < 2; s++) {
            snprintf(text, sizeof text, "Your game against %s in %s has begun: %s.", s ? w->name : b->name, t->name,
                     s ? "you play Black" : "you play White, your move");
            snprintf(url, sizeof url, "/game/%s#token=%s", g.id, g.token[s]);
            srv_notify(T->db, s ? b->user_id : w->user_id, s ? "start" : "turn", g.id, text, url);
        }
    }
    tg_game_free(&g);
    return bad ? -1 : 0;
}

/* A tournament about to start (or starting now) is told to its players,
 * once: the first pairer to mark it tells. */
static void warn(srv_tourneys *T, const tp_tourney *t, int64_t now_ms)
{
    tc_error err;
    tp_arg a[] = {TP_TEXT(t->id)};
    if (tp_db_exec(T->db, "UPDATE tournaments SET told = 1 WHERE id = ?1 AND told = 0", a, 1, NULL, NULL, &err) != 1)
        return;
    tp_entrant es[MAXP];
    int ne = tp_entrants(T->db, t->id, es, MAXP, &err);
    int64_t mins = (t->starts_ms - now_ms + 59999) / 60000;
    char text[512], url[96];
    snprintf(url, sizeof url, "/tournament/%.40s", t->id);
    for (int i = 0; i < ne; i++) {
        if (!es[i].active)
            continue;
        if (mins > 0)
            snprintf(text, sizeof text, "%s starts in %lld minute%s.", t->name, (long long)mins, mins == 1 ? "" : "s");
        else
            snprintf(text, sizeof text, "%s starts now.", t->name);
        srv_notify(T->db, es[i].user_id, "tournament", "", text, url);
    }
}

/* Counts one ended game: its row and both players' in one transaction.
 * An arena's game that ended past the grace counts nothing. 1 counted, 0
 * counted before, -1. */
static int count_game(srv_tourneys *T, const tp_tourney *t, tp_tgame *g, int64_t now_ms)
{
    tc_error err;
    if (tp_db_begin(T->db, &err)) {
        say("counting a game", &err);
        return -1;
    }
    tp_entrant es[MAXP];
    int ne = tp_entrants(T->db, t->id, es, MAXP, &err);
    int wi = ne < 0 ? -1 : find(es, ne, g->white), bi = ne < 0 ? -1 : find(es, ne, g->black);
    if (wi < 0 || bi < 0) {
        tp_db_end(T->db, 0, &err);
        return -1;
    }
    tp_entrant *w = &es[wi], *b = &es[bi];
    int late = t->kind == TP_ARENA && g->ended_ms > t->ends_ms + SRV_ARENA_GRACE_MS;
    int played = !strcmp(g->result, "1-0") || !strcmp(g->result, "0-1") || !strcmp(g->result, "1/2-1/2");
    tt_outcome ow = !strcmp(g->result, "1-0") ? TT_WON : !strcmp(g->result, "0-1") ? TT_LOSS : TT_DRAWN;
    tt_outcome ob = ow == TT_WON ? TT_LOSS : ow == TT_LOSS ? TT_WON : TT_DRAWN;
    g->white_pts = g->black_pts = 0;
    if (played && !late) {
        int sw = w->streak, sb = b->streak;
        if (t->kind == TP_ARENA) {
            g->white_pts = tt_arena_points(w->streak, ow, &sw);
            g->black_pts = tt_arena_points(b->streak, ob, &sb);
        } else { /* a round-robin: 2, 1, 0 (shown as 1, 1/2, 0), no streaks */
            g->white_pts = (int)ow;
            g->black_pts = (int)ob;
        }
        w->streak = sw, b->streak = sb;
        w->games++, b->games++;
        w->wins += ow == TT_WON, b->wins += ob == TT_WON;
        w->draws += ow == TT_DRAWN, b->draws += ob == TT_DRAWN;
        w->whites++;
        w->score += g->white_pts, b->score += g->black_pts;
    }
    /* an aborted game counts nothing, but the two still just met */
    memcpy(w->last_opp, b->user_id, sizeof w->last_opp);
    memcpy(b->last_opp, w->user_id, sizeof b->last_opp);
    w->playing[0] = b->playing[0] = '\0';
    w->waiting_ms = b->waiting_ms = now_ms;
    int rc = tp_tgame_count(T->db, g, &err);
    if (rc == 1 && (tp_entrant_update(T->db, t->id, w, &err) < 0 || tp_entrant_update(T->db, t->id, b, &err) < 0 ||
                    tp_tourney_bump(T->db, t->id, &err) < 0))
        rc = -1;
    if (rc != 1) {
        tp_db_end(T->db, 0, &err);
        if (rc < 0)
            say("counting a game", &err);
        return rc;
    }
    if (tp_db_end(T->db, 1, &err)) {
        say("counting a game", &err);
        return -1;
    }
    return 1;
}

/* Finishes a tournament: the best score wins (ties: fewer games, then the
 * earlier join, the standings' order). */
static void finish(srv_tourneys *T, const tp_tourney *t, int64_t now_ms)
{
    tc_error err;
    tp_entrant es[1];
    int ne = tp_entrants(T->db, t->id, es, 1, &err);
    if (ne < 0) {
        say("finishing", &err);
        return;
    }
    int won = ne > 0 && (es[0].score > 0 || es[0].games > 0);
    if (tp_tourney_move(T->db, t->id, TP_RUNNING, TP_FINISHED, t->round, won ? es[0].user_id : NULL,
                        won ? es[0].name : NULL, now_ms, &err) < 0)
        say("finishing", &err);
}

static void pair_arena(srv_tourneys *T, const srv_page *p, const tp_tourney *t, int64_t now_ms)
{
    tc_error err;
    tp_entrant es[MAXP];
    int ne = tp_entrants(T->db, t->id, es, MAXP, &err);
    if (ne < 0) {
        say("pairing", &err);
        return;
    }
    tt_waiter w[MAXP];
    int who[MAXP], nw = 0;
    for (int i = 0; i < ne; i++) {
        if (!es[i].active || es[i].playing[0])
            continue;
        w[nw].score = es[i].score;
        w[nw].self = i;
        w[nw].last_opp = es[i].last_opp[0] ? find(es, ne, es[i].last_opp) : -1;
        w[nw].whites = 2 * es[i].whites - es[i].games;
        w[nw].since_ms = es[i].waiting_ms;
        who[nw++] = i;
    }
    int pairs[MAXP][2];
    int np = tt_arena_pair(w, nw, pairs);
    for (int k = 0; k < np; k++)
        make_game(T, p, t, 0, &es[who[pairs[k][0]]], &es[who[pairs[k][1]]], now_ms);
    if (np)
        tp_tourney_bump(T->db, t->id, &err);
}

/* Makes the games of a round-robin's round (from 1). */
static void rr_round(srv_tourneys *T, const srv_page *p, const tp_tourney *t, int round, int64_t now_ms)
{
    tc_error err;
    tp_entrant es[TT_RR_MAX], by_seat[TT_RR_MAX];
    int ne = tp_entrants(T->db, t->id, es, TT_RR_MAX, &err);
    if (ne < 2) {
        if (ne < 0)
            say("a round", &err);
        return;
    }
    for (int i = 0; i < ne; i++)
        if (es[i].seat >= 0 && es[i].seat < ne)
            by_seat[es[i].seat] = es[i];
    int white[TT_RR_MAX], black[TT_RR_MAX], bye;
    int boards = tt_berger_round(ne, round - 1, white, black, &bye);
    for (int k = 0; k < boards; k++)
        make_game(T, p, t, round, &by_seat[white[k]], &by_seat[black[k]], now_ms);
}

/* Starts a due tournament: fewer than 2 players cancel a round-robin; a
 * round-robin's seats are drawn in the order of joining (the players who
 * withdrew before the start leave) and its first round made. */
static void start(srv_tourneys *T, const srv_site *site, const tp_tourney *t, int64_t now_ms)
{
    tc_error err;
    tp_entrant es[MAXP];
    int ne = tp_entrants(T->db, t->id, es, MAXP, &err);
    if (ne < 0) {
        say("starting", &err);
        return;
    }
    int active = 0;
    for (int i = 0; i < ne; i++)
        active += es[i].active;
    const srv_page *p = srv_site_find(site, t->variant);
    /* an arena starts with whoever is there (players join while it runs);
     * a round-robin needs two */
    if ((active < 2 && t->kind == TP_ROUND_ROBIN) || !p) {
        if (!p)
            fprintf(stderr, "topochess serve: tournaments: %s: the variant '%s' is no longer served\n", t->id,
                    t->variant);
        tp_tourney_move(T->db, t->id, TP_UPCOMING, TP_CANCELLED, 0, NULL, NULL, now_ms, &err);
        return;
    }
    if (t->kind == TP_ARENA) {
        tp_tourney_move(T->db, t->id, TP_UPCOMING, TP_RUNNING, 0, NULL, NULL, 0, &err);
        return;
    }
    /* seats by joining order; withdrawn players leave the table */
    for (int i = 0; i < ne; i++)
        for (int j = i + 1; j < ne; j++)
            if (es[j].joined_ms < es[i].joined_ms ||
                (es[j].joined_ms == es[i].joined_ms && strcmp(es[j].user_id, es[i].user_id) < 0)) {
                tp_entrant x = es[i];
                es[i] = es[j];
                es[j] = x;
            }
    int seat = 0;
    for (int i = 0; i < ne; i++) {
        if (es[i].active)
            tp_entrant_seat(T->db, t->id, es[i].user_id, seat++, &err);
        else
            tp_entrant_seat(T->db, t->id, es[i].user_id, -1, &err);
    }
    if (tp_tourney_move(T->db, t->id, TP_UPCOMING, TP_RUNNING, 1, NULL, NULL, 0, &err) == 1) {
        /* the withdrawn rows go, so that the table has only its players */
        tp_arg a[] = {TP_TEXT(t->id)};
        tp_db_exec(T->db, "DELETE FROM tournament_players WHERE tid = ?1 AND active = 0", a, 1, NULL, NULL, &err);
        tp_tourney r = *t;
        r.round = 1;
        rr_round(T, p, &r, 1, now_ms);
    }
}

static void run(srv_tourneys *T, const srv_site *site, const tp_tourney *t, int64_t now_ms)
{
    tc_error err;
    tp_tgame ended[64];
    int n = tp_tgames_ended(T->db, t->id, ended, 64, &err);
    if (n < 0) {
        say("reading games", &err);
        return;
    }
    for (int i = 0; i < n; i++)
        count_game(T, t, &ended[i], now_ms);
    int open = tp_tgames_open(T->db, t->id, &err);
    if (open < 0) {
        say("reading games", &err);
        return;
    }
    const srv_page *p = srv_site_find(site, t->variant);
    if (t->kind == TP_ARENA) {
        if (now_ms < t->ends_ms && p)
            pair_arena(T, p, t, now_ms);
        else if (now_ms >= t->ends_ms && (!open || now_ms >= t->ends_ms + SRV_ARENA_GRACE_MS))
            finish(T, t, now_ms);
        return;
    }
    if (open)
        return;
    int players = tp_entrants_count(T->db, t->id, &err);
    if (t->round < tt_berger_rounds(players) && p) {
        if (tp_tourney_move(T->db, t->id, TP_RUNNING, TP_RUNNING, t->round + 1, NULL, NULL, 0, &err) == 1)
            rr_round(T, p, t, t->round + 1, now_ms);
    } else if (t->round >= tt_berger_rounds(players)) {
        finish(T, t, now_ms);
    }
}

int srv_tourneys_beat(srv_tourneys *T, int64_t now_ms)
{
    tc_error err;
    const srv_site *site = srv_tourneys_site(T);
    if (!site)
        return 0;
    int held = tp_tourney_lease(T->db, T->owner, now_ms, SRV_TOURNEY_LEASE_MS, &err);
    if (held <= 0) {
        if (held < 0)
            say("the pairer's lease", &err);
        return held;
    }
    srv_tourneys_sched_make(T, now_ms);
    tp_tourney due[32];
    int n = tp_tourney_due(T->db, TP_UPCOMING, now_ms + SRV_TOURNEY_WARN_MS, due, 32, &err);
    for (int i = 0; i < n; i++)
        warn(T, &due[i], now_ms);
    n = tp_tourney_due(T->db, TP_UPCOMING, now_ms, due, 32, &err);
    for (int i = 0; i < n; i++)
        start(T, site, &due[i], now_ms);
    n = tp_tourney_due(T->db, -1, 0, due, 32, &err);
    if (n < 0) {
        say("reading tournaments", &err);
        return -1;
    }
    for (int i = 0; i < n; i++)
        run(T, site, &due[i], now_ms);
    return 1;
}
