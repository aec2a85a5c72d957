/* "How this board works" on a variant page, written from the variant's
 * tables (tc_board_guide_compute) and the solved endings of its board. */
#ifndef SRV_HOWTO_H
#define SRV_HOWTO_H

#include "topochess_report.h"

/// One solved ending of the pages folder's endings.txt (tools/gen-endings).
typedef struct srv_ending {
    char size[16], topology[64], ending[8], won[16];
    int possible, longest;
} srv_ending;

/* Heap HTML, NULL if memory runs out. topology is the page's topology text
 * ("files wrap, ranks twist 11"), matched against the endings' lines. */
char *srv_render_howto(const tc_variant *v, const char *topology, const tc_topology_figures *fig,
                       const srv_ending *endings, int nendings);

#endif
