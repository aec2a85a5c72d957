/* Line diff by longest common subsequence (textdiff.h). */
#include "textdiff.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *p;
    size_t len;
} span;

/* The lines of a text (a last line without a newline counts; an empty
 * text has none). */
static span *split_lines(const char *s, size_t len, int *n)
{
    int count = 0;
    for (size_t i = 0; i < len; i++)
        count += s[i] == '\n';
    if (len && s[len - 1] != '\n')
        count++;
    span *v = malloc(((size_t)count + 1) * sizeof *v);
    if (!v)
        return NULL;
    int k = 0;
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(s + at, '\n', len - at);
        size_t e = nl ? (size_t)(nl - s) : len;
        size_t l = e - at;
        if (l && s[at + l - 1] == '\r')
            l--;
        v[k++] = (span){s + at, l};
        at = e + 1;
    }
    *n = k;
    return v;
}

static int same(span x, span y) { return x.len == y.len && !memcmp(x.p, y.p, x.len); }

static int push(tg_diff *d, int *cap, char op, int al, int bl, span t)
{
    if (d->n == *cap) {
        int nc = *cap ? *cap * 2 : 64;
        tg_diff_line *nl = realloc(d->lines, (size_t)nc * sizeof *nl);
        if (!nl)
            return -1;
        d->lines = nl;
        *cap = nc;
    }
    d->lines[d->n++] = (tg_diff_line){op, al, bl, t.p, t.len};
    d->added += op == '+';
    d->removed += op == '-';
    return 0;
}

int tg_diff_compute(const char *a, size_t alen, const char *b, size_t blen, tg_diff *out)
{
    memset(out, 0, sizeof *out);
    int na = 0, nb = 0, cap = 0, rc = 0;
    span *A = split_lines(a, alen, &na), *B = split_lines(b, blen, &nb);
    uint16_t *t = NULL;
    if (!A || !B)
        goto fail;
    int head = 0;
    while (head < na && head < nb && same(A[head], B[head]))
        head++;
    int tail = 0;
    while (tail < na - head && tail < nb - head && same(A[na - 1 - tail], B[nb - 1 - tail]))
        tail++;
    for (int i = 0; i < head; i++)
        if (push(out, &cap, ' ', i + 1, i + 1, A[i]))
            goto fail;
    int m = na - head - tail, k = nb - head - tail;
    /* the middle: LCS table of suffixes, L[i][j] for A[head+i..], B[head+j..] */
    long cells = (long)(m + 1) * (long)(k + 1);
    if (m > 0 && k > 0 && cells <= TG_DIFF_MAX_CELLS && m < 65535 && k < 65535) {
        t = calloc((size_t)cells, sizeof *t);
        if (!t)
            goto fail;
#define L(i, j) t[(size_t)(i) * (size_t)(k + 1) + (size_t)(j)]
        for (int i = m - 1; i >= 0; i--)
            for (int j = k - 1; j >= 0; j--)
                L(i, j) = same(A[head + i], B[head + j]) ? (uint16_t)(L(i + 1, j + 1) + 1)
                          : L(i + 1, j) >= L(i, j + 1)   ? L(i + 1, j)
                                                         : L(i, j + 1);
        int i = 0, j = 0;
        while (i < m || j < k) {
            if (i < m && j < k && same(A[head + i], B[head + j])) {
                rc = push(out, &cap, ' ', head + i + 1, head + j + 1, A[head + i]);
                i++, j++;
            } else if (i < m && (j == k || L(i + 1, j) >= L(i, j + 1))) { /* removals before additions */
                rc = push(out, &cap, '-', head + i + 1, 0, A[head + i]);
                i++;
            } else {
                rc = push(out, &cap, '+', 0, head + j + 1, B[head + j]);
                j++;
            }
            if (rc)
                goto fail;
        }
#undef L
    } else {
        for (int i = 0; i < m; i++)
            if (push(out, &cap, '-', head + i + 1, 0, A[head + i]))
                goto fail;
        for (int j = 0; j < k; j++)
            if (push(out, &cap, '+', 0, head + j + 1, B[head + j]))
                goto fail;
    }
    for (int i = 0; i < tail; i++)
        if (push(out, &cap, ' ', na - tail + i + 1, nb - tail + i + 1, A[na - tail + i]))
            goto fail;
    free(A), free(B), free(t);
    return 0;
fail:
    free(A), free(B), free(t);
    tg_diff_free(out);
    return -1;
}

void tg_diff_free(tg_diff *d)
{
    free(d->lines);
    memset(d, 0, sizeof *d);
}

static void escaped(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(s[i], f);
        }
    }
}

char *tg_diff_html(const tg_diff *d, int context, size_t *len)
{
    char *p = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&p, &n);
    if (!f)
        return NULL;
    if (context < 0)
        context = 0;
    fprintf(f, "<pre class=\"diff\"><span class=\"diff-sum\">%d added, %d removed</span>\n", d->added,
            d->removed);
    for (int i = 0; i < d->n;) {
        if (d->lines[i].op == ' ') {
            int j = i;
            while (j < d->n && d->lines[j].op == ' ')
                j++;
            int lead = i == 0 ? 0 : context, trail = j == d->n ? 0 : context;
            if (j - i > lead + trail + 1) {
                for (int k = i; k < i + lead; k++) {
                    fputs("<span class=\"same\">  ", f);
                    escaped(f, d->lines[k].text, d->lines[k].len);
                    fputs("</span>\n", f);
                }
                fprintf(f, "<span class=\"skip\">@@ %d lines unchanged @@</span>\n", (j - trail) - (i + lead));
                for (int k = j - trail; k < j; k++) {
                    fputs("<span class=\"same\">  ", f);
                    escaped(f, d->lines[k].text, d->lines[k].len);
                    fputs("</span>\n", f);
                }
                i = j;
                continue;
            }
        }
        const tg_diff_line *l = &d->lines[i++];
        fprintf(f, "<span class=\"%s\">%c ", l->op == '+' ? "add" : l->op == '-' ? "del" : "same", l->op);
        escaped(f, l->text, l->len);
        fputs("</span>\n", f);
    }
    fputs("</pre>\n", f);
    if (fclose(f))
        return free(p), NULL;
    if (len)
        *len = n;
    return p;
}
