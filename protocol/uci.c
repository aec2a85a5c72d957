/* UCI front end: a thin adapter over the engine object. Searches and
 * `go perft` run in a second thread so that `stop`, `isready` and `quit` are
 * answered at once; at the end of input a running search is stopped, its
 * bestmove printed, and the loop returns. Cells are written as in the rules
 * text (d14); bad input gets a line `info string error: ...` (echoing at
 * most PROTO_ECHO_MAX bytes of it) and the loop goes on. Lines and move
 * lists have no length limit beyond memory. */
#include "protocols.h"
#include "topochess_engine.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_HASH_MB 64
#define MAX_THREADS 64
/* Below this many plies left, `go perft` counts with the library's bulk
 * perft; above, it walks the tree itself and checks for `stop` at every
 * node (a perft 3 is a few milliseconds even on 16x16 boards). */
#define PERFT_LEAF_DEPTH 3

#define UCI_MAX_PARAMS 64 /* search parameters kept under --tune (tc_engine_param_info) */

/// The protocol's state: the variant and position that `position` built,
/// the engine, and the search thread when one runs.
typedef struct uci_state {
    FILE *in, *out;
    pthread_mutex_t out_lock;
    tc_variant_def def;
    tc_variant *v;
    tc_position *pos;
    tc_engine *eng;
    proto_dead dead; /* dead positions of the board (docs/rules.md section 6) */
    size_t hash_mb;
    proto_cache *cache; /* from the options, may be NULL */
    int threads;
    size_t hash_default; /* the Hash option's default, in MB */
    pthread_t thread;
    bool thread_live;     /* started and not yet joined */
    atomic_bool running;  /* the search (or perft) has not answered yet */
    tc_position *search_pos; /* the searched position, owned by the thread */
    tc_limits limits;     /* written only while no thread runs */
    int perft_depth;      /* > 0: the thread runs `go perft` instead */
    atomic_bool perft_stop;
    int skill;  /* Skill Level 0..20; 20 is full strength */
    bool limit_strength; /* UCI_LimitStrength */
    int elo;             /* UCI_Elo */
    int multipv;         /* MultiPV */
    bool ponder;         /* Ponder: the GUI's word that it will ponder */
    int style;  /* TC_STYLE_* from the Evaluation and Pruning options */
    char egtb_path[256]; /* EndgamePath */
    char eval_file[256]; /* EvalFile: a path, <built-in> or <none> */
    bool tune;           /* uci --tune: the search's parameters are options */
    int param[UCI_MAX_PARAMS]; /* their values (tc_engine_param_info order), kept across variants */
} uci_state;

static void say(uci_state *u, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void say(uci_state *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out_lock);
    va_start(ap, fmt);
    proto_vline(u->out, fmt, ap);
    va_end(ap);
    pthread_mutex_unlock(&u->out_lock);
}

#define ERR(u, ...) say(u, "info string error: " __VA_ARGS__)

/* ---------------------------------------------------------------- search */

static void on_info(const tc_search_info *in, void *ctx)
{
    uci_state *u = ctx;
    char pv[4096], score[48];
    proto_moves_text(u->search_pos, in->pv, in->pv_len, pv, sizeof pv);
    if (in->mate)
        snprintf(score, sizeof score, "mate %d", in->mate);
    else
        snprintf(score, sizeof score, "cp %d", in->score);
    say(u, "info depth %d seldepth %d multipv %d score %s%s nodes %llu nps %llu hashfull %d time %lld pv %s",
        in->depth, in->seldepth, in->multipv > 0 ? in->multipv : 1, score,
        in->bound == TC_BOUND_LOWER ? " lowerbound" : in->bound == TC_BOUND_UPPER ? " upperbound" : "",
        (unsigned long long)in->nodes, (unsigned long long)in->nps, in->hashfull,
        (long long)in->time_ms, pv);
}

static void run_perft(uci_state *u, char *last, size_t size);

static void *search_main(void *arg)
{
    uci_state *u = arg;
    if (u->perft_depth > 0) {
        char last[160];
        run_perft(u, last, sizeof last);
        atomic_store(&u->running, false); /* before the last line, as for bestmove */
        say(u, "%s", last);
        return NULL;
    }
    tc_search_result r = tc_engine_search(u->eng, &u->limits, on_info, u);
    char best[32] = "0000", ponder[32] = "";
    if (r.best) {
        tc_move_to_uci(u->search_pos, r.best, best);
        if (r.ponder) {
            tc_position *q = tc_position_clone(u->search_pos);
            if (q) {
                tc_make_move(q, r.best);
                if (tc_is_legal(q, r.ponder))
                    tc_move_to_uci(q, r.ponder, ponder);
                tc_position_free(q);
            }
        }
    }
    /* cleared before the answer: a GUI may send its next `go` the moment
     * it reads bestmove */
    atomic_store(&u->running, false);
    if (ponder[0])
        say(u, "bestmove %s ponder %s", best, ponder);
    else
        say(u, "bestmove %s", best);
    return NULL;
}

/* Waits for the search thread; with `stop` the search is told to finish. */
static void finish_search(uci_state *u, bool stop)
{
    if (!u->thread_live)
        return;
    if (stop) {
        tc_engine_stop(u->eng);
        atomic_store(&u->perft_stop, true);
    }
    pthread_join(u->thread, NULL);
    u->thread_live = false;
    tc_position_free(u->search_pos);
    u->search_pos = NULL;
}

/* Starts `go` with limits l, or `go perft` when perft_depth > 0. Nothing
 * the running thread reads is written before it is known to have ended. */
static void start_search(uci_state *u, const tc_limits *l, int perft_depth)
{
    if (u->thread_live && !atomic_load(&u->running))
        finish_search(u, false);
    if (u->thread_live) {
        ERR(u, "go: a search is already running (send stop first); this go is ignored");
        return;
    }
    u->limits = *l;
    u->perft_depth = perft_depth;
    atomic_store(&u->perft_stop, false);
    u->search_pos = tc_position_clone(u->pos);
    if (!u->search_pos || tc_engine_set_position(u->eng, u->pos)) {
        ERR(u, "go: out of memory");
        tc_position_free(u->search_pos);
        u->search_pos = NULL;
        if (!perft_depth)
            say(u, "bestmove 0000");
        return;
    }
    char why[400];
    if (!perft_depth && proto_game_status(&u->dead, u->pos, why, sizeof why) == TC_DRAW_DEAD)
        say(u, "info string game over: 1/2-1/2 {dead position} %s", why); /* the search scores it 0 */
    atomic_store(&u->running, true);
    if (pthread_create(&u->thread, NULL, search_main, u)) {
        atomic_store(&u->running, false);
        ERR(u, "go: cannot start the search thread");
        tc_position_free(u->search_pos);
        u->search_pos = NULL;
        if (!perft_depth)
            say(u, "bestmove 0000");
        return;
    }
    u->thread_live = true;
}

/* ---------------------------------------------------------------- perft */

/// The tree walk of `go perft`: one move list per ply above the leaves.
typedef struct perft_walk {
    uci_state *u;
    tc_movelist *lists;
    bool stopped;
} perft_walk;

static uint64_t perft_node(perft_walk *w, tc_position *p, int depth, int ply)
{
    if (depth <= PERFT_LEAF_DEPTH)
        return tc_perft(p, depth);
    if (atomic_load_explicit(&w->u->perft_stop, memory_order_relaxed)) {
        w->stopped = true;
        return 0;
    }
    tc_movelist *list = &w->lists[ply];
    int n = tc_generate_legal(p, list);
    uint64_t total = 0;
    for (int i = 0; i < n && !w->stopped; i++) {
        tc_make_move(p, list->moves[i]);
        total += perft_node(w, p, depth - 1, ply + 1);
        tc_unmake_move(p);
    }
    return total;
}

/* Runs in the search thread: one line per root move; `last` receives the
 * closing line, the total, or after a `stop` (or the end of input) a line
 * that says so. */
static void run_perft(uci_state *u, char *last, size_t size)
{
    int depth = u->perft_depth;
    tc_position *p = u->search_pos;
    perft_walk w = {u, calloc((size_t)depth + 1, sizeof *w.lists), false};
    tc_movelist *root = w.lists;
    if (!w.lists) {
        snprintf(last, size, "info string error: go perft: out of memory");
        return;
    }
    int n = tc_generate_legal(p, root);
    uint64_t total = 0;
    int done = 0;
    for (; done < n; done++) {
        char m[32];
        tc_move_to_uci(p, root->moves[done], m);
        tc_make_move(p, root->moves[done]);
        uint64_t c = perft_node(&w, p, depth - 1, 1);
        tc_unmake_move(p);
        if (w.stopped)
            break;
        total += c;
        say(u, "%s: %llu", m, (unsigned long long)c);
    }
    if (w.stopped)
        snprintf(last, size, "info string go perft %d stopped after %d of %d root moves (%llu nodes)", depth, done,
                 n, (unsigned long long)total);
    else
        snprintf(last, size, "\nNodes searched: %llu", (unsigned long long)total);
    free(w.lists);
}

/* ---------------------------------------------------------------- setup */

/* Makes `def` the variant: new tables, engine and start position. On
 * failure everything stays as it was. */
#define EVAL_BUILTIN "<built-in>"
#define EVAL_NONE "<none>"

static bool ieq(const char *a, const char *b);

/* Sets the evaluation EvalFile names and says what evaluates now; a file
 * that cannot be used leaves the hand-written evaluation. */
static void apply_eval_file(uci_state *u)
{
    tc_error err;
    const char *f = u->eval_file;
    if (ieq(f, EVAL_BUILTIN)) {
        if (tc_engine_use_builtin_net(u->eng)) {
            say(u, "info string EvalFile: no built-in net for %s; evaluation: hand-written", u->def.name);
            return;
        }
    } else if (ieq(f, EVAL_NONE)) {
        tc_engine_clear_net(u->eng);
    } else if (tc_engine_load_net(u->eng, f, &err)) {
        say(u, "info string error: EvalFile: %s; evaluation: hand-written", err.msg);
        return;
    }
    say(u, "info string evaluation: %s", tc_engine_eval_text(u->eng));
}

static int use_variant(uci_state *u, const tc_variant_def *def, tc_error *err)
{
    if (proto_switch_variant(u->cache, def, u->hash_mb, u->threads, &u->v, &u->pos, &u->eng, err))
        return -1;
    tc_engine_set_style(u->eng, u->style);
    tc_engine_set_endgame_path(u->eng, u->egtb_path);
    for (int i = 0; u->tune && i < UCI_MAX_PARAMS && tc_engine_param_info(i); i++)
        tc_engine_set_param(u->eng, tc_engine_param_info(i)->name, u->param[i], err);
    u->def = *def;
    if (u->eval_file[0] && !ieq(u->eval_file, EVAL_BUILTIN))
        apply_eval_file(u); /* the new engine starts on its built-in net */
    return 0;
}

static int parse_int(const char *s, long long lo, long long hi, long long *out)
{
    if (!s || !*s)
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*end || errno || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

static bool ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static void cmd_uci_hello(uci_state *u)
{
    /* every preset's name, whole: the list is as long as the names need */
    size_t size = strlen(u->def.name) + 8;
    for (int i = 0; i < tc_preset_count(); i++)
        size += strlen(tc_preset(i)->name) + 5;
    char *vars = malloc(size);
    size_t len = 0;
    bool listed = false;
    if (vars)
        vars[0] = '\0';
    for (int i = 0; vars && i < tc_preset_count(); i++) {
        const char *name = tc_preset(i)->name;
        listed |= !strcmp(name, u->def.name);
        len += (size_t)snprintf(vars + len, size - len, " var %s", name);
    }
    if (vars && !listed)
        snprintf(vars + len, size - len, " var %s", u->def.name);
    say(u, "id name topochess");
    say(u, "id author the topochess authors");
    say(u, "option name Hash type spin default %zu min 1 max %d", u->hash_default, PROTO_MAX_HASH_MB);
    say(u, "option name Threads type spin default 1 min 1 max %d", MAX_THREADS);
    say(u, "option name Clear Hash type button");
    say(u, "option name Ponder type check default false");
    say(u, "option name Skill Level type spin default 20 min 0 max 20");
    say(u, "option name MultiPV type spin default 1 min 1 max %d", TC_ENGINE_MAX_MULTIPV);
    say(u, "option name UCI_LimitStrength type check default false");
    say(u, "option name UCI_Elo type spin default %d min %d max %d", TC_ELO_MAX, TC_ELO_MIN, TC_ELO_MAX);
    say(u, "option name Evaluation type combo default full var full var material");
    say(u, "option name Pruning type check default true");
    say(u, "option name EndgamePath type string default <empty>");
    say(u, "option name EvalFile type string default " EVAL_BUILTIN);
    say(u, "option name UCI_Variant type combo default %s%s", u->def.name, vars ? vars : "");
    for (int i = 0; u->tune && i < UCI_MAX_PARAMS && tc_engine_param_info(i); i++) {
        const tc_param_info *pi = tc_engine_param_info(i);
        say(u, "option name %s type spin default %d min %d max %d", pi->name, pi->def, pi->min, pi->max);
    }
    free(vars);
    say(u, "uciok");
    say(u, "info string evaluation: %s", tc_engine_eval_text(u->eng)); /* the built-in net, or why not */
}

/* Joins tok[from..to) with single spaces into buf; -1 if it does not fit. */
static int join_words(char **tok, int from, int to, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = from; i < to; i++) {
        int w = snprintf(buf + len, size - len, "%s%s", len ? " " : "", tok[i]);
        if (w < 0 || (size_t)w >= size - len)
            return -1;
        len += (size_t)w;
    }
    return 0;
}

/* A search parameter under --tune: false when name is none of them. */
static bool set_param(uci_state *u, const char *name, const char *value, const char *clip)
{
    for (int i = 0; u->tune && i < UCI_MAX_PARAMS && tc_engine_param_info(i); i++) {
        const tc_param_info *pi = tc_engine_param_info(i);
        if (!ieq(name, pi->name))
            continue;
        long long x;
        tc_error err;
        if (parse_int(value, pi->min, pi->max, &x))
            ERR(u, "setoption: %s needs a number from %d to %d, got '%s'", pi->name, pi->min, pi->max, clip);
        else if (tc_engine_set_param(u->eng, pi->name, (int)x, &err))
            ERR(u, "setoption: %s", err.msg);
        else
            u->param[i] = (int)x;
        return true;
    }
    return false;
}

/* setoption name NAME [value VALUE]; NAME and VALUE may hold spaces. */
static void cmd_setoption(uci_state *u, char **tok, int n)
{
    char name[256], value[256], clip[PROTO_ECHO_MAX + 40];
    if (n < 2 || strcmp(tok[1], "name")) {
        ERR(u, "setoption: expected 'name'");
        return;
    }
    int v = 2;
    while (v < n && strcmp(tok[v], "value"))
        v++;
    if (join_words(tok, 2, v, name, sizeof name) ||
        join_words(tok, v + 1 < n ? v + 1 : n, n, value, sizeof value)) {
        ERR(u, "setoption: option name or value longer than %zu bytes", sizeof name - 1);
        return;
    }
    if (!name[0]) {
        ERR(u, "setoption: missing option name");
        return;
    }
    proto_clip(value, clip, sizeof clip);
    finish_search(u, true);
    long long x;
    if (ieq(name, "Hash")) {
        if (parse_int(value, 1, PROTO_MAX_HASH_MB, &x))
            ERR(u, "setoption: Hash needs a number from 1 to %d, got '%s'", PROTO_MAX_HASH_MB, clip);
        else if (tc_engine_set_hash(u->eng, (size_t)x))
            ERR(u, "setoption: cannot allocate %lld MB of hash, keeping %zu MB", x, u->hash_mb);
        else
            u->hash_mb = (size_t)x;
    } else if (ieq(name, "Threads")) {
        if (parse_int(value, 1, MAX_THREADS, &x))
            ERR(u, "setoption: Threads needs a number from 1 to %d, got '%s'", MAX_THREADS, clip);
        else if (tc_engine_set_threads(u->eng, (int)x))
            ERR(u, "setoption: cannot start %lld threads", x);
        else
            u->threads = (int)x;
    } else if (ieq(name, "Skill Level")) {
        if (parse_int(value, 0, 20, &x))
            ERR(u, "setoption: Skill Level needs a number from 0 to 20, got '%s'", clip);
        else
            u->skill = (int)x;
    } else if (ieq(name, "MultiPV")) {
        if (parse_int(value, 1, TC_ENGINE_MAX_MULTIPV, &x))
            ERR(u, "setoption: MultiPV needs a number from 1 to %d, got '%s'", TC_ENGINE_MAX_MULTIPV, value);
        else
            u->multipv = (int)x;
    } else if (ieq(name, "UCI_LimitStrength") || ieq(name, "Ponder")) {
        bool *flag = ieq(name, "Ponder") ? &u->ponder : &u->limit_strength;
        if (ieq(value, "true") || ieq(value, "false"))
            *flag = ieq(value, "true");
        else
            ERR(u, "setoption: %s takes 'true' or 'false', got '%s'",
                flag == &u->ponder ? "Ponder" : "UCI_LimitStrength", clip);
    } else if (ieq(name, "UCI_Elo")) {
        if (parse_int(value, TC_ELO_MIN, TC_ELO_MAX, &x))
            ERR(u, "setoption: UCI_Elo needs a number from %d to %d, got '%s'", TC_ELO_MIN, TC_ELO_MAX, value);
        else
            u->elo = (int)x;
    } else if (ieq(name, "Evaluation") || ieq(name, "Pruning")) {
        bool eval = ieq(name, "Evaluation");
        int flag = eval ? TC_STYLE_MATERIAL : TC_STYLE_NO_PRUNING;
        const char *on = eval ? "material" : "false", *off = eval ? "full" : "true";
        if (ieq(value, on))
            u->style |= flag;
        else if (ieq(value, off))
            u->style &= ~flag;
        else {
            ERR(u, "setoption: %s takes '%s' or '%s', got '%s'", eval ? "Evaluation" : "Pruning", off, on,
                clip);
            return;
        }
        tc_engine_set_style(u->eng, u->style);
    } else if (ieq(name, "EndgamePath")) {
        snprintf(u->egtb_path, sizeof u->egtb_path, "%s", strcmp(value, "<empty>") ? value : "");
        tc_engine_set_endgame_path(u->eng, u->egtb_path);
    } else if (ieq(name, "EvalFile")) {
        snprintf(u->eval_file, sizeof u->eval_file, "%s", value[0] ? value : EVAL_BUILTIN);
        apply_eval_file(u);
    } else if (ieq(name, "Clear Hash")) {
        tc_engine_new_game(u->eng);
    } else if (ieq(name, "UCI_Variant")) {
        tc_variant_def def;
        tc_error err;
        if (!strcmp(value, u->def.name))
            return;
        if (tc_preset_find(value, &def, &err) || use_variant(u, &def, &err))
            ERR(u, "setoption: UCI_Variant: %s", err.msg); /* the library's text, the name in it cut */
        else if (ieq(u->eval_file, EVAL_BUILTIN)) /* else apply_eval_file said it */
            say(u, "info string evaluation: %s", tc_engine_eval_text(u->eng));
    } else if (!set_param(u, name, value, clip)) {
        ERR(u, "setoption: unknown option '%s'", proto_clip(name, clip, sizeof clip));
    }
}

/* position startpos|fen FEN [moves M...]: built on a copy, kept only when
 * everything in it is valid. */
static void cmd_position(uci_state *u, char **tok, int n)
{
    tc_position *p = tc_position_clone(u->pos);
    tc_error err;
    char clip[PROTO_ECHO_MAX + 40];
    if (!p) {
        ERR(u, "position: out of memory");
        return;
    }
    int i = 1;
    if (i < n && !strcmp(tok[i], "startpos")) {
        tc_position_reset(p);
        i++;
    } else if (i < n && !strcmp(tok[i], "fen")) {
        char fen[1024];
        int end = ++i;
        while (end < n && strcmp(tok[end], "moves"))
            end++;
        if (join_words(tok, i, end, fen, sizeof fen)) {
            ERR(u, "position: FEN longer than %zu bytes", sizeof fen - 1);
            goto fail;
        }
        i = end;
        if (!fen[0]) {
            ERR(u, "position: fen needs a FEN");
            goto fail;
        }
        if (tc_position_set_fen(p, fen, &err)) {
            ERR(u, "position: bad FEN '%s': %s", proto_clip(fen, clip, sizeof clip), err.msg);
            goto fail;
        }
    } else {
        ERR(u, "position: expected 'startpos' or 'fen'");
        goto fail;
    }
    if (i < n) {
        if (strcmp(tok[i], "moves")) {
            ERR(u, "position: expected 'moves', got '%s'", proto_clip(tok[i], clip, sizeof clip));
            goto fail;
        }
        for (int first = ++i; i < n; i++) {
            tc_move m;
            if (tc_move_from_uci(p, tok[i], &m, &err)) {
                ERR(u, "position: move %d (%s): %s; position unchanged", i - first + 1,
                    proto_clip(tok[i], clip, sizeof clip), err.msg);
                goto fail;
            }
            tc_make_move(p, m);
        }
    }
    tc_position_free(u->pos);
    u->pos = p;
    return;
fail:
    tc_position_free(p);
}

static void cmd_go(uci_state *u, char **tok, int n)
{
    char clip[PROTO_ECHO_MAX + 40];
    tc_limits l;
    tc_limits_init(&l);
    if (n > 1 && !strcmp(tok[1], "perft")) {
        long long depth;
        if (parse_int(n > 2 ? tok[2] : NULL, 0, 12, &depth)) {
            ERR(u, "go perft: needs a depth from 0 to 12, got '%s'", n > 2 ? proto_clip(tok[2], clip, sizeof clip) : "");
            return;
        }
        if (depth == 0) {
            say(u, "\nNodes searched: 1");
            return;
        }
        start_search(u, &l, (int)depth);
        return;
    }
    l.multipv = u->multipv;
    /* UCI_LimitStrength picks the Elo; else Skill Level s < 20 stands for
     * Elo 800 + 80 s */
    l.elo = u->limit_strength ? u->elo : u->skill < 20 ? TC_ELO_MIN + 80 * u->skill : 0;
    /* A bad or unknown parameter refuses the whole command: no search is
     * started, so none runs without the limit the GUI meant to give. */
    for (int i = 1; i < n; i++) {
        const char *k = tok[i];
        long long x;
        if (!strcmp(k, "infinite")) {
            l.infinite = 1;
            continue;
        }
        if (!strcmp(k, "ponder")) {
            /* the position holds the expected reply: searched without end
             * until ponderhit (then by the clocks given here) or stop */
            l.ponder = 1;
            continue;
        }
        if (!strcmp(k, "searchmoves")) {
            /* every following word that is a move of this position */
            while (i + 1 < n && isalpha((unsigned char)tok[i + 1][0]) && isdigit((unsigned char)tok[i + 1][1])) {
                tc_move m;
                tc_error err;
                i++;
                if (tc_move_from_uci(u->pos, tok[i], &m, &err)) {
                    ERR(u, "go: searchmoves: '%s': %s; no search started", proto_clip(tok[i], clip, sizeof clip),
                        err.msg);
                    return;
                }
                if (l.nsearchmoves < TC_ENGINE_MAX_SEARCHMOVES)
                    l.searchmoves[l.nsearchmoves++] = m;
            }
            continue;
        }
        static const char *const keys[] = {"wtime", "btime", "winc", "binc", "movestogo",
                                           "movetime", "depth", "nodes", "level", "mate"};
        int which = -1;
        for (int j = 0; j < (int)(sizeof keys / sizeof keys[0]); j++)
            if (!strcmp(k, keys[j]))
                which = j;
        if (which < 0) {
            ERR(u, "go: unknown parameter '%s' (known: wtime btime winc binc movestogo movetime depth nodes mate "
                   "level infinite ponder searchmoves perft); no search started",
                proto_clip(k, clip, sizeof clip));
            return;
        }
        /* clocks may run negative in some GUIs: treat as almost no time;
         * movetime, depth, nodes and mate 0 would mean no limit at all */
        long long lo = which <= 1 ? -1000000000LL : (which >= 5 && which <= 7) || which == 9 ? 1 : 0;
        long long hi = 1000000000000LL; /* larger depths and levels are cut to the largest */
        if (i + 1 >= n || parse_int(tok[i + 1], lo, hi, &x)) {
            const char *least = lo == 1 ? " of at least 1" : lo == 0 ? " of at least 0" : "";
            if (i + 1 < n)
                ERR(u, "go: %s needs a whole number%s, got '%s'; no search started", k, least,
                    proto_clip(tok[i + 1], clip, sizeof clip));
            else
                ERR(u, "go: %s needs a whole number%s, got nothing; no search started", k, least);
            return;
        }
        i++;
        switch (which) {
        case 0: l.wtime = x > 0 ? x : 1; break;
        case 1: l.btime = x > 0 ? x : 1; break;
        case 2: l.winc = x; break;
        case 3: l.binc = x; break;
        case 4: l.movestogo = (int)(x < 1000 ? x : 1000); break;
        case 5: l.movetime = x; break;
        case 6: l.depth = (int)(x < TC_ENGINE_MAX_PLY ? x : TC_ENGINE_MAX_PLY); break;
        case 7: l.nodes = (uint64_t)x; break;
        case 8: l.level = (int)(x < 20 ? x : 20); break;
        case 9: l.depth = (int)(2 * x < TC_ENGINE_MAX_PLY ? 2 * x : TC_ENGINE_MAX_PLY); break;
        }
    }
    /* a clock for the other side only would leave the search unbounded */
    bool white = tc_side_to_move(u->pos) == TC_WHITE;
    bool clocks = l.wtime || l.btime || l.winc || l.binc || l.movestogo, mine = white ? l.wtime : l.btime;
    if (clocks && !mine && !l.movetime && !l.depth && !l.nodes && !l.infinite && !l.ponder) {
        ERR(u, "go: %s is missing (%s is to move), so the clocks give no limit; no search started",
            white ? "wtime" : "btime", white ? "White" : "Black");
        return;
    }
    start_search(u, &l, 0);
}

static void cmd_d(uci_state *u)
{
    char fen[800];
    tc_position_fen(u->pos, fen, sizeof fen);
    say(u, "Variant: %s", u->def.name);
    say(u, "Fen: %s", fen);
    say(u, "Key: %016llx", (unsigned long long)tc_key(u->pos));
    say(u, "Status: %s", tc_status_text(proto_game_status(&u->dead, u->pos, NULL, 0)));
}

/* ---------------------------------------------------------------- loop */

/* Splits line at blanks into *tok (grown as needed); -1 if memory runs out. */
static int split_line(char *line, char ***tok, size_t *cap)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        if ((size_t)n == *cap) {
            size_t ncap = *cap ? *cap * 2 : 64;
            char **bigger = realloc(*tok, sizeof *bigger * ncap);
            if (!bigger || ncap > (size_t)INT_MAX)
                return -1;
            *tok = bigger;
            *cap = ncap;
        }
        (*tok)[n++] = t;
    }
    return n;
}

int uci_loop(FILE *in, FILE *out, const tc_variant_def *def) { return uci_loop_opts(in, out, def, NULL); }

int uci_loop_opts(FILE *in, FILE *out, const tc_variant_def *def, const proto_opts *opts)
{
    uci_state *u = calloc(1, sizeof *u);
    if (!u)
        return 1;
    u->in = in;
    u->out = out;
    pthread_mutex_init(&u->out_lock, NULL);
    atomic_init(&u->running, false);
    atomic_init(&u->perft_stop, false);
    u->hash_default = opts && opts->hash_mb ? opts->hash_mb : PROTO_DEFAULT_HASH_MB;
    u->hash_mb = u->hash_default;
    u->cache = opts ? opts->cache : NULL;
    u->threads = opts && opts->threads > 0 ? opts->threads : 1;
    u->skill = 20;
    u->elo = TC_ELO_MAX;
    u->multipv = 1;
    snprintf(u->eval_file, sizeof u->eval_file, "%s",
             opts && opts->eval_file && opts->eval_file[0] ? opts->eval_file : EVAL_BUILTIN);
    u->tune = opts && opts->tune;
    for (int i = 0; u->tune && i < UCI_MAX_PARAMS && tc_engine_param_info(i); i++)
        u->param[i] = tc_engine_param_info(i)->def;
    tc_error err;
    tc_variant_def start = *def;
    if (use_variant(u, &start, &err)) {
        fprintf(out, "info string error: variant %s: %s\n", def->name, err.msg);
        tc_variant_def chess;
        if (tc_preset_find("chess", &chess, &err) || use_variant(u, &chess, &err)) {
            pthread_mutex_destroy(&u->out_lock);
            free(u);
            return 1;
        }
    }

    char *line = NULL, **tok = NULL;
    size_t cap = 0, tok_cap = 0;
    char clip[PROTO_ECHO_MAX + 40];
    bool quit = false;
    ssize_t got;
    while (!quit && (got = getline(&line, &cap, in)) >= 0) {
        if (proto_binary_line(line, (size_t)got)) {
            ERR(u, "unknown command: a line of %zd bytes with control characters (binary data?) is ignored", got);
            continue;
        }
        int n = split_line(line, &tok, &tok_cap);
        if (n < 0) {
            ERR(u, "out of memory reading a line; the line is ignored");
            continue;
        }
        if (n == 0)
            continue;
        const char *cmd = tok[0];
        if (!strcmp(cmd, "uci"))
            cmd_uci_hello(u);
        else if (!strcmp(cmd, "isready"))
            say(u, "readyok");
        else if (!strcmp(cmd, "setoption"))
            cmd_setoption(u, tok, n);
        else if (!strcmp(cmd, "ucinewgame")) {
            finish_search(u, true);
            tc_engine_new_game(u->eng);
            tc_position_reset(u->pos);
        } else if (!strcmp(cmd, "position"))
            cmd_position(u, tok, n);
        else if (!strcmp(cmd, "go"))
            cmd_go(u, tok, n);
        else if (!strcmp(cmd, "stop"))
            finish_search(u, true);
        else if (!strcmp(cmd, "ponderhit")) {
            /* the reply came: the ponder search goes on, timed from now */
            if (u->thread_live && u->limits.ponder && atomic_load(&u->running))
                tc_engine_ponderhit(u->eng, NULL);
        }
        else if (!strcmp(cmd, "quit"))
            quit = true;
        else if (!strcmp(cmd, "d"))
            cmd_d(u);
        else if (!strcmp(cmd, "eval")) {
            if (u->thread_live && atomic_load(&u->running)) {
                ERR(u, "eval: a search is running (send stop first)");
                continue;
            }
            finish_search(u, false);
            tc_engine_set_position(u->eng, u->pos);
            int hand, net, cp = tc_engine_evaluate_parts(u->eng, &hand, &net);
            if (tc_engine_net_is_hybrid(u->eng))
                say(u, "info string eval %d (hand %d + net %d = %d, centipawns for the side to move)", cp, hand, net,
                    cp);
            else
                say(u, "info string eval %d (centipawns for the side to move)", cp);
        } else if (!strcmp(cmd, "debug") || !strcmp(cmd, "register"))
            ;
        else
            ERR(u, "unknown command '%s'", proto_clip(cmd, clip, sizeof clip));
    }
    /* at `quit` or the end of input every search stops: it still answers */
    finish_search(u, true);
    free(line);
    free(tok);
    proto_free_game(u->cache, &u->v, &u->pos, &u->eng);
    proto_dead_free(&u->dead);
    pthread_mutex_destroy(&u->out_lock);
    free(u);
    return 0;
}
