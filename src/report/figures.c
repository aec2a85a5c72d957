/* The report's headline figures as data (include/topochess_report.h). */
#include "report.h"
#include "topochess_report.h"

#include <stdlib.h>
#include <string.h>

int tc_topology_figures_compute(const tc_variant *v, tc_topology_figures *out, tc_error *err)
{
    memset(out, 0, sizeof *out);
    tc_report *r = malloc(sizeof *r);
    if (!r) {
        tc_set_error(err, "topology figures: out of memory");
        return -1;
    }
    tc_report_compute(v, r);
    out->orientable = r->orientable;
    out->is_surface = r->is_surface;
    out->euler = r->euler;
    out->boundaries = r->boundaries;
    snprintf(out->surface, sizeof out->surface, "%s", r->surface);
    out->colour_bound = r->colour_bound;
    out->nfile_classes = r->nfile_classes;
    for (int x = 0; x < r->W && x < TC_MAX_FILES; x++)
        out->file_class[x] = r->file_class[x];
    free(r);
    return 0;
}
