/* The export layer's JSON text builder (tcw_internal.h). */
#include "tcw_internal.h"

/* ---------------------------------------------------------------- text builder */


int sb_grow(sb *s, size_t more)
{
    if (s->oom)
        return -1;
    if (s->n + more + 1 <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < s->n + more + 1)
        cap *= 2;
    char *b = realloc(s->b, cap);
    if (!b) {
        s->oom = 1;
        return -1;
    }
    s->b = b;
    s->cap = cap;
    return 0;
}

void sb_putn(sb *s, const char *t, size_t len)
{
    if (sb_grow(s, len))
        return;
    memcpy(s->b + s->n, t, len);
    s->n += len;
    s->b[s->n] = 0;
}

void sb_puts(sb *s, const char *t) { sb_putn(s, t, strlen(t)); }

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void sb_printf(sb *s, const char *fmt, ...)
{
    char tmp[128];
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (k < 0)
        return;
    if ((size_t)k < sizeof tmp) {
        sb_putn(s, tmp, (size_t)k);
        return;
    }
    if (sb_grow(s, (size_t)k))
        return;
    va_start(ap, fmt);
    vsnprintf(s->b + s->n, (size_t)k + 1, fmt, ap);
    va_end(ap);
    s->n += (size_t)k;
}

/* A JSON string literal (or null for NULL). */
void sb_str(sb *s, const char *t)
{
    if (!t) {
        sb_puts(s, "null");
        return;
    }
    sb_putn(s, "\"", 1);
    for (const unsigned char *c = (const unsigned char *)t; *c; c++) {
        if (*c == '"' || *c == '\\') {
            char e[2] = {'\\', (char)*c};
            sb_putn(s, e, 2);
        } else if (*c < 0x20) {
            sb_printf(s, "\\u%04x", *c);
        } else {
            sb_putn(s, (const char *)c, 1);
        }
    }
    sb_putn(s, "\"", 1);
}

/* Hands the text to the caller, or NULL (and frees it) if memory ran out. */
char *sb_done(sb *s, tc_error *err)
{
    if (s->oom || !s->b) {
        free(s->b);
        if (err)
            snprintf(err->msg, sizeof err->msg, "out of memory");
        return NULL;
    }
    return s->b;
}
