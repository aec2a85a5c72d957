/* topochess: the topology report's headline figures as data, for programs
 * that show them (the web server's JSON, the browser module) rather than
 * print the whole report (tc_topology_report in topochess.h). */
#ifndef TOPOCHESS_REPORT_H
#define TOPOCHESS_REPORT_H

#include "topochess.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What docs/rules.md section 10 computes about a board, in brief. Every figure
/// comes from the variant's step tables, not from its name.
typedef struct tc_topology_figures {
    int orientable;   /* 1 if no loop of orthogonal steps comes back mirrored */
    int is_surface;   /* 1 if every cell side is glued to at most one other */
    int euler;        /* Euler characteristic V - E + F */
    int boundaries;   /* boundary circles */
    char surface[80]; /* "Klein bottle", "cylinder", ... */
    int colour_bound; /* 1 if no bishop move changes the colour (x + y) mod 2 */
    int nfile_classes;                /* classes of files joined by vertical rook lines */
    int file_class[TC_MAX_FILES];     /* per file: the smallest file of its class */
} tc_topology_figures;

/* Fills out from the variant; 0 on success, -1 (err set) if memory runs out. */
int tc_topology_figures_compute(const tc_variant *v, tc_topology_figures *out, tc_error *err);


/// "How this board works" as data: what a newcomer needs, from the
/// variant's own tables and start position (the server writes it on every
/// variant page). Cells are cell indices (tc_cell_name names them).
typedef struct tc_board_guide {
    struct {
        int join;          /* TC_JOIN_* */
        int from, to;      /* one orthogonal step that crosses it */
        int dx, dy;        /* the step's direction */
    } joins[4];
    int njoins;
    struct {
        int colour;        /* 0 White, 1 Black */
        int rank;          /* 1-based rank of the start position holding the pawns */
        int dy;            /* +1 towards higher ranks, -1 lower, 0 no push possible */
        int promotion;     /* 1-based rank where they promote (the enemy king's start rank) */
    } pawns[2 * TC_MAX_RANKS];
    int npawns;
    int castling[2];       /* per colour: 1 O-O, 2 O-O-O, 3 both, 0 none (king on e, that rook on h or a) */
    int reach_lo[3], reach_hi[3];      /* king, knight, bishop: fewest and most cells from one cell */
    int flat_lo[3], flat_hi[3];        /* the same on this size with no joins (all 0 if it is no variant) */
    int has_flat;
} tc_board_guide;

/* Fills out from the variant; 0, or -1 (err set) if memory runs out. */
int tc_board_guide_compute(const tc_variant *v, tc_board_guide *out, tc_error *err);

#ifdef __cplusplus
}
#endif
#endif
