/* Topology report (docs/rules.md section 10): the figures as data, computed from
 * a variant's step tables (report.c), so that tests can check them and the
 * printer in report_text.c only formats them. Internal; the public entry point is
 * tc_topology_report in topochess.h. */
#ifndef TC_REPORT_H
#define TC_REPORT_H

#include "internal.h"

#define TC_REPORT_MAX_BISHOPS 16
#define TC_REPORT_MAX_CONES 32

/// How one piece's eight steps or leaps from a cell on an empty board turn
/// out: how many leave the board, land on the cell itself, or repeat a cell
/// already counted; `distinct` is what is left.
typedef struct tc_report_moves {
    uint8_t distinct, off, self, dup;
} tc_report_moves;

/// A vertical ray from a king's start cell on an empty board, walked until
/// the first non-pawn piece of the start position, the edge, or the king's
/// own cell. `cells` holds the cells passed, the faced cell last.
typedef struct tc_report_look {
    int len;
    int cells[TC_MAX_CELLS];
    int faced; /* cell of the piece faced, or -1 */
    int end;   /* 0 faced a piece, 1 left the board, 2 came back to the king */
} tc_report_look;

/// Everything the report prints. Cells are y * W + x; -1 means none.
typedef struct tc_report {
    int W, H, ncells;

    /* the surface made by gluing the cells' sides as the orthogonal steps
     * glue them (each side split at its midpoint, so that a side glued to
     * itself is still a proper complex) */
    int orientable;
    /* when not orientable: a closed walk of orthogonal steps (first cell
     * repeated at the end) that brings a cell back mirrored */
    int flip_loop[2 * TC_MAX_CELLS + 1], flip_loop_len;
    int is_surface;          /* every side glued to at most one other, both ways */
    int euler;               /* V - E + F */
    int boundaries;          /* boundary circles */
    int genus;               /* handles (orientable) or crosscaps */
    char surface[80];
    int ncones;              /* interior points where the angle is not 360 */
    int cone_angle[TC_REPORT_MAX_CONES];
    int cone_cells[TC_REPORT_MAX_CONES][4]; /* cells meeting there, -1 padded */

    /* per cell, empty board */
    tc_report_moves king[TC_MAX_CELLS], knight[TC_MAX_CELLS];
    int16_t bishop[TC_MAX_CELLS], rook[TC_MAX_CELLS];
    uint8_t degenerate[TC_MAX_CELLS]; /* bit 0 king, bit 1 knight */
    int ndegenerate;

    /* colour (x + y) mod 2; when not bound, one bishop move that changes it */
    int colour_bound;
    int colour_path[TC_MAX_CELLS + 1], colour_path_len;

    /* file classes of vertical rook rays: the smallest file of each class */
    int file_class[TC_MAX_FILES];
    int nfile_classes;

    /* what each king sees going N (0) and S (1) */
    int king_cell[2];
    tc_report_look look[2][2];

    /* bishops of the start position: one-move and any-move reach */
    int nbishops;
    int bishop_cell[TC_REPORT_MAX_BISHOPS];
    int bishop_reach1[TC_REPORT_MAX_BISHOPS];
    int bishop_reach_all[TC_REPORT_MAX_BISHOPS];
} tc_report;

/* The colour of a cell, (file + rank) mod 2: 0 dark (a1), 1 light. */
static inline int tc_report_cell_colour(const tc_variant *v, int c) { return (c % v->W + c / v->W) & 1; }

/* report.c: fills r from the variant's tables. r is large: allocate it. */
void tc_report_compute(const tc_variant *v, tc_report *r);
/* report_text.c: prints a computed report. */
void tc_report_write(const tc_variant *v, const tc_report *r, FILE *out);

#endif
