/* Variant pages that lost their line breaks (topochess_page.h). The front
 * matter is rebuilt by frontmatter_reflow.c; this file rebuilds the body,
 * which is harder because Markdown's structure IS its line breaks. We read
 * the body as words and put back what can be recognised from the words
 * alone:
 *   - `#`..`######` words open headings. Where a heading ends is guessed:
 *     at the next marker (fence, bold, heading), at a phrase repeated right
 *     after it ("## Klein Bottle Chess Klein Bottle Chess is..."), at the
 *     page's title phrase ("### Attribution Klein Bottle Chess invented"),
 *     or one word before the first lower-case word that is not a small word
 *     ("### Rules All standard FIDE rules" -> "Rules");
 *   - a word opening bold (`**`) right after a full stop opens a paragraph
 *     (pages often lead paragraphs with a bold phrase);
 *   - `-` after a colon opens a list, and every later `-` word an item;
 *     `1.` after a colon an ordered list;
 *   - a fence (```) holds a board diagram: it gets one line per rank at its
 *     `NN|` labels, re-aligned cells, and file letters under the cells.
 * Whatever is not recognised stays in its paragraph, in its order.
 */
#include "frontmatter.h"
#include "topochess_page.h"

#include <stdlib.h>

/* ---------------------------------------------------------------- buffer */



static void put_spaces(fm_buf *b, int n)
{
    for (int i = 0; i < n; i++)
        fm_buf_put(b, " ", 1);
}

static bool at_line_start(const fm_buf *b) { return b->len == 0 || b->p[b->len - 1] == '\n'; }

/* Ends the block being written: the next text starts after a blank line. */
static void end_block(fm_buf *b)
{
    if (b->len == 0)
        return;
    if (b->p[b->len - 1] != '\n')
        fm_buf_put(b, "\n", 1);
    if (b->len < 2 || b->p[b->len - 2] != '\n')
        fm_buf_put(b, "\n", 1);
}

/* ---------------------------------------------------------------- words */

typedef struct {
    const char *s;
    size_t n;
} word;

static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* Splits text into words at white space; *count words (heap array). */
static word *split_words(const char *s, size_t n, int *count)
{
    word *w = malloc((n / 2 + 2) * sizeof *w);
    int k = 0;
    if (!w)
        return NULL;
    for (size_t i = 0; i < n;) {
        while (i < n && blank(s[i]))
            i++;
        if (i >= n)
            break;
        size_t j = i;
        while (j < n && !blank(s[j]))
            j++;
        w[k].s = s + i;
        w[k].n = j - i;
        k++;
        i = j;
    }
    *count = k;
    return w;
}

static bool is(word w, const char *lit) { return w.n == strlen(lit) && memcmp(w.s, lit, w.n) == 0; }
static bool starts(word w, const char *lit) { return w.n >= strlen(lit) && memcmp(w.s, lit, strlen(lit)) == 0; }
static char last_char(word w) { return w.n ? w.s[w.n - 1] : 0; }

/* The word without trailing punctuation, for comparing phrases. */
static size_t core_len(word w)
{
    size_t n = w.n;
    while (n > 1 && strchr(",.;:!?)", w.s[n - 1]))
        n--;
    return n;
}

static bool same_word(word a, word b)
{
    size_t n = core_len(a);
    return n == core_len(b) && memcmp(a.s, b.s, n) == 0;
}

static int heading_level(word w)
{
    if (w.n < 1 || w.n > 6)
        return 0;
    for (size_t i = 0; i < w.n; i++)
        if (w.s[i] != '#')
            return 0;
    return (int)w.n;
}

static bool is_fence(word w) { return starts(w, "```") || starts(w, "~~~"); }

static bool lower_word(word w)
{
    static const char *const small[] = {"of", "the", "and", "or", "in", "on", "to", "for", "a", "an", "vs",
                                        "vs.", "not", "with", "at", "by", "from", "as", "via", "into", NULL};
    if (!w.n || w.s[0] < 'a' || w.s[0] > 'z')
        return false;
    for (int i = 0; small[i]; i++)
        if (w.n == strlen(small[i]) && memcmp(w.s, small[i], w.n) == 0)
            return false;
    return true;
}

/* ---------------------------------------------------------------- headings */

#define MAX_NAMES 8
#define MAX_HEADING_WORDS 16

/// Phrases that name the variant (the front matter's title, a heading's
/// repeated phrase): a sentence after a heading often starts with one.
typedef struct {
    word w[MAX_NAMES][8];
    int n[MAX_NAMES];
    int count;
} name_set;

static void add_name(name_set *ns, const word *w, int n)
{
    if (ns->count >= MAX_NAMES || n < 1 || n > 8)
        return;
    memcpy(ns->w[ns->count], w, (size_t)n * sizeof *w);
    ns->n[ns->count++] = n;
}

static void add_name_text(name_set *ns, word *store, int cap, const char *s)
{
    int n = 0;
    size_t len = strlen(s);
    for (size_t i = 0; i < len && n < cap;) {
        while (i < len && (blank(s[i]) || s[i] == '"'))
            i++;
        size_t j = i;
        while (j < len && !blank(s[j]) && s[j] != '"')
            j++;
        if (j > i)
            store[n++] = (word){s + i, j - i};
        i = j;
    }
    add_name(ns, store, n);
}

/* How many of the k words after a heading marker are the heading (>= 1).
 * bounded: the words end at a marker, not at the end of the text or the
 * word limit. */
static int heading_words(const word *w, int k, bool bounded, name_set *ns)
{
    for (int i = 0; i < k; i++)
        if (strchr(".?!", last_char(w[i])) && i + 1 < k) {
            k = i + 1; /* a sentence ends inside: the heading ends there */
            bounded = true;
        }
    for (int L = 1; 2 * L <= k; L++) { /* "Klein Bottle Chess Klein Bottle Chess is" */
        bool same = true;
        for (int i = 0; i < L && same; i++)
            same = same_word(w[i], w[L + i]);
        if (same) {
            add_name(ns, w, L);
            return L;
        }
    }
    int best = k + 1;
    for (int m = 0; m < ns->count; m++)
        for (int j = 1; j + ns->n[m] <= k && j < best; j++) {
            bool same = true;
            for (int i = 0; i < ns->n[m] && same; i++)
                same = same_word(w[j + i], ns->w[m][i]);
            if (same)
                best = j;
        }
    if (best <= k)
        return best;
    int q = 0;
    while (q < k && !lower_word(w[q]))
        q++;
    if (q == k)
        return bounded ? k : (k < 6 ? k : 6);
    return q >= 2 ? q - 1 : 1;
}

/* ---------------------------------------------------------------- diagrams */

static bool rank_label(word w, int *rank)
{
    size_t i = 0;
    int r = 0;
    if (i < w.n && w.s[i] == '-') /* "rank -5" labels on the right side only */
        return false;
    while (i < w.n && i < 2 && w.s[i] >= '0' && w.s[i] <= '9')
        r = r * 10 + (w.s[i++] - '0');
    if (i == 0 || i >= w.n || w.s[i] != '|')
        return false;
    *rank = r;
    return true;
}

static bool rule_word(word w)
{
    if (w.n < 4)
        return false;
    for (size_t i = 0; i < w.n; i++)
        if (!strchr("=-+", w.s[i]))
            return false;
    return true;
}

/* Length of a run of file letters "a b c ..." starting at w[0] (0 if < 3). */
static int file_run(const word *w, int k)
{
    int n = 0;
    while (n < k && n < 26 && w[n].n == 1 && w[n].s[0] == 'a' + n)
        n++;
    return n >= 3 ? n : 0;
}

typedef enum { LN_OTHER, LN_RANK, LN_FILES } line_kind;

/// One diagram line being rebuilt: a span of words and what it is.
typedef struct {
    line_kind kind;
    int first, count, rank;
} dline;

/* Joins words [first, first+count) with single spaces into b. */
static void put_words(fm_buf *b, const word *w, int first, int count)
{
    for (int i = 0; i < count; i++) {
        if (i)
            fm_buf_put(b, " ", 1);
        fm_buf_put(b, w[first + i].s, w[first + i].n);
    }
}

static void put_rank_row(fm_buf *b, const word *w, const dline *l)
{
    fm_buf raw = {0};
    put_words(&raw, w, l->first, l->count);
    if (raw.failed || !raw.p) {
        b->failed |= raw.failed;
        free(raw.p);
        return;
    }
    char label[8];
    snprintf(label, sizeof label, "%2d|", l->rank);
    fm_buf_str(b, label);
    const char *s = strchr(raw.p, '|') + 1, *last = strrchr(raw.p, '|');
    while (s <= last) { /* s is just after a '|' */
        const char *e = strchr(s, '|'), *a = s, *z = e;
        while (a < z && *a == ' ')
            a++;
        while (z > a && z[-1] == ' ')
            z--;
        fm_buf_put(b, " ", 1);
        if (z > a)
            fm_buf_put(b, a, (size_t)(z - a));
        else
            fm_buf_put(b, " ", 1);
        fm_buf_put(b, " |", 2);
        s = e + 1;
    }
    while (*s == ' ')
        s++;
    if (*s) {
        fm_buf_put(b, " ", 1);
        fm_buf_str(b, s);
    }
    fm_buf_put(b, "\n", 1);
    free(raw.p);
}

/* Writes the words of a fenced block as a board diagram, one line per rank. */
static void put_diagram(fm_buf *b, const word *w, int k)
{
    dline *lines = malloc(((size_t)k + 1) * sizeof *lines);
    if (!lines) {
        b->failed = true;
        return;
    }
    int nl = 0, width = 0;
    bool open = false; /* a line is collecting words */
    for (int i = 0; i < k;) {
        int rank, run;
        if (rank_label(w[i], &rank)) {
            lines[nl++] = (dline){LN_RANK, i, 1, rank};
            open = true;
            i++;
        } else if (rule_word(w[i])) {
            lines[nl++] = (dline){LN_OTHER, i, 1, 0};
            open = w[i].s[0] == '='; /* a seam line may carry a comment */
            i++;
        } else if ((run = file_run(w + i, k - i)) > 0) {
            lines[nl++] = (dline){LN_FILES, i, run, 0};
            if (run > width)
                width = run;
            open = false;
            i += run;
        } else {
            if (!open || nl == 0)
                lines[nl++] = (dline){LN_OTHER, i, 0, 0};
            lines[nl - 1].count++;
            open = true;
            i++;
        }
    }
    int row_width = 3 + 4 * width;
    for (int i = 0; i < nl; i++) {
        const dline *l = &lines[i];
        if (l->kind == LN_RANK) {
            put_rank_row(b, w, l);
        } else if (l->kind == LN_FILES) {
            fm_buf_str(b, "   ");
            for (int f = 0; f < l->count; f++) {
                fm_buf_str(b, f ? "   " : " ");
                fm_buf_put(b, w[l->first + f].s, 1);
            }
            fm_buf_put(b, "\n", 1);
        } else {
            size_t n = 0;
            for (int j = 0; j < l->count; j++)
                n += w[l->first + j].n + (j > 0);
            if (l->count == 1 && w[l->first].s[0] != '=' && (int)n < row_width)
                put_spaces(b, (row_width - (int)n) / 2); /* "Black", "White" */
            else if (w[l->first].s[0] == '=' || w[l->first].s[0] == '+')
                fm_buf_str(b, "  ");
            put_words(b, w, l->first, l->count);
            fm_buf_put(b, "\n", 1);
        }
    }
    free(lines);
}

/* ---------------------------------------------------------------- body */

static bool list_marker(word w) { return is(w, "-") || is(w, "*") || is(w, "+"); }

/* "N." with N the number wanted. */
static bool number_marker(word w, int want)
{
    char lit[16];
    snprintf(lit, sizeof lit, "%d.", want);
    return is(w, lit);
}

static void reflow_body(const char *s, size_t n, name_set *ns, fm_buf *b)
{
    int k = 0;
    word *w = split_words(s, n, &k);
    if (!w) {
        b->failed = true;
        return;
    }
    int list = 0, next_num = 1; /* list: 0 none, 1 bullets, 2 numbers */
    for (int i = 0; i < k;) {
        char prev = i ? last_char(w[i - 1]) : 0;
        int level = heading_level(w[i]);
        if (level && i + 1 < k) {
            int m = 0;
            while (i + 1 + m < k && m < MAX_HEADING_WORDS) {
                word x = w[i + 1 + m];
                if (m && (is_fence(x) || starts(x, "**") || heading_level(x) || list_marker(x)))
                    break;
                m++;
            }
            bool bounded = i + 1 + m < k && m < MAX_HEADING_WORDS;
            int h = heading_words(w + i + 1, m, bounded, ns);
            end_block(b);
            fm_buf_put(b, w[i].s, w[i].n);
            fm_buf_put(b, " ", 1);
            put_words(b, w, i + 1, h);
            fm_buf_put(b, "\n\n", 2);
            list = 0;
            i += 1 + h;
            continue;
        }
        if (is_fence(w[i])) {
            int j = i + 1;
            while (j < k && !(is_fence(w[j]) && w[j].n == 3))
                j++;
            if (j < k) {
                end_block(b);
                fm_buf_put(b, w[i].s, w[i].n);
                fm_buf_put(b, "\n", 1);
                put_diagram(b, w + i + 1, j - i - 1);
                fm_buf_put(b, w[j].s, w[j].n);
                fm_buf_put(b, "\n\n", 2);
                list = 0;
                i = j + 1;
                continue;
            }
        }
        if (i + 1 < k && list_marker(w[i]) && (prev == ':' || list == 1)) {
            if (list != 1)
                end_block(b);
            else if (!at_line_start(b))
                fm_buf_put(b, "\n", 1);
            fm_buf_put(b, "- ", 2);
            list = 1;
            i++;
            continue;
        }
        if (i + 1 < k && (prev == ':' || list == 2) && number_marker(w[i], list == 2 ? next_num : 1)) {
            if (list != 2) {
                end_block(b);
                next_num = 1;
            } else if (!at_line_start(b)) {
                fm_buf_put(b, "\n", 1);
            }
            fm_buf_put(b, w[i].s, w[i].n);
            fm_buf_put(b, " ", 1);
            list = 2;
            next_num++;
            i++;
            continue;
        }
        if (list == 2 && prev == '.' && w[i].s[0] >= 'A' && w[i].s[0] <= 'Z' && !at_line_start(b) &&
            b->p[b->len - 1] != ' ') {
            end_block(b); /* "3. e12 g11 (Black defends). This is offered..." */
            list = 0;
        }
        if (starts(w[i], "**") && w[i].n > 2 && prev && strchr(".!?", prev)) {
            end_block(b);
            list = 0;
        }
        if (!at_line_start(b) && b->p[b->len - 1] != ' ')
            fm_buf_put(b, " ", 1);
        fm_buf_put(b, w[i].s, w[i].n);
        i++;
    }
    if (!at_line_start(b))
        fm_buf_put(b, "\n", 1);
    free(w);
}

/* ---------------------------------------------------------------- plain diagrams */

/* A line of a board diagram drawn as plain text: a rank row `NN| ...|`. */
static bool diagram_row(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= 4 && s[0] == ' ')
        return false; /* indented four spaces: already code in Markdown */
    size_t d = i;
    while (i < n && i - d < 3 && s[i] >= '0' && s[i] <= '9')
        i++;
    if (i == d || i - d > 2)
        return false;
    while (i < n && s[i] == ' ')
        i++;
    return i < n && s[i] == '|' && memchr(s + i + 1, '|', n - i - 1);
}

static bool blank_line(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!blank(s[i]))
            return false;
    return true;
}

/* Copies a body that has its lines, putting a fence round a board diagram
 * drawn as plain text (Markdown would run its rows together): from the
 * non-blank lines just above its first rank row to those just below its
 * last. A body with fences of its own is copied as it is. */
static void fence_plain_diagram(const char *s, size_t n, fm_buf *b)
{
    size_t nl = 1;
    for (size_t i = 0; i < n; i++)
        nl += s[i] == '\n';
    size_t *start = malloc((nl + 1) * sizeof *start);
    if (!start) {
        b->failed = true;
        return;
    }
    size_t k = 0, first = (size_t)-1, last = 0;
    bool fenced = false;
    for (size_t at = 0; at <= n && k < nl; k++) {
        start[k] = at;
        const char *e = memchr(s + at, '\n', n - at);
        size_t le = e ? (size_t)(e - s) : n;
        const char *t = s + at;
        while (t < s + le && (*t == ' ' || *t == '\t'))
            t++;
        fenced |= (size_t)(s + le - t) >= 3 && (!memcmp(t, "```", 3) || !memcmp(t, "~~~", 3));
        if (diagram_row(s + at, le - at)) {
            if (first == (size_t)-1)
                first = k;
            last = k;
        }
        at = le + 1;
    }
    start[k] = n + 1;
    if (fenced || first == (size_t)-1) {
        fm_buf_put(b, s, n);
        free(start);
        return;
    }
    size_t from = first, to = last; /* lines [from, to] go inside the fence */
    while (from > 0 && !blank_line(s + start[from - 1], start[from] - start[from - 1] - 1))
        from--;
    while (to + 1 < k && !blank_line(s + start[to + 1], start[to + 2] - start[to + 1] - 1))
        to++;
    size_t a = start[from], z = start[to + 1] > n ? n : start[to + 1];
    fm_buf_put(b, s, a);
    fm_buf_str(b, "```\n");
    fm_buf_put(b, s + a, z - a);
    if (!at_line_start(b))
        fm_buf_put(b, "\n", 1);
    fm_buf_str(b, "```\n");
    fm_buf_put(b, s + z, n - z);
    free(start);
}

/* ---------------------------------------------------------------- pages */

/* Offset of the first non-blank line (after a byte order mark). */
static size_t skip_blank_lines(const char *t, size_t len)
{
    size_t pos = len >= 3 && !memcmp(t, "\xEF\xBB\xBF", 3) ? 3 : 0;
    for (size_t i = pos; i < len; i++) {
        if (t[i] == '\n')
            pos = i + 1;
        else if (!blank(t[i]))
            break;
    }
    return pos;
}

static bool marker_line(const char *s, size_t n)
{
    if (n < 3 || (memcmp(s, "---", 3) && memcmp(s, "...", 3)))
        return false;
    for (size_t i = 3; i < n; i++)
        if (!blank(s[i]))
            return false;
    return true;
}

/* Where the body of a page starts: after a block front matter (0 when the
 * page has none); *one_line set for a "--- key: ..." front matter. */
static size_t body_start(const char *t, size_t len, bool *one_line)
{
    size_t pos = skip_blank_lines(t, len);
    *one_line = false;
    if (len - pos < 4 || memcmp(t + pos, "---", 3))
        return 0;
    if (t[pos + 3] == ' ' || t[pos + 3] == '\t') {
        *one_line = true;
        return pos;
    }
    size_t e = pos;
    while (e < len && t[e] != '\n')
        e++;
    if (!marker_line(t + pos, e - pos))
        return 0;
    for (size_t at = e + 1; at < len;) {
        size_t le = at;
        while (le < len && t[le] != '\n')
            le++;
        if (marker_line(t + at, le - at))
            return le < len ? le + 1 : le;
        at = le + 1;
    }
    return 0;
}

/* A body is flat when its text (blank ends aside) is one line of > 80 bytes. */
static bool body_flat(const char *s, size_t n)
{
    size_t a = 0, z = n;
    while (a < z && blank(s[a]))
        a++;
    while (z > a && blank(s[z - 1]))
        z--;
    return z - a > 80 && !memchr(s + a, '\n', z - a);
}

int tc_page_is_flat(const char *text, size_t len)
{
    if (!text)
        return 0;
    bool one_line;
    size_t body = body_start(text, len, &one_line);
    return one_line || body_flat(text + body, len - body);
}

char *tc_page_reflow(const char *text, size_t len, size_t *out_len, tc_error *err)
{
    if (!text) {
        tc_set_error(err, "no page text");
        return NULL;
    }
    fm_buf b = {0};
    name_set names = {.count = 0};
    word title_words[8];
    tc_variant_def def;
    tc_error ignored;
    bool one_line;
    size_t body = body_start(text, len, &one_line);
    if (one_line) {
        size_t at = skip_blank_lines(text, len) + 3, end = 0;
        fm_buf yaml = {0};
        if (fm_rebuild_one_line(text + at, len - at, true, &yaml, &end, err)) {
            free(yaml.p);
            return NULL;
        }
        fm_buf_str(&b, "---\n");
        fm_buf_put(&b, yaml.p ? yaml.p : "", yaml.len);
        fm_buf_str(&b, "---\n");
        free(yaml.p);
        body = at + end;
        if (!b.failed && tc_frontmatter_parse(b.p, b.len, &def, &ignored) == 0 && def.title[0])
            add_name_text(&names, title_words, 8, def.title);
    } else {
        fm_buf_put(&b, text, body);
        if (body && tc_frontmatter_parse(text, body, &def, &ignored) == 0 && def.title[0])
            add_name_text(&names, title_words, 8, def.title);
    }
    if (body_flat(text + body, len - body)) {
        if (body)
            fm_buf_put(&b, "\n", 1);
        /* the re-flowed body then goes through the step a body with lines
         * gets, so that re-flowing the result changes nothing (a diagram
         * left inside a paragraph is fenced now, not on the next pass) */
        fm_buf flowed = {0};
        reflow_body(text + body, len - body, &names, &flowed);
        if (flowed.failed)
            b.failed = true;
        else if (flowed.p)
            fence_plain_diagram(flowed.p, flowed.len, &b);
        free(flowed.p);
    } else {
        fence_plain_diagram(text + body, len - body, &b);
    }
    if (!b.p)
        fm_buf_put(&b, "", 0);
    if (b.failed) {
        free(b.p);
        tc_set_error(err, "out of memory");
        return NULL;
    }
    if (out_len)
        *out_len = b.len;
    return b.p;
}
