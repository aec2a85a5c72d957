/* A line-based diff between two texts: the longest common subsequence of
 * their lines, rendered as escaped HTML (revisions of variant pages,
 * docs/variant-pages.md). Own implementation, no globals.
 *
 * Limits: the common head and tail are set aside first; what is left is
 * compared line by line only up to TG_DIFF_MAX_CELLS cells of the LCS
 * table (about 2000 x 2000 lines); beyond that the middle is shown as all
 * removed and all added, which is still a correct (if long) diff. */
#ifndef TG_TEXTDIFF_H
#define TG_TEXTDIFF_H

#include <stddef.h>

#define TG_DIFF_MAX_CELLS (4L * 1000 * 1000)

/// One line of a diff: kept (' '), removed ('-') or added ('+'), with
/// where it is in the old text (a_line) or the new one (b_line), from 1.
typedef struct tg_diff_line {
    char op;
    int a_line, b_line;
    const char *text; /* points into the old or new text */
    size_t len;       /* without the newline */
} tg_diff_line;

typedef struct tg_diff {
    tg_diff_line *lines;
    int n;
    int added, removed;
} tg_diff;

/* The diff of a (old) and b (new); the lines point into a and b, which
 * must outlive it. 0, or -1 when memory runs out. */
int tg_diff_compute(const char *a, size_t alen, const char *b, size_t blen, tg_diff *out);
void tg_diff_free(tg_diff *d);

/* The diff as HTML: a <pre class="diff"> with one <span> a line (class
 * "add", "del" or "same"), every text escaped; unchanged stretches longer
 * than 2 * context lines are cut to context lines each side. Heap string
 * (its length in *len when len is not NULL), NULL when memory runs out. */
char *tg_diff_html(const tg_diff *d, int context, size_t *len);

#endif
