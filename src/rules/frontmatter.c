/* Variant pages: the YAML front matter of a Markdown page read into a
 * tc_variant_def (docs/rules.md section 3), and a definition written back as a
 * page.
 *
 * libyaml does all real parsing, so any layout an editor writes works: block
 * or flow style, quotes, comments, CRLF line ends.
 *
 * Some copies of the pages lost their line breaks, so the whole front matter
 * sits on one line; frontmatter_reflow.c rebuilds such a front matter as
 * indented YAML, which is then read like any other page.
 */
#include "frontmatter.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <yaml.h>

#define FM_MAX_PAGE (1L << 20)
#define FM_MAX_DEPTH 64

/* ---------------------------------------------------------------- errors */

/// Says where a node sits in the page for error messages: page line of the
/// first line of the YAML text, or no lines at all for a rebuilt one-liner.
typedef struct {
    yaml_document_t *doc;
    int line0;
    bool lines;
    int *setup_line; /* where the setup was read (0: no lines), or NULL */
} fm_ctx;

#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static int fm_fail(const fm_ctx *c, const yaml_node_t *n, tc_error *err, const char *fmt, ...)
{
    if (!err)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    if (c && c->lines && n) {
        size_t l = strlen(err->msg);
        snprintf(err->msg + l, sizeof err->msg - l, " (line %d)", c->line0 + (int)n->start_mark.line);
    }
    return -1;
}

/* Appends " (line N)" to err when the message names no line yet. */
static void add_line(tc_error *err, int line)
{
    if (err && line > 0 && !strstr(err->msg, "(line ")) {
        size_t l = strlen(err->msg);
        snprintf(err->msg + l, sizeof err->msg - l, " (line %d)", line);
    }
}

/* ---------------------------------------------------------------- YAML to def */

static const char *scalar(const yaml_node_t *n) { return (const char *)n->data.scalar.value; }

static bool is_null(const yaml_node_t *n)
{
    if (!n)
        return true;
    if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
        return false;
    const char *v = scalar(n);
    return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* A text field: a scalar, possibly empty. */
static int get_text(const fm_ctx *c, const yaml_node_t *n, const char *field, const char **out, tc_error *err)
{
    if (n->type != YAML_SCALAR_NODE)
        return fm_fail(c, n, err, "%s: expected a text value, not a list or mapping", field);
    *out = is_null(n) ? "" : scalar(n);
    if (strlen(*out) != n->data.scalar.length)
        return fm_fail(c, n, err, "%s: contains a NUL character", field);
    return 0;
}

/* A small whole number written in decimal digits (quoted or not). */
static int get_int(const fm_ctx *c, const yaml_node_t *n, const char *field, int *out, tc_error *err)
{
    if (n->type != YAML_SCALAR_NODE)
        return fm_fail(c, n, err, "%s: expected a whole number, not a list or mapping", field);
    const char *v = scalar(n);
    size_t i = v[0] == '+';
    int x = 0;
    size_t digits = 0;
    for (; v[i] >= '0' && v[i] <= '9' && digits < 5; i++, digits++)
        x = x * 10 + (v[i] - '0');
    if (!digits || v[i])
        return fm_fail(c, n, err, "%s: '%.30s' is not a whole number", field, v);
    *out = x;
    return 0;
}

/// The mapping nodes and values of one page, gathered before they are
/// checked against each other.
typedef struct {
    const yaml_node_t *engine, *topology, *setup_top, *setup_engine, *notation_top, *notation_engine;
    const yaml_node_t *title, *slug, *special, *description;
    const yaml_node_t *topo[7]; /* indexed like fm_topology_keys */
} fm_fields;

/* Looks up key in a NULL-terminated list; -1 if absent. */
static int key_index(const char *const *list, const char *key)
{
    for (int i = 0; list[i]; i++)
        if (!strcmp(list[i], key))
            return i;
    return -1;
}

/* Stores value in *slot, refusing a second occurrence of the same key. */
static int take(const fm_ctx *c, const yaml_node_t *k, const yaml_node_t *v, const yaml_node_t **slot,
                const char *where, tc_error *err)
{
    if (*slot)
        return fm_fail(c, k, err, "%s: duplicate key '%s'", where, scalar(k));
    *slot = v;
    return 0;
}

/* Walks one mapping; calls visit for each key with a scalar name. */
typedef int (*fm_visit)(const fm_ctx *c, fm_fields *f, const yaml_node_t *k, const yaml_node_t *v,
                        tc_error *err);

static int walk(const fm_ctx *c, const yaml_node_t *map, const char *where, fm_fields *f, fm_visit visit,
                tc_error *err)
{
    if (map->type != YAML_MAPPING_NODE)
        return fm_fail(c, map, err, "%s: expected a mapping of 'key: value' entries", where);
    for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
        const yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
        if (!k || !v)
            return fm_fail(c, map, err, "%s: malformed entry", where);
        if (k->type != YAML_SCALAR_NODE)
            return fm_fail(c, k, err, "%s: a key must be a plain word", where);
        if (visit(c, f, k, v, err))
            return -1;
    }
    return 0;
}

static int visit_topology(const fm_ctx *c, fm_fields *f, const yaml_node_t *k, const yaml_node_t *v,
                          tc_error *err)
{
    int i = key_index(fm_topology_keys, scalar(k));
    if (i < 0)
        return fm_fail(c, k, err,
                       "engine.topology: unknown key '%.40s' (known: type, rows, cols, wrap, files, ranks, seam)",
                       scalar(k));
    return take(c, k, v, &f->topo[i], "engine.topology", err);
}

static int visit_engine(const fm_ctx *c, fm_fields *f, const yaml_node_t *k, const yaml_node_t *v,
                        tc_error *err)
{
    const char *key = scalar(k);
    if (!strcmp(key, "topology"))
        return take(c, k, v, &f->topology, "engine", err);
    if (!strcmp(key, "setup"))
        return take(c, k, v, &f->setup_engine, "engine", err);
    if (!strcmp(key, "notation"))
        return take(c, k, v, &f->notation_engine, "engine", err);
    if (!strcmp(key, "players"))
        return 0;
    return fm_fail(c, k, err, "engine: unknown key '%.40s' (known: topology, setup, notation, players)", key);
}

static int visit_root(const fm_ctx *c, fm_fields *f, const yaml_node_t *k, const yaml_node_t *v,
                      tc_error *err)
{
    static const char *const mine[] = {"engine", "setup", "notation", "title", "slug", "special", "description",
                                       NULL};
    const yaml_node_t **slots[] = {&f->engine, &f->setup_top, &f->notation_top, &f->title,
                                   &f->slug,   &f->special,   &f->description};
    int i = key_index(mine, scalar(k));
    return i < 0 ? 0 : take(c, k, v, slots[i], "front matter", err); /* other page keys are not ours */
}

/// What one `wrap:` value means: the default file and rank rules, which
/// `files:` and `ranks:` fields then override (docs/rules.md section 3).
typedef struct {
    const char *name;
    tc_file_rule files;
    tc_rank_rule ranks;
} fm_wrap;

static const fm_wrap wraps[] = {
    {"none", TC_FILES_OPEN, TC_RANKS_OPEN},
    {"cylinder", TC_FILES_WRAP, TC_RANKS_OPEN},
    {"rank-cylinder", TC_FILES_OPEN, TC_RANKS_WRAP},
    {"torus", TC_FILES_WRAP, TC_RANKS_WRAP},
    {"mobius", TC_FILES_OPEN, TC_RANKS_TWIST},
    {"klein-bottle", TC_FILES_WRAP, TC_RANKS_TWIST},
    {"fold", TC_FILES_WRAP, TC_RANKS_FOLD},
};
#define NWRAPS ((int)(sizeof wraps / sizeof wraps[0]))

static const char *const file_names[] = {"open", "wrap", NULL};
static const char *const rank_names[] = {"open", "wrap", "twist", "fold", NULL};

/* Copies one line of text into dst (size n), whitespace runs made single
 * spaces; a text that does not fit is cut at a word and ends in "...". */
static void one_line(char *dst, size_t n, const char *src)
{
    size_t len = 0;
    bool space = false;
    for (const char *s = src; *s && *s != '\n'; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\r') {
            space = len > 0;
            continue;
        }
        if (space && len + 1 < n)
            dst[len++] = ' ';
        space = false;
        if (len + 1 >= n) {
            /* Too long: back up to a word boundary and mark the cut. */
            size_t cut = n - 4;
            while (cut > 0 && dst[cut] != ' ')
                cut--;
            if (cut == 0) {
                cut = n - 4;
                while (cut > 0 && ((unsigned char)dst[cut] & 0xC0) == 0x80)
                    cut--;
            }
            while (cut > 0 && strchr(" .,;:", dst[cut - 1]))
                cut--; /* "ranks...." reads badly */
            memcpy(dst + cut, "...", 4);
            return;
        }
        dst[len++] = *s;
    }
    dst[len] = '\0';
}

/* Lowercase ASCII words joined by dashes; Latin-1 letters lose their accents. */
static void slugify(char *dst, size_t n, const char *src)
{
    static const char latin1[] = "aaaaaaaceeeeiiiidnooooo-ouuuuytsaaaaaaaceeeeiiiidnooooo-ouuuuyty";
    size_t len = 0;
    bool dash = false;
    for (const unsigned char *s = (const unsigned char *)src; *s && len + 1 < n; s++) {
        char ch = 0;
        if (isalnum(*s) && *s < 128)
            ch = (char)tolower(*s);
        else if (*s == 0xC3 && s[1] >= 0x80 && s[1] <= 0xBF)
            ch = latin1[*++s - 0x80];
        if (ch && ch != '-') {
            if (dash && len > 0 && len + 2 < n)
                dst[len++] = '-';
            dash = false;
            dst[len++] = ch;
        } else {
            dash = true;
        }
    }
    dst[len] = '\0';
}

static int lookup(const fm_ctx *c, const yaml_node_t *n, const char *field, const char *const *names,
                  int *out, tc_error *err)
{
    const char *v = "";
    if (get_text(c, n, field, &v, err))
        return -1;
    int i = key_index(names, v);
    if (i < 0) {
        char known[128] = "";
        for (int k = 0; names[k]; k++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", k ? ", " : "", names[k]);
        return fm_fail(c, n, err, "%s: unknown value '%.30s' (expected %s)", field, v, known);
    }
    *out = i;
    return 0;
}

static int read_topology(const fm_ctx *c, const fm_fields *f, tc_variant_def *d, tc_error *err)
{
    const yaml_node_t *const *t = f->topo; /* type rows cols wrap files ranks seam */
    static const char *const required[] = {"type", "rows", "cols", "wrap"};
    if (is_null(t[0]))
        return fm_fail(c, f->topology, err, "engine.topology: missing 'type'");
    /* the type first: another type's page need not have a grid's fields */
    const char *type;
    if (get_text(c, t[0], "engine.topology.type", &type, err))
        return -1;
    if (!strcmp(type, "hex") || !strcmp(type, "hexagonal"))
        return fm_fail(c, t[0], err,
                       "engine.topology.type: hex boards are not supported: topochess plays square grids "
                       "(type: grid) with joined edges");
    if (strcmp(type, "grid"))
        return fm_fail(c, t[0], err, "engine.topology.type: '%.30s' is not supported (only grid)", type);
    for (int i = 1; i < 4; i++)
        if (is_null(t[i]))
            return fm_fail(c, f->topology, err, "engine.topology: missing '%s'", required[i]);
    if (get_int(c, t[1], "engine.topology.rows", &d->height, err) ||
        get_int(c, t[2], "engine.topology.cols", &d->width, err))
        return -1;
    if (d->height < 2 || d->height > TC_MAX_RANKS)
        return fm_fail(c, t[1], err, "engine.topology.rows: %d is out of range (2..%d)", d->height,
                       TC_MAX_RANKS);
    if (d->width < 2 || d->width > TC_MAX_FILES)
        return fm_fail(c, t[2], err, "engine.topology.cols: %d is out of range (2..%d)", d->width,
                       TC_MAX_FILES);
    static const char *const wrap_names[] = {"none",  "cylinder",     "rank-cylinder", "torus",
                                             "mobius", "klein-bottle", "fold",          NULL};
    int w;
    if (lookup(c, t[3], "engine.topology.wrap", wrap_names, &w, err))
        return -1;
    /* wrap gives the defaults; files: and ranks: each override their part */
    d->files = wraps[w].files;
    d->ranks = wraps[w].ranks;
    if (!is_null(t[4])) {
        int fr;
        if (lookup(c, t[4], "engine.topology.files", file_names, &fr, err))
            return -1;
        d->files = (tc_file_rule)fr;
    }
    if (!is_null(t[5])) {
        int rr;
        if (lookup(c, t[5], "engine.topology.ranks", rank_names, &rr, err))
            return -1;
        d->ranks = (tc_rank_rule)rr;
    }
    d->seam = 0;
    if (d->ranks == TC_RANKS_TWIST)
        d->seam = d->height == 14 ? 11 : d->height;
    if (!is_null(t[6])) {
        if (d->ranks != TC_RANKS_TWIST)
            return fm_fail(c, t[6], err,
                           "engine.topology.seam: given, but the ranks %s (a seam goes with ranks: twist)",
                           d->ranks == TC_RANKS_OPEN ? "are open"
                           : d->ranks == TC_RANKS_WRAP ? "wrap"
                                                       : "fold");
        if (get_int(c, t[6], "engine.topology.seam", &d->seam, err))
            return -1;
        if (d->seam < 1 || d->seam > d->height)
            return fm_fail(c, t[6], err, "engine.topology.seam: %d is not a rank of the board (1..%d)",
                           d->seam, d->height);
    }
    return 0;
}

static int check_notation(const fm_ctx *c, const yaml_node_t *n, const char *field, tc_error *err)
{
    const char *v = "";
    if (!n)
        return 0;
    if (get_text(c, n, field, &v, err))
        return -1;
    if (strcmp(v, "algebraic"))
        return fm_fail(c, n, err, "%s: '%.30s' is not supported (only algebraic)", field, v);
    return 0;
}

/* Turns a loaded front matter document into a definition. */
static int read_document(const fm_ctx *c, tc_variant_def *d, tc_error *err)
{
    fm_fields f;
    memset(&f, 0, sizeof f);
    const yaml_node_t *root = yaml_document_get_root_node(c->doc);
    if (!root || is_null(root)) {
        tc_set_error(err, "front matter is empty");
        return -1;
    }
    if (walk(c, root, "front matter", &f, visit_root, err))
        return -1;
    if (!f.engine || is_null(f.engine))
        return fm_fail(c, root, err, "front matter: missing 'engine' (with engine.topology and setup)");
    if (walk(c, f.engine, "engine", &f, visit_engine, err))
        return -1;
    if (!f.topology || is_null(f.topology))
        return fm_fail(c, f.engine, err, "engine: missing 'topology'");
    if (walk(c, f.topology, "engine.topology", &f, visit_topology, err) || read_topology(c, &f, d, err))
        return -1;
    if (check_notation(c, f.notation_top, "notation", err) ||
        check_notation(c, f.notation_engine, "engine.notation", err))
        return -1;

    const char *setup = "", *other = "";
    if (f.setup_engine && get_text(c, f.setup_engine, "engine.setup", &setup, err))
        return -1;
    if (f.setup_top && get_text(c, f.setup_top, "setup", &other, err))
        return -1;
    if (*setup && *other && strcmp(setup, other))
        return fm_fail(c, f.setup_top, err, "setup: given at top level and under engine, differently");
    if (!*setup)
        setup = other;
    if (!*setup)
        return fm_fail(c, f.engine, err, "engine: missing 'setup' (the FEN board field)");
    if (strlen(setup) >= sizeof d->setup)
        return fm_fail(c, f.setup_engine ? f.setup_engine : f.setup_top, err,
                       "setup: too long (%zu characters, at most %zu)", strlen(setup), sizeof d->setup - 1);
    memcpy(d->setup, setup, strlen(setup) + 1);
    const yaml_node_t *setup_node = f.setup_engine ? f.setup_engine : f.setup_top;
    int setup_line = c->lines && setup_node ? c->line0 + (int)setup_node->start_mark.line : 0;
    if (c->setup_line)
        *c->setup_line = setup_line;

    const char *title = "", *slug = "", *desc = "";
    if ((f.title && get_text(c, f.title, "title", &title, err)) ||
        (f.slug && get_text(c, f.slug, "slug", &slug, err)))
        return -1;
    if (f.description ? get_text(c, f.description, "description", &desc, err)
                      : f.special ? get_text(c, f.special, "special", &desc, err) : 0)
        return -1;
    one_line(d->title, sizeof d->title, title);
    one_line(d->description, sizeof d->description, desc);
    slugify(d->name, sizeof d->name, *slug ? slug : title);
    if (!d->name[0])
        snprintf(d->name, sizeof d->name, "custom");

    if (tc_variant_def_check(d, err))
        return -1;
    uint8_t board[TC_MAX_CELLS];
    if (tc_board_parse(d->width, d->height, d->setup, strlen(d->setup), board, err)) {
        /* a whole FEN pasted where its board field belongs: say so */
        size_t field = strcspn(d->setup, " \t");
        if (d->setup[field] && !tc_board_parse(d->width, d->height, d->setup, field, board, NULL))
            tc_set_error(err, "setup: a FEN's board field only; drop '%.40s' after it (the side to move, castling "
                              "and the rest follow from the rules)", d->setup + field + strspn(d->setup + field, " \t"));
        else
            tc_error_prefix(err, "setup: ");
        add_line(err, setup_line);
        return -1;
    }
    return 0;
}

/* libyaml slows down quadratically with the depth of flow collections, so
 * absurd nesting is refused before it gets the text. Quotes and comments are
 * skipped roughly: a false alarm needs that many open brackets in prose. */
static bool too_deep(const char *s, size_t n)
{
    int depth = 0;
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i], prev = i ? s[i - 1] : ' ';
        if (quote) {
            if (quote == '"' && c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if ((c == '"' || c == '\'') && strchr(" \t\r\n[{,:", prev)) {
            quote = c;
        } else if (c == '#' && strchr(" \t\r\n", prev)) {
            while (i + 1 < n && s[i + 1] != '\n')
                i++;
        } else if (c == '[' || c == '{') {
            if (++depth > FM_MAX_DEPTH)
                return true;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return false;
}

/* Loads YAML text with libyaml and converts it. Returns 1 when libyaml
 * itself rejected the text (err says why), -1 on any other error. */
static int parse_yaml(const char *yaml, size_t len, int line0, bool lines, int *setup_line, tc_variant_def *d,
                      tc_error *err)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    if (too_deep(yaml, len)) {
        tc_set_error(err, "front matter nests '[' or '{' more than %d deep", FM_MAX_DEPTH);
        return -1;
    }
    if (!yaml_parser_initialize(&parser)) {
        tc_set_error(err, "out of memory");
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
    if (!yaml_parser_load(&parser, &doc)) {
        if (lines)
            tc_set_error(err, "YAML syntax error: %s%s%s at line %d, column %d",
                         parser.context ? parser.context : "", parser.context ? ": " : "",
                         parser.problem ? parser.problem : "unknown problem",
                         line0 + (int)parser.problem_mark.line, (int)parser.problem_mark.column + 1);
        else
            tc_set_error(err, "YAML syntax error in the one-line front matter: %s",
                         parser.problem ? parser.problem : "unknown problem");
        yaml_parser_delete(&parser);
        return 1;
    }
    fm_ctx c = {&doc, line0, lines, setup_line};
    int rc = read_document(&c, d, err);
    if (rc == 0) {
        yaml_document_t next;
        if (!yaml_parser_load(&parser, &next)) {
            rc = 1;
            tc_set_error(err, "YAML syntax error after the first document: %s",
                         parser.problem ? parser.problem : "unknown problem");
        } else {
            if (yaml_document_get_root_node(&next)) {
                tc_set_error(err, "front matter holds more than one YAML document");
                rc = -1;
            }
            yaml_document_delete(&next);
        }
    }
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    return rc;
}

/* Returns like parse_yaml: 1 when the text has no recognisable structure. */
static int parse_one_line(const char *s, size_t n, bool need_marker, tc_variant_def *d, tc_error *err)
{
    fm_buf b = {0};
    int rc = fm_rebuild_one_line(s, n, need_marker, &b, NULL, err) ? 1 : 0;
    if (rc == 0)
        rc = parse_yaml(b.p, b.len, 1, false, NULL, d, err);
    free(b.p);
    return rc;
}

/* ---------------------------------------------------------------- pages */

/* Length of the line at s (without its line break) and of the break. */
static size_t line_len(const char *s, size_t n, size_t *brk)
{
    size_t i = 0;
    while (i < n && s[i] != '\n')
        i++;
    *brk = i < n;
    return i;
}

/* A line that holds only `marker` and trailing blanks. */
static bool is_marker_line(const char *s, size_t n, const char *marker)
{
    if (n < 3 || memcmp(s, marker, 3) != 0)
        return false;
    for (size_t i = 3; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    return true;
}

/* tc_frontmatter_parse; *setup_line (when not NULL) is then the page
 * line of the setup (0 when the page has no lines of its own). */
static int parse_page(const char *text, size_t len, tc_variant_def *out, int *setup_line, tc_error *err)
{
    tc_variant_def d;
    memset(&d, 0, sizeof d);
    if (!text || len == 0) {
        tc_set_error(err, "empty page: expected front matter between '---' lines");
        return -1;
    }
    if (len > (size_t)FM_MAX_PAGE) {
        tc_set_error(err, "page too large (%zu bytes, at most 1 MB)", len);
        return -1;
    }
    size_t pos = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        pos = 3;
    int line = 1;
    size_t brk;
    for (;;) { /* blank lines before the front matter are harmless */
        size_t l = line_len(text + pos, len - pos, &brk);
        bool blank = true;
        for (size_t i = 0; i < l; i++)
            blank &= text[pos + i] == ' ' || text[pos + i] == '\t' || text[pos + i] == '\r';
        if (!blank || !brk)
            break;
        pos += l + 1;
        line++;
    }
    if (len - pos < 3 || memcmp(text + pos, "---", 3) != 0) {
        tc_set_error(err, "no front matter: a variant page must begin with a '---' line");
        return -1;
    }
    size_t first = line_len(text + pos, len - pos, &brk);
    int rc;
    if (is_marker_line(text + pos, first, "---")) {
        /* Block form: the YAML text runs up to a line holding only --- or .... */
        size_t body = pos + first + brk, at = body, end = 0;
        int nonblank = 0;
        bool closed = false;
        while (at < len) {
            size_t l = line_len(text + at, len - at, &brk);
            if (is_marker_line(text + at, l, "---") || is_marker_line(text + at, l, "...")) {
                closed = true;
                end = at;
                break;
            }
            bool blank = true;
            for (size_t i = 0; i < l; i++)
                blank &= text[at + i] == ' ' || text[at + i] == '\t' || text[at + i] == '\r';
            nonblank += !blank;
            at += l + brk;
        }
        if (!closed) {
            tc_set_error(err, "unterminated front matter: no closing '---' line after line %d", line);
            return -1;
        }
        rc = parse_yaml(text + body, end - body, line + 1, true, setup_line, &d, err);
        if (rc == 1 && nonblank == 1) {
            /* One line that is not YAML: maybe a front matter that lost its
             * line breaks. Keep libyaml's message unless that reading finds
             * a structure (and then maybe a more useful complaint). */
            tc_variant_def d2;
            memset(&d2, 0, sizeof d2);
            tc_error e2;
            int rc2 = parse_one_line(text + body, end - body, false, &d2, &e2);
            if (rc2 == 0) {
                d = d2;
                rc = 0;
            } else if (rc2 == -1 && err) {
                *err = e2;
            }
        }
    } else if (text[pos + 3] == ' ' || text[pos + 3] == '\t') {
        rc = parse_one_line(text + pos + 3, len - pos - 3, true, &d, err);
    } else {
        tc_set_error(err, "no front matter: a variant page must begin with a '---' line");
        return -1;
    }
    if (rc)
        return -1;
    *out = d;
    return 0;
}

int tc_frontmatter_parse(const char *text, size_t len, tc_variant_def *out, tc_error *err)
{
    return parse_page(text, len, out, NULL, err);
}

tc_variant *tc_frontmatter_variant(const char *text, size_t len, tc_variant_def *def, tc_error *err)
{
    tc_variant_def d;
    int setup_line = 0;
    if (parse_page(text, len, &d, &setup_line, err))
        return NULL;
    if (def)
        *def = d;
    tc_variant *v = tc_variant_new(&d, err);
    if (!v && err && !strncmp(err->msg, "setup:", 6))
        add_line(err, setup_line);
    return v;
}

int tc_variant_file_load(const char *path, tc_variant_def *out, tc_error *err)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        tc_set_error(err, "%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *buf = malloc((size_t)FM_MAX_PAGE + 1);
    if (!buf) {
        fclose(fp);
        tc_set_error(err, "%s: out of memory", path);
        return -1;
    }
    size_t n = fread(buf, 1, (size_t)FM_MAX_PAGE + 1, fp);
    int bad = ferror(fp), saved = errno;
    fclose(fp);
    int rc = -1;
    if (bad)
        tc_set_error(err, "%s: cannot read: %s", path, strerror(saved));
    else if (n > (size_t)FM_MAX_PAGE)
        tc_set_error(err, "%s: file is larger than 1 MB", path);
    else {
        /* the tables are made here too (a few milliseconds), so that what
         * only the board refuses (kings touching across a join) names the
         * setup's line, as the site and the editor say it */
        tc_variant *v = tc_frontmatter_variant(buf, n, out, err);
        rc = v ? 0 : -1;
        tc_variant_free(v);
        if (rc) {
            char prefix[300];
            snprintf(prefix, sizeof prefix, "%.280s: ", path);
            tc_error_prefix(err, prefix);
        }
    }
    free(buf);
    return rc;
}

/* ---------------------------------------------------------------- writing */

static void put_quoted(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(out, "\\%c", ch);
        else if (ch < 0x20 || ch == 0x7f)
            fprintf(out, "\\x%02x", ch);
        else
            fputc(ch, out);
    }
    fputc('"', out);
}

void tc_variant_def_write_page(const tc_variant_def *def, FILE *out)
{
    /* the wrap with both rules, else one with the same ranks (files: then
     * overrides it) */
    const char *wrap = NULL;
    for (int i = 0; i < NWRAPS && !wrap; i++)
        if (wraps[i].ranks == def->ranks && wraps[i].files == def->files)
            wrap = wraps[i].name;
    for (int i = 0; i < NWRAPS && !wrap; i++)
        if (wraps[i].ranks == def->ranks)
            wrap = wraps[i].name;
    if (!wrap)
        wrap = "none";
    fputs("---\ntitle: ", out);
    put_quoted(out, def->title);
    fputs("\nslug: ", out);
    put_quoted(out, def->name);
    fputs("\ndescription: ", out);
    put_quoted(out, def->description);
    fprintf(out,
            "\nengine:\n  topology:\n    type: grid\n    rows: %d\n    cols: %d\n    wrap: %s\n"
            "    files: %s\n    ranks: %s\n",
            def->height, def->width, wrap, def->files == TC_FILES_WRAP ? "wrap" : "open",
            (unsigned)def->ranks < 4 ? rank_names[def->ranks] : "open");
    if (def->ranks == TC_RANKS_TWIST)
        fprintf(out, "    seam: %d\n", def->seam);
    fputs("  setup: ", out);
    put_quoted(out, def->setup);
    fputs("\n  notation: algebraic\n---\n\n## ", out);
    fputs(def->title[0] ? def->title : def->name, out);
    fputs("\n\n", out);
    if (def->description[0])
        fprintf(out, "%s\n", def->description);
}
