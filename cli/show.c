/* Board drawing: pieces, coordinates and the board's joins, all read from
 * the step function so that any topology is drawn truthfully. */
#include "cli.h"
#include "topochess_endgame.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/// How one rank boundary (or an end edge) is glued, found by stepping
/// vertically from every file of the rank next to it.
typedef enum {
    EDGE_OPEN,    /* steps leave the board */
    EDGE_PLAIN,   /* lands on the next rank at the same file */
    EDGE_SEAM,    /* lands on the next rank at another file (a twist) */
    EDGE_FOLD,    /* lands back on the same rank */
    EDGE_IRREGULAR
} edge_kind;

/// The characters one drawing uses: ASCII or Unicode box drawing.
typedef struct glyphs {
    const char *corner_tl, *corner_tr, *corner_bl, *corner_br;
    const char *hline, *vline;
    const char *seam_l, *seam_r, *seam;
    const char *wrap;
    const char *empty;
    int unicode;
} glyphs;

static const glyphs ascii_glyphs = {"+", "+", "+", "+", "-", "|", "+", "+", "=", "~", ".", 0};
static const glyphs unicode_glyphs = {"\u250c", "\u2510", "\u2514", "\u2518", "\u2500", "\u2502",
                                      "\u255e", "\u2561", "\u2550", "~",      "\u00b7", 1};

static const char *piece_text(int piece, const glyphs *g)
{
    /* White glyphs start at U+2654 (king), black at U+265A; types here run
     * pawn..king, so the tables are in that order. */
    static const char *const white_uni[] = {"", "\u2659", "\u2658", "\u2657", "\u2656", "\u2655", "\u2654"};
    static const char *const black_uni[] = {"", "\u265f", "\u265e", "\u265d", "\u265c", "\u265b", "\u265a"};
    static const char *const white_ascii[] = {"", "P", "N", "B", "R", "Q", "K"};
    static const char *const black_ascii[] = {"", "p", "n", "b", "r", "q", "k"};
    int t = TC_TYPE(piece);
    if (!piece || t < TC_PAWN || t > TC_KING)
        return g->empty;
    if (TC_COLOUR(piece) == TC_WHITE)
        return g->unicode ? white_uni[t] : white_ascii[t];
    return g->unicode ? black_uni[t] : black_ascii[t];
}

/* Classifies the crossing from rank index y in vertical direction dy. */
static edge_kind classify_edge(const tc_variant *v, int y, int dy)
{
    int w = tc_variant_width(v), h = tc_variant_height(v);
    int ny = (y + dy + h) % h;
    int off = 0, plain = 0, seam = 0, fold = 0;
    for (int x = 0; x < w; x++) {
        tc_step_result r = tc_step(v, tc_cell(v, x, y), 0, dy);
        if (r.cell < 0) {
            off++;
            continue;
        }
        int rx = tc_cell_x(v, r.cell), ry = tc_cell_y(v, r.cell);
        if (ry == y && ry != ny)
            fold++;
        else if (ry == ny && rx == x)
            plain++;
        else if (ry == ny)
            seam++;
    }
    if (off == w)
        return EDGE_OPEN;
    if (plain == w)
        return EDGE_PLAIN;
    if (seam > 0 && seam + plain == w)
        return EDGE_SEAM;
    if (fold == w)
        return EDGE_FOLD;
    return EDGE_IRREGULAR;
}

static void put_repeat(FILE *out, const char *s, int n)
{
    for (int i = 0; i < n; i++)
        fputs(s, out);
}

/* A horizontal line across the board from marker column to marker column. */
static void draw_hline(FILE *out, int label_w, int width, const char *l, const char *fill,
                       const char *r, const char *note)
{
    fprintf(out, "%*s %s", label_w, "", l);
    put_repeat(out, fill, 2 * width + 1);
    fputs(r, out);
    if (note && *note)
        fprintf(out, "  %s", note);
    fputc('\n', out);
}

static void draw_files(FILE *out, const tc_variant *v, int label_w, int white_bottom)
{
    int w = tc_variant_width(v);
    fprintf(out, "%*s  ", label_w, "");
    for (int i = 0; i < w; i++) {
        int x = white_bottom ? i : w - 1 - i;
        fprintf(out, " %c", 'a' + x);
    }
    fputc('\n', out);
}

/* The end edge shown at the top (top = 1) or bottom of the drawing. */
static void draw_end_edge(FILE *out, const tc_variant *v, int label_w, int white_bottom, int top,
                          const glyphs *g)
{
    int w = tc_variant_width(v), h = tc_variant_height(v);
    /* White at the bottom puts rank H (stepping N) on top. */
    int at_high = white_bottom ? top : !top;
    int y = at_high ? h - 1 : 0, dy = at_high ? 1 : -1;
    int other = at_high ? 1 : h;
    edge_kind k = classify_edge(v, y, dy);
    char note[96] = "";
    switch (k) {
    case EDGE_OPEN: break;
    case EDGE_PLAIN: snprintf(note, sizeof note, "rank %d joins rank %d", y + 1, other); break;
    case EDGE_SEAM:
        snprintf(note, sizeof note, "rank %d joins rank %d with a twist (see below)", y + 1, other);
        break;
    case EDGE_FOLD: snprintf(note, sizeof note, "rank %d is folded onto itself (see below)", y + 1); break;
    case EDGE_IRREGULAR: snprintf(note, sizeof note, "rank %d has irregular joins", y + 1); break;
    }
    const char *l = top ? g->corner_tl : g->corner_bl;
    const char *r = top ? g->corner_tr : g->corner_br;
    if (k == EDGE_SEAM)
        draw_hline(out, label_w, w, g->seam_l, g->seam, g->seam_r, note);
    else
        draw_hline(out, label_w, w, l, g->hline, r, note);
}

/* The marker at one end of a rank: `~` when stepping off that side lands
 * on the other end of the same rank. */
static const char *rank_end_marker(const tc_variant *v, int y, int east, const glyphs *g)
{
    int w = tc_variant_width(v);
    int x = east ? w - 1 : 0;
    tc_step_result r = tc_step(v, tc_cell(v, x, y), east ? 1 : -1, 0);
    if (r.cell >= 0 && tc_cell_y(v, r.cell) == y && tc_cell_x(v, r.cell) == w - 1 - x)
        return g->wrap;
    return g->vline;
}

static void draw_rank(FILE *out, const tc_position *p, int y, int label_w, int white_bottom,
                      const glyphs *g)
{
    const tc_variant *v = tc_position_variant(p);
    int w = tc_variant_width(v);
    /* The left side of the drawing is file a with White at the bottom. */
    fprintf(out, "%*d %s", label_w, y + 1, rank_end_marker(v, y, !white_bottom, g));
    for (int i = 0; i < w; i++) {
        int x = white_bottom ? i : w - 1 - i;
        fprintf(out, " %s", piece_text(tc_piece_at(p, tc_cell(v, x, y)), g));
    }
    fprintf(out, " %s %d\n", rank_end_marker(v, y, white_bottom, g), y + 1);
}

/* Prints "label" then items, several per line, separated by commas. */
static void note_pairs(FILE *out, const char *label, char items[][24], int n)
{
    fprintf(out, "%s\n", label);
    for (int i = 0; i < n; i++) {
        if (i % 4 == 0)
            fputs("  ", out);
        fputs(items[i], out);
        if (i + 1 < n)
            fputs(i % 4 == 3 ? ",\n" : ", ", out);
    }
    fputc('\n', out);
}

/* Lists where the vertical step from each file of rank y lands. */
static void note_edge(FILE *out, const tc_variant *v, int y, int dy, const char *label, int arrow)
{
    int w = tc_variant_width(v);
    char items[TC_MAX_FILES][24];
    for (int x = 0; x < w; x++) {
        char from[8], to[8] = "off";
        tc_step_result r = tc_step(v, tc_cell(v, x, y), 0, dy);
        tc_cell_name(v, tc_cell(v, x, y), from);
        if (r.cell >= 0)
            tc_cell_name(v, r.cell, to);
        if (arrow)
            snprintf(items[x], sizeof items[x], "%s %s -> %s", from, dy > 0 ? "N" : "S", to);
        else
            snprintf(items[x], sizeof items[x], "%s joins %s", from, to);
    }
    note_pairs(out, label, items, w);
}

/* Notes below the board: what the markers mean and which cells meet. */
static void draw_join_notes(FILE *out, const tc_variant *v, const glyphs *g)
{
    int w = tc_variant_width(v), h = tc_variant_height(v);
    int wrapped = 0;
    for (int y = 0; y < h; y++)
        wrapped += rank_end_marker(v, y, 1, g) == g->wrap;
    if (wrapped)
        fprintf(out, "%s: file %c and file a are neighbours%s\n", g->wrap, 'a' + w - 1,
                wrapped == h ? " on every rank" : " on the marked ranks");
    char label[96];
    for (int y = 0; y < h; y++) {
        edge_kind k = classify_edge(v, y, 1);
        int up = (y + 1) % h;
        if (k == EDGE_SEAM) {
            /* Named from the upper rank stepping S, as the seeds write it. */
            snprintf(label, sizeof label, "twist (%s%s%s) between ranks %d and %d, files mirrored:",
                     g->seam, g->seam, g->seam, y + 1, up + 1);
            note_edge(out, v, up, -1, label, 0);
        } else if (k == EDGE_IRREGULAR && y + 1 < h) {
            snprintf(label, sizeof label, "irregular join between ranks %d and %d:", y + 1, up + 1);
            note_edge(out, v, y, 1, label, 0);
        }
    }
    if (classify_edge(v, h - 1, 1) == EDGE_FOLD) {
        snprintf(label, sizeof label, "fold: stepping N off rank %d lands back on it, mirrored, going S:", h);
        note_edge(out, v, h - 1, 1, label, 1);
    }
    if (classify_edge(v, 0, -1) == EDGE_FOLD) {
        snprintf(label, sizeof label, "fold: stepping S off rank 1 lands back on it, mirrored, going N:");
        note_edge(out, v, 0, -1, label, 1);
    }
}

/* The status, dead positions by the board's solved endings when the
 * position could be one (pawnless, at most 4 pieces: a table made for the
 * drawing, a moment's work). */
static tc_status status_of(const tc_position *p)
{
    const tc_variant *v = tc_position_variant(p);
    int men = 0;
    for (int c = 0; c < tc_variant_cells(v) && men <= 4; c++) {
        int pc = tc_piece_at(p, c);
        men += pc ? (TC_TYPE(pc) == TC_PAWN ? 5 : 1) : 0;
    }
    if (men > 4)
        return tc_position_status(p);
    tc_error err;
    tc_dead_table *d = tc_dead_table_new(v, &err);
    tc_status st = tc_game_status(d, p);
    tc_dead_table_free(d);
    return st;
}

static void draw_state(const tc_position *p, FILE *out)
{
    const tc_variant *v = tc_position_variant(p);
    int cr = tc_castling(p), ep = tc_ep_cell(p);
    char castle[8] = "-", epname[8] = "-";
    int n = 0;
    for (int i = 0; i < 4; i++)
        if (cr & (1 << i))
            castle[n++] = "KQkq"[i];
    if (n)
        castle[n] = '\0';
    if (ep >= 0)
        tc_cell_name(v, ep, epname);
    const char *side = tc_side_to_move(p) == TC_WHITE ? "White" : "Black";
    char state[64];
    tc_status st = status_of(p);
    if (st == TC_CHECKMATE)
        snprintf(state, sizeof state, "checkmate: %s wins", tc_side_to_move(p) == TC_WHITE ? "Black" : "White");
    else if (st == TC_STALEMATE)
        snprintf(state, sizeof state, "stalemate: draw");
    else if (st != TC_ONGOING)
        snprintf(state, sizeof state, "%s", tc_status_text(st));
    else
        snprintf(state, sizeof state, "%s", tc_in_check(p) ? "in check" : "not in check");
    fprintf(out, "%s to move; castling: %s; en passant: %s; %s\n", side, castle, epname, state);
    tc_move last = tc_last_move(p);
    if (last) {
        /* SAN needs the position before the move. */
        tc_position *before = tc_position_clone(p);
        if (before) {
            char san[32];
            tc_unmake_move(before);
            tc_move_to_san(before, last, san);
            fprintf(out, "last move: %d.%s %s\n", tc_fullmove_number(before),
                    tc_side_to_move(before) == TC_WHITE ? "" : "..", san);
            tc_position_free(before);
        }
    }
}

/* The coordinates, the edges and the ranks with the twist lines between
 * them: the part of the drawing that both views share. */
static void draw_grid(const tc_position *p, FILE *out, int white_bottom, const glyphs *g)
{
    const tc_variant *v = tc_position_variant(p);
    int w = tc_variant_width(v), h = tc_variant_height(v);
    int label_w = h >= 10 ? 2 : 1;

    draw_files(out, v, label_w, white_bottom);
    draw_end_edge(out, v, label_w, white_bottom, 1, g);
    for (int i = 0; i < h; i++) {
        int y = white_bottom ? h - 1 - i : i;
        draw_rank(out, p, y, label_w, white_bottom, g);
        if (i + 1 == h)
            break;
        /* The boundary between this rank and the next one drawn. */
        int lower = white_bottom ? y - 1 : y;
        if (classify_edge(v, lower, 1) == EDGE_SEAM) {
            char note[48];
            snprintf(note, sizeof note, "twist between ranks %d and %d", lower + 1, lower + 2);
            draw_hline(out, label_w, w, g->seam_l, g->seam, g->seam_r, note);
        }
    }
    draw_end_edge(out, v, label_w, white_bottom, 0, g);
}

void cli_draw_board(const tc_position *p, FILE *out, int white_bottom, int unicode)
{
    const tc_variant *v = tc_position_variant(p);
    const glyphs *g = unicode ? &unicode_glyphs : &ascii_glyphs;
    draw_grid(p, out, white_bottom, g);
    draw_files(out, v, tc_variant_height(v) >= 10 ? 2 : 1, white_bottom);
    draw_join_notes(out, v, g);
    draw_state(p, out);
}

void cli_draw_board_compact(const tc_position *p, FILE *out, int white_bottom, int unicode)
{
    draw_grid(p, out, white_bottom, unicode ? &unicode_glyphs : &ascii_glyphs);
}

int cli_board_lines(const tc_position *p)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return 40;
    cli_draw_board(p, f, 1, 0);
    fclose(f);
    int n = 0;
    for (size_t i = 0; i < len; i++)
        n += text[i] == '\n';
    free(text);
    return n;
}

int cmd_show(cli_ctx *c)
{
    char topo[64];
    const tc_variant_def *d = tc_variant_def_of(c->variant);
    tc_variant_topology_text(c->variant, topo, sizeof topo);
    printf("%s (%s), %dx%d: %s\n", d->title[0] ? d->title : d->name, d->name, d->width, d->height,
           topo);
    cli_draw_board(c->pos, stdout, 1, !c->ascii && isatty(STDOUT_FILENO));
    cli_print_check(c->pos, stdout, 1);
    char fen[800];
    tc_position_fen(c->pos, fen, sizeof fen);
    printf("FEN: %s\n", fen);
    return 0;
}
