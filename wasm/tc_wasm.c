/* The wasm module's export layer: a thin adapter over the public headers
 * (and the topology report's figures) for web/src/lib/topochess.ts.
 *
 * Conventions, so the TypeScript side stays mechanical:
 *   - objects are opaque pointers (tc_variant *, tc_position *, tc_engine *)
 *     that the caller frees with the matching tcw_*_free;
 *   - text goes in as NUL-terminated UTF-8 in buffers from tcw_malloc;
 *   - complex results come back as malloc'd NUL-terminated JSON (or plain
 *     text) that the caller releases with tcw_free; NULL means failure, and
 *     the tc_error passed in (from tcw_error_new) holds the library's message;
 *   - flat tables come back as malloc'd int32 arrays.
 * Nothing here prints: the module's only stdio use is open_memstream for the
 * PGN writer and the report text, which never reach a file descriptor.
 *
 * Two functions are imported from the host (module "env"):
 *   tc_host_info(json, len)  one search progress report, during a search;
 *   tc_host_poll()           nonzero when the host wants the search stopped.
 */
/* Files: this one (memory, variants, lines, report, games),
 * tcw_explain.c (paths and reasons), tcw_engine.c (the engine),
 * tcw_text.c (the JSON text builder); what they share is in
 * tcw_internal.h. */
#include "tcw_internal.h"

/* ---------------------------------------------------------------- memory */

void *EXPORT(tcw_malloc)(size_t n) { return malloc(n ? n : 1); }
void EXPORT(tcw_free)(void *p) { free(p); }

/* A tc_error for the host to pass to failing calls; msg is at offset 0. */
tc_error *EXPORT(tcw_error_new)(void) { return calloc(1, sizeof(tc_error)); }

void tcw_clear(tc_error *err)
{
    if (err)
        err->msg[0] = 0;
}

/* ---------------------------------------------------------------- variants */

static const char *file_rule_name(tc_file_rule r) { return r == TC_FILES_WRAP ? "wrap" : "open"; }

static const char *rank_rule_name(tc_rank_rule r)
{
    switch (r) {
    case TC_RANKS_WRAP: return "wrap";
    case TC_RANKS_TWIST: return "twist";
    case TC_RANKS_FOLD: return "fold";
    default: return "open";
    }
}

static void def_json(sb *s, const tc_variant_def *d)
{
    sb_puts(s, "\"name\":");
    sb_str(s, d->name);
    sb_puts(s, ",\"title\":");
    sb_str(s, d->title);
    sb_puts(s, ",\"description\":");
    sb_str(s, d->description);
    sb_printf(s, ",\"width\":%d,\"height\":%d,\"files\":\"%s\",\"ranks\":\"%s\",", d->width, d->height,
              file_rule_name(d->files), rank_rule_name(d->ranks));
    if (d->ranks == TC_RANKS_TWIST)
        sb_printf(s, "\"seam\":%d", d->seam);
    else
        sb_puts(s, "\"seam\":null");
    sb_puts(s, ",\"setup\":");
    sb_str(s, d->setup);
}

int EXPORT(tcw_preset_count)(void) { return tc_preset_count(); }

/* [{name,title,description,width,height,files,ranks,seam,setup,aliases}] */
char *EXPORT(tcw_presets_json)(void)
{
    sb s = {0};
    sb_puts(&s, "[");
    for (int i = 0; i < tc_preset_count(); i++) {
        sb_puts(&s, i ? ",{" : "{");
        def_json(&s, tc_preset(i));
        sb_puts(&s, ",\"aliases\":[");
        const char *a = tc_preset_aliases(i);
        int first = 1;
        while (*a) {
            size_t k = strcspn(a, ",");
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(k < 63 ? k : 63), a);
            if (k) {
                sb_puts(&s, first ? "" : ",");
                sb_str(&s, name);
                first = 0;
            }
            a += k;
            if (*a == ',')
                a++;
        }
        sb_puts(&s, "]}");
    }
    sb_puts(&s, "]");
    return sb_done(&s, NULL);
}

tc_variant *EXPORT(tcw_variant_preset)(const char *name, tc_error *err)
{
    tcw_clear(err);
    tc_variant_def def;
    if (tc_preset_find(name, &def, err))
        return NULL;
    return tc_variant_new(&def, err);
}

tc_variant *EXPORT(tcw_variant_frontmatter)(const char *text, size_t len, tc_error *err)
{
    tcw_clear(err);
    return tc_frontmatter_variant(text, len, NULL, err);
}

void EXPORT(tcw_variant_free)(tc_variant *v) { tc_variant_free(v); }

/* {name,...,setup,startFen,topology,cells:[names]} */
char *EXPORT(tcw_variant_json)(const tc_variant *v)
{
    sb s = {0};
    sb_puts(&s, "{");
    def_json(&s, tc_variant_def_of(v));
    tc_position *p = tc_position_new(v);
    char fen[720] = "";
    if (p)
        tc_position_fen(p, fen, sizeof fen);
    tc_position_free(p);
    sb_puts(&s, ",\"startFen\":");
    sb_str(&s, fen);
    char topo[128];
    tc_variant_topology_text(v, topo, sizeof topo);
    sb_puts(&s, ",\"topology\":");
    sb_str(&s, topo);
    sb_puts(&s, ",\"cells\":[");
    for (int c = 0; c < tc_variant_cells(v); c++) {
        char name[8];
        tc_cell_name(v, c, name);
        sb_puts(&s, c ? "," : "");
        sb_str(&s, name);
    }
    sb_puts(&s, "]}");
    return sb_done(&s, NULL);
}

int EXPORT(tcw_cell_parse)(const tc_variant *v, const char *name) { return tc_cell_parse(v, name); }

/* Joins crossed by one step (TC_JOIN_* bits of topochess_explain.h: 1 file
 * join, 2 rank join, 4 twist, 8 fold), from the library's step tables. */
static int dir_of(int dx, int dy);
static int step_joins(const tc_variant *v, int cell, int dx, int dy)
{
    int dir = dir_of(dx, dy);
    return dir < 0 ? 0 : tc_step_joins(v, cell, dir);
}

#define STEP_FIELDS 6
static const int DIR_DX[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int DIR_DY[8] = {1, 1, 0, -1, -1, -1, 0, 1};

static int dir_of(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (DIR_DX[d] == dx && DIR_DY[d] == dy)
            return d;
    return -1;
}

/* For each cell and direction (N, NE, E, SE, S, SW, W, NW), six int32:
 * the cell reached (-1: off the board), the new dx and dy, the frame
 * transform sx and sy (+1 or -1), and the join bits crossed. */
int32_t *EXPORT(tcw_variant_steps)(const tc_variant *v)
{
    const int *ddx = DIR_DX, *ddy = DIR_DY;
    int n = tc_variant_cells(v);
    int32_t *t = malloc(sizeof *t * (size_t)n * 8 * STEP_FIELDS);
    if (!t)
        return NULL;
    for (int c = 0; c < n; c++)
        for (int dir = 0; dir < 8; dir++) {
            tc_step_result r = tc_step(v, c, ddx[dir], ddy[dir]);
            int32_t *o = t + ((size_t)c * 8 + (size_t)dir) * STEP_FIELDS;
            o[0] = r.cell;
            o[1] = r.dx;
            o[2] = r.dy;
            o[3] = r.sx;
            o[4] = r.sy;
            o[5] = r.cell < 0 ? 0 : tc_step_joins(v, c, dir);
        }
    return t;
}

/* ---------------------------------------------------------------- lines */

/* Lines of movement on an empty board, for the topology explorer (a
 * position's lines come from the library: tc_piece_lines, below). Walked
 * with the step function as docs/rules.md section 4 moves the pieces; the unit
 * tests hold them against tc_piece_lines and the report's reach counts. */
typedef struct {
    const tc_variant *v;
    int colour;
    sb *s;
    int nlines;
} line_walk;

void tcw_cell_str(sb *s, const tc_variant *v, int c)
{
    char name[8];
    tc_cell_name(v, c, name);
    sb_str(s, name);
}

/* Emits {"kind":..,"cells":[from,...],"joins":[bits per hop],"capture":false}. */
static void emit_line(line_walk *w, const char *kind, const int *cells, const int *joins, int n)
{
    sb *s = w->s;
    sb_puts(s, w->nlines++ ? ",{\"kind\":" : "{\"kind\":");
    sb_str(s, kind);
    sb_puts(s, ",\"cells\":[");
    for (int i = 0; i < n; i++) {
        sb_puts(s, i ? "," : "");
        tcw_cell_str(s, w->v, cells[i]);
    }
    sb_puts(s, "],\"joins\":[");
    for (int i = 1; i < n; i++)
        sb_printf(s, i > 1 ? ",%d" : "%d", joins[i]);
    sb_puts(s, "],\"capture\":false}");
}

/* A ray: repeated steps carrying the direction; ends off the board or back
 * on the start cell. The path may pass a cell twice (in another direction):
 * it is listed each time, as it would be drawn. */
static void walk_ray(line_walk *w, int from, int dx, int dy)
{
    enum { MAX_PATH = 8 * TC_MAX_CELLS + 1 };
    int *cells = malloc(sizeof *cells * MAX_PATH), *joins = malloc(sizeof *joins * MAX_PATH);
    unsigned char *seen = calloc((size_t)TC_MAX_CELLS * 8, 1); /* (cell, direction) states */
    if (!cells || !joins || !seen) {
        w->s->oom = 1;
        free(cells), free(joins), free(seen);
        return;
    }
    int n = 1, c = from;
    cells[0] = from;
    joins[0] = 0;
    for (;;) {
        int dir = dir_of(dx, dy);
        if (dir < 0 || seen[c * 8 + dir] || n >= MAX_PATH)
            break;
        seen[c * 8 + dir] = 1;
        tc_step_result r = tc_step(w->v, c, dx, dy);
        if (r.cell < 0 || r.cell == from)
            break;
        joins[n] = step_joins(w->v, c, dx, dy);
        cells[n++] = r.cell;
        c = r.cell;
        dx = r.dx;
        dy = r.dy;
    }
    if (n > 1)
        emit_line(w, "ray", cells, joins, n);
    free(cells), free(joins), free(seen);
}

/* One step, or with (dx2, dy2) an orthogonal step then a diagonal one in
 * the frame the first step reached (a knight's leap). */
static void walk_leap(line_walk *w, const char *kind, int from, int dx, int dy, int dx2, int dy2)
{
    int cells[3] = {from, -1, -1}, joins[3] = {0, 0, 0}, n = 1;
    tc_step_result r = tc_step(w->v, from, dx, dy);
    if (r.cell < 0)
        return;
    joins[1] = step_joins(w->v, from, dx, dy);
    cells[n++] = r.cell;
    if (dx2 || dy2) {
        int ex = r.sx * dx2, ey = r.sy * dy2;
        tc_step_result r2 = tc_step(w->v, r.cell, ex, ey);
        if (r2.cell < 0)
            return;
        joins[2] = step_joins(w->v, r.cell, ex, ey);
        cells[n++] = r2.cell;
    }
    if (cells[n - 1] != from)
        emit_line(w, kind, cells, joins, n);
}

/* The forward direction of a pawn: the vertical step whose ray reaches the
 * enemy back rank before the pawn's own (docs/rules.md section 4). */
static int pawn_forward(const tc_variant *v, int cell, int colour)
{
    int own = -1, enemy = -1;
    tc_position *p = tc_position_new(v);
    if (p) {
        own = tc_cell_y(v, tc_king_cell(p, colour));
        enemy = tc_cell_y(v, tc_king_cell(p, 1 - colour));
        tc_position_free(p);
    }
    for (int sgn = 1; sgn >= -1; sgn -= 2) {
        int c = cell, dy = sgn;
        for (int i = 0; i < 2 * TC_MAX_RANKS; i++) {
            tc_step_result r = tc_step(v, c, 0, dy);
            if (r.cell < 0)
                break;
            int y = tc_cell_y(v, r.cell);
            if (y == own)
                break;
            if (y == enemy)
                return sgn;
            c = r.cell;
            dy = r.dy;
        }
    }
    return colour == TC_WHITE ? 1 : -1;
}

static void piece_lines(line_walk *w, int from, int type)
{
    static const int odx[4] = {0, 1, 0, -1}, ody[4] = {1, 0, -1, 0};
    static const int gdx[4] = {1, 1, -1, -1}, gdy[4] = {1, -1, -1, 1};
    switch (type) {
    case TC_ROOK:
    case TC_BISHOP:
    case TC_QUEEN:
        for (int i = 0; i < 4; i++) {
            if (type != TC_BISHOP)
                walk_ray(w, from, odx[i], ody[i]);
            if (type != TC_ROOK)
                walk_ray(w, from, gdx[i], gdy[i]);
        }
        break;
    case TC_KING:
        for (int i = 0; i < 4; i++) {
            walk_leap(w, "step", from, odx[i], ody[i], 0, 0);
            walk_leap(w, "step", from, gdx[i], gdy[i], 0, 0);
        }
        break;
    case TC_KNIGHT:
        for (int i = 0; i < 4; i++)
            for (int side = -1; side <= 1; side += 2) {
                int dx2 = odx[i] + (odx[i] == 0 ? side : 0);
                int dy2 = ody[i] + (ody[i] == 0 ? side : 0);
                walk_leap(w, "leap", from, odx[i], ody[i], dx2, dy2);
            }
        break;
    case TC_PAWN: {
        int f = pawn_forward(w->v, from, w->colour);
        walk_leap(w, "push", from, 0, f, 0, 0);
        walk_leap(w, "capture", from, 1, f, 0, 0);
        walk_leap(w, "capture", from, -1, f, 0, 0);
        break;
    }
    default:
        break;
    }
}

static int piece_type_of(char c)
{
    switch (c | 0x20) {
    case 'p': return TC_PAWN;
    case 'n': return TC_KNIGHT;
    case 'b': return TC_BISHOP;
    case 'r': return TC_ROOK;
    case 'q': return TC_QUEEN;
    case 'k': return TC_KING;
    default: return 0;
    }
}

/* Lines of movement of a piece (FEN letter: case gives the colour) from a
 * cell on an empty board: [{kind,cells,joins,capture}]. */
char *EXPORT(tcw_variant_lines)(const tc_variant *v, int cell, int letter)
{
    if (cell < 0 || cell >= tc_variant_cells(v) || !piece_type_of((char)letter))
        return NULL;
    sb s = {0};
    line_walk w = {v, (letter >= 'a' && letter <= 'z') ? TC_BLACK : TC_WHITE, &s, 0};
    sb_puts(&s, "[");
    piece_lines(&w, cell, piece_type_of((char)letter));
    sb_puts(&s, "]");
    return sb_done(&s, NULL);
}

/* ---------------------------------------------------------------- report */

char *EXPORT(tcw_variant_report)(const tc_variant *v)
{
    tc_report *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    tc_report_compute(v, r);
    sb s = {0};
    sb_printf(&s, "{\"orientable\":%s,\"isSurface\":%s,\"euler\":%d,\"boundaries\":%d,\"genus\":%d,",
              r->orientable ? "true" : "false", r->is_surface ? "true" : "false", r->euler, r->boundaries,
              r->genus);
    sb_puts(&s, "\"surface\":");
    sb_str(&s, r->surface);
    sb_printf(&s, ",\"colourBound\":%s,\"fileClasses\":[", r->colour_bound ? "true" : "false");
    int done = 0;
    for (int x = 0; x < r->W; x++) {
        if (r->file_class[x] != x)
            continue;
        sb_puts(&s, done++ ? ",[" : "[");
        for (int y = 0, k = 0; y < r->W; y++)
            if (r->file_class[y] == x)
                sb_printf(&s, k++ ? ",\"%c\"" : "\"%c\"", 'a' + y);
        sb_puts(&s, "]");
    }
    sb_puts(&s, "],\"degenerate\":[");
    for (int c = 0, k = 0; c < r->ncells; c++)
        if (r->degenerate[c]) {
            sb_puts(&s, k++ ? "," : "");
            tcw_cell_str(&s, v, c);
        }
    /* per-cell empty-board destination counts, cells in index order */
    const char *names[4] = {"king", "knight", "bishop", "rook"};
    sb_puts(&s, "],\"reach\":{");
    for (int t = 0; t < 4; t++) {
        sb_printf(&s, "%s\"%s\":[", t ? "," : "", names[t]);
        for (int c = 0; c < r->ncells; c++) {
            int n = t == 0 ? r->king[c].distinct : t == 1 ? r->knight[c].distinct : t == 2 ? r->bishop[c] : r->rook[c];
            sb_printf(&s, c ? ",%d" : "%d", n);
        }
        sb_puts(&s, "]");
    }
    sb_puts(&s, "}}");
    free(r);
    return sb_done(&s, NULL);
}

/* The report as the CLI prints it (`topochess topology`). */
char *EXPORT(tcw_variant_report_text)(const tc_variant *v)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    tc_topology_report(v, f);
    fclose(f);
    return buf;
}

/* ---------------------------------------------------------------- games */

tc_position *EXPORT(tcw_game_new)(const tc_variant *v) { return tc_position_new(v); }
tc_position *EXPORT(tcw_game_clone)(const tc_position *p) { return tc_position_clone(p); }
void EXPORT(tcw_game_free)(tc_position *p) { tc_position_free(p); }

int EXPORT(tcw_game_set_fen)(tc_position *p, const char *fen, tc_error *err)
{
    tcw_clear(err);
    return tc_position_set_fen(p, fen, err);
}

char *EXPORT(tcw_game_fen)(const tc_position *p)
{
    char *buf = malloc(800);
    if (buf)
        tc_position_fen(p, buf, 800);
    return buf;
}

/* One letter per cell in cell order, '.' for an empty cell. */
char *EXPORT(tcw_game_board)(const tc_position *p)
{
    static const char letters[] = ".PNBRQK..pnbrqk";
    int n = tc_variant_cells(tc_position_variant(p));
    char *b = malloc((size_t)n + 1);
    if (!b)
        return NULL;
    for (int c = 0; c < n; c++) {
        int q = tc_piece_at(p, c);
        b[c] = q > 0 && q < 15 ? letters[q] : '.';
    }
    b[n] = 0;
    return b;
}

static const char *kind_name(int k)
{
    switch (k) {
    case TC_MOVE_DOUBLE: return "double";
    case TC_MOVE_EP: return "ep";
    case TC_MOVE_CASTLE_K: return "castle-k";
    case TC_MOVE_CASTLE_Q: return "castle-q";
    default: return "normal";
    }
}

/* {uci,san,from,to,promotion,kind,capture,piece}: p is the position before m. */
void tcw_move_json(sb *s, const tc_position *p, tc_move m)
{
    const tc_variant *v = tc_position_variant(p);
    char uci[16], san[32];
    tc_move_to_uci(p, m, uci);
    tc_move_to_san(p, m, san);
    int kind = TC_MOVE_KIND(m);
    int cap = kind == TC_MOVE_EP ||
              (kind != TC_MOVE_CASTLE_K && kind != TC_MOVE_CASTLE_Q && tc_piece_at(p, TC_MOVE_TO(m)) != 0);
    sb_puts(s, "{\"uci\":");
    sb_str(s, uci);
    sb_puts(s, ",\"san\":");
    sb_str(s, san);
    sb_puts(s, ",\"from\":");
    tcw_cell_str(s, v, TC_MOVE_FROM(m));
    sb_puts(s, ",\"to\":");
    tcw_cell_str(s, v, TC_MOVE_TO(m));
    int pr = TC_MOVE_PROMO(m);
    if (pr)
        sb_printf(s, ",\"promotion\":\"%c\"", " pnbrqk"[pr]);
    else
        sb_puts(s, ",\"promotion\":null");
    sb_printf(s, ",\"kind\":\"%s\",\"capture\":%s,\"check\":%s}", kind_name(kind), cap ? "true" : "false",
              strchr(san, '+') || strchr(san, '#') ? "true" : "false");
}

char *EXPORT(tcw_game_legal)(const tc_position *p)
{
    tc_movelist *l = malloc(sizeof *l);
    if (!l)
        return NULL;
    int n = tc_generate_legal(p, l);
    sb s = {0};
    sb_puts(&s, "[");
    for (int i = 0; i < n; i++) {
        sb_puts(&s, i ? "," : "");
        tcw_move_json(&s, p, l->moves[i]);
    }
    sb_puts(&s, "]");
    free(l);
    return sb_done(&s, NULL);
}

int EXPORT(tcw_game_legal_count)(const tc_position *p)
{
    tc_movelist *l = malloc(sizeof *l);
    if (!l)
        return -1;
    int n = tc_generate_legal(p, l);
    free(l);
    return n;
}

/* Plays a move in SAN or coordinate form; returns the move as JSON (SAN
 * written before it was played), or NULL with the library's message. */
char *EXPORT(tcw_game_play)(tc_position *p, const char *text, tc_error *err)
{
    tcw_clear(err);
    tc_move m;
    if (tc_move_parse(p, text, &m, err))
        return NULL;
    if (!tc_is_legal(p, m)) {
        snprintf(err->msg, sizeof err->msg, "illegal move '%.64s'", text);
        return NULL;
    }
    sb s = {0};
    tcw_move_json(&s, p, m);
    char *out = sb_done(&s, err);
    if (out)
        tc_make_move(p, m);
    return out;
}

/* Takes back the last move; -1 if there is none. */
int EXPORT(tcw_game_undo)(tc_position *p)
{
    if (tc_ply_count(p) <= 0)
        return -1;
    tc_unmake_move(p);
    return 0;
}

const char *tcw_status_name(tc_status st)
{
    switch (st) {
    case TC_CHECKMATE: return "checkmate";
    case TC_STALEMATE: return "stalemate";
    case TC_DRAW_FIFTY: return "fifty-move";
    case TC_DRAW_REPETITION: return "repetition";
    case TC_DRAW_DEAD: return "dead-position";
    default: return "ongoing";
    }
}

const char *tcw_result_of(const tc_position *p, tc_status st)
{
    if (st == TC_ONGOING)
        return "*";
    if (st == TC_CHECKMATE)
        return tc_side_to_move(p) == TC_WHITE ? "0-1" : "1-0";
    return "1/2-1/2";
}
