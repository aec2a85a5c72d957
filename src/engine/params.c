/* The search's tunable parameters (SEARCH_PARAMS in search.h): their
 * descriptions, setting them on an engine, and the reduction table two of
 * them shape. */
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define SP_INFO(id, name, def, lo, hi, what) {name, def, lo, hi, what},
static const tc_param_info params[SP_COUNT] = {SEARCH_PARAMS(SP_INFO)};
#undef SP_INFO

/* Late-move reductions by depth and move number: base + ln d ln m / div,
 * both in hundredths of a ply. */
static void make_lmr(tc_engine *e)
{
    double base = e->sp[SP_LMR_BASE] / 100.0, div = e->sp[SP_LMR_DIV] / 100.0;
    for (int d = 1; d < 64; d++)
        for (int m = 1; m < 64; m++) {
            double r = base + log((double)d) * log((double)m) / div;
            e->lmr[d][m] = (int8_t)(r < 63 ? r : 63);
        }
}

void tc_engine_reset_params(tc_engine *e)
{
    for (int i = 0; i < SP_COUNT; i++)
        e->sp[i] = params[i].def;
    make_lmr(e);
}

const tc_param_info *tc_engine_param_info(int i) { return i >= 0 && i < SP_COUNT ? &params[i] : NULL; }

static int find(const char *name)
{
    for (int i = 0; i < SP_COUNT; i++)
        if (!strcmp(params[i].name, name))
            return i;
    return -1;
}

int tc_engine_set_param(tc_engine *e, const char *name, int value, tc_error *err)
{
    int i = find(name);
    if (i < 0) {
        snprintf(err->msg, sizeof err->msg, "no search parameter '%.64s'", name);
        return -1;
    }
    if (value < params[i].min || value > params[i].max) {
        snprintf(err->msg, sizeof err->msg, "%s takes %d to %d, got %d", params[i].name, params[i].min,
                 params[i].max, value);
        return -1;
    }
    e->sp[i] = value;
    if (i == SP_LMR_BASE || i == SP_LMR_DIV)
        make_lmr(e);
    return 0;
}

int tc_engine_get_param(const tc_engine *e, const char *name, int *value)
{
    int i = find(name);
    if (i < 0)
        return -1;
    *value = e->sp[i];
    return 0;
}
