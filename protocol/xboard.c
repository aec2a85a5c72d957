/* CECP (XBoard/WinBoard protocol v2) front end over the engine object.
 *
 * The GUI knows none of our boards' joins, so every variant except `normal`
 * and `cylinder` is announced as an engine-defined variant: in reply to
 * `variant X` we send `setup (PNBRQKpnbrqk) WxH+0_fairy FEN`, and we answer
 * `lift SQ` with a `highlight` colour board of the legal targets, which the
 * GUI then uses as its legality test. Searches run in a second thread so
 * that `?`, `force` and `quit` are heard while thinking; a `ping` while
 * thinking is answered after the move, without holding up the loop, so the
 * end of input is always seen: it stops the search (the move is still
 * written) and the loop returns. With `hard` the same thread goes on, after
 * its move, to ponder on the reply it expects: that reply turns the search
 * into a timed one (ponder hit), any other command that changes the game
 * drops it. Error lines quote at most PROTO_ECHO_MAX bytes of the
 * command. */
/* Over 800 lines because: one CECP command table and its handlers share the
 * loop's state (game, clocks, the search thread and pondering); the parts
 * that do not (board setup lines, highlight boards) already live in
 * protocols.c. */
#include "protocols.h"
#include "topochess_engine.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Times beyond this (about 31 years, as UCI's limit) are clamped to it, so
 * that no clock arithmetic here or in the engine can overflow. */
#define MAX_MS 1000000000000LL

/// The game as the GUI sees it (position with history, clocks, who plays
/// what) plus the engine and its thinking thread. `lock` guards the
/// position and the output: the thinking thread plays its move under it.
typedef struct xb_state {
    FILE *in, *out;
    pthread_mutex_t lock;
    tc_variant_def start_def; /* what `new` returns to */
    tc_variant_def def;
    tc_variant *v;
    tc_position *pos;
    tc_engine *eng;
    proto_dead dead; /* dead positions of the board (docs/rules.md section 6) */
    size_t hash_mb;
    proto_cache *cache; /* from the options, may be NULL */
    int threads;
    char egtb_path[256]; /* egtpath topochess PATH */
    char eval_file[256]; /* option EvalFile=FILE: a path, <built-in> or <none> */
    bool force;
    int engine_side; /* colour the engine plays, -1 none */
    bool post;       /* (lock) */
    bool ponder_on;  /* `hard`: ponder after each move (lock) */
    /* time control */
    int mps;           /* moves per session, 0: whole game */
    int64_t base_ms, inc_ms, st_ms;
    int sd;
    int64_t time_ms, otim_ms; /* clocks from `time`/`otim`, -1 unknown */
    /* thinking */
    pthread_t thread;
    bool thread_live;
    bool discard; /* throw the move away (force, new, undo...) */
    bool halting; /* the thread is being stopped: no pondering after it (lock) */
    bool done;    /* the thinking thread has finished (guarded by lock) */
    bool pondering;     /* it searches the expected reply, no move owed (lock) */
    tc_move ponder_move; /* that reply (lock) */
    tc_position *search_pos;
    tc_limits limits;
    /* pings that came while thinking, answered after the move (lock) */
    char **pongs;
    int npongs, cap_pongs;
} xb_state;

static void emit(xb_state *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Writes one line; the caller holds x->lock. */
static void emit(xb_state *x, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    proto_vline(x->out, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- results */

/* Writes the result line if the game is over; returns 1 then. */
static int announce_result(xb_state *x)
{
    tc_status s = proto_game_status(&x->dead, x->pos, NULL, 0);
    switch (s) {
    case TC_ONGOING:
        return 0;
    case TC_CHECKMATE:
        if (tc_side_to_move(x->pos) == TC_WHITE)
            emit(x, "0-1 {Black mates}");
        else
            emit(x, "1-0 {White mates}");
        break;
    case TC_STALEMATE: emit(x, "1/2-1/2 {Stalemate}"); break;
    case TC_DRAW_FIFTY: emit(x, "1/2-1/2 {Draw by 50-move rule}"); break;
    case TC_DRAW_REPETITION: emit(x, "1/2-1/2 {Draw by repetition}"); break;
    case TC_DRAW_DEAD: emit(x, "1/2-1/2 {dead position}"); break;
    }
    return 1;
}

/* ---------------------------------------------------------------- thinking */

/* Writes the pongs owed; the caller holds x->lock. */
static void flush_pongs(xb_state *x)
{
    for (int i = 0; i < x->npongs; i++) {
        emit(x, "pong %s", x->pongs[i]);
        free(x->pongs[i]);
    }
    x->npongs = 0;
}

static void on_info(const tc_search_info *in, void *ctx)
{
    xb_state *x = ctx;
    pthread_mutex_lock(&x->lock);
    bool post = x->post;
    pthread_mutex_unlock(&x->lock);
    if (!post || in->bound != TC_BOUND_EXACT)
        return;
    char pv[4096];
    proto_moves_text(x->search_pos, in->pv, in->pv_len, pv, sizeof pv);
    int score = in->score;
    if (in->mate > 0)
        score = 100000 + in->mate;
    else if (in->mate < 0)
        score = -100000 + in->mate;
    pthread_mutex_lock(&x->lock);
    emit(x, "%d %d %lld %llu\t%d\t%llu\t%s", in->depth, score, (long long)(in->time_ms / 10),
         (unsigned long long)in->nodes, in->seldepth, (unsigned long long)in->nps, pv);
    pthread_mutex_unlock(&x->lock);
}

/* After the engine's move, with `hard`: sets up a ponder search on the
 * position after `reply`, the answer it expects. The caller holds x->lock,
 * so a ponder hit or a stop comes only after the engine has the position. */
static bool start_pondering(xb_state *x, tc_move reply)
{
    if (!x->ponder_on || x->halting || x->force || !reply || !tc_is_legal(x->pos, reply))
        return false;
    tc_position *q = tc_position_clone(x->pos);
    if (!q)
        return false;
    tc_make_move(q, reply);
    if (tc_position_status(q) != TC_ONGOING || tc_engine_set_position(x->eng, q)) {
        tc_position_free(q);
        return false;
    }
    tc_position_free(x->search_pos);
    x->search_pos = q;
    int depth = x->limits.depth; /* sd holds; the clocks come with the hit */
    tc_limits_init(&x->limits);
    x->limits.depth = depth;
    x->limits.ponder = 1;
    x->pondering = true;
    x->ponder_move = reply;
    return true;
}

/* The thinking thread: searches, plays the move and, with `hard`, ponders
 * on the expected reply; after a ponder hit it plays that search's move
 * and may ponder again. A ponder search that was not hit plays nothing. */
static void *think_main(void *arg)
{
    xb_state *x = arg;
    for (bool again = true; again;) {
        tc_search_result r = tc_engine_search(x->eng, &x->limits, on_info, x);
        pthread_mutex_lock(&x->lock);
        again = false;
        if (!x->discard && !x->pondering && r.best && tc_is_legal(x->pos, r.best)) {
            char buf[32];
            tc_move_to_uci(x->pos, r.best, buf);
            tc_make_move(x->pos, r.best);
            emit(x, "move %s", buf);
            again = !announce_result(x) && start_pondering(x, r.ponder);
        }
        flush_pongs(x);
        if (!again) {
            x->pondering = false;
            x->done = true;
        }
        pthread_mutex_unlock(&x->lock);
    }
    return NULL;
}

/* The thread is pondering: no move is owed, and the game may change under
 * it only through finish_thinking or a ponder hit. */
static bool pondering(xb_state *x)
{
    pthread_mutex_lock(&x->lock);
    bool p = x->thread_live && x->pondering;
    pthread_mutex_unlock(&x->lock);
    return p;
}

enum { XB_WAIT, XB_STOP, XB_DISCARD };

/* Waits for the thinking thread. XB_DISCARD stops the search at once and
 * drops its move; XB_STOP stops it and plays the move found so far;
 * XB_WAIT lets it play out its time. */
static void finish_thinking(xb_state *x, int how)
{
    if (!x->thread_live)
        return;
    if (how != XB_WAIT) {
        /* under the lock: the thread sets up a ponder search (and clears
         * the engine's stop flag) only under it, and not after this */
        pthread_mutex_lock(&x->lock);
        x->discard |= how == XB_DISCARD;
        x->halting = true;
        tc_engine_stop(x->eng);
        pthread_mutex_unlock(&x->lock);
    }
    pthread_join(x->thread, NULL);
    x->thread_live = false;
    tc_position_free(x->search_pos);
    x->search_pos = NULL;
}

/* Limits for the side to move in x->pos by the clocks and levels. */
static void plan_limits(xb_state *x, tc_limits *l)
{
    tc_limits_init(l);
    int us = tc_side_to_move(x->pos);
    if (x->sd > 0)
        l->depth = x->sd;
    if (x->st_ms > 0) {
        l->movetime = x->st_ms;
        return;
    }
    int64_t mine = x->time_ms >= 0 ? x->time_ms : x->base_ms;
    int64_t theirs = x->otim_ms >= 0 ? x->otim_ms : x->base_ms;
    if (mine <= 0) {
        if (!l->depth)
            l->movetime = 2000; /* no clock given at all */
        return;
    }
    l->wtime = us == TC_WHITE ? mine : theirs;
    l->btime = us == TC_WHITE ? theirs : mine;
    l->winc = l->binc = x->inc_ms;
    if (x->mps > 0) {
        int played = tc_fullmove_number(x->pos) - 1;
        l->movestogo = x->mps - played % x->mps;
    }
}

/* Starts thinking if the engine is to move; the caller holds no lock. */
static void maybe_think(xb_state *x)
{
    if (x->force || x->thread_live || x->engine_side != tc_side_to_move(x->pos))
        return;
    pthread_mutex_lock(&x->lock);
    int over = announce_result(x);
    pthread_mutex_unlock(&x->lock);
    if (over)
        return;
    plan_limits(x, &x->limits);
    x->search_pos = tc_position_clone(x->pos);
    if (!x->search_pos || tc_engine_set_position(x->eng, x->pos)) {
        tc_position_free(x->search_pos);
        x->search_pos = NULL;
        return;
    }
    x->discard = false;
    x->halting = false;
    x->done = false;
    if (pthread_create(&x->thread, NULL, think_main, x) == 0)
        x->thread_live = true;
}

/* ---------------------------------------------------------------- setup */

/* Sets the evaluation the EvalFile option names: a comment line says
 * what evaluates, a `telluser` line why a file could not be used (the
 * hand-written evaluation then). */
static void apply_eval_file(xb_state *x)
{
    tc_error err;
    char msg[400];
    const char *f = x->eval_file;
    bool failed = false;
    if (!*f || !strcmp(f, "<built-in>")) {
        if (tc_engine_use_builtin_net(x->eng))
            snprintf(msg, sizeof msg, "EvalFile: no built-in net for %s; evaluation: hand-written", x->def.name);
        else
            snprintf(msg, sizeof msg, "evaluation: %s", tc_engine_eval_text(x->eng));
    } else if (!strcmp(f, "<none>")) {
        tc_engine_clear_net(x->eng);
        snprintf(msg, sizeof msg, "evaluation: hand-written");
    } else if ((failed = tc_engine_load_net(x->eng, f, &err) != 0)) {
        snprintf(msg, sizeof msg, "EvalFile: %s; evaluation: hand-written", err.msg);
    } else {
        snprintf(msg, sizeof msg, "evaluation: %s", tc_engine_eval_text(x->eng));
    }
    pthread_mutex_lock(&x->lock);
    emit(x, "%s %s", failed ? "telluser" : "#", msg);
    pthread_mutex_unlock(&x->lock);
}

static int use_variant(xb_state *x, const tc_variant_def *def, tc_error *err)
{
    if (proto_switch_variant(x->cache, def, x->hash_mb, x->threads, &x->v, &x->pos, &x->eng, err))
        return -1;
    tc_engine_set_endgame_path(x->eng, x->egtb_path);
    x->def = *def;
    if (x->eval_file[0] && strcmp(x->eval_file, "<built-in>"))
        apply_eval_file(x); /* the new engine starts on its built-in net */
    return 0;
}

/* Our names for the GUI: chess is `normal`; the GUI's own `cylinder` is
 * ours too; every other preset is engine-defined under its own name. */
static const char *gui_name(const char *ours)
{
    return !strcmp(ours, "chess") ? "normal" : ours;
}

static void send_setup(xb_state *x)
{
    if (!strcmp(x->def.name, "chess") || !strcmp(x->def.name, "cylinder"))
        return;
    char fen[800];
    tc_position_fen(x->pos, fen, sizeof fen);
    emit(x, "setup (PNBRQKpnbrqk) %dx%d+0_fairy %s", x->def.width, x->def.height, fen);
}

static void send_features(xb_state *x)
{
    char list[1024];
    size_t len = 0;
    list[0] = '\0';
    for (int i = 0; i < tc_preset_count(); i++)
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? "," : "",
                                gui_name(tc_preset(i)->name));
    emit(x, "feature done=0");
    emit(x, "feature option=\"EvalFile -file <built-in>\"");
    emit(x, "feature myname=\"topochess\" setboard=1 usermove=1 ping=1 memory=1 smp=1 sigint=0 "
            "sigterm=0 colors=0 analyze=0 variants=\"%s\" highlight=1 egt=\"topochess\" done=1",
         list);
    emit(x, "# evaluation: %s", tc_engine_eval_text(x->eng)); /* the built-in net, or why not */
}

static bool parse_ll(const char *s, long long *out)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno)
        return false;
    *out = v;
    return true;
}

/* "5" minutes or "0:30" minutes:seconds; trailing characters are ignored
 * as the protocol asks. */
static bool parse_base(const char *s, int64_t *ms)
{
    char *end;
    errno = 0;
    long mins = strtol(s, &end, 10);
    if (end == s || errno || mins < 0)
        return false;
    long secs = 0;
    if (*end == ':') {
        const char *t = end + 1;
        secs = strtol(t, &end, 10);
        if (end == t || errno || secs < 0)
            return false;
    }
    int64_t total = mins > MAX_MS / 60000 || secs > MAX_MS / 1000 ? MAX_MS
                                                                  : ((int64_t)mins * 60 + secs) * 1000;
    *ms = total < MAX_MS ? total : MAX_MS;
    return true;
}

/* ---------------------------------------------------------------- commands */

/* "Error (why): command", the command cut to PROTO_ECHO_MAX bytes. */
static void error_line(xb_state *x, const char *why, const char *line)
{
    char clip[PROTO_ECHO_MAX + 40];
    pthread_mutex_lock(&x->lock);
    emit(x, "Error (%s): %s", why, proto_clip(line, clip, sizeof clip));
    pthread_mutex_unlock(&x->lock);
}


static void cmd_variant(xb_state *x, const char *name, const char *line)
{
    /* strip a board-size prefix such as 8x14+0_ */
    const char *u = strchr(name, '_');
    if (u && isdigit((unsigned char)name[0]))
        name = u + 1;
    if (!strcmp(name, "normal"))
        name = "chess";
    tc_variant_def def;
    tc_error err;
    if (tc_preset_find(name, &def, &err) || use_variant(x, &def, &err)) {
        error_line(x, "unknown variant", line);
        return;
    }
    pthread_mutex_lock(&x->lock);
    send_setup(x);
    if (!x->eval_file[0] || !strcmp(x->eval_file, "<built-in>")) /* else apply_eval_file said it */
        emit(x, "# evaluation: %s", tc_engine_eval_text(x->eng));
    pthread_mutex_unlock(&x->lock);
}

/* XBoard's own promotion test, which it applies even with its legality
 * test off: a move of a White pawn that starts on or reaches the top rank,
 * or of a Black pawn the bottom rank, is a promotion. On the 8x14 boards it
 * holds for every move of White's rank-14 pawns, and none of those moves
 * promotes. */
static bool gui_sees_promotion(const tc_position *p, tc_move m)
{
    const tc_variant *v = tc_position_variant(p);
    int piece = tc_piece_at(p, TC_MOVE_FROM(m));
    if (TC_TYPE(piece) != TC_PAWN)
        return false;
    int edge = TC_COLOUR(piece) == TC_WHITE ? tc_variant_height(v) - 1 : 0;
    return tc_cell_y(v, TC_MOVE_FROM(m)) == edge || tc_cell_y(v, TC_MOVE_TO(m)) == edge;
}

/* A coordinate move with a piece letter that XBoard added to a pawn move
 * which promotes nothing (see gui_sees_promotion and docs/xboard.md): the
 * letter is dropped, but only when the move without it is legal, is no
 * promotion and is one that XBoard takes for a promotion. A real promotion
 * with a wrong letter stays refused. */
static int parse_gui_suffix(const tc_position *p, const char *text, tc_move *out)
{
    size_t n = strlen(text);
    char base[16];
    if (n < 5 || n >= sizeof base || !strchr("pnbrqk", text[n - 1]))
        return -1;
    memcpy(base, text, n - 1);
    base[n - 1] = '\0';
    tc_move m;
    tc_error err;
    if (tc_move_from_uci(p, base, &m, &err) || TC_MOVE_PROMO(m) || !gui_sees_promotion(p, m))
        return -1;
    *out = m;
    return 0;
}

/* The opponent's move. While pondering, the expected reply is a ponder
 * hit: the search goes on, timed by the clocks as they stand now; any
 * other move drops the ponder search and the engine thinks afresh. */
static void cmd_usermove(xb_state *x, const char *text)
{
    tc_move m;
    tc_error err;
    pthread_mutex_lock(&x->lock);
    if (tc_move_parse(x->pos, text, &m, &err) && parse_gui_suffix(x->pos, text, &m)) {
        emit(x, "Illegal move: %s", text);
        pthread_mutex_unlock(&x->lock);
        return; /* a ponder search goes on */
    }
    bool ponder_run = x->thread_live && x->pondering;
    tc_make_move(x->pos, m);
    int over = !x->force && announce_result(x);
    if (ponder_run && m == x->ponder_move && !over) {
        tc_limits now;
        plan_limits(x, &now);
        x->pondering = false; /* a move is owed again */
        tc_engine_ponderhit(x->eng, &now);
        pthread_mutex_unlock(&x->lock);
        return;
    }
    if (ponder_run)
        x->discard = true;
    pthread_mutex_unlock(&x->lock);
    if (ponder_run)
        finish_thinking(x, XB_DISCARD);
    if (!over)
        maybe_think(x);
}

/* The colour board for `highlight`: Y quiet target, R capture, M promotion. */
static void cmd_lift(xb_state *x, const char *sq, const char *line)
{
    pthread_mutex_lock(&x->lock);
    int from = tc_cell_parse(x->v, sq);
    if (from < 0) {
        pthread_mutex_unlock(&x->lock);
        error_line(x, "bad square", line);
        return;
    }
    int W = tc_variant_width(x->v), H = tc_variant_height(x->v);
    char mark[TC_MAX_CELLS];
    memset(mark, 0, sizeof mark);
    bool blue[TC_MAX_CELLS] = {false}, any_blue = false;
    tc_movelist *list = malloc(sizeof *list);
    int n = list ? tc_generate_legal(x->pos, list) : 0;
    for (int i = 0; i < n; i++) {
        tc_move m = list->moves[i];
        if (TC_MOVE_FROM(m) != from)
            continue;
        int to = TC_MOVE_TO(m);
        /* castling written king-takes-rook is entered on the rook's cell */
        char uci[32];
        tc_move_to_uci(x->pos, m, uci);
        int shown = tc_cell_parse(x->v, uci + (uci[2] && isdigit((unsigned char)uci[2]) ? 3 : 2));
        if (shown >= 0)
            to = shown;
        char c = TC_MOVE_PROMO(m) ? 'M'
                 : (tc_piece_at(x->pos, to) && TC_COLOUR(tc_piece_at(x->pos, to)) != tc_side_to_move(x->pos)) ||
                           TC_MOVE_KIND(m) == TC_MOVE_EP
                     ? 'R'
                     : 'Y';
        if (c != 'M' && gui_sees_promotion(x->pos, m)) {
            blue[to] = true;
            any_blue = true;
        }
        if (mark[to] != 'M')
            mark[to] = c;
    }
    free(list);
    /* XBoard would add a piece letter to these moves and put that piece on
     * the board. A blue cell instead makes it take the letter from us, and
     * `choice P` (sent below) gives it the pawn itself: the move arrives as
     * `d14d12p` and XBoard's board keeps the pawn. (XBoard reads `choice`
     * for blue cells; with its sweep selection on it would also hold the
     * sweep of a magenta cell to the pawn, but on no preset does a pawn
     * have cells of both kinds.) */
    for (int c = 0; any_blue && c < TC_MAX_CELLS; c++)
        if (blue[c])
            mark[c] = 'B';
    char board[TC_MAX_CELLS * 3 + TC_MAX_RANKS + 8];
    size_t len = 0;
    for (int y = H - 1; y >= 0; y--) {
        int run = 0;
        for (int fx = 0; fx < W; fx++) {
            char c = mark[tc_cell(x->v, fx, y)];
            if (!c) {
                run++;
                continue;
            }
            if (run)
                len += (size_t)snprintf(board + len, sizeof board - len, "%d", run);
            run = 0;
            board[len++] = c;
        }
        if (run)
            len += (size_t)snprintf(board + len, sizeof board - len, "%d", run);
        if (y)
            board[len++] = '/';
    }
    board[len] = '\0';
    emit(x, "highlight %s", board);
    if (any_blue)
        emit(x, "choice P");
    pthread_mutex_unlock(&x->lock);
}

static void cmd_setboard(xb_state *x, const char *fen, const char *line)
{
    tc_position *p = tc_position_clone(x->pos);
    tc_error err;
    pthread_mutex_lock(&x->lock);
    if (!p || tc_position_set_fen(p, fen, &err)) {
        char why[256];
        snprintf(why, sizeof why, "%s", p ? err.msg : "out of memory");
        for (char *c = why; *c; c++)
            if (*c == '(' || *c == ')')
                *c = *c == '(' ? '[' : ']';
        char clip[PROTO_ECHO_MAX + 40];
        emit(x, "tellusererror Illegal position: %s", why);
        emit(x, "Error (illegal position: %s): %s", why, proto_clip(line, clip, sizeof clip));
        tc_position_free(p);
    } else {
        tc_position_free(x->pos);
        x->pos = p;
    }
    pthread_mutex_unlock(&x->lock);
}

static void cmd_undo(xb_state *x, int plies, const char *line)
{
    pthread_mutex_lock(&x->lock);
    bool ok = tc_ply_count(x->pos) >= plies;
    for (int i = 0; ok && i < plies; i++)
        tc_unmake_move(x->pos);
    pthread_mutex_unlock(&x->lock);
    if (!ok)
        error_line(x, "command not legal now", line);
}

/* Commands that only change the game while the engine is not thinking:
 * the move in progress is dropped first. */
static bool changes_game(const char *cmd)
{
    static const char *const list[] = {"new", "variant", "setboard", "undo", "remove", "force",
                                       "result", "usermove", "quit", "go", "playother",
                                       "memory", "cores", "edit", "egtpath", "option"};
    for (size_t i = 0; i < sizeof list / sizeof list[0]; i++)
        if (!strcmp(cmd, list[i]))
            return true;
    return false;
}

/* `ping N`: answered now, or after the move when the engine is thinking. */
static void cmd_ping(xb_state *x, const char *arg)
{
    char clip[PROTO_ECHO_MAX + 40];
    proto_clip(arg ? arg : "", clip, sizeof clip);
    pthread_mutex_lock(&x->lock);
    if (x->thread_live && !x->done && !x->pondering) {
        if (x->npongs == x->cap_pongs) {
            int cap = x->cap_pongs ? x->cap_pongs * 2 : 4;
            char **bigger = realloc(x->pongs, sizeof *bigger * (size_t)cap);
            if (bigger) {
                x->pongs = bigger;
                x->cap_pongs = cap;
            }
        }
        char *copy = x->npongs < x->cap_pongs ? malloc(strlen(clip) + 1) : NULL;
        if (copy) {
            strcpy(copy, clip);
            x->pongs[x->npongs++] = copy;
            pthread_mutex_unlock(&x->lock);
            return;
        }
        /* out of memory: wait for the move, as a pong must follow it */
        pthread_mutex_unlock(&x->lock);
        finish_thinking(x, XB_WAIT);
        pthread_mutex_lock(&x->lock);
    }
    emit(x, "pong %s", clip);
    pthread_mutex_unlock(&x->lock);
}

int xboard_loop(FILE *in, FILE *out, const tc_variant_def *def) { return xboard_loop_opts(in, out, def, NULL); }

int xboard_loop_opts(FILE *in, FILE *out, const tc_variant_def *def, const proto_opts *opts)
{
    xb_state *x = calloc(1, sizeof *x);
    if (!x)
        return 1;
    x->in = in;
    x->out = out;
    pthread_mutex_init(&x->lock, NULL);
    x->hash_mb = opts && opts->hash_mb ? opts->hash_mb : PROTO_DEFAULT_HASH_MB;
    x->cache = opts ? opts->cache : NULL;
    x->threads = opts && opts->threads > 0 ? opts->threads : 1;
    x->engine_side = TC_BLACK;
    x->time_ms = x->otim_ms = -1;
    x->start_def = *def;
    tc_error err;
    if (use_variant(x, def, &err)) {
        fprintf(out, "Error (variant %s: %s): startup\n", def->name, err.msg);
        pthread_mutex_destroy(&x->lock);
        free(x);
        return 1;
    }

    char *line = NULL, *copy = NULL;
    size_t cap = 0, copy_cap = 0;
    bool quit = false;
    ssize_t got;
    while (!quit && (got = getline(&line, &cap, in)) >= 0) {
        if (proto_binary_line(line, (size_t)got)) {
            pthread_mutex_lock(&x->lock);
            emit(x, "Error (unknown command): <a line of %zd bytes with control characters, binary data?>", got);
            pthread_mutex_unlock(&x->lock);
            continue;
        }
        line[strcspn(line, "\r\n")] = '\0';
        /* tokens come from a copy as long as the line: `rest` points into
         * the line itself */
        size_t len = strlen(line);
        if (len + 1 > copy_cap) {
            char *bigger = realloc(copy, len + 1);
            if (!bigger) {
                error_line(x, "out of memory, command ignored", line);
                continue;
            }
            copy = bigger;
            copy_cap = len + 1;
        }
        memcpy(copy, line, len + 1);
        char *save = NULL;
        char *cmd = strtok_r(copy, " \t", &save);
        if (!cmd)
            continue;
        char *arg = strtok_r(NULL, " \t", &save);
        char *rest = arg ? line + (arg - copy) : NULL; /* everything after the command */
        /* a search that has played its move is reaped, so that the next
         * command sees an idle engine */
        pthread_mutex_lock(&x->lock);
        bool reap = x->thread_live && x->done;
        pthread_mutex_unlock(&x->lock);
        if (reap)
            finish_thinking(x, XB_WAIT);

        if (!strcmp(cmd, "?")) {
            /* move now; while pondering there is no move to make */
            pthread_mutex_lock(&x->lock);
            if (x->thread_live && !x->pondering)
                tc_engine_stop(x->eng);
            pthread_mutex_unlock(&x->lock);
            continue;
        }
        if (!strcmp(cmd, "ping")) {
            cmd_ping(x, arg);
            continue;
        }
        /* other commands are answered while thinking; a move while
         * pondering may be the ponder hit */
        if (changes_game(cmd) && !(!strcmp(cmd, "usermove") && pondering(x)))
            finish_thinking(x, XB_DISCARD);

        long long n;
        if (!strcmp(cmd, "xboard") || !strcmp(cmd, "accepted") || !strcmp(cmd, "rejected") ||
            !strcmp(cmd, "random") || !strcmp(cmd, "computer") || !strcmp(cmd, "name") ||
            !strcmp(cmd, "rating") ||
            !strcmp(cmd, "ics") || !strcmp(cmd, "draw") || !strcmp(cmd, "put") ||
            !strcmp(cmd, "hover") || !strcmp(cmd, ".") || !strcmp(cmd, "white") ||
            !strcmp(cmd, "black"))
            ;
        else if (!strcmp(cmd, "hard") || !strcmp(cmd, "easy")) {
            pthread_mutex_lock(&x->lock);
            x->ponder_on = cmd[0] == 'h';
            pthread_mutex_unlock(&x->lock);
            if (!x->ponder_on && pondering(x))
                finish_thinking(x, XB_DISCARD);
        } else if (!strcmp(cmd, "protover")) {
            pthread_mutex_lock(&x->lock);
            send_features(x);
            pthread_mutex_unlock(&x->lock);
        } else if (!strcmp(cmd, "new")) {
            tc_error e2;
            if (strcmp(x->def.name, x->start_def.name) || memcmp(&x->def, &x->start_def, sizeof x->def))
                use_variant(x, &x->start_def, &e2);
            tc_position_reset(x->pos);
            tc_engine_new_game(x->eng);
            x->force = false;
            x->engine_side = TC_BLACK;
            x->sd = 0;
            x->st_ms = 0;
            x->time_ms = x->otim_ms = -1;
        } else if (!strcmp(cmd, "variant")) {
            if (!arg)
                error_line(x, "missing variant name", line);
            else
                cmd_variant(x, arg, line);
        } else if (!strcmp(cmd, "force")) {
            x->force = true;
        } else if (!strcmp(cmd, "go")) {
            x->force = false;
            x->engine_side = tc_side_to_move(x->pos);
            maybe_think(x);
        } else if (!strcmp(cmd, "playother")) {
            x->force = false;
            x->engine_side = !tc_side_to_move(x->pos);
        } else if (!strcmp(cmd, "usermove")) {
            if (!arg)
                error_line(x, "missing move", line);
            else if (strlen(arg) > PROTO_ECHO_MAX) { /* no move is that long */
                char clip[PROTO_ECHO_MAX + 40];
                pthread_mutex_lock(&x->lock);
                emit(x, "Illegal move: %s", proto_clip(arg, clip, sizeof clip));
                pthread_mutex_unlock(&x->lock);
            } else
                cmd_usermove(x, arg);
        } else if (!strcmp(cmd, "setboard")) {
            if (!rest)
                error_line(x, "missing FEN", line);
            else
                cmd_setboard(x, rest, line);
        } else if (!strcmp(cmd, "undo")) {
            cmd_undo(x, 1, line);
        } else if (!strcmp(cmd, "remove")) {
            cmd_undo(x, 2, line);
        } else if (!strcmp(cmd, "result")) {
            x->force = true;
        } else if (!strcmp(cmd, "post") || !strcmp(cmd, "nopost")) {
            pthread_mutex_lock(&x->lock);
            x->post = cmd[0] == 'p';
            pthread_mutex_unlock(&x->lock);
        } else if (!strcmp(cmd, "level")) {
            char *a1 = arg, *a2 = strtok_r(NULL, " \t", &save), *a3 = strtok_r(NULL, " \t", &save);
            long long mps, inc;
            int64_t base;
            if (!a1 || !a2 || !a3 || !parse_ll(a1, &mps) || mps < 0 || !parse_base(a2, &base) ||
                !parse_ll(a3, &inc) || inc < 0)
                error_line(x, "bad level", line);
            else {
                x->mps = (int)(mps < 100000 ? mps : 100000);
                x->base_ms = base;
                x->inc_ms = inc < MAX_MS / 1000 ? inc * 1000 : MAX_MS;
                x->st_ms = 0;
            }
        } else if (!strcmp(cmd, "st")) {
            double secs = arg ? strtod(arg, NULL) : 0;
            if (!arg || !(secs > 0)) /* NaN too */
                error_line(x, "bad time", line);
            else {
                int64_t ms = secs < MAX_MS / 1000 ? (int64_t)(secs * 1000) : MAX_MS;
                x->st_ms = ms > 0 ? ms : 1;
            }
        } else if (!strcmp(cmd, "sd")) {
            if (!parse_ll(arg, &n) || n < 1)
                error_line(x, "bad depth", line);
            else
                x->sd = (int)(n < TC_ENGINE_MAX_PLY ? n : TC_ENGINE_MAX_PLY);
        } else if (!strcmp(cmd, "time") || !strcmp(cmd, "otim")) {
            if (!parse_ll(arg, &n))
                error_line(x, "bad time", line);
            else {
                /* centiseconds; a clock at or below zero is almost no time */
                int64_t ms = n <= 0 ? 1 : n < MAX_MS / 10 ? n * 10 : MAX_MS;
                if (!strcmp(cmd, "time"))
                    x->time_ms = ms;
                else
                    x->otim_ms = ms;
            }
        } else if (!strcmp(cmd, "memory")) {
            char why[96];
            snprintf(why, sizeof why, "memory above %d MB refused", PROTO_MAX_HASH_MB);
            if (!parse_ll(arg, &n) || n < 1)
                error_line(x, "bad memory size", line);
            else if (n > PROTO_MAX_HASH_MB)
                error_line(x, why, line);
            else if (tc_engine_set_hash(x->eng, (size_t)n))
                error_line(x, "cannot allocate that much, table unchanged", line);
            else
                x->hash_mb = (size_t)n;
        } else if (!strcmp(cmd, "cores")) {
            if (!parse_ll(arg, &n) || n < 1)
                error_line(x, "bad core count", line);
            else {
                int t = (int)(n < TC_ENGINE_MAX_THREADS ? n : TC_ENGINE_MAX_THREADS);
                if (tc_engine_set_threads(x->eng, t) == 0)
                    x->threads = t;
                else
                    error_line(x, "cannot start that many threads", line);
            }
        } else if (!strcmp(cmd, "egtpath")) {
            /* egtpath topochess PATH: files of `topochess endgame --out PATH` */
            const char *path = rest && !strncmp(rest, "topochess ", 10) ? rest + 10 : NULL;
            if (!path)
                error_line(x, "egtpath takes 'topochess PATH'", line);
            else {
                snprintf(x->egtb_path, sizeof x->egtb_path, "%s", path);
                tc_engine_set_endgame_path(x->eng, x->egtb_path);
            }
        } else if (!strcmp(cmd, "option")) {
            /* option EvalFile=FILE (the feature sent for it); the name of a
             * file may hold spaces */
            if (!rest || strncmp(rest, "EvalFile=", 9))
                error_line(x, "unknown option", line);
            else {
                snprintf(x->eval_file, sizeof x->eval_file, "%s", rest + 9);
                apply_eval_file(x);
            }
        } else if (!strcmp(cmd, "lift")) {
            if (!arg)
                error_line(x, "missing square", line);
            else
                cmd_lift(x, arg, line);
        } else if (!strcmp(cmd, "quit")) {
            quit = true;
        } else {
            /* protocol 1 GUIs send bare moves */
            tc_move m;
            tc_error e2;
            pthread_mutex_lock(&x->lock);
            bool is_move = !arg && (!x->thread_live || x->pondering) &&
                           tc_move_from_uci(x->pos, cmd, &m, &e2) == 0;
            pthread_mutex_unlock(&x->lock);
            if (is_move)
                cmd_usermove(x, cmd);
            else
                error_line(x, "unknown command", line);
        }
    }
    /* quit drops a move in progress; the end of input stops the search and
     * still writes its move (and the pongs owed) */
    finish_thinking(x, quit ? XB_DISCARD : XB_STOP);
    pthread_mutex_lock(&x->lock);
    flush_pongs(x);
    pthread_mutex_unlock(&x->lock);
    free(x->pongs);
    free(copy);
    free(line);
    proto_free_game(x->cache, &x->v, &x->pos, &x->eng);
    proto_dead_free(&x->dead);
    pthread_mutex_destroy(&x->lock);
    free(x);
    return 0;
}
