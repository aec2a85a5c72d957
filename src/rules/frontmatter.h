/* Variant pages, internal: what the page reader (frontmatter.c) and the
 * one-line rebuilder (frontmatter_reflow.c) share. Not installed. */
#ifndef TC_FRONTMATTER_H
#define TC_FRONTMATTER_H

#include "internal.h"

/// A growable text buffer for the rebuilt front matter of a one-line page.
typedef struct {
    char *p;
    size_t len, cap;
    bool failed;
} fm_buf;

/* Appends n bytes (or a C string) to the buffer, kept NUL-terminated; on
 * running out of memory it sets failed and appends nothing more. */
void fm_buf_put(fm_buf *b, const char *s, size_t n);
void fm_buf_str(fm_buf *b, const char *s);

/* The keys of engine.topology; fm_fields.topo is indexed like them. */
extern const char *const fm_topology_keys[];

/* Rebuilds an indented YAML text from front matter that lost its line
 * breaks. With need_marker the front matter ends at a bare `---` word, else
 * at the end of the text; *end (if not NULL) is then the offset just after
 * that marker. 0, or -1 with err; out->p is the caller's to free. */
int fm_rebuild_one_line(const char *s, size_t n, bool need_marker, fm_buf *out, size_t *end, tc_error *err);

#endif
