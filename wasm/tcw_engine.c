/* The export layer: the engine (searches reported through the host's
 * tc_host_info, stopped by its tc_host_poll), as JSON for
 * web/src/lib/engine-worker.ts (see tc_wasm.c for the conventions). */
#include "tcw_internal.h"

/* ---------------------------------------------------------------- engine */

tc_engine *EXPORT(tcw_engine_new)(const tc_variant *v, int hash_mb)
{
    tc_engine *e = tc_engine_new(v, hash_mb > 0 ? (size_t)hash_mb : 16, 1);
    return e;
}

void EXPORT(tcw_engine_free)(tc_engine *e) { tc_engine_free(e); }
void EXPORT(tcw_engine_new_game)(tc_engine *e) { tc_engine_new_game(e); }
int EXPORT(tcw_engine_set_position)(tc_engine *e, const tc_position *p) { return tc_engine_set_position(e, p); }

static int host_poll(void *ctx)
{
    (void)ctx;
    return tc_host_poll();
}

/* The PV in SAN and coordinates from the searched position. */
static void pv_json(sb *s, const tc_position *root, const tc_move *pv, int n)
{
    tc_position *q = tc_position_clone(root);
    sb_puts(s, "\"pv\":[");
    int k = 0;
    char uci[4 * TC_ENGINE_MAX_PLY * 8] = "";
    size_t ul = 0;
    for (int i = 0; q && i < n && tc_is_legal(q, pv[i]); i++) {
        char san[32], u[16];
        tc_move_to_san(q, pv[i], san);
        tc_move_to_uci(q, pv[i], u);
        sb_puts(s, k++ ? "," : "");
        sb_str(s, san);
        ul += (size_t)snprintf(uci + ul, sizeof uci - ul, "%s%s", i ? " " : "", u);
        if (ul >= sizeof uci)
            ul = sizeof uci - 1;
        tc_make_move(q, pv[i]);
    }
    sb_puts(s, "],\"pvUci\":");
    sb_str(s, uci);
    tc_position_free(q);
}

static void info_cb(const tc_search_info *in, void *ctx)
{
    const tc_position *root = ctx;
    sb s = {0};
    sb_printf(&s, "{\"multipv\":%d,\"depth\":%d,\"seldepth\":%d,\"score\":%d,\"mate\":%d,\"bound\":\"%s\",\"nodes\":%llu,"
                  "\"nps\":%llu,\"timeMs\":%lld,",
              in->multipv > 0 ? in->multipv : 1, in->depth, in->seldepth, in->score, in->mate,
              in->bound == TC_BOUND_LOWER ? "lower" : in->bound == TC_BOUND_UPPER ? "upper" : "exact",
              (unsigned long long)in->nodes, (unsigned long long)in->nps, (long long)in->time_ms);
    pv_json(&s, root, in->pv, in->pv_len);
    sb_puts(&s, "}");
    if (!s.oom && s.b)
        tc_host_info(s.b, s.n);
    free(s.b);
}

/* Searches p (set as the engine's position first) within the limits given
 * (0: none; with none at all the search runs to the depth cap unless the
 * host's poll stops it), reporting `multipv` lines (0 or 1: one). Calls
 * tc_host_info on each iteration (once per line); returns
 * {best,bestSan,ponder,score,mate,depth,nodes,timeMs} or NULL. */
char *EXPORT(tcw_engine_search)(tc_engine *e, const tc_position *p, int depth, double movetime_ms,
                                double nodes, int level, int poll, int multipv)
{
    if (tc_engine_set_position(e, p))
        return NULL;
    tc_limits lim;
    tc_limits_init(&lim);
    lim.depth = depth > 0 ? depth : 0;
    lim.movetime = movetime_ms > 0 ? (int64_t)movetime_ms : 0;
    lim.nodes = nodes > 0 ? (uint64_t)nodes : 0;
    /* level L < 20 is the CLI's limited-strength player, Elo 800 + 80 (L - 1)
     * (calibrated against Stockfish's UCI_Elo); 20 or 0 is full strength */
    lim.elo = level > 0 && level < 20 ? TC_ELO_MIN + 80 * (level - 1) : 0;
    lim.multipv = multipv > 1 ? multipv : 0;
    tc_engine_set_poll(e, poll ? host_poll : NULL, NULL);
    tc_search_result r = tc_engine_search(e, &lim, info_cb, (void *)p);
    tc_engine_set_poll(e, NULL, NULL);
    sb s = {0};
    char uci[16] = "", san[32] = "", pu[16] = "";
    if (r.best) {
        tc_move_to_uci(p, r.best, uci);
        tc_move_to_san(p, r.best, san);
        tc_position *q = tc_position_clone(p);
        if (q && r.ponder) {
            tc_make_move(q, r.best);
            if (tc_is_legal(q, r.ponder))
                tc_move_to_uci(q, r.ponder, pu);
        }
        tc_position_free(q);
    }
    sb_puts(&s, "{\"best\":");
    sb_str(&s, r.best ? uci : NULL);
    sb_puts(&s, ",\"bestSan\":");
    sb_str(&s, r.best ? san : NULL);
    sb_puts(&s, ",\"ponder\":");
    sb_str(&s, *pu ? pu : NULL);
    sb_printf(&s, ",\"score\":%d,\"mate\":%d,\"depth\":%d,\"nodes\":%llu,\"timeMs\":%lld}", r.score, r.mate,
              r.depth, (unsigned long long)r.nodes, (long long)r.time_ms);
    return sb_done(&s, NULL);
}

int EXPORT(tcw_engine_evaluate)(tc_engine *e, const tc_position *p)
{
    if (tc_engine_set_position(e, p))
        return 0;
    return tc_engine_evaluate(e);
}

/* The learned evaluation: a net file's bytes (docs/nnue-format.md) for the
 * engine's board; -1 with err set when it is refused, and the engine then
 * evaluates by hand. A new engine starts on the built-in net, if any (the
 * wasm build has none: the page fetches the net, see tcw_net_pick). */
int EXPORT(tcw_engine_load_net)(tc_engine *e, const void *data, size_t len, tc_error *err)
{
    tcw_clear(err);
    return tc_engine_load_net_data(e, data, len, err);
}

void EXPORT(tcw_engine_clear_net)(tc_engine *e) { tc_engine_clear_net(e); }
int EXPORT(tcw_engine_has_net)(const tc_engine *e) { return tc_engine_has_net(e); }

/* The evaluation in use, as the engine states it ("hand-written", or
 * "net 'NAME' (from memory, 8x8, H 64, ...)"); free with tcw_free. */
char *EXPORT(tcw_engine_evaluation)(const tc_engine *e)
{
    const char *t = tc_engine_eval_text(e);
    char *c = malloc(strlen(t) + 1);
    return c ? strcpy(c, t) : NULL;
}

/// A newline-separated list of names and room for the one read last.
typedef struct {
    const char *list;
    char name[64];
} name_list;

static const char *list_line(int i, void *ctx)
{
    name_list *l = ctx;
    const char *s = l->list;
    for (; i > 0 && s; i--) {
        s = strchr(s, '\n');
        s = s ? s + 1 : NULL;
    }
    if (!s)
        return NULL;
    size_t n = strcspn(s, "\n");
    if (n >= sizeof l->name)
        return NULL;
    memcpy(l->name, s, n);
    l->name[n] = 0;
    return l->name;
}

/* Which of the presets with a net (names: one a line, as the page's net
 * manifest lists them) applies to v, by the native build's rule for its
 * built-in nets (nnue_preset_pick): its index in the list, or -1 (the
 * hand-written evaluation). */
int EXPORT(tcw_net_pick)(const tc_variant *v, const char *names)
{
    if (!v || !names)
        return -1;
    int n = *names ? 1 : 0;
    for (const char *c = names; *c; c++)
        n += *c == '\n';
    name_list l = {names, ""};
    return nnue_preset_pick(v, list_line, n, &l);
}

/* A random net for v's board (speed figures and tests): its bytes, the
 * length written at *len; free with tcw_free. */
unsigned char *EXPORT(tcw_nnue_random)(const tc_variant *v, int hidden, double seed, size_t *len)
{
    return nnue_random_file(tc_variant_width(v), tc_variant_height(v), hidden, 32, 32, 0, (uint64_t)seed, len);
}

/* ---------------------------------------------------------------- review */

/* The values of the game's positions read from the page's text, one line
 * a position from the start: "SCORE MATE DEPTH BEST" (the side to move's
 * view, BEST in coordinates or "-"), then judged (tc_review_judge) into
 * out (n + 1 room) and sides. 0, or -1 with err (a line missing or
 * unreadable, a move not legal there). */
static int judge_values(const tc_position *p, const char *values, tc_review_move *out, tc_review_side sides[2],
                        tc_error *err)
{
    int n = tc_ply_count(p), rc = -1;
    tc_review_value *at = calloc((size_t)n + 1, sizeof *at);
    tc_position *q = tc_position_new(tc_position_variant(p));
    if (!at || !q || tc_position_set_fen(q, tc_position_start_fen(p), err)) {
        if (!at || !q)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        goto done;
    }
    const char *s = values ? values : "";
    for (int i = 0; i <= n; i++) {
        char best[16];
        int used = 0;
        if (sscanf(s, "%d %d %d %15s%n", &at[i].score, &at[i].mate, &at[i].depth, best, &used) != 4) {
            snprintf(err->msg, sizeof err->msg, "review: the value of position %d of %d is missing or unreadable", i,
                     n + 1);
            goto done;
        }
        s += used;
        if (strcmp(best, "-") && tc_move_parse(q, best, &at[i].best, err)) {
            snprintf(err->msg, sizeof err->msg, "review: position %d: best move '%s' is not legal there", i, best);
            goto done;
        }
        if (i < n)
            tc_make_move(q, tc_history_move(p, i));
    }
    tc_review_judge(p, at, out, sides);
    rc = 0;
done:
    tc_position_free(q);
    free(at);
    return rc;
}

/* The review of the game that led to p (docs/analysis.md) from the values
 * the page's engine worker found (judge_values): tc_review_json's object,
 * or NULL with err. */
char *EXPORT(tcw_game_review)(const tc_position *p, const char *values, tc_error *err)
{
    tc_review_move *out = calloc((size_t)tc_ply_count(p) + 1, sizeof *out);
    tc_review_side sides[2];
    char *json = NULL;
    if (!out)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    else if (!judge_values(p, values, out, sides, err) && !(json = tc_review_json(p, out, sides)))
        snprintf(err->msg, sizeof err->msg, "out of memory");
    free(out);
    return json;
}

/* The same review as PGN with [%eval] comments (tc_review_pgn): tags and
 * result as tcw_game_pgn takes them. NULL with err. */
char *EXPORT(tcw_game_review_pgn)(const tc_position *p, const char *values, const char *tags, const char *result,
                                  tc_error *err)
{
    tc_review_move *out = calloc((size_t)tc_ply_count(p) + 1, sizeof *out);
    tc_review_side sides[2];
    char *pgn = NULL;
    if (!out)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    else if (!judge_values(p, values, out, sides, err) && !(pgn = tcw_pgn_text(p, tags, result, out, sides)))
        snprintf(err->msg, sizeof err->msg, "out of memory");
    free(out);
    return pgn;
}
