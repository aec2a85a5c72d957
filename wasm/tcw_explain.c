/* The export layer: paths, attack lines and why a move is illegal, as JSON
 * for web/src/lib/topochess.ts (see tc_wasm.c for the conventions). */
#include "tcw_internal.h"

/* ---------------------------------------------------------------- explain */

static const char *path_kind(int k)
{
    static const char *const names[] = {"ray", "step", "leap", "push", "capture", "castle"};
    return k >= 0 && k < 6 ? names[k] : "ray";
}

static const char *path_end(int e)
{
    static const char *const names[] = {"target", "off", "own", "piece", "return", "short"};
    return e >= 0 && e < 6 ? names[e] : "short";
}

static char piece_letter(int piece) { return " PNBRQK  pnbrqk"[piece & 15]; }

/* A library path in the Line shape of the TypeScript API: cells from the
 * piece's own cell on, joins per hop. */
static void path_json(sb *s, const tc_position *p, const tc_path *path)
{
    const tc_variant *v = tc_position_variant(p);
    sb_printf(s, "{\"kind\":\"%s\",\"piece\":\"%c\",\"cells\":[", path_kind(path->kind),
              piece_letter(path->piece));
    tcw_cell_str(s, v, path->from);
    for (int i = 0; i < path->len; i++) {
        sb_puts(s, ",");
        tcw_cell_str(s, v, path->cells[i]);
    }
    sb_puts(s, "],\"joins\":[");
    for (int i = 0; i < path->len; i++)
        sb_printf(s, i ? ",%d" : "%d", path->joins[i]);
    int last = path->len ? path->cells[path->len - 1] : -1;
    int q = last >= 0 ? tc_piece_at(p, last) : 0;
    int capture = (q && TC_COLOUR(q) != TC_COLOUR(path->piece)) ||
                  (path->kind == TC_LINE_PAWN_CAPTURE && last >= 0 && last == tc_ep_cell(p) && !q);
    sb_printf(s, "],\"end\":\"%s\",\"capture\":%s,\"truncated\":%s}", path_end(path->end),
              capture ? "true" : "false", path->truncated ? "true" : "false");
}

static void path_set_json(sb *s, const tc_position *p, const tc_path_set *set)
{
    sb_puts(s, "[");
    for (int i = 0; i < set->count; i++) {
        sb_puts(s, i ? "," : "");
        path_json(s, p, &set->paths[i]);
    }
    sb_puts(s, "]");
}

/* The lines along which pieces of colour `by` attack `target`. */
static void attack_lines(sb *s, const tc_position *p, int target, int by)
{
    tc_path_set *set = malloc(sizeof *set);
    if (!set) {
        s->oom = 1;
        return;
    }
    if (tc_attack_paths(p, target, by, set) < 0)
        set->count = 0;
    path_set_json(s, p, set);
    free(set);
}

/* Dead positions (docs/rules.md section 6) of the last board asked about: the
 * help-mate marks of each material, made the first time a position of it
 * comes up and kept while the board stays the same. Tables over the limit
 * (a second or so in the browser) are not made: their positions are not
 * declared dead. */
#define DEAD_MAX_ENTRIES (1u << 22)

/* The limit this instance uses (a worker's instance may take more time) */
static uint64_t dead_limit = DEAD_MAX_ENTRIES;
static tc_dead_table *table;

static tc_dead_table *dead_table_for(const tc_variant *v)
{
    static const tc_variant *of; /* the table reads this variant's tables */
    static tc_variant_def def;
    const tc_variant_def *d = tc_variant_def_of(v);
    if (table && (of != v || memcmp(&def, d, sizeof def) != 0)) {
        tc_dead_table_free(table);
        table = NULL;
    }
    if (!table) {
        table = tc_dead_table_new(v, NULL);
        of = v;
        def = *d;
        if (table)
            tc_dead_table_set_limit(table, dead_limit);
    }
    return table;
}

/* Sets this instance's limit of entries for the dead-position marks
 * (0: the default, about a second of marking); the materials marked so
 * far stay marked. A worker that may take its time raises it so that the
 * 4-piece materials of the large boards are decided too. */
void EXPORT(tcw_dead_limit)(double max_entries)
{
    dead_limit = max_entries >= 1 ? (uint64_t)max_entries : DEAD_MAX_ENTRIES;
    if (table)
        tc_dead_table_set_limit(table, dead_limit);
}

/* {status,text,result,check,turn,checkers:[lines],repetitions,halfmove,fullmove,ply};
 * a dead position's text says why */
char *EXPORT(tcw_game_status)(const tc_position *p)
{
    tc_dead_table *dead = dead_table_for(tc_position_variant(p));
    tc_status st = tc_game_status(dead, p);
    int side = tc_side_to_move(p);
    sb s = {0};
    sb_printf(&s, "{\"status\":\"%s\",\"text\":", tcw_status_name(st));
    if (st == TC_DRAW_DEAD) {
        char why[400], text[480];
        tc_dead_explain(dead, p, why, sizeof why);
        snprintf(text, sizeof text, "%s: %s", tc_status_text(st), strncmp(why, "dead: ", 6) ? why : why + 6);
        sb_str(&s, text);
    } else
        sb_str(&s, tc_status_text(st));
    sb_printf(&s, ",\"result\":\"%s\",\"check\":%s,\"turn\":\"%c\",\"checkLines\":", tcw_result_of(p, st),
              tc_in_check(p) ? "true" : "false", side == TC_WHITE ? 'w' : 'b');
    if (tc_in_check(p))
        attack_lines(&s, p, tc_king_cell(p, side), 1 - side);
    else
        sb_puts(&s, "[]");
    sb_puts(&s, ",\"king\":");
    int k = tc_king_cell(p, side);
    if (k >= 0)
        tcw_cell_str(&s, tc_position_variant(p), k);
    else
        sb_puts(&s, "null");
    sb_printf(&s, ",\"repetitions\":%d,\"halfmove\":%d,\"fullmove\":%d,\"ply\":%d}", tc_repetitions(p),
              tc_halfmove_clock(p), tc_fullmove_number(p), tc_ply_count(p));
    return sb_done(&s, NULL);
}

/* ---------------------------------------------------------------- endings */

/* The solved ending of a pawnless position of at most 3 pieces, solved
 * here on this board (a moment: every preset's 3-piece tables are small):
 * {"ending":"KQK","wdl":1|0|-1 for the side to move,"plies":N,
 *  "mates":bool (a checkmate exists with this material on this board),
 *  "forced":bool (the stronger side can force one from some position)},
 * or "null" when the position is not such an ending. */
static char *json_null(void)
{
    sb s = {0};
    sb_puts(&s, "null");
    return sb_done(&s, NULL);
}

char *EXPORT(tcw_game_ending)(const tc_position *p)
{
    static const char letters[] = " PNBRQK";
    const tc_variant *v = tc_position_variant(p);
    char side[2][8] = {"K", "K"};
    int n[2] = {1, 1}, total = 0;
    for (int c = 0; c < tc_variant_cells(v); c++) {
        int q = tc_piece_at(p, c);
        if (!q)
            continue;
        int t = TC_TYPE(q), col = TC_COLOUR(q);
        if (t == TC_PAWN || ++total > 3)
            return json_null();
        if (t != TC_KING && n[col] < 3)
            side[col][n[col]++] = letters[t];
    }
    char name[16];
    snprintf(name, sizeof name, "%s%s", side[0], side[1]);
    if (total < 3)
        return json_null();
    tc_egtb_options opt = {.threads = 1, .max_entries = 1u << 21};
    tc_error err;
    tc_egtb *t = tc_egtb_solve(v, name, &opt, &err);
    if (!t)
        return json_null();
    tc_egtb_result r;
    tc_egtb_stats st;
    int held = tc_egtb_probe(t, p, &r) == 0;
    tc_egtb_stats_get(t, &st);
    sb s = {0};
    sb_printf(&s, "{\"ending\":");
    sb_str(&s, tc_egtb_name(t));
    sb_printf(&s, ",\"wdl\":%d,\"plies\":%d,\"mates\":%s,\"forced\":%s}", held ? r.wdl : 0, held ? r.plies : 0,
              st.mates[0] + st.mates[1] ? "true" : "false",
              st.win[0] + st.win[1] + st.loss[0] + st.loss[1] ? "true" : "false");
    tc_egtb_free(t);
    return sb_done(&s, NULL);
}

/* Lines of the piece on `cell` in this position (tc_piece_lines): mode 0
 * where it may move (own king's safety aside), 1 what it attacks. */
char *EXPORT(tcw_game_lines)(const tc_position *p, int cell, int mode)
{
    if (cell < 0 || cell >= tc_variant_cells(tc_position_variant(p)) || mode < 0 || mode > 1)
        return NULL;
    tc_path_set *set = malloc(sizeof *set);
    if (!set)
        return NULL;
    if (tc_piece_lines(p, cell, mode ? TC_LINES_ATTACKS : TC_LINES_MOVES, set) < 0)
        set->count = 0;
    sb s = {0};
    path_set_json(&s, p, set);
    free(set);
    return sb_done(&s, NULL);
}

/* Lines along which pieces of colour `by` (0 white, 1 black) attack `cell`. */
char *EXPORT(tcw_game_attacks)(const tc_position *p, int cell, int by)
{
    if (cell < 0 || cell >= tc_variant_cells(tc_position_variant(p)) || by < 0 || by > 1)
        return NULL;
    sb s = {0};
    attack_lines(&s, p, cell, by);
    return sb_done(&s, NULL);
}

/* The path of a legal move (SAN or coordinates), or NULL with the reason. */
char *EXPORT(tcw_game_move_path)(const tc_position *p, const char *text, tc_error *err)
{
    tcw_clear(err);
    tc_move m;
    if (tc_move_parse(p, text, &m, err))
        return NULL;
    tc_path *path = malloc(sizeof *path);
    if (!path)
        return NULL;
    char *out = NULL;
    if (tc_move_path(p, m, path) == 0) {
        sb s = {0};
        path_json(&s, p, path);
        out = sb_done(&s, err);
    } else {
        snprintf(err->msg, sizeof err->msg, "no line of the piece reaches the destination");
    }
    free(path);
    return out;
}

static const char *why_name(tc_why w)
{
    static const char *const names[] = {"legal", "syntax", "no-piece", "not-yours", "cannot-reach",
                                        "king-attacked", "ambiguous", "needs-promotion", "cannot-castle",
                                        "game-over"};
    return (int)w >= 0 && (int)w < 10 ? names[w] : "syntax";
}

/* Why a move text is (or is not) legal here: tc_explain_move as JSON. */
char *EXPORT(tcw_game_explain)(const tc_position *p, const char *text)
{
    tc_explanation *x = malloc(sizeof *x);
    if (!x)
        return NULL;
    int rc = tc_explain_move(p, text, x);
    const tc_variant *v = tc_position_variant(p);
    sb s = {0};
    sb_printf(&s, "{\"legal\":%s,\"why\":\"%s\",\"message\":", rc == 0 ? "true" : "false", why_name(x->why));
    sb_str(&s, x->message);
    if (rc) {
        /* the sentence the terminal prints for this text (tc_explain_line) */
        char line[sizeof x->message + 64];
        tc_explain_line(text, x, line, sizeof line);
        sb_puts(&s, ",\"line\":");
        sb_str(&s, line);
    } else
        sb_puts(&s, ",\"line\":null");
    sb_puts(&s, ",\"move\":");
    if (x->move && tc_is_legal(p, x->move))
        tcw_move_json(&s, p, x->move);
    else if (x->move) {
        char u[16];
        tc_move_to_uci(p, x->move, u);
        sb_puts(&s, "{\"uci\":");
        sb_str(&s, u);
        sb_puts(&s, "}");
    } else
        sb_puts(&s, "null");
    const int cells[3] = {x->from, x->to, x->king};
    const char *names[3] = {"from", "to", "king"};
    for (int i = 0; i < 3; i++) {
        sb_printf(&s, ",\"%s\":", names[i]);
        if (cells[i] >= 0 && cells[i] < tc_variant_cells(v))
            tcw_cell_str(&s, v, cells[i]);
        else
            sb_puts(&s, "null");
    }
    if (x->piece)
        sb_printf(&s, ",\"piece\":\"%c\"", piece_letter(x->piece));
    else
        sb_puts(&s, ",\"piece\":null");
    sb_printf(&s, ",\"status\":\"%s\",\"candidates\":[",
              x->why == TC_WHY_GAME_OVER ? tcw_status_name(x->status) : "ongoing");
    for (int i = 0; i < x->ncandidates && i < TC_EXPLAIN_CANDIDATES; i++) {
        sb_puts(&s, i ? "," : "");
        tcw_move_json(&s, p, x->candidates[i]);
    }
    sb_puts(&s, "],\"blocked\":");
    if (x->why == TC_WHY_CANNOT_REACH && x->blocked.len > 0)
        path_json(&s, p, &x->blocked);
    else
        sb_puts(&s, "null");
    sb_puts(&s, ",\"blocker\":");
    if (x->why == TC_WHY_CANNOT_REACH && x->blocker >= 0)
        tcw_cell_str(&s, v, x->blocker);
    else
        sb_puts(&s, "null");
    sb_puts(&s, ",\"attackers\":");
    if (x->why == TC_WHY_KING_ATTACKED && x->move) {
        /* the lines attack the king in the position after the move */
        tc_position *after = tc_position_clone(p);
        if (after)
            tc_make_move(after, x->move);
        path_set_json(&s, after ? after : p, &x->attackers);
        tc_position_free(after);
    } else if (x->why == TC_WHY_KING_ATTACKED || x->why == TC_WHY_CANNOT_CASTLE) {
        path_set_json(&s, p, &x->attackers);
    } else {
        sb_puts(&s, "[]");
    }
    sb_puts(&s, "}");
    free(x);
    return sb_done(&s, NULL);
}

/* {startFen,moves:[{uci,san,...}]}: the history replayed from its start. */
char *EXPORT(tcw_game_history)(const tc_position *p)
{
    tc_position *q = tc_position_new(tc_position_variant(p));
    if (!q)
        return NULL;
    tc_error e;
    if (tc_position_set_fen(q, tc_position_start_fen(p), &e)) {
        tc_position_free(q);
        return NULL;
    }
    sb s = {0};
    sb_puts(&s, "{\"startFen\":");
    sb_str(&s, tc_position_start_fen(p));
    sb_puts(&s, ",\"moves\":[");
    for (int i = 0; i < tc_ply_count(p); i++) {
        tc_move m = tc_history_move(p, i);
        sb_puts(&s, i ? "," : "");
        tcw_move_json(&s, q, m);
        tc_make_move(q, m);
    }
    sb_puts(&s, "]}");
    tc_position_free(q);
    return sb_done(&s, NULL);
}

/* PGN of the game. tags: "Name\tValue\n" lines (may be empty); result:
 * "" for the one the position implies. */
char *EXPORT(tcw_game_pgn)(const tc_position *p, const char *tags, const char *result)
{
    return tcw_pgn_text(p, tags, result, NULL, NULL);
}

char *tcw_pgn_text(const tc_position *p, const char *tags, const char *result, const tc_review_move *review,
                   const tc_review_side *sides)
{
    char *copy = strdup(tags ? tags : "");
    /* as many tags as lines: no fixed limit */
    size_t lines = 1;
    for (const char *t = copy; t && *t; t++)
        lines += *t == '\n';
    const char **tv = copy ? malloc(sizeof *tv * 2 * lines) : NULL;
    if (!tv) {
        free(copy);
        return NULL;
    }
    int n = 0;
    for (char *line = copy; *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *tab = strchr(line, '\t');
        if (tab) {
            *tab = 0;
            tv[2 * n] = line;
            tv[2 * n + 1] = tab + 1;
            n++;
        }
        if (!nl)
            break;
        line = nl + 1;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        if (review)
            tc_review_pgn(p, review, sides, tv, n, result && *result ? result : NULL, f);
        else
            tc_pgn_write(p, tv, n, result && *result ? result : NULL, f);
        fclose(f);
    }
    free(tv);
    free(copy);
    return buf;
}

static int same_board(const tc_variant_def *a, const tc_variant_def *b)
{
    return a->width == b->width && a->height == b->height && a->files == b->files && a->ranks == b->ranks &&
           (a->ranks != TC_RANKS_TWIST || a->seam == b->seam) && !strcmp(a->setup, b->setup);
}

/* Reads the first game of a PGN text onto p (which keeps its variant):
 * returns {tags:{..},result,plies} or NULL with the reader's or the
 * replay's message; p is unchanged on failure. */
char *EXPORT(tcw_game_load_pgn)(tc_position *p, const char *text, size_t len, tc_error *err)
{
    tcw_clear(err);
    tc_pgn_reader r;
    tc_pgn_game g;
    memset(&g, 0, sizeof g);
    tc_pgn_reader_init(&r, text, len);
    int k = tc_pgn_read_game(&r, &g, err);
    if (k <= 0) {
        if (k == 0)
            snprintf(err->msg, sizeof err->msg, "no game in the PGN text");
        tc_pgn_game_free(&g);
        return NULL;
    }
    const tc_variant *v = tc_position_variant(p);
    tc_pgn_replay rep;
    memset(&rep, 0, sizeof rep);
    char *out = NULL;
    if (tc_pgn_replay_game(&g, tc_variant_def_of(v), &rep, err) == 0) {
        if (!rep.ok) {
            /* err names the move */
        } else if (!same_board(tc_variant_def_of(rep.variant), tc_variant_def_of(v))) {
            snprintf(err->msg, sizeof err->msg, "the game is for variant '%.60s', not '%.60s'",
                     tc_variant_def_of(rep.variant)->name, tc_variant_def_of(v)->name);
        } else {
            tc_position *q = tc_position_new(v);
            if (q && tc_position_set_fen(q, tc_position_start_fen(rep.position), err) == 0) {
                for (int i = 0; i < tc_ply_count(rep.position); i++)
                    tc_make_move(q, tc_history_move(rep.position, i));
                sb s = {0};
                sb_puts(&s, "{\"tags\":{");
                for (int i = 0; i < g.ntags; i++) {
                    sb_puts(&s, i ? "," : "");
                    sb_str(&s, g.tag_name[i]);
                    sb_puts(&s, ":");
                    sb_str(&s, g.tag_value[i]);
                }
                sb_puts(&s, "},\"result\":");
                sb_str(&s, g.result);
                sb_printf(&s, ",\"plies\":%d}", tc_ply_count(q));
                out = sb_done(&s, err);
                if (out) {
                    /* move q's state into p: same variant, so a FEN and the
                     * moves rebuild it exactly */
                    tc_error e2;
                    tc_position_set_fen(p, tc_position_start_fen(q), &e2);
                    for (int i = 0; i < tc_ply_count(q); i++)
                        tc_make_move(p, tc_history_move(q, i));
                }
            }
            tc_position_free(q);
        }
        tc_pgn_replay_free(&rep);
    }
    tc_pgn_game_free(&g);
    return out;
}

/* The board the first game of a PGN text is played on (tc_pgn_game_def,
 * with v standing for a [Variant] that names it): {"same":bool,"name",
 * "title","page"} where page is that board as a variant page (from a
 * [Topology] tag, a preset's name, or v itself) and same says whether it
 * is v's board; NULL with the reader's or the tag's message. */
char *EXPORT(tcw_pgn_board)(const tc_variant *v, const char *text, size_t len, tc_error *err)
{
    tcw_clear(err);
    tc_pgn_reader r;
    tc_pgn_game g;
    memset(&g, 0, sizeof g);
    tc_pgn_reader_init(&r, text, len);
    int k = tc_pgn_read_game(&r, &g, err);
    tc_variant_def def;
    if (k <= 0 || tc_pgn_game_def(&g, tc_variant_def_of(v), &def, err)) {
        if (k == 0)
            snprintf(err->msg, sizeof err->msg, "no game in the PGN text");
        tc_pgn_game_free(&g);
        return NULL;
    }
    tc_pgn_game_free(&g);
    char *page = NULL;
    size_t plen = 0;
    FILE *f = open_memstream(&page, &plen);
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    tc_variant_def_write_page(&def, f);
    fclose(f);
    sb s = {0};
    sb_printf(&s, "{\"same\":%s,\"name\":", same_board(&def, tc_variant_def_of(v)) ? "true" : "false");
    sb_str(&s, def.name);
    sb_puts(&s, ",\"title\":");
    sb_str(&s, def.title[0] ? def.title : def.name);
    sb_puts(&s, ",\"page\":");
    sb_str(&s, page ? page : "");
    sb_puts(&s, "}");
    free(page);
    return sb_done(&s, err);
}

/* Perft as a double (exact below 2^53, far beyond any depth the module is
 * asked for): avoids BigInt at the boundary. */
double EXPORT(tcw_game_perft)(tc_position *p, int depth) { return (double)tc_perft(p, depth); }

static void divide_cb(const char *move, uint64_t nodes, void *ctx)
{
    sb *s = ctx;
    sb_puts(s, s->n > 1 ? "," : "");
    sb_str(s, move);
    sb_printf(s, ":%llu", (unsigned long long)nodes);
}

/* {"e2e4":N,...} */
char *EXPORT(tcw_game_divide)(tc_position *p, int depth)
{
    if (depth < 1)
        return NULL;
    sb s = {0};
    sb_puts(&s, "{");
    tc_perft_divide(p, depth, divide_cb, &s);
    sb_puts(&s, "}");
    return sb_done(&s, NULL);
}
