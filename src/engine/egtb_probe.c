/* The engine's solved endings (see egtb_probe.h). The search calls
 * egtb_score at every node (a cheap piece count first), the engine calls
 * egtb_prepare and egtb_root_move before searching. */
#include "egtb_probe.h"

#include "internal.h"

#include <stdlib.h>

#define CACHE_SETS 32
/* Builds on demand only what takes a moment: every preset's 3-piece tables
 * have at most 100352 entries; a flat 16x16 one (4.7 million, seconds) is
 * left out. */
#define BUILD_MAX_ENTRIES (1u << 20)
/* Dead-position marks made ahead of a search for materials the root's
 * captures reach: up to about a second each (every 3-piece material, the
 * 4-piece ones of the torus and of 8x8 boards with symmetries). */
#define DEAD_PREPARE_MAX (1u << 22)

/// The sets ready for probing, and the names tried and not available (so
/// a missing file is looked for once).
struct egtb_cache {
    const tc_variant *v;
    tc_dead_table *dead; /* dead materials (docs/rules.md section 6), made by the first prepare */
    char path[1024];
    int nsets;
    tc_egtb *sets[CACHE_SETS];
    int nmissing;
    char missing[CACHE_SETS][8];
};

egtb_cache *egtb_cache_new(const tc_variant *v)
{
    egtb_cache *c = calloc(1, sizeof *c);
    if (c)
        c->v = v;
    return c;
}

void egtb_cache_free(egtb_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nsets; i++)
        tc_egtb_free(c->sets[i]);
    tc_dead_table_free(c->dead);
    free(c);
}

void egtb_cache_set_path(egtb_cache *c, const char *dir)
{
    snprintf(c->path, sizeof c->path, "%s", dir ? dir : "");
    c->nmissing = 0; /* files may be there now */
}

static const tc_egtb *find(const egtb_cache *c, const tc_position *p)
{
    for (int i = 0; i < c->nsets; i++)
        if (tc_egtb_has(c->sets[i], p))
            return c->sets[i];
    return NULL;
}

static bool missing(const egtb_cache *c, const char *norm)
{
    for (int i = 0; i < c->nmissing; i++)
        if (!strcmp(c->missing[i], norm))
            return true;
    return false;
}

/* Makes the ending `name` ready: a file from the path, else (3 pieces or
 * fewer) a solve. */
static void ready(egtb_cache *c, const char *name, int pieces)
{
    char norm[8];
    if (tc_egtb_normalise(name, norm, NULL) || missing(c, norm) || c->nsets == CACHE_SETS)
        return;
    for (int i = 0; i < c->nsets; i++)
        if (!strcmp(tc_egtb_name(c->sets[i]), norm))
            return;
    tc_error err;
    tc_egtb *t = NULL;
    if (c->path[0]) {
        char file[128], full[1200];
        tc_egtb_file_name(c->v, norm, file, sizeof file);
        snprintf(full, sizeof full, "%s/%s", c->path, file);
        t = tc_egtb_load(c->v, full, &err);
    }
    if (!t && pieces <= 3) {
        tc_egtb_options opt = {.threads = 2, .max_entries = BUILD_MAX_ENTRIES};
        t = tc_egtb_solve(c->v, norm, &opt, &err);
    }
    if (t)
        c->sets[c->nsets++] = t;
    else if (c->nmissing < CACHE_SETS)
        snprintf(c->missing[c->nmissing++], 8, "%s", norm);
}

void egtb_prepare(egtb_cache *c, const tc_position *root)
{
    char name[16];
    if (!c)
        return;
    if (!c->dead)
        c->dead = tc_dead_table_new(c->v, NULL); /* NULL: the rules' own dead cases */
    /* the root's own material (and every smaller one its captures reach),
     * then the other materials captures reach from the root that take a
     * moment, each marked once per board: the search then only reads them */
    tc_dead_position(c->dead, root);
    tc_dead_table_prepare(c->dead, root, DEAD_PREPARE_MAX);
    if (!tc_egtb_material_of(root, name) || find(c, root))
        return;
    int pieces = (int)strlen(name);
    ready(c, name, pieces);
    if (pieces == 4 && !find(c, root)) {
        /* no file: the 3-piece endings its captures reach still help */
        const char *second = strchr(name + 1, 'K');
        for (int i = 1; name[i]; i++) {
            if (name + i == second)
                continue;
            char sub[8];
            int n = 0;
            for (int j = 0; name[j]; j++)
                if (j != i)
                    sub[n++] = name[j];
            sub[n] = '\0';
            ready(c, sub, 3);
        }
    }
}

bool egtb_score(const egtb_cache *c, const tc_position *p, int ply, int *score)
{
    if (!c)
        return false;
    tc_bits all = p->occ[0];
    bits_or(&all, &p->occ[1]);
    if (bits_count(&all) > TC_EGTB_MAX_PIECES)
        return false;
    /* a dead position is a draw, whatever the material says */
    if (tc_dead_position_known(c->dead, p)) {
        *score = 0;
        return true;
    }
    if (!c->nsets)
        return false;
    const tc_egtb *t = find(c, p);
    tc_egtb_result r;
    if (!t || tc_egtb_probe(t, p, &r))
        return false;
    *score = r.wdl > 0 ? TC_SCORE_MATE - ply - r.plies : r.wdl < 0 ? -(TC_SCORE_MATE - ply - r.plies) : 0;
    return true;
}

tc_move egtb_root_move(const egtb_cache *c, tc_position *root, int *score)
{
    const tc_egtb *t = c ? find(c, root) : NULL;
    if (!t)
        return 0;
    tc_egtb_result r;
    tc_move m = tc_egtb_best_move(t, root, &r);
    if (m)
        *score = r.wdl > 0 ? TC_SCORE_MATE - r.plies : r.wdl < 0 ? -(TC_SCORE_MATE - r.plies) : 0;
    return m;
}

int egtb_root_pv(const egtb_cache *c, tc_position *root, tc_move *pv, int max)
{
    const tc_egtb *t = c ? find(c, root) : NULL;
    int n = 0;
    while (t && n < max) {
        tc_egtb_result r;
        tc_move m = tc_egtb_best_move(t, root, &r);
        if (!m)
            break;
        pv[n++] = m;
        tc_make_move(root, m);
        t = find(c, root); /* a capture moves to a smaller ending */
    }
    for (int i = 0; i < n; i++)
        tc_unmake_move(root);
    return n;
}
