/* Pieces shared by the UCI and CECP front ends. */
#include "protocols.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *proto_clip(const char *s, char *buf, size_t size)
{
    size_t n = strlen(s), keep = PROTO_ECHO_MAX;
    if (keep > size - 1)
        keep = size - 1;
    if (n <= keep) {
        memcpy(buf, s, n + 1);
        return buf;
    }
    char tail[40];
    int t = snprintf(tail, sizeof tail, "... (%zu bytes)", n);
    size_t room = size - 1 > (size_t)t ? size - 1 - (size_t)t : 0;
    if (keep > room)
        keep = room;
    memcpy(buf, s, keep);
    memcpy(buf + keep, tail, (size_t)t + 1 <= size - keep ? (size_t)t + 1 : size - keep);
    buf[size - 1] = '\0';
    return buf;
}

int proto_binary_line(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\n') || c == 0x7f)
            return 1;
    }
    return 0;
}

void proto_moves_text(const tc_position *p, const tc_move *moves, int n, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    tc_position *q = tc_position_clone(p);
    if (!q)
        return;
    for (int i = 0; i < n && tc_is_legal(q, moves[i]); i++) {
        char m[32];
        tc_move_to_uci(q, moves[i], m);
        int w = snprintf(buf + len, size - len, "%s%s", i ? " " : "", m);
        if (w < 0 || (size_t)w >= size - len)
            break;
        len += (size_t)w;
        tc_make_move(q, moves[i]);
    }
    tc_position_free(q);
}

/// One cached game: a variant, its engine, and whether a loop holds it.
typedef struct cache_entry {
    tc_variant_def def;
    tc_variant *v;
    tc_engine *eng;
    bool in_use;
} cache_entry;

struct proto_cache {
    cache_entry *e;
    int n, cap;
};

proto_cache *proto_cache_new(void) { return calloc(1, sizeof(proto_cache)); }

void proto_cache_free(proto_cache *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++) {
        tc_engine_free(c->e[i].eng);
        tc_variant_free(c->e[i].v);
    }
    free(c->e);
    free(c);
}

static bool same_def(const tc_variant_def *a, const tc_variant_def *b)
{
    return !strcmp(a->name, b->name) && !strcmp(a->title, b->title) && !strcmp(a->description, b->description) &&
           a->width == b->width && a->height == b->height && a->files == b->files && a->ranks == b->ranks &&
           a->seam == b->seam && !strcmp(a->setup, b->setup);
}

/* A free cached game of `def`, reset to a new engine's state, or NULL. */
static cache_entry *cache_take(proto_cache *c, const tc_variant_def *def, size_t hash_mb, int threads)
{
    for (int i = 0; c && i < c->n; i++) {
        cache_entry *e = &c->e[i];
        if (e->in_use || !same_def(&e->def, def))
            continue;
        if ((tc_engine_hash_mb(e->eng) != hash_mb && tc_engine_set_hash(e->eng, hash_mb)) ||
            tc_engine_set_threads(e->eng, threads))
            return NULL;
        tc_engine_set_style(e->eng, TC_STYLE_FULL);
        tc_engine_reset_params(e->eng);
        tc_engine_use_builtin_net(e->eng);
        tc_engine_new_game(e->eng);
        e->in_use = true;
        return e;
    }
    return NULL;
}

/* Keeps a new game in the cache (in use); on failure it is simply not kept. */
static void cache_keep(proto_cache *c, const tc_variant_def *def, tc_variant *v, tc_engine *eng)
{
    if (!c)
        return;
    if (c->n == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        cache_entry *bigger = realloc(c->e, sizeof *bigger * (size_t)cap);
        if (!bigger)
            return;
        c->e = bigger;
        c->cap = cap;
    }
    c->e[c->n++] = (cache_entry){*def, v, eng, true};
}

int proto_switch_variant(proto_cache *cache, const tc_variant_def *def, size_t hash_mb, int threads,
                         tc_variant **v, tc_position **pos, tc_engine **eng, tc_error *err)
{
    cache_entry *hit = cache_take(cache, def, hash_mb, threads);
    if (hit) {
        tc_position *np = tc_position_new(hit->v);
        if (!np) {
            hit->in_use = false;
            snprintf(err->msg, sizeof err->msg, "out of memory");
            return -1;
        }
        proto_free_game(cache, v, pos, eng);
        *v = hit->v;
        *pos = np;
        *eng = hit->eng;
        return 0;
    }
    tc_variant *nv = tc_variant_new(def, err);
    if (!nv)
        return -1;
    tc_position *np = tc_position_new(nv);
    tc_engine *ne = np ? tc_engine_new(nv, hash_mb, threads) : NULL;
    if (!ne) {
        tc_position_free(np);
        tc_variant_free(nv);
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    proto_free_game(cache, v, pos, eng);
    cache_keep(cache, def, nv, ne);
    *v = nv;
    *pos = np;
    *eng = ne;
    return 0;
}

void proto_free_game(proto_cache *cache, tc_variant **v, tc_position **pos, tc_engine **eng)
{
    tc_position_free(*pos);
    *pos = NULL;
    for (int i = 0; cache && *eng && i < cache->n; i++)
        if (cache->e[i].eng == *eng) {
            cache->e[i].in_use = false;
            *eng = NULL;
            *v = NULL;
            return;
        }
    /* the engine and the position refer to the variant: it goes last */
    tc_engine_free(*eng);
    tc_variant_free(*v);
    *eng = NULL;
    *v = NULL;
}

void proto_vline(FILE *out, const char *fmt, va_list ap)
{
    vfprintf(out, fmt, ap);
    fputc('\n', out);
    fflush(out);
}

/* ---------------------------------------------------------------- dead positions */

tc_status proto_game_status(proto_dead *pd, const tc_position *p, char *why, size_t n)
{
    const tc_variant *v = tc_position_variant(p);
    const tc_variant_def *def = tc_variant_def_of(v);
    if (pd->table && (pd->v != v || memcmp(&pd->def, def, sizeof *def) != 0))
        proto_dead_free(pd);
    if (!pd->table) {
        pd->table = tc_dead_table_new(v, NULL); /* NULL: the rules' own cases */
        pd->v = v;
        pd->def = *def;
    }
    tc_status st = tc_game_status(pd->table, p);
    if (why && n)
        why[0] = '\0';
    if (st == TC_DRAW_DEAD && why && n)
        tc_dead_explain(pd->table, p, why, n);
    return st;
}

void proto_dead_free(proto_dead *pd)
{
    tc_dead_table_free(pd->table);
    pd->table = NULL;
}
