/* Variant pages whose front matter lost its line breaks, so that the whole
 * front matter sits on one line ("--- title: X engine: topology: type: grid
 * rows: 14 ... --- ## Body"). That is not YAML, but its structure can be
 * recovered: we split it into `key:` tokens and values (quoted strings, flow
 * collections, plain words up to the next key) and re-indent it, guided by a
 * small schema that says which keys open a mapping and which keys belong in
 * each mapping. A key goes into the innermost open mapping that lists it; a
 * key that no open mapping lists stays in the innermost one (so a stray key
 * inside `topology:` is still reported as unknown there). frontmatter.c then
 * reads the rebuilt text with libyaml like any other page.
 */
#include "frontmatter.h"

#include <ctype.h>
#include <stdlib.h>

/* ---------------------------------------------------------------- buffer */

void fm_buf_put(fm_buf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->failed = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void fm_buf_str(fm_buf *b, const char *s) { fm_buf_put(b, s, strlen(s)); }

/* ---------------------------------------------------------------- one-line pages */

/// One mapping of the page schema: the keys that belong in it, and the
/// mapping (by index) in which its own key sits.
typedef struct {
    const char *name;
    int parent;
    const char *const *keys;
} fm_schema;

static const char *const root_keys[] = {
    "title", "slug", "board", "players", "parent", "published", "notation", "win", "special",
    "description", "engine", "setup", "author", "authors", "date", "tags", "layout", "summary",
    "draft", "inventor", "source", NULL};
static const char *const engine_keys[] = {"topology", "players", "setup", "notation", NULL};
const char *const fm_topology_keys[] = {"type", "rows", "cols", "wrap", "files", "ranks", "seam", NULL};

static const fm_schema schema[] = {
    {"", -1, root_keys},
    {"engine", 0, engine_keys},
    {"topology", 1, fm_topology_keys},
};
#define NSCHEMA ((int)(sizeof schema / sizeof schema[0]))

static bool span_eq(const char *s, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(s, word, n) == 0;
}

static bool schema_lists(int level, const char *key, size_t n)
{
    for (const char *const *k = schema[level].keys; *k; k++)
        if (span_eq(key, n, *k))
            return true;
    return false;
}

/* The schema mapping that `key` opens inside mapping `level`, or -1. */
static int schema_opens(int level, const char *key, size_t n)
{
    for (int i = 0; i < NSCHEMA; i++)
        if (schema[i].parent == level && span_eq(key, n, schema[i].name))
            return i;
    return -1;
}

typedef enum { TK_KEY, TK_VALUE, TK_END, TK_ERROR } fm_token;

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }
static bool is_key_char(char ch) { return isalnum((unsigned char)ch) || ch == '_' || ch == '-' || ch == '.'; }

/* Reads the token at *pos into [*ts, *te). With need_marker the front matter
 * ends at a bare `---` word, else at the end of the text. */
static fm_token next_token(const char *s, size_t n, size_t *pos, size_t *ts, size_t *te, bool need_marker,
                           tc_error *err)
{
    size_t i = *pos;
    while (i < n && is_space(s[i]))
        i++;
    if (i >= n) {
        *pos = i;
        if (need_marker) {
            tc_set_error(err, "unterminated front matter: no closing '---'");
            return TK_ERROR;
        }
        return TK_END;
    }
    *ts = i;
    if (need_marker && n - i >= 3 && memcmp(s + i, "---", 3) == 0 && (n - i == 3 || is_space(s[i + 3]))) {
        *pos = i + 3;
        return TK_END;
    }
    char ch = s[i];
    if (ch == '"' || ch == '\'') {
        size_t j = i + 1;
        for (; j < n; j++) {
            if (ch == '"' && s[j] == '\\')
                j++;
            else if (s[j] == ch) {
                if (ch == '\'' && j + 1 < n && s[j + 1] == '\'')
                    j++;
                else
                    break;
            }
        }
        if (j >= n) {
            tc_set_error(err, "unterminated quoted string: %.*s", (int)(n - i < 30 ? n - i : 30), s + i);
            return TK_ERROR;
        }
        *te = *pos = j + 1;
        return TK_VALUE;
    }
    if (ch == '[' || ch == '{') {
        int depth = 0;
        char quote = 0;
        size_t j = i;
        for (; j < n; j++) {
            char c = s[j];
            if (quote) {
                if (quote == '"' && c == '\\')
                    j++;
                else if (c == quote)
                    quote = 0;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if ((c == ']' || c == '}') && --depth == 0) {
                break;
            }
        }
        if (j >= n) {
            tc_set_error(err, "unclosed '%c' in front matter: %.*s", ch, (int)(n - i < 30 ? n - i : 30), s + i);
            return TK_ERROR;
        }
        *te = *pos = j + 1;
        return TK_VALUE;
    }
    size_t j = i;
    while (j < n && !is_space(s[j]))
        j++;
    *pos = j;
    if (j - i >= 2 && s[j - 1] == ':') {
        bool key = true;
        for (size_t k = i; k < j - 1; k++)
            key &= is_key_char(s[k]);
        if (key) {
            *te = j - 1;
            return TK_KEY;
        }
    }
    *te = j;
    return TK_VALUE;
}

/* Writes a value of the one-line form back as YAML on one line. Line breaks
 * inside become spaces, as YAML folding would make them. */
static void put_value(fm_buf *b, const char *v, size_t n)
{
    bool quote = false;
    if (strchr("-?:,]}#&*!|>%@`", v[0]))
        quote = true;
    for (size_t i = 0; i + 1 < n; i++)
        if (v[i] == ' ' && v[i + 1] == '#')
            quote = true;
    if (v[0] == '"' || v[0] == '\'' || v[0] == '[' || v[0] == '{')
        quote = false;
    if (quote)
        fm_buf_put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        char ch = v[i];
        if (ch == '\r' || ch == '\n' || ch == '\t')
            ch = ' ';
        if (quote && (ch == '"' || ch == '\\'))
            fm_buf_put(b, "\\", 1);
        fm_buf_put(b, &ch, 1);
    }
    if (quote)
        fm_buf_put(b, "\"", 1);
}

/* Rebuilds an indented YAML text from front matter that lost its line
 * breaks (see the comment at the top of the file). */
int fm_rebuild_one_line(const char *s, size_t n, bool need_marker, fm_buf *out, size_t *end, tc_error *err)
{
    int stack[NSCHEMA] = {0};
    int depth = 1;
    size_t pos = 0, ts = 0, te = 0;
    const char *key = NULL;
    size_t klen = 0, vs = 0, ve = 0;
    bool have_value = false;
    for (;;) {
        fm_token t = next_token(s, n, &pos, &ts, &te, need_marker, err);
        if (t == TK_ERROR)
            return -1;
        if (t == TK_VALUE) {
            if (!key) {
                tc_set_error(err, "front matter: expected 'key:' but found '%.*s'",
                             (int)(te - ts > 30 ? 30 : te - ts), s + ts);
                return -1;
            }
            if (!have_value)
                vs = ts;
            ve = te;
            have_value = true;
            continue;
        }
        if (key) {
            /* Place the pending key in the innermost mapping that lists it. */
            int d = depth - 1;
            while (d >= 0 && !schema_lists(stack[d], key, klen))
                d--;
            if (d < 0)
                d = depth - 1;
            depth = d + 1;
            for (int k = 0; k < d; k++)
                fm_buf_str(out, "  ");
            fm_buf_put(out, key, klen);
            fm_buf_put(out, ":", 1);
            int opens = schema_opens(stack[d], key, klen);
            if (!have_value && opens >= 0 && depth < NSCHEMA)
                stack[depth++] = opens;
            if (have_value) {
                fm_buf_put(out, " ", 1);
                put_value(out, s + vs, ve - vs);
            }
            fm_buf_put(out, "\n", 1);
        }
        if (t == TK_END) {
            if (end)
                *end = pos;
            break;
        }
        key = s + ts;
        klen = te - ts;
        have_value = false;
    }
    if (out->failed) {
        tc_set_error(err, "out of memory");
        return -1;
    }
    if (!out->p)
        fm_buf_str(out, "");
    return 0;
}
