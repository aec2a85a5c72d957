/* The bottom of the rules library: error values, the eight directions and
 * cell names. Everything else builds on these. */
#include "internal.h"

#include <stdarg.h>
#include <stdio.h>

const int tc_dir_dx[8] = {0, 1, 1, 1, 0, -1, -1, -1};

const int tc_dir_dy[8] = {1, 1, 0, -1, -1, -1, 0, 1};

int tc_dir_index(int dx, int dy)
{
    for (int d = 0; d < 8; d++)
        if (tc_dir_dx[d] == dx && tc_dir_dy[d] == dy)
            return d;
    return -1;
}

void tc_set_error(tc_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

void tc_error_prefix(tc_error *err, const char *prefix)
{
    if (!err)
        return;
    size_t pl = strlen(prefix), ml = strnlen(err->msg, sizeof err->msg - 1);
    if (pl >= sizeof err->msg)
        return;
    if (pl + ml >= sizeof err->msg)
        ml = sizeof err->msg - 1 - pl;
    memmove(err->msg + pl, err->msg, ml);
    memcpy(err->msg, prefix, pl);
    err->msg[pl + ml] = '\0';
}

int tc_cell(const tc_variant *v, int x, int y)
{
    if (x < 0 || y < 0 || x >= v->W || y >= v->H)
        return -1;
    return y * v->W + x;
}

int tc_cell_x(const tc_variant *v, int cell) { return cell % v->W; }

int tc_cell_y(const tc_variant *v, int cell) { return cell / v->W; }

int tc_cell_parse(const tc_variant *v, const char *t)
{
    if (!t || t[0] < 'a' || t[0] > 'a' + v->W - 1)
        return -1;
    int x = t[0] - 'a';
    if (t[1] < '1' || t[1] > '9')
        return -1;
    int r = t[1] - '0';
    if (t[2] >= '0' && t[2] <= '9') {
        r = r * 10 + (t[2] - '0');
        if (t[3] != '\0')
            return -1;
    } else if (t[2] != '\0') {
        return -1;
    }
    if (r < 1 || r > v->H)
        return -1;
    return (r - 1) * v->W + x;
}

void tc_cell_name(const tc_variant *v, int cell, char *buf)
{
    if (cell < 0 || cell >= v->ncells) {
        strcpy(buf, "-");
        return;
    }
    sprintf(buf, "%c%d", 'a' + cell % v->W, cell / v->W + 1);
}
