/* Shared by the protocol fuzz targets: a growing text buffer, a tokenizer
 * that splits a line as the loops do, and the driver that feeds a
 * rewritten transcript to a loop. The first input byte picks the preset;
 * the rest is the command stream. */
#ifndef TC_FUZZ_PROTO_H
#define TC_FUZZ_PROTO_H

#include "protocols.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longer inputs only slow the fuzzer down; nothing in the loops depends on
 * more than a few lines. */
#define FZ_MAX_INPUT 4096
#define FZ_MAX_TOKENS 2048

/// The rewritten transcript being built.
typedef struct fz_buf {
    char *s;
    size_t len, cap;
} fz_buf;

static inline void fz_put(fz_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *t = realloc(b->s, cap);
        if (!t)
            abort();
        b->s = t;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static inline void fz_puts(fz_buf *b, const char *s) { fz_put(b, s, strlen(s)); }

/* Splits the C string of a line (up to its first NUL, as the loops see it)
 * at `delims`; `copy` receives the tokens' storage. */
static inline int fz_tokens(const char *line, size_t n, const char *delims, char *copy, char **tok)
{
    memcpy(copy, line, n);
    copy[n] = '\0';
    int count = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, delims, &save); t && count < FZ_MAX_TOKENS;
         t = strtok_r(NULL, delims, &save))
        tok[count++] = t;
    return count;
}

/* Writes tokens joined by single spaces and a newline. */
static inline void fz_put_tokens(fz_buf *b, char **tok, int n)
{
    for (int i = 0; i < n; i++) {
        if (i)
            fz_puts(b, " ");
        fz_puts(b, tok[i]);
    }
    fz_puts(b, "\n");
}

/* True when `s` is a whole decimal integer above `max` (what would make a
 * search, table or thread count too big for the fuzzer). */
static inline int fz_above(const char *s, long long max)
{
    if (!s || !*s)
        return 0;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    return !*end && !errno && x > max;
}

/* A rewriter gets one raw line (`len` bytes, with its '\n' if any) and
 * the part the loop reads (`visible`, up to a NUL); it writes what the
 * loop shall see instead, usually the line itself. */
typedef void (*fz_rewrite_fn)(fz_buf *out, const char *line, size_t len, size_t visible, char *copy,
                              char **tok);
typedef int (*fz_loop_fn)(FILE *in, FILE *out, const tc_variant_def *def, const proto_opts *opts);

/* The loops start with a 1 MB table (a fresh 64 MB one per run would cost
 * more than everything else the run does) and take their variants and
 * engines from a cache that lives as long as the fuzzer. */
#define FZ_HASH_MB 1

/* Copies a raw line, ending it with '\n' when it is the last and has none,
 * so that more lines can follow. */
static inline void fz_put_line(fz_buf *b, const char *line, size_t len)
{
    fz_put(b, line, len);
    if (!len || line[len - 1] != '\n')
        fz_puts(b, "\n");
}

/* Rewrites the input line by line (lines end at '\n' as for getline) after
 * `prefix`, then runs the loop on it with output thrown away. */
static inline int fz_run(const uint8_t *data, size_t size, const char *prefix, fz_rewrite_fn rewrite,
                  fz_loop_fn loop)
{
    static FILE *sink;
    static char *copy;
    static char **tok;
    static proto_cache *cache; /* variants and engines reused run after run */
    if (!sink) {
        sink = fopen("/dev/null", "w");
        cache = proto_cache_new();
        copy = malloc(FZ_MAX_INPUT + 1);
        tok = malloc(sizeof *tok * (FZ_MAX_TOKENS + 1)); /* room for one more */
        if (!sink || !copy || !tok || !cache)
            abort();
    }
    if (size < 1 || size > FZ_MAX_INPUT)
        return 0;
    const tc_variant_def *def = tc_preset(data[0] % tc_preset_count());
    const char *text = (const char *)data + 1;
    size--;

    fz_buf b = {0};
    fz_puts(&b, prefix);
    for (size_t at = 0; at < size;) {
        const char *nl = memchr(text + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - text) + 1 : size;
        const char *nul = memchr(text + at, '\0', end - at);
        rewrite(&b, text + at, end - at, nul ? (size_t)(nul - (text + at)) : end - at, copy, tok);
        at = end;
    }
    if (b.len) {
        FILE *in = fmemopen(b.s, b.len, "r");
        if (!in)
            abort();
        proto_opts opts = {FZ_HASH_MB, cache, 1, NULL};
        loop(in, sink, def, &opts);
        fclose(in);
    }
    free(b.s);
    return 0;
}

#endif
