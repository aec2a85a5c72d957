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
#include "topochess.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"
#include "topochess_explain.h"

#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__wasm__)
#define EXPORT(name) __attribute__((export_name(#name))) name
#define IMPORT(name) __attribute__((import_module("env"), import_name(#name)))
#else /* a native build (fuzz/fuzz_wasm.c) supplies the two host functions */
#define EXPORT(name) name
#define IMPORT(name)
#endif

IMPORT(tc_host_info) void tc_host_info(const char *json, size_t len);
IMPORT(tc_host_poll) int tc_host_poll(void);

/* ---------------------------------------------------------------- text builder */

/// A growing NUL-terminated string; `oom` latches the first failed growth.
typedef struct {
    char *b;
    size_t n, cap;
    int oom;
} sb;

static int sb_grow(sb *s, size_t more)
{
    if (s->oom)
        return -1;
    if (s->n + more + 1 <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->n + more + 1)
        cap *= 2;
    char *b = realloc(s->b, cap);
    if (!b) {
        s->oom = 1;
        return -1;
    }
    s->b = b;
    s->cap = cap;
    return 0;
}

static void sb_putn(sb *s, const char *t, size_t len)
{
    if (sb_grow(s, len))
        return;
    memcpy(s->b + s->n, t, len);
    s->n += len;
    s->b[s->n] = 0;
}

static void sb_puts(sb *s, const char *t) { sb_putn(s, t, strlen(t)); }

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void sb_printf(sb *s, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k < sizeof tmp) {
        sb_putn(s, tmp, (size_t)k);
        return;
    }
    if (sb_grow(s, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(s->b + s->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    s->n += (size_t)k;
}

/* A JSON string literal (or null for NULL). */
static void sb_str(sb *s, const char *t)
{
    if (!t) {
        sb_puts(s, "null");
        return;
    }
    sb_putn(s, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)t; *c; c++) {
        if (*c == '"' || *c == '\\') {
            char e[2] = {'\\', (char)*c};
            sb_putn(s, e, 2);
        } else if (*c < 0x20) {
            sb_printf(s, "\\u%04x", *c);
        } else {
            sb_putn(s, (const char *)c, 1);
        }
    }
    sb_putn(s, "\"", 1);
}

/* Hands the text to the caller, or NULL (and frees it) if memory ran out. */
static char *sb_done(sb *s, tc_error *err)
{
    if (s->oom || !s->b) {
        free(s->b);
        if (err)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    return s->b;
}

/* ---------------------------------------------------------------- memory */

void *EXPORT(tcw_malloc)(size_t n) { return malloc(n ? n : 1); }
void EXPORT(tcw_free)(void *p) { free(p); }

/* A tc_error for the host to pass to failing calls; msg is at offset 0. */
tc_error *EXPORT(tcw_error_new)(void) { return calloc(1, sizeof(tc_error)); }

static void clear(tc_error *err)
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
    clear(err);
    tc_variant_def def;
    if (tc_preset_find(name, &def, err))
        return NULL;
    return tc_variant_new(&def, err);
}

tc_variant *EXPORT(tcw_variant_frontmatter)(const char *text, size_t len, tc_error *err)
{
    clear(err);
    tc_variant_def def;
    if (tc_frontmatter_parse(text, len, &def, err))
        return NULL;
    return tc_variant_new(&def, err);
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
 * with the step function as RULES.md section 4 moves the pieces; the unit
 * tests hold them against tc_piece_lines and the report's reach counts. */
typedef struct {
    const tc_variant *v;
    int colour;
    sb *s;
    int nlines;
} line_walk;

static void cell_str(sb *s, const tc_variant *v, int c)
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
        cell_str(s, w->v, cells[i]);
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
 * enemy back rank before the pawn's own (RULES.md section 4). */
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
            cell_str(&s, v, c);
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
    clear(err);
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
static void move_json(sb *s, const tc_position *p, tc_move m)
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
    cell_str(s, v, TC_MOVE_FROM(m));
    sb_puts(s, ",\"to\":");
    cell_str(s, v, TC_MOVE_TO(m));
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
        move_json(&s, p, l->moves[i]);
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
    clear(err);
    tc_move m;
    if (tc_move_parse(p, text, &m, err))
        return NULL;
    if (!tc_is_legal(p, m)) {
        snprintf(err->msg, sizeof err->msg, "illegal move '%.64s'", text);
        return NULL;
    }
    sb s = {0};
    move_json(&s, p, m);
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

static const char *status_name(tc_status st)
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

static const char *result_of(const tc_position *p, tc_status st)
{
    if (st == TC_ONGOING)
        return "*";
    if (st == TC_CHECKMATE)
        return tc_side_to_move(p) == TC_WHITE ? "0-1" : "1-0";
    return "1/2-1/2";
}

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
    cell_str(s, v, path->from);
    for (int i = 0; i < path->len; i++) {
        sb_puts(s, ",");
        cell_str(s, v, path->cells[i]);
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

/* {status,text,result,check,turn,checkers:[lines],repetitions,halfmove,fullmove,ply} */
char *EXPORT(tcw_game_status)(const tc_position *p)
{
    tc_status st = tc_position_status(p);
    int side = tc_side_to_move(p);
    sb s = {0};
    sb_printf(&s, "{\"status\":\"%s\",\"text\":", status_name(st));
    sb_str(&s, tc_status_text(st));
    sb_printf(&s, ",\"result\":\"%s\",\"check\":%s,\"turn\":\"%c\",\"checkLines\":", result_of(p, st),
              tc_in_check(p) ? "true" : "false", side == TC_WHITE ? 'w' : 'b');
    if (tc_in_check(p))
        attack_lines(&s, p, tc_king_cell(p, side), 1 - side);
    else
        sb_puts(&s, "[]");
    sb_puts(&s, ",\"king\":");
    int k = tc_king_cell(p, side);
    if (k >= 0)
        cell_str(&s, tc_position_variant(p), k);
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
    tc_egtb_options opt = {1, NULL, 1u << 21};
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
    clear(err);
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
    sb_puts(&s, ",\"move\":");
    if (x->move && tc_is_legal(p, x->move))
        move_json(&s, p, x->move);
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
            cell_str(&s, v, cells[i]);
        else
            sb_puts(&s, "null");
    }
    if (x->piece)
        sb_printf(&s, ",\"piece\":\"%c\"", piece_letter(x->piece));
    else
        sb_puts(&s, ",\"piece\":null");
    sb_printf(&s, ",\"status\":\"%s\",\"candidates\":[",
              x->why == TC_WHY_GAME_OVER ? status_name(x->status) : "ongoing");
    for (int i = 0; i < x->ncandidates && i < TC_EXPLAIN_CANDIDATES; i++) {
        sb_puts(&s, i ? "," : "");
        move_json(&s, p, x->candidates[i]);
    }
    sb_puts(&s, "],\"blocked\":");
    if (x->why == TC_WHY_CANNOT_REACH && x->blocked.len > 0)
        path_json(&s, p, &x->blocked);
    else
        sb_puts(&s, "null");
    sb_puts(&s, ",\"blocker\":");
    if (x->why == TC_WHY_CANNOT_REACH && x->blocker >= 0)
        cell_str(&s, v, x->blocker);
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
        move_json(&s, q, m);
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
    clear(err);
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
