/* Text buffers and escaping for the server. */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int grow(srv_buf *b, size_t extra)
{
    if (b->failed)
        return -1;
    if (b->len + extra + 1 <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2) {
            b->failed = 1;
            return -1;
        }
        cap *= 2;
    }
    char *p = realloc(b->p, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void srv_buf_put(srv_buf *b, const char *s, size_t n)
{
    if (grow(b, n))
        return;
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void srv_buf_str(srv_buf *b, const char *s) { srv_buf_put(b, s, strlen(s)); }

void srv_buf_printf(srv_buf *b, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        srv_buf_put(b, small, (size_t)n);
        return;
    }
    if (grow(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

void srv_buf_html(srv_buf *b, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        const char *rep = NULL;
        switch (*s) {
        case '&': rep = "&amp;"; break;
        case '<': rep = "&lt;"; break;
        case '>': rep = "&gt;"; break;
        case '"': rep = "&quot;"; break;
        case '\'': rep = "&#39;"; break;
        default: continue;
        }
        srv_buf_put(b, run, (size_t)(s - run));
        srv_buf_str(b, rep);
        run = s + 1;
    }
    srv_buf_put(b, run, (size_t)(s - run));
}

char *srv_buf_take(srv_buf *b, size_t *len)
{
    char *p = b->failed ? NULL : b->p;
    if (!p && !b->failed) {
        p = malloc(1);
        if (p)
            *p = '\0';
    }
    if (b->failed)
        free(b->p);
    if (len)
        *len = p ? b->len : 0;
    b->p = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
    return p;
}

void srv_buf_free(srv_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

long srv_url_decode(const char *s, size_t n, int plus_space, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '%') {
            if (n - i < 3)
                return -1;
            int hi = hexval(s[i + 1]);
            int lo = hexval(s[i + 2]);
            if (hi < 0 || lo < 0)
                return -1;
            c = (unsigned char)(hi * 16 + lo);
            i += 2;
        } else if (c == '+' && plus_space) {
            c = ' ';
        }
        if (c < 0x20 || c == 0x7f)
            return -1;
        out[o++] = (char)c;
    }
    out[o] = '\0';
    return (long)o;
}

/* Length of the valid UTF-8 sequence at s (n bytes left), or 0. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t len;
    unsigned min;
    unsigned cp;
    if ((s[0] & 0xe0) == 0xc0) {
        len = 2, min = 0x80, cp = s[0] & 0x1f;
    } else if ((s[0] & 0xf0) == 0xe0) {
        len = 3, min = 0x800, cp = s[0] & 0x0f;
    } else if ((s[0] & 0xf8) == 0xf0) {
        len = 4, min = 0x10000, cp = s[0] & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

char *srv_utf8_clean(const char *s, size_t n)
{
    srv_buf b = {0};
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, run = 0;
    while (i < n) {
        size_t l = u[i] ? utf8_seq(u + i, n - i) : 0;
        if (l) {
            i += l;
            continue;
        }
        srv_buf_put(&b, s + run, i - run);
        srv_buf_str(&b, "\xEF\xBF\xBD");
        i++;
        run = i;
    }
    srv_buf_put(&b, s + run, i - run);
    return srv_buf_take(&b, NULL);
}

long srv_utf8_invalid(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t l = u[i] ? utf8_seq(u + i, n - i) : 0;
        if (!l)
            return (long)i;
        i += l;
    }
    return -1;
}
