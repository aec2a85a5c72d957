/* Tactics from play: is one move clearly the best, and what is its line?
 * See topochess_tactics.h and docs/puzzles.md ("Tactics from play").
 * Searches through the public engine API only (MultiPV 2 for the best and
 * the second best move); themes from the public path API. No I/O. */
#include "topochess_tactics.h"
#include "topochess_explain.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tc_tactic_options_default(tc_tactic_options *o)
{
    memset(o, 0, sizeof *o);
    o->nodes = 20000;
    o->confirm = 4;
    o->margin = 200;
    o->min_score = 150;
    o->max_second = 300;
    o->min_gain = 200;
    o->line_margin = 150;
    o->max_line = 15;
}

int tc_tactic_options_check(const tc_tactic_options *o, tc_error *err)
{
    const char *bad = NULL;
    if (o->nodes < 100 || o->nodes > 100000000)
        bad = "nodes must be 100 to 100000000";
    else if (o->confirm < 2 || o->confirm > 64)
        bad = "confirm must be 2 to 64 (the confirming search's nodes over the finding one's)";
    else if (o->margin < 1 || o->margin > TC_TACTIC_MATE_VALUE)
        bad = "margin must be 1 to 10000 centipawns";
    else if (o->min_score < 0 || o->min_score > TC_TACTIC_MATE_VALUE)
        bad = "min_score must be 0 to 10000 centipawns";
    else if (o->max_second < -TC_TACTIC_MATE_VALUE || o->max_second > TC_TACTIC_MATE_VALUE)
        bad = "max_second must be -10000 to 10000 centipawns";
    else if (o->min_gain < 1 || o->min_gain > 10000)
        bad = "min_gain must be 1 to 10000 centipawns";
    else if (o->line_margin < 1 || o->line_margin > TC_TACTIC_MATE_VALUE)
        bad = "line_margin must be 1 to 10000 centipawns";
    else if (o->max_line < 1 || o->max_line > TC_TACTIC_MAX_LINE)
        bad = "max_line must be 1 to 24 plies";
    if (bad && err)
        snprintf(err->msg, sizeof err->msg, "tactics: %s", bad);
    return bad ? -1 : 0;
}

/* ---------------------------------------------------------------- searches */

/// One line of a search as the last exact report gave it.
typedef struct line_val {
    int depth;
    int value; /* centipawns for the side to move, a mate as +-TC_TACTIC_MATE_VALUE */
    int mate;  /* moves to mate, as the engine reports it */
    tc_move move;
} line_val;

/// The two lines of the deepest iteration that completed both.
typedef struct two_lines {
    line_val cur1; /* line 1 of the iteration under way */
    line_val l1, l2;
    int have;      /* 1 once an iteration completed both lines */
} two_lines;

static int value_of(int score, int mate)
{
    if (mate)
        return mate > 0 ? TC_TACTIC_MATE_VALUE : -TC_TACTIC_MATE_VALUE;
    int lim = TC_TACTIC_MATE_VALUE - 1;
    return score > lim ? lim : score < -lim ? -lim : score;
}

static void on_info(const tc_search_info *in, void *ctx)
{
    two_lines *t = ctx;
    if (in->bound != TC_BOUND_EXACT || in->pv_len < 1)
        return;
    line_val v = {in->depth, value_of(in->score, in->mate), in->mate, in->pv[0]};
    if (in->multipv == 1) {
        t->cur1 = v;
    } else if (in->multipv == 2 && t->cur1.depth == in->depth) {
        t->l1 = t->cur1;
        t->l2 = v;
        t->have = 1;
    }
}

/* A two-line search of p to `nodes`; the lines in *t (t->have 0 when the
 * position has one legal move or no iteration finished both); the nodes
 * searched in *used (may be NULL). fresh: clear the hash first. */
static void search_two(tc_engine *e, const tc_position *p, uint64_t nodes, int fresh, two_lines *t,
                       uint64_t *used)
{
    memset(t, 0, sizeof *t);
    if (fresh)
        tc_engine_new_game(e);
    tc_engine_set_position(e, p);
    tc_limits lim;
    tc_limits_init(&lim);
    lim.nodes = nodes;
    lim.multipv = 2;
    tc_search_result r = tc_engine_search(e, &lim, on_info, t);
    if (used)
        *used = r.nodes;
    if (!t->have) { /* one legal move: its line alone */
        t->l1.move = r.best;
        t->l1.depth = r.depth;
        t->l1.value = value_of(r.score, r.mate);
        t->l1.mate = r.mate;
    }
}

static tc_move search_one(tc_engine *e, const tc_position *p, uint64_t nodes)
{
    tc_engine_set_position(e, p);
    tc_limits lim;
    tc_limits_init(&lim);
    lim.nodes = nodes;
    return tc_engine_search(e, &lim, NULL, NULL).best;
}

/* Is the root a tactic by these two lines? NULL, or why not. */
static const char *judge_root(const two_lines *t, const tc_tactic_options *o)
{
    if (!t->have)
        return "fewer than two moves were searched";
    if (t->l1.value < o->min_score)
        return "the best move does not win enough";
    if (t->l1.value - t->l2.value < o->margin)
        return "the second best move is nearly as good";
    if (t->l2.value > o->max_second)
        return "the position is won whatever is played";
    return NULL;
}

/* ---------------------------------------------------------------- material */

static const int piece_value[7] = {0, 100, 300, 300, 500, 900, 0};

/* Material of `side` minus the other's, centipawns. */
static int material(const tc_position *p, int side)
{
    int cells = tc_variant_cells(tc_position_variant(p)), sum = 0;
    for (int c = 0; c < cells; c++) {
        int pc = tc_piece_at(p, c);
        if (pc)
            sum += TC_COLOUR(pc) == side ? piece_value[TC_TYPE(pc)] : -piece_value[TC_TYPE(pc)];
    }
    return sum;
}

/* ---------------------------------------------------------------- themes */

/* The joins crossed when every line in the set from `from` to `to`
 * crosses one (the attack exists only through the joins; on a flat board
 * it would not be there): their bits, else 0. */
static int only_across(const tc_path_set *set, int from, int to)
{
    int joins = 0;
    for (int i = 0; i < set->count; i++) {
        const tc_path *pa = &set->paths[i];
        if (pa->from != from || pa->len < 1 || pa->cells[pa->len - 1] != to)
            continue;
        if (!pa->joins_all)
            return 0;
        joins |= pa->joins_all;
    }
    return joins;
}

/* The themes of the winner's move m in p (before it) and in p after it
 * (q, the same position with m made): bits into *themes, joins into
 * *joins. paths: scratch. */
static void move_themes(tc_position *q, tc_move m, int mover, tc_path_set *paths, tc_tactic *t)
{
    tc_path path;
    if (tc_move_path(q, m, &path) == 0 && path.joins_all) {
        t->themes |= TC_THEME_WRAP;
        t->joins |= path.joins_all;
    }
    int from = TC_MOVE_FROM(m), to = TC_MOVE_TO(m);
    int kind = TC_MOVE_KIND(m);
    int castle = kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q;
    int forker = tc_piece_at(q, from);
    tc_make_move(q, m);
    int mated = tc_position_status(q) == TC_CHECKMATE;
    if (tc_in_check(q)) {
        int king = tc_king_cell(q, !mover);
        int n = tc_attack_paths(q, king, mover, paths), across = 0;
        for (int i = 0; i < n && i < paths->count; i++)
            across |= only_across(paths, paths->paths[i].from, king);
        if (across) {
            t->themes |= TC_THEME_CHECK_JOIN | (mated ? TC_THEME_MATE_JOIN : 0);
            t->joins |= across;
        }
    }
    /* a fork: the moved piece attacks two enemy pieces (pawns not
     * counted), each the king, worth more than it, or undefended */
    if (!castle && !mated) {
        int n = tc_piece_lines(q, to, TC_LINES_ATTACKS, paths);
        int targets[TC_PATHS_MAX], nt = 0, across = 0;
        for (int i = 0; i < n && i < paths->count; i++) {
            const tc_path *pa = &paths->paths[i];
            if (pa->end != TC_END_PIECE || pa->len < 1)
                continue;
            int cell = pa->cells[pa->len - 1], pc = tc_piece_at(q, cell);
            if (!pc || TC_COLOUR(pc) == mover || TC_TYPE(pc) == TC_PAWN)
                continue;
            int worth = TC_TYPE(pc) == TC_KING || TC_TYPE(forker) == TC_KING
                            ? TC_TYPE(pc) == TC_KING || !tc_attacked(q, cell, !mover)
                            : piece_value[TC_TYPE(pc)] > piece_value[TC_TYPE(forker)] ||
                                  !tc_attacked(q, cell, !mover);
            if (!worth)
                continue;
            int seen = 0;
            for (int j = 0; j < nt; j++)
                seen |= targets[j] == cell;
            if (!seen)
                targets[nt++] = cell;
            across |= only_across(paths, to, cell);
        }
        if (nt >= 2) {
            t->themes |= TC_THEME_FORK;
            if (across) {
                t->themes |= TC_THEME_FORK_JOIN;
                t->joins |= across;
            }
        }
    }
    tc_unmake_move(q);
}

const char *tc_tactic_theme_name(unsigned theme)
{
    switch (theme) {
    case TC_THEME_MATE: return "mate";
    case TC_THEME_MATERIAL: return "material";
    case TC_THEME_FORK: return "fork";
    case TC_THEME_WRAP: return "wrap";
    case TC_THEME_CHECK_JOIN: return "check-across-join";
    case TC_THEME_FORK_JOIN: return "fork-across-join";
    case TC_THEME_MATE_JOIN: return "mate-across-join";
    }
    return "";
}

static void add(char *buf, size_t n, const char *fmt, ...)
{
    size_t len = strnlen(buf, n);
    if (len + 1 >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, n - len, fmt, ap);
    va_end(ap);
}

void tc_tactic_theme_text(const tc_tactic *t, char *buf, size_t n)
{
    if (!buf || !n)
        return;
    buf[0] = '\0';
    static const int order[4] = {TC_JOIN_FILE, TC_JOIN_TWIST, TC_JOIN_FOLD, TC_JOIN_RANK};
    static const char *const words[4] = {"the file join", "the twist", "the fold", "the rank join"};
    char joins[96] = "";
    for (int i = 0; i < 4; i++)
        if (t->joins & order[i])
            add(joins, sizeof joins, "%s%s", joins[0] ? " and " : "", words[i]);
    if (t->themes & TC_THEME_MATE)
        add(buf, n, "mate in %d", t->mate);
    else
        add(buf, n, "wins %d centipawns of material", t->gain);
    if (t->themes & TC_THEME_MATE_JOIN)
        add(buf, n, ", mate across %s", joins);
    else if (t->themes & TC_THEME_CHECK_JOIN)
        add(buf, n, ", check across %s", joins);
    if (t->themes & TC_THEME_FORK)
        add(buf, n, (t->themes & TC_THEME_FORK_JOIN) ? ", fork across %s" : ", fork", joins);
    if ((t->themes & TC_THEME_WRAP) && !(t->themes & (TC_THEME_CHECK_JOIN | TC_THEME_FORK_JOIN)))
        add(buf, n, ", a move across %s", joins);
}

/* ---------------------------------------------------------------- dedup */

uint64_t tc_tactic_class_key(const tc_position *p, const tc_symmetry *syms, int nsyms)
{
    uint64_t best = tc_key(p);
    if (nsyms <= 1)
        return best;
    tc_position *q = tc_position_new(tc_position_variant(p));
    if (!q)
        return best;
    for (int i = 0; i < nsyms; i++) {
        tc_error err;
        if (tc_symmetry_apply(&syms[i], p, q, &err) == 0 && tc_key(q) < best)
            best = tc_key(q);
    }
    tc_position_free(q);
    return best;
}

/* ---------------------------------------------------------------- the line */

static void append(tc_tactic *t, tc_position *q, tc_move m)
{
    t->line[t->nline] = m;
    tc_move_to_san(q, m, t->line_san[t->nline]);
    tc_move_to_uci(q, m, t->line_uci[t->nline]);
    t->nline++;
}

/* Builds the solution from q (the root, which is left as it was): the
 * winner's moves, each the only good one, and the engine's replies; NULL
 * or why there is none. */
static const char *build_line(tc_engine *e, tc_position *q, const tc_tactic_options *o, uint64_t nodes,
                              tc_move first, int mate_mode, tc_path_set *paths, tc_tactic *t)
{
    int mover = tc_side_to_move(q), start = material(q, mover), made = 0;
    const char *why = NULL;
    tc_move m = first;
    for (;;) {
        if (t->nline + 1 > o->max_line) {
            why = "the solution is longer than the longest line kept";
            break;
        }
        move_themes(q, m, mover, paths, t);
        append(t, q, m);
        tc_make_move(q, m);
        made++;
        tc_status st = tc_position_status(q);
        if (st == TC_CHECKMATE) {
            t->themes |= TC_THEME_MATE;
            t->mate = (t->nline + 1) / 2;
            break;
        }
        if (st != TC_ONGOING) {
            why = "the line ends in a draw";
            break;
        }
        tc_move reply = search_one(e, q, nodes);
        tc_make_move(q, reply);
        made++;
        two_lines l;
        search_two(e, q, nodes, 0, &l, NULL);
        int gain = material(q, mover) - start;
        if (!mate_mode && l.l1.mate <= 0 && gain >= o->min_gain && l.l1.value >= o->min_score) {
            t->themes |= TC_THEME_MATERIAL;
            t->gain = gain;
            break; /* the gain is kept: the line ends on the winner's move */
        }
        if (l.l1.mate > 0)
            mate_mode = 1;
        else if (mate_mode) {
            why = "the mate is not found again along the line";
            break;
        }
        if (l.l1.value < o->min_score) {
            why = "the advantage is lost along the line";
            break;
        }
        int last_mate = mate_mode && l.l1.mate == 1; /* any mate in one will do */
        if (l.have && !last_mate && l.l1.value - l.l2.value < o->line_margin) {
            why = "a later move of the winner has a second good answer";
            break;
        }
        if (t->nline + 2 > o->max_line) {
            why = "the solution is longer than the longest line kept";
            break;
        }
        tc_unmake_move(q); /* the reply goes in the line from the position before it */
        append(t, q, reply);
        tc_make_move(q, reply);
        m = l.l1.move;
    }
    while (made--)
        tc_unmake_move(q);
    return why;
}

int tc_tactic_find(tc_engine *e, const tc_position *p, const tc_tactic_options *o, tc_tactic *out,
                   char *reason, size_t n, tc_error *err)
{
    const char *why = NULL;
    if (reason && n)
        reason[0] = '\0';
    if (tc_tactic_options_check(o, err))
        return -1;
    if (!e || !p || tc_position_variant(p) != tc_engine_variant(e)) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "tactics: the engine is not of the position's variant");
        return -1;
    }
    memset(out, 0, sizeof *out);
    tc_position *q = tc_position_clone(p);
    tc_path_set *paths = malloc(sizeof *paths);
    tc_movelist *list = malloc(sizeof *list);
    if (!q || !paths || !list) {
        if (err)
            snprintf(err->msg, sizeof err->msg, "tactics: out of memory");
        tc_position_free(q);
        free(paths);
        free(list);
        return -1;
    }
    if (tc_position_status(q) != TC_ONGOING)
        why = "the game is over";
    else if (tc_generate_legal(q, list) < 2)
        why = "fewer than two legal moves";
    two_lines found, conf;
    if (!why) {
        search_two(e, q, o->nodes, 1, &found, &out->nodes_found);
        why = judge_root(&found, o);
    }
    uint64_t deep = o->nodes * (uint64_t)o->confirm;
    if (!why) {
        search_two(e, q, deep, 1, &conf, &out->nodes_confirmed);
        why = judge_root(&conf, o);
        if (why)
            why = "the deeper search disagrees: the confirming search finds no tactic";
        else if (conf.l1.move != found.l1.move)
            why = "the deeper search disagrees: it prefers another move";
        else if (conf.l1.depth <= found.l1.depth && !conf.l1.mate)
            why = "the confirming search went no deeper";
    }
    if (!why) {
        const tc_variant_def *def = tc_variant_def_of(tc_position_variant(q));
        snprintf(out->variant, sizeof out->variant, "%s", def->name);
        tc_position_fen(q, out->fen, sizeof out->fen);
        out->side = tc_side_to_move(q);
        out->found_score = found.l1.value;
        out->found_second = found.l2.value;
        out->depth_found = found.l1.depth;
        out->score = conf.l1.value;
        out->second = conf.l2.value;
        out->margin = conf.l1.value - conf.l2.value;
        out->depth_confirmed = conf.l1.depth;
        out->key = tc_key(q);
        why = build_line(e, q, o, deep, conf.l1.move, conf.l1.mate > 0, paths, out);
        /* a material win must not be a horizon effect: the confirming
         * search sees at least two plies past the line's last move */
        if (!why && !out->mate && out->depth_confirmed < out->nline + 2)
            why = "the confirming search does not see two plies past the line";
    }
    tc_position_free(q);
    free(paths);
    free(list);
    if (why) {
        if (reason && n)
            snprintf(reason, n, "%s", why);
        return 0;
    }
    return 1;
}
