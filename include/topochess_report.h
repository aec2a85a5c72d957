/* topochess: the topology report's headline figures as data, for programs
 * that show them (the web server's JSON, the browser module) rather than
 * print the whole report (tc_topology_report in topochess.h). */
#ifndef TOPOCHESS_REPORT_H
#define TOPOCHESS_REPORT_H

#include "topochess.h"

#ifdef __cplusplus
extern "C" {
#endif

/// What RULES.md section 10 computes about a board, in brief. Every figure
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

#ifdef __cplusplus
}
#endif
#endif
