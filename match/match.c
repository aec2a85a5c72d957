/* `topochess match`: engine-versus-engine games judged by the library.
 * Each game starts its own two engine processes, so a crash or a hang
 * costs one game; games run on `concurrency` threads. Openings are made in
 * match_openings.c, Elo and the summary in match_stats.c, the
 * configuration in match_config.c. */
#include "match.h"
#include "topochess_endgame.h"

#include <ctype.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


/* ---------------------------------------------------------------- games */

/// What every game thread shares: the fixed inputs, and the score, output
/// and next game number under the lock.
typedef struct match_state {
    const match_config *cfg;
    tc_variant *v;
    tc_dead_table *dead; /* dead materials of the board, shared by the games */
    match_opening *openings;
    int nopenings;
    char names[2][112];
    FILE *log, *pgn;
    pthread_mutex_t lock;
    int next_game;
    match_score score;
    signed char *result; /* by game: 0 not yet, 1 win, 2 loss, 3 draw (engine 1) */
    match_penta penta;
    int decided;         /* the SPRT stopped the match */
} match_state;

/// How one game ended.
typedef struct game_end {
    char result[8];
    char termination[24]; /* PGN Termination: normal, time forfeit, ... */
    char reason[700];
} game_end;

static const char *colour_name(int c) { return c == TC_WHITE ? "White" : "Black"; }

static void end_game(game_end *g, int loser, const char *termination, const char *fmt, ...)
{
    snprintf(g->result, sizeof g->result, "%s", loser < 0 ? "1/2-1/2" : loser == TC_WHITE ? "0-1" : "1-0");
    snprintf(g->termination, sizeof g->termination, "%s", termination);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->reason, sizeof g->reason, fmt, ap);
    va_end(ap);
}

/* Starts engine k for a game and sets it up; 0 or -1 with e->error. */
static int start_engine(const match_state *m, int k, ep_engine *e, const char *tag)
{
    const match_engine_cfg *ec = &m->cfg->eng[k];
    if (ep_start(e, ec->cmd, ec->proto, m->cfg->debug ? stderr : NULL, tag))
        return -1;
    if (ec->proto == EP_UCI && ec->skill >= 0 && ep_has_option(e, "Skill Level")) {
        char level[16];
        snprintf(level, sizeof level, "%d", ec->skill);
        ep_set_option(e, "Skill Level", level);
    }
    for (int i = 0; i < ec->noptions; i++) {
        if (ec->proto != EP_UCI || !ep_has_option(e, ec->option[i][0])) {
            ep_stop(e, NULL, NULL, 1);
            snprintf(e->error, sizeof e->error, "engine %d has no UCI option '%s'", k + 1, ec->option[i][0]);
            return -1;
        }
        ep_set_option(e, ec->option[i][0], ec->option[i][1]);
    }
    return 0;
}

/* Judges the position by our rules (dead positions by the solved endings);
 * 1 if the game is over. */
static int judge(tc_dead_table *dead, const tc_position *p, int maxplies, game_end *g)
{
    tc_status s = tc_game_status(dead, p);
    int side = tc_side_to_move(p);
    switch (s) {
    case TC_CHECKMATE:
        end_game(g, side, "normal", "%s mates", colour_name(!side));
        return 1;
    case TC_STALEMATE:
    case TC_DRAW_FIFTY:
    case TC_DRAW_REPETITION:
        end_game(g, -1, "normal", "%s", tc_status_text(s));
        return 1;
    case TC_DRAW_DEAD: /* docs/rules.md section 6, decided per position */
        end_game(g, -1, "dead position", "%s", tc_status_text(s));
        return 1;
    case TC_ONGOING:
        break;
    }
    if (tc_ply_count(p) >= maxplies) {
        end_game(g, -1, "adjudication", "draw by the cap of %d plies", maxplies);
        return 1;
    }
    return 0;
}

int match_margin(const match_config *cfg, int k)
{
    if (cfg->margin_ms >= 0)
        return cfg->margin_ms;
    const match_engine_cfg *e = &cfg->eng[k];
    if (e->tc_base_ms > 0)
        return 100 + e->tc_base_ms / 400 + e->tc_inc_ms;
    return e->nodes > 0 ? 100 : 100 + e->movetime_ms / 2;
}

/* Asks the side to move (engine k) for its move and plays it; 1 if the
 * game ended. `clock` and `inc` are by colour. */
static int engine_turn(const match_state *m, int k, tc_position *p, ep_engine *e, const char *who,
                       ep_limits *lim, long *clock, game_end *g, int *hung)
{
    const match_config *cfg = m->cfg;
    int side = tc_side_to_move(p);
    long margin = match_margin(cfg, k);
    lim->clock_ms[0] = clock[0];
    lim->clock_ms[1] = clock[1];
    long timeout = lim->tc_base_ms > 0 ? clock[side] + margin
                   : lim->nodes > 0    ? cfg->hang_ms
                                       : (long)lim->movetime_ms + margin;
    if (timeout < 1)
        timeout = 1;
    char text[256], fen[800];
    long elapsed;
    ep_reply r = ep_go(e, p, lim, (int)timeout, text, sizeof text, &elapsed);
    tc_position_fen(p, fen, sizeof fen);
    switch (r) {
    case EP_TIMEOUT:
        *hung = 1;
        end_game(g, side, "time forfeit", "%s did not move within %ld ms%s%s%s", who, timeout,
                 e->said[0] ? " (it said: '" : "", e->said, e->said[0] ? "')" : "");
        return 1;
    case EP_DIED:
        end_game(g, side, "abandoned", "%s: %s", who, e->error);
        return 1;
    case EP_RESIGN:
        end_game(g, side, "normal", "%s resigns", who);
        return 1;
    case EP_CLAIM:
        end_game(g, side, "rules infraction", "%s claims '%s', which our rules do not confirm, in %s",
                 who, text, fen);
        return 1;
    case EP_REJECT:
        end_game(g, side, "rules infraction", "%s rejects a legal move: '%s'", who, text);
        return 1;
    case EP_MOVE:
        break;
    }
    tc_move mv;
    tc_error err;
    int parsed = e->proto == EP_UCI ? tc_move_from_uci(p, text, &mv, &err) : tc_move_parse(p, text, &mv, &err);
    if (parsed) {
        end_game(g, side, "rules infraction", "%s plays an illegal move '%s' in %s (%s)", who, text, fen, err.msg);
        return 1;
    }
    if (lim->tc_base_ms > 0) {
        clock[side] -= elapsed;
        if (clock[side] < -margin) {
            end_game(g, side, "time forfeit", "%s loses on time (%ld ms over)", who, -clock[side]);
            return 1;
        }
        clock[side] += lim->tc_inc_ms;
    } else if (lim->nodes <= 0 && elapsed > timeout) {
        end_game(g, side, "time forfeit", "%s took %ld ms for a %d ms move", who, elapsed, lim->movetime_ms);
        return 1;
    }
    tc_make_move(p, mv);
    return 0;
}

/// Runs of consecutive moves that count towards adjudication.
typedef struct adj_state {
    int resign_run, resign_winner; /* moves scoring a win for resign_winner */
    int draw_run;                  /* moves scoring near zero */
} adj_state;

/* After a move by `side` (which reported e->score): 1 and g filled when the
 * scores of both engines settle the game. */
static int adjudicate(const match_config *cfg, adj_state *a, const tc_position *p, int side, const ep_engine *e,
                      game_end *g)
{
    const match_adjudication *adj = &cfg->adj;
    if (!e->has_score) {
        a->resign_run = a->draw_run = 0;
        return 0;
    }
    int white_view = side == TC_WHITE ? e->score : -e->score;
    if (adj->resign_moves > 0) {
        if (abs(white_view) >= adj->resign_cp) {
            int winner = white_view > 0 ? TC_WHITE : TC_BLACK;
            a->resign_run = a->resign_run > 0 && a->resign_winner == winner ? a->resign_run + 1 : 1;
            a->resign_winner = winner;
        } else {
            a->resign_run = 0;
        }
        if (a->resign_run >= 2 * adj->resign_moves) {
            end_game(g, !a->resign_winner, "adjudication",
                     "%s wins by adjudication: both engines scored %d cp or more for it for %d moves",
                     colour_name(a->resign_winner), adj->resign_cp, adj->resign_moves);
            return 1;
        }
    }
    if (adj->draw_moves > 0) {
        a->draw_run = abs(white_view) <= adj->draw_cp ? a->draw_run + 1 : 0;
        int moveno = tc_ply_count(p) / 2 + 1;
        if (moveno > adj->draw_movenumber && a->draw_run >= 2 * adj->draw_moves) {
            end_game(g, -1, "adjudication", "draw by adjudication: both engines scored within %d cp for %d moves",
                     adj->draw_cp, adj->draw_moves);
            return 1;
        }
    }
    return 0;
}

static void engine_limits(const match_engine_cfg *ec, ep_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->movetime_ms = ec->movetime_ms;
    lim->nodes = ec->nodes;
    lim->tc_base_ms = ec->tc_base_ms;
    lim->tc_inc_ms = ec->tc_inc_ms;
}

/* Plays game `index`: engine match_white_engine(index) has White. */
static void play_game(match_state *m, int index, tc_position *p, game_end *g)
{
    const match_config *cfg = m->cfg;
    int white = match_white_engine(index);
    int engine_of[2] = {white, !white}; /* colour -> engine */
    ep_engine *eng[2] = {calloc(1, sizeof(ep_engine)), calloc(1, sizeof(ep_engine))};
    int started[2] = {0, 0}, hung[2] = {0, 0};
    char who[2][160];
    tc_error err;
    memset(g, 0, sizeof *g);
    if (!eng[0] || !eng[1]) {
        end_game(g, -1, "abandoned", "out of memory");
        goto done;
    }
    if (match_apply_opening(p, &m->openings[match_opening_index(index, m->nopenings)], &err)) {
        end_game(g, -1, "abandoned", "opening: %s", err.msg);
        goto done;
    }
    ep_limits lim[2]; /* by colour */
    long clock[2];
    for (int c = 0; c < 2; c++) {
        engine_limits(&cfg->eng[engine_of[c]], &lim[c]);
        clock[c] = lim[c].tc_base_ms;
    }
    for (int c = 0; c < 2; c++) {
        lim[c].inc_ms[0] = lim[0].tc_inc_ms;
        lim[c].inc_ms[1] = lim[1].tc_inc_ms;
    }
    for (int c = 0; c < 2; c++) {
        snprintf(who[c], sizeof who[c], "%s (%s)", colour_name(c), m->names[engine_of[c]]);
        char tag[24];
        snprintf(tag, sizeof tag, "%d.%d", index + 1, engine_of[c] + 1);
        if (start_engine(m, engine_of[c], eng[c], tag) == 0)
            started[c] = 1;
        if (!started[c] || ep_new_game(eng[c], p, &lim[c])) {
            end_game(g, c, "abandoned", "%s: %s", who[c], eng[c]->error);
            goto done;
        }
    }
    adj_state adj = {0, 0, 0};
    game_end pending;
    int settled = 0;
    while (!judge(m->dead, p, cfg->maxplies, g)) {
        if (settled) {
            *g = pending;
            break;
        }
        int side = tc_side_to_move(p);
        if (engine_turn(m, engine_of[side], p, eng[side], who[side], &lim[side], clock, g, &hung[side]))
            break;
        settled = adjudicate(cfg, &adj, p, side, eng[side], &pending);
    }
done:
    for (int c = 0; c < 2; c++) {
        if (started[c])
            ep_stop(eng[c], g->result, g->reason, !hung[c]);
        free(eng[c]);
    }
}

static void write_pgn(match_state *m, int index, const tc_position *p, const game_end *g)
{
    int white = match_white_engine(index);
    char round[16], date[16], details[250], tcbuf[48];
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(round, sizeof round, "%d", index + 1);
    snprintf(details, sizeof details, "%.249s", g->reason);
    const char *tags[2 * 11];
    int n = 0;
#define TAG(name, value) (tags[2 * n] = (name), tags[2 * n + 1] = (value), n++)
    TAG("Event", m->cfg->event);
    TAG("Site", "topochess match");
    TAG("Date", date);
    TAG("Round", round);
    TAG("White", m->names[white]);
    TAG("Black", m->names[!white]);
    TAG("Result", g->result);
    if (m->cfg->tc_base_ms > 0) {
        snprintf(tcbuf, sizeof tcbuf, "%g+%g", m->cfg->tc_base_ms / 1000.0, m->cfg->tc_inc_ms / 1000.0);
        TAG("TimeControl", tcbuf);
    }
    TAG("Termination", g->termination);
    TAG("TerminationDetails", details);
#undef TAG
    tc_pgn_write(p, tags, n, g->result, m->pgn);
    fflush(m->pgn);
}

/* Notes a game's outcome; when its pair is complete, counts the pair and
 * runs the SPRT (under the lock). */
static void record_pair(match_state *m, int index, int outcome)
{
    if (!m->result)
        return;
    m->result[index] = (signed char)outcome;
    int mate = index ^ 1;
    if (mate >= m->cfg->games || !m->result[mate])
        return;
    static const int points[4] = {0, 2, 0, 1}; /* half points by outcome */
    m->penta.n[points[m->result[index]] + points[m->result[mate]]]++;
    const match_sprt *t = &m->cfg->sprt;
    if (!t->on)
        return;
    match_penta all = match_sprt_pairs(t, &m->penta);
    int pairs = match_penta_total(&all), own = match_penta_total(&m->penta);
    double llr = match_sprt_llr_penta(&all, t->elo0, t->elo1);
    /* the normal approximation needs a sample: no decision on a handful
     * of pairs, whose variance is mostly the regularisation */
    if (pairs >= MATCH_SPRT_MIN_PAIRS && match_sprt_decide(t, llr) && !m->decided) {
        m->decided = 1;
        fprintf(m->log, "SPRT decided after %d game pairs; games under way finish\n", own);
    } else if (own % 10 == 0) {
        match_print_summary(&m->score, m->names[0], m->names[1], m->log);
        match_print_sprt(t, &m->penta, m->log);
    }
}

static void *game_thread(void *arg)
{
    match_state *m = arg;
    tc_position *p = tc_position_new(m->v);
    for (;;) {
        pthread_mutex_lock(&m->lock);
        int index = m->next_game < m->cfg->games && !m->decided ? m->next_game++ : -1;
        pthread_mutex_unlock(&m->lock);
        if (index < 0 || !p)
            break;
        game_end g;
        play_game(m, index, p, &g);
        int white = match_white_engine(index);
        pthread_mutex_lock(&m->lock);
        fprintf(m->log, "Finished game %d (%s vs %s): %s {%s}\n", index + 1, m->names[white],
                m->names[!white], g.result, g.reason);
        fflush(m->log);
        int outcome;
        if (!strcmp(g.result, "1/2-1/2"))
            m->score.draws++, outcome = 3;
        else if ((g.result[0] == '1') == (white == 0))
            m->score.wins++, outcome = 1;
        else
            m->score.losses++, outcome = 2;
        record_pair(m, index, outcome);
        if (m->pgn)
            write_pgn(m, index, p, &g);
        pthread_mutex_unlock(&m->lock);
    }
    tc_position_free(p);
    return NULL;
}

/* ---------------------------------------------------------------- the match */

/* Starts each engine once to learn its name and check that it can play
 * this variant from these openings. */
static int probe_engines(match_state *m)
{
    const match_config *cfg = m->cfg;
    int fen_openings = 0;
    for (int i = 0; i < m->nopenings; i++)
        fen_openings |= m->openings[i].fen != NULL;
    for (int k = 0; k < 2; k++) {
        const match_engine_cfg *ec = &cfg->eng[k];
        ep_engine *e = calloc(1, sizeof *e);
        char tag[24];
        snprintf(tag, sizeof tag, "probe.%d", k + 1);
        if (!e || start_engine(m, k, e, tag)) {
            fprintf(m->log, "match: engine%d '%s' did not start: %s\n", k + 1, ec->cmd, e ? e->error : "out of memory");
            free(e);
            return -1;
        }
        const char *variant = ep_variant_name(ec->proto, cfg->def.name);
        int ok = 1;
        if (strcmp(variant, "chess") && !ep_has_variant(e, variant)) {
            fprintf(m->log, "match: engine%d '%s' does not play variant '%s' (%s: %.160s%s)\n", k + 1,
                    e->name[0] ? e->name : ec->cmd, variant,
                    ec->proto == EP_UCI ? "its UCI_Variant values" : "its feature variants",
                    e->variants[0] ? e->variants : "none", strlen(e->variants) > 160 ? "..." : "");
            ok = 0;
        } else if (ec->proto == EP_CECP && fen_openings && !e->setboard) {
            fprintf(m->log, "match: engine%d '%s' lacks feature setboard=1, needed for FEN openings\n",
                    k + 1, e->name[0] ? e->name : ec->cmd);
            ok = 0;
        }
        const char *name = ec->name[0] ? ec->name : e->name;
        if (!*name) {
            /* The command's first word without its directory. */
            char first[96];
            snprintf(first, sizeof first, "%.*s", (int)strcspn(ec->cmd, " "), ec->cmd);
            const char *slash = strrchr(first, '/');
            snprintf(m->names[k], sizeof m->names[k], "%s", slash ? slash + 1 : first);
        } else {
            snprintf(m->names[k], sizeof m->names[k], "%s", name);
        }
        ep_stop(e, NULL, NULL, 1);
        free(e);
        if (!ok)
            return -1;
    }
    if (!strcmp(m->names[0], m->names[1])) {
        size_t len = strlen(m->names[1]);
        snprintf(m->names[1] + (len < 100 ? len : 100), 12, " (2)");
    }
    return 0;
}


int match_run(const match_config *cfg, FILE *log, match_score *score)
{
    return match_run_penta(cfg, log, score, NULL);
}

int match_run_penta(const match_config *cfg, FILE *log, match_score *score, match_penta *penta)
{
    /* A write to an engine that died must be an error, not our death. */
    struct sigaction ign;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, NULL);

    match_state m;
    memset(&m, 0, sizeof m);
    m.cfg = cfg;
    m.log = log;
    tc_error err;
    int status = -1;
    pthread_mutex_init(&m.lock, NULL);
    m.v = tc_variant_new(&cfg->def, &err);
    if (!m.v) {
        fprintf(log, "match: variant %s: %s\n", cfg->def.name, err.msg);
        goto done;
    }
    m.dead = tc_dead_table_new(m.v, &err); /* NULL: the rules' own dead cases */
    if (!(m.result = calloc((size_t)cfg->games + 1, 1))) {
        fprintf(log, "match: out of memory\n");
        goto done;
    }
    if (match_make_openings(cfg, m.v, &m.openings, &m.nopenings, log) || probe_engines(&m))
        goto done;
    if (cfg->pgn_path[0] && !(m.pgn = fopen(cfg->pgn_path, "w"))) {
        fprintf(log, "match: cannot write '%s'\n", cfg->pgn_path);
        goto done;
    }
    int workers = cfg->concurrency < cfg->games ? cfg->concurrency : cfg->games;
    pthread_t threads[MATCH_MAX_CONCURRENCY];
    int running = 0;
    for (int i = 1; i < workers; i++)
        if (pthread_create(&threads[running], NULL, game_thread, &m) == 0)
            running++;
    game_thread(&m);
    for (int i = 0; i < running; i++)
        pthread_join(threads[i], NULL);
    match_print_summary(&m.score, m.names[0], m.names[1], log);
    if (cfg->sprt.on)
        match_print_sprt(&cfg->sprt, &m.penta, log);
    status = 0;
done:
    if (score)
        *score = m.score;
    if (penta)
        *penta = m.penta;
    free(m.result);
    if (m.pgn)
        fclose(m.pgn);
    match_free_openings(m.openings, m.nopenings);
    tc_dead_table_free(m.dead);
    tc_variant_free(m.v);
    pthread_mutex_destroy(&m.lock);
    return status;
}
