/* Small helpers that several suites share (declared in harness.h). */
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TH_CACHE_MAX 16

/// Variants built once by preset name: round trips over hundreds of EPD
/// lines would otherwise rebuild every table per line.
static struct {
    char name[64];
    tc_variant *v;
} cache[TH_CACHE_MAX];
static int ncache;

tc_variant *th_variant_cached(const char *name)
{
    for (int i = 0; i < ncache; i++)
        if (strcmp(cache[i].name, name) == 0)
            return cache[i].v;
    tc_variant *v = th_variant(name);
    if (v && ncache < TH_CACHE_MAX) {
        snprintf(cache[ncache].name, sizeof cache[ncache].name, "%s", name);
        cache[ncache++].v = v;
    }
    return v;
}

void th_variants_free(void)
{
    for (int i = 0; i < ncache; i++)
        tc_variant_free(cache[i].v);
    ncache = 0;
}

tc_position *th_at_fen(const tc_variant *v, const char *fen)
{
    tc_position *p = tc_position_new(v);
    tc_error err;
    if (!p || tc_position_set_fen(p, fen, &err)) {
        CHECK(0, "FEN '%s' refused: %s", fen, p ? err.msg : "no memory");
        tc_position_free(p);
        return NULL;
    }
    return p;
}

int th_cell(const tc_variant *v, const char *name)
{
    int c = tc_cell_parse(v, name);
    CHECK(c >= 0, "cell '%s' does not parse", name);
    return c;
}

void th_def(tc_variant_def *d, const char *name, int w, int h, tc_file_rule files, tc_rank_rule ranks,
            int seam, const char *setup)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "%s", name);
    d->width = w;
    d->height = h;
    d->files = files;
    d->ranks = ranks;
    d->seam = seam;
    snprintf(d->setup, sizeof d->setup, "%s", setup);
}

tc_variant *th_kings_variant(int w, int h, tc_file_rule files, tc_rank_rule ranks, int seam, int black_y)
{
    char name[64], setup[TC_SETUP_MAX];
    size_t k = 0;
    for (int y = h - 1; y >= 0; y--) {
        if (y == black_y || y == 0)
            k += (size_t)snprintf(setup + k, sizeof setup - k, "4%c%d", y ? 'k' : 'K', w - 5);
        else
            k += (size_t)snprintf(setup + k, sizeof setup - k, "%d", w);
        if (y)
            setup[k++] = '/';
    }
    setup[k] = '\0';
    snprintf(name, sizeof name, "custom-%dx%d", w, h);
    tc_variant_def def;
    th_def(&def, name, w, h, files, ranks, seam, setup);
    tc_error err;
    tc_variant *v = tc_variant_new(&def, &err);
    CHECK(v != NULL, "%s (%s): %s", name, setup, err.msg);
    return v;
}

char *th_read_stream(FILE *f)
{
    fflush(f);
    long n = ftell(f);
    char *text = malloc((size_t)(n > 0 ? n : 0) + 1);
    rewind(f);
    size_t got = text ? fread(text, 1, (size_t)(n > 0 ? n : 0), f) : 0;
    if (text)
        text[got] = '\0';
    return text;
}

const char *th_test_db(const char *name, char *buf, size_t n)
{
    const char *url = getenv("TG_TEST_DB");
    if (!buf[0]) {
        if (url && *url) {
            snprintf(buf, n, "%s", url);
        } else {
            char dir[64];
            snprintf(dir, sizeof dir, "/tmp/tc-%.20s-XXXXXX", name);
            CHECK(mkdtemp(dir) != NULL, "mkdtemp");
            snprintf(buf, n, "%s/%s.db", dir, name);
        }
    }
    return buf;
}

char *th_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *text = NULL;
    if (len)
        *len = 0;
    long n = f && fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n >= 0 && fseek(f, 0, SEEK_SET) == 0 && (text = malloc((size_t)n + 1)) != NULL) {
        size_t got = fread(text, 1, (size_t)n, f);
        text[got] = '\0';
        if (len)
            *len = got;
    }
    if (f)
        fclose(f);
    CHECK(text != NULL, "cannot read %s", path);
    return text;
}
