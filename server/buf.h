/* Growable text buffers and the escaping the server needs (HTML, URL
 * decoding, UTF-8 repair). */
#ifndef SRV_BUF_H
#define SRV_BUF_H

#include <stddef.h>

/// A NUL-terminated text on the heap. After a failed allocation `failed` is
/// set, later appends do nothing, and the owner treats the text as lost.
typedef struct srv_buf {
    char *p;
    size_t len, cap;
    int failed;
} srv_buf;

void srv_buf_put(srv_buf *b, const char *s, size_t n);
void srv_buf_str(srv_buf *b, const char *s);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void srv_buf_printf(srv_buf *b, const char *fmt, ...);
/* Appends s with & < > " ' written as character references. */
void srv_buf_html(srv_buf *b, const char *s);
/* Hands the text to the caller (NULL after a failure) and empties b. */
char *srv_buf_take(srv_buf *b, size_t *len);
void srv_buf_free(srv_buf *b);

/* Decodes %XX escapes (and '+' as a space when `plus_space`) of s[0..n) into
 * out (room for n + 1 bytes). Returns the decoded length, or -1 when an
 * escape is malformed or the result holds a control character (NUL,
 * line breaks, DEL). */
long srv_url_decode(const char *s, size_t n, int plus_space, char *out);

/* A copy of s[0..n) in which every byte that does not belong to a valid
 * UTF-8 sequence is replaced by U+FFFD (heap; NULL if memory runs out). */
char *srv_utf8_clean(const char *s, size_t n);
/* Where s[0..n) stops being UTF-8 (the offset of the first byte of no
 * valid sequence, or of a NUL), or -1 when it is valid throughout: every
 * text the server keeps is checked with it on the way in. */
long srv_utf8_invalid(const char *s, size_t n);

#endif
