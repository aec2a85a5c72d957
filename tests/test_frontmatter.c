/* Variant pages: the pages under variants/ and the seed pages load to their presets,
 * every `wrap:` value means what docs/rules.md section 3 says, layouts that YAML
 * treats alike give the same definition, bad pages give errors that name the
 * problem, and written pages read back to the definition they came from. */
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define L_SETUP "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#define S_SETUP "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

static int parse(const char *text, tc_variant_def *d, tc_error *e)
{
    memset(d, 0x5a, sizeof *d); /* garbage, so nothing passes by accident */
    e->msg[0] = '\0';
    return tc_frontmatter_parse(text, strlen(text), d, e);
}

static const char *rank_text(tc_rank_rule r)
{
    static const char *const names[] = {"open", "wrap", "twist", "fold"};
    return (unsigned)r < 4 ? names[r] : "?";
}

/* The topology fields and the setup agree. */
static void check_same_board(const tc_variant_def *got, const tc_variant_def *want, const char *what)
{
    CHECK(got->width == want->width, "%s: width %d, want %d", what, got->width, want->width);
    CHECK(got->height == want->height, "%s: height %d, want %d", what, got->height, want->height);
    CHECK(got->files == want->files, "%s: files %d, want %d", what, got->files, want->files);
    CHECK(got->ranks == want->ranks, "%s: ranks %s, want %s", what, rank_text(got->ranks),
          rank_text(want->ranks));
    CHECK(got->seam == want->seam, "%s: seam %d, want %d", what, got->seam, want->seam);
    CHECK(strcmp(got->setup, want->setup) == 0, "%s: setup '%s', want '%s'", what, got->setup, want->setup);
}

static void check_same_def(const tc_variant_def *got, const tc_variant_def *want, const char *what)
{
    check_same_board(got, want, what);
    CHECK(strcmp(got->name, want->name) == 0, "%s: name '%s', want '%s'", what, got->name, want->name);
    CHECK(strcmp(got->title, want->title) == 0, "%s: title '%s', want '%s'", what, got->title, want->title);
}

/* ---------------------------------------------------------------- pages */

static void test_variant_pages(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *want = tc_preset(i);
        char path[128];
        snprintf(path, sizeof path, "variants/%s.md", want->name);
        th_case("variants/%s.md loads to its preset", want->name);
        tc_variant_def d;
        tc_error e;
        int rc = tc_variant_file_load(path, &d, &e);
        CHECK(rc == 0, "%s: %s", path, e.msg);
        if (rc)
            continue;
        check_same_def(&d, want, path);
        tc_variant *v = tc_variant_new(&d, &e);
        CHECK(v != NULL, "%s: tc_variant_new: %s", path, e.msg);
        tc_variant_free(v);
    }

    th_case("every page under variants/ is a preset");
    DIR *dir = opendir("variants");
    CHECK(dir != NULL, "cannot open variants/");
    int pages = 0;
    for (struct dirent *ent; dir && (ent = readdir(dir));) {
        size_t n = strlen(ent->d_name);
        if (n < 4 || strcmp(ent->d_name + n - 3, ".md") != 0)
            continue;
        pages++;
        char path[300];
        snprintf(path, sizeof path, "variants/%s", ent->d_name);
        tc_variant_def d, p;
        tc_error e;
        CHECK(tc_variant_file_load(path, &d, &e) == 0, "%s: %s", path, e.msg);
        CHECK(tc_preset_find(d.name, &p, &e) == 0 && strcmp(p.name, d.name) == 0, "%s: name '%s' is no preset",
              path, d.name);
        char want[300];
        snprintf(want, sizeof want, "%s.md", d.name);
        CHECK(strcmp(want, ent->d_name) == 0, "%s: page named after '%s'", path, d.name);
    }
    if (dir)
        closedir(dir);
    CHECK(pages == tc_preset_count(), "%d pages for %d presets", pages, tc_preset_count());
}

/* The seed pages whose front matter lost its line breaks. */
static void check_seed(const char *path, const char *preset, const char *name, const char *title)
{
    th_case("seed %s is %s", path, preset);
    tc_variant_def d, want;
    tc_error e;
    CHECK(tc_preset_find(preset, &want, &e) == 0, "%s", e.msg);
    int rc = tc_variant_file_load(path, &d, &e);
    CHECK(rc == 0, "%s: %s", path, e.msg);
    if (rc)
        return;
    check_same_board(&d, &want, path);
    CHECK(strcmp(d.name, name) == 0, "%s: name '%s', want '%s'", path, d.name, name);
    CHECK(strcmp(d.title, title) == 0, "%s: title '%s', want '%s'", path, d.title, title);
    CHECK(strncmp(d.description, "Chess on a ", 11) == 0 && !strchr(d.description, '\n'),
          "%s: description '%s'", path, d.description);
    /* The slug is a preset alias, so the page and the preset agree on it. */
    tc_variant_def by_alias;
    CHECK(tc_preset_find(d.name, &by_alias, &e) == 0 && strcmp(by_alias.name, preset) == 0,
          "%s: slug '%s' does not find preset %s", path, d.name, preset);
}

static void test_seeds(void)
{
    check_seed("tests/data/seeds/000_95dbf7b39fde5649.txt", "klein-bottle", "klein-bottle-chess",
               "Klein Bottle Chess");
    check_seed("tests/data/seeds/001_e2abbc470f38c59c.txt", "mobius", "mobius-strip-chess",
               "M\xc3\xb6" "bius Strip Chess");
    if (access("../shared/seeds", R_OK) != 0)
        return; /* only the copies are at hand */
    check_seed("../shared/seeds/000_95dbf7b39fde5649.txt", "klein-bottle", "klein-bottle-chess",
               "Klein Bottle Chess");
    check_seed("../shared/seeds/001_e2abbc470f38c59c.txt", "mobius", "mobius-strip-chess",
               "M\xc3\xb6" "bius Strip Chess");
}

/* ---------------------------------------------------------------- wrap values */

static void wrap_page(char *buf, size_t n, const char *wrap, int rows, const char *extra)
{
    snprintf(buf, n,
             "---\ntitle: Test\nengine:\n  topology:\n    type: grid\n    rows: %d\n    cols: 8\n"
             "    wrap: %s\n%s  setup: \"%s\"\n---\n",
             rows, wrap, extra, rows == 14 ? L_SETUP : S_SETUP);
}

static void test_wrap_values(void)
{
    /* docs/rules.md section 3, written out independently of the parser's table. */
    static const struct {
        const char *wrap;
        tc_file_rule files;
        tc_rank_rule ranks;
        int seam14, seam8;
    } table[] = {
        {"none", TC_FILES_OPEN, TC_RANKS_OPEN, 0, 0},
        {"cylinder", TC_FILES_WRAP, TC_RANKS_OPEN, 0, 0},
        {"rank-cylinder", TC_FILES_OPEN, TC_RANKS_WRAP, 0, 0},
        {"torus", TC_FILES_WRAP, TC_RANKS_WRAP, 0, 0},
        {"mobius", TC_FILES_OPEN, TC_RANKS_TWIST, 11, 8},
        {"klein-bottle", TC_FILES_WRAP, TC_RANKS_TWIST, 11, 8},
        {"fold", TC_FILES_WRAP, TC_RANKS_FOLD, 0, 0},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        for (int rows = 8; rows <= 14; rows += 6) {
            th_case("wrap: %s on %d ranks", table[i].wrap, rows);
            char page[512];
            wrap_page(page, sizeof page, table[i].wrap, rows, "");
            tc_variant_def d;
            tc_error e;
            int rc = parse(page, &d, &e);
            CHECK(rc == 0, "%s", e.msg);
            if (rc)
                continue;
            CHECK(d.width == 8 && d.height == rows, "size %dx%d", d.width, d.height);
            CHECK(d.files == table[i].files, "files %d", d.files);
            CHECK(d.ranks == table[i].ranks, "ranks %s", rank_text(d.ranks));
            int seam = rows == 14 ? table[i].seam14 : table[i].seam8;
            CHECK(d.seam == seam, "seam %d, want %d", d.seam, seam);
        }

    th_case("wrap: mobius and klein-bottle step as docs/rules.md section 2 says");
    {
        char page[512];
        tc_variant_def d;
        tc_error e;
        wrap_page(page, sizeof page, "mobius", 14, "");
        tc_variant *v = parse(page, &d, &e) == 0 ? tc_variant_new(&d, &e) : NULL;
        CHECK(v != NULL, "%s", e.msg);
        if (v) {
            tc_step_result r = tc_step(v, tc_cell_parse(v, "a11"), 0, 1);
            CHECK(r.cell == tc_cell_parse(v, "h12"), "mobius a11 N");
            r = tc_step(v, tc_cell_parse(v, "h11"), 1, 1);
            CHECK(r.cell == -1, "mobius h11 NE leaves the board");
            tc_variant_free(v);
        }
        wrap_page(page, sizeof page, "klein-bottle", 14, "");
        v = parse(page, &d, &e) == 0 ? tc_variant_new(&d, &e) : NULL;
        CHECK(v != NULL, "%s", e.msg);
        if (v) {
            tc_step_result r = tc_step(v, tc_cell_parse(v, "h11"), 1, 1);
            CHECK(r.cell == tc_cell_parse(v, "h12"), "klein h11 NE");
            tc_variant_free(v);
        }
    }

    th_case("files/ranks/seam fields that agree or refine");
    {
        char page[512];
        tc_variant_def d;
        tc_error e;
        wrap_page(page, sizeof page, "mobius", 14, "    ranks: twist\n    seam: 7\n    files: open\n");
        CHECK(parse(page, &d, &e) == 0 && d.seam == 7 && d.ranks == TC_RANKS_TWIST, "seam 7: %s", e.msg);
        wrap_page(page, sizeof page, "klein-bottle", 8, "    seam: 4\n");
        CHECK(parse(page, &d, &e) == 0 && d.seam == 4 && d.files == TC_FILES_WRAP, "seam 4: %s", e.msg);
        wrap_page(page, sizeof page, "torus", 14, "    files: wrap\n    ranks: wrap\n");
        CHECK(parse(page, &d, &e) == 0 && d.files == TC_FILES_WRAP && d.ranks == TC_RANKS_WRAP, "torus: %s",
              e.msg);
        wrap_page(page, sizeof page, "fold", 8, "    files: open\n");
        CHECK(parse(page, &d, &e) == 0 && d.files == TC_FILES_OPEN && d.ranks == TC_RANKS_FOLD,
              "fold with open files: %s", e.msg);
    }
}

/* ---------------------------------------------------------------- layouts */

static void test_layouts(void)
{
    static const char *const pages[] = {
        /* block */
        "---\ntitle: Klein Bottle Chess\nslug: klein-bottle\nengine:\n  topology:\n    type: grid\n"
        "    rows: 14\n    cols: 8\n    wrap: klein-bottle\n  setup: \"" L_SETUP "\"\n---\n# body\n",
        /* flow */
        "---\n{title: 'Klein Bottle Chess', slug: klein-bottle, engine: {topology: {type: grid, rows: 14,"
        " cols: 8, wrap: klein-bottle}, setup: \"" L_SETUP "\"}}\n---\n",
        /* mixed, setup at top level, comments, extra page keys */
        "---\n# a comment line\ntitle: \"Klein Bottle Chess\"   # trailing comment\nslug: 'klein-bottle'\n"
        "players: [white, black]\npublished: true\nengine:\n  topology: {type: grid, rows: 14, cols: 8,"
        " wrap: klein-bottle}  # flow inside block\n  players: [white, black]\n"
        "setup: " L_SETUP "\nnotation: algebraic\n---\n",
        /* CRLF */
        "---\r\ntitle: Klein Bottle Chess\r\nslug: klein-bottle\r\nengine:\r\n  topology:\r\n    type: grid\r\n"
        "    rows: 14\r\n    cols: 8\r\n    wrap: klein-bottle\r\n  setup: \"" L_SETUP "\"\r\n---\r\nbody\r\n",
        /* one line, as in the seeds */
        "--- title: Klein Bottle Chess slug: klein-bottle engine: topology: type: grid rows: 14 cols: 8"
        " wrap: klein-bottle players: [white, black] setup: \"" L_SETUP "\" notation: algebraic"
        " published: true --- ## Body text: with colons\n",
        /* one line between marker lines */
        "---\ntitle: Klein Bottle Chess slug: klein-bottle engine: topology: type: grid rows: 14 cols: 8"
        " wrap: klein-bottle setup: '" L_SETUP "'\n---\n",
        /* one line with CRLF and the page ending right after the marker */
        "--- title: 'Klein Bottle Chess' engine: topology: {type: grid, rows: 14, cols: 8,"
        " wrap: klein-bottle} setup: " L_SETUP " slug: klein-bottle\r\n---",
        /* byte order mark, blank lines, `...` as the closing marker, anchors */
        "\xEF\xBB\xBF\n\n---\ntitle: Klein Bottle Chess\nslug: klein-bottle\nboard: &size 14\nengine:\n"
        "  topology:\n    type: grid\n    rows: *size\n    cols: 8\n    wrap: klein-bottle\n"
        "  setup: >-\n    " L_SETUP "\n...\n",
    };
    tc_variant_def want;
    tc_error e;
    tc_preset_find("klein-bottle", &want, &e);
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++) {
        th_case("layout %zu gives the klein-bottle preset", i);
        tc_variant_def d;
        int rc = parse(pages[i], &d, &e);
        CHECK(rc == 0, "%s", e.msg);
        if (rc == 0)
            check_same_def(&d, &want, "layout");
    }

    th_case("name from the title when there is no slug");
    {
        tc_variant_def d;
        const char *page = "---\ntitle: \"M\xc3\xb6" "bius  Strip -- Chess!\"\nengine:\n  topology: {type: grid,"
                           " rows: 8, cols: 8, wrap: mobius}\n  setup: " S_SETUP "\n---\n";
        CHECK(parse(page, &d, &e) == 0, "%s", e.msg);
        CHECK(strcmp(d.name, "mobius-strip-chess") == 0, "name '%s'", d.name);
        CHECK(strcmp(d.title, "M\xc3\xb6" "bius Strip -- Chess!") == 0, "title '%s'", d.title);
    }

    th_case("long descriptions become one line that fits");
    {
        char page[2048], longtext[1200];
        for (int i = 0; i < 1199; i++)
            longtext[i] = i % 7 == 6 ? ' ' : (char)('a' + i % 7);
        longtext[1199] = '\0';
        snprintf(page, sizeof page,
                 "---\ndescription: |\n  first line %s\n  second line\nengine:\n  topology: {type: grid, rows: 8,"
                 " cols: 8, wrap: none}\n  setup: " S_SETUP "\n---\n",
                 longtext);
        tc_variant_def d;
        CHECK(parse(page, &d, &e) == 0, "%s", e.msg);
        size_t n = strlen(d.description);
        CHECK(n < sizeof d.description && n > 200, "length %zu", n);
        CHECK(!strchr(d.description, '\n') && strncmp(d.description, "first line abcdef ", 18) == 0,
              "description '%s'", d.description);
        CHECK(n >= 3 && strcmp(d.description + n - 3, "...") == 0, "no mark of the cut: '%s'", d.description);
        snprintf(page, sizeof page,
                 "---\nspecial: \"short\"\ndescription: \"  two\n\n  lines \"\nengine:\n  topology: {type: grid,"
                 " rows: 8, cols: 8, wrap: none}\n  setup: " S_SETUP "\n---\n");
        CHECK(parse(page, &d, &e) == 0 && strcmp(d.description, "two") == 0, "description '%s' %s",
              d.description, e.msg);
    }
}

/* ---------------------------------------------------------------- errors */

#define TOPO "  topology:\n    type: grid\n    rows: 14\n    cols: 8\n    wrap: torus\n"
#define SETUP_L "  setup: \"" L_SETUP "\"\n"

static void test_errors(void)
{
    static const struct {
        const char *name, *text, *want;
    } cases[] = {
        {"empty text", "", "empty"},
        {"no markers", "# Klein Bottle Chess\n\nA page without front matter.\n", "no front matter"},
        {"not at the start", "Intro\n---\nengine: {}\n---\n", "no front matter"},
        {"marker glued to text", "---title: x\n---\n", "no front matter"},
        {"unterminated", "---\ntitle: x\nengine:\n" TOPO SETUP_L, "unterminated front matter"},
        {"unterminated one line", "--- title: x engine: topology: type: grid rows: 14", "unterminated front matter"},
        {"empty front matter", "---\n---\n", "front matter is empty"},
        {"not a mapping", "---\n- a\n- b\n---\n", "expected a mapping"},
        {"missing engine", "---\ntitle: x\nsetup: \"" L_SETUP "\"\n---\n", "missing 'engine'"},
        {"missing topology", "---\nengine:\n" SETUP_L "---\n", "missing 'topology'"},
        {"engine not a mapping", "---\nengine: torus\n---\n", "engine: expected a mapping"},
        {"unknown topology key", "---\nengine:\n" TOPO "    twist: 3\n" SETUP_L "---\n",
         "engine.topology: unknown key 'twist' (known: type, rows, cols, wrap, files, ranks, seam) (line 8)"},
        {"unknown topology key, one line",
         "--- engine: topology: type: grid rows: 14 cols: 8 wrap: torus twist: 3 setup: " L_SETUP " ---",
         "unknown key 'twist'"},
        {"unknown engine key", "---\nengine:\n" TOPO "  pieces: fairy\n" SETUP_L "---\n",
         "engine: unknown key 'pieces'"},
        {"wrap unknown", "---\nengine:\n  topology: {type: grid, rows: 14, cols: 8, wrap: sphere}\n" SETUP_L "---\n",
         "engine.topology.wrap: unknown value 'sphere'"},
        {"rows not a number", "---\nengine:\n  topology: {type: grid, rows: many, cols: 8, wrap: torus}\n" SETUP_L
         "---\n", "rows: 'many' is not a whole number"},
        {"rows fractional", "---\nengine:\n  topology: {type: grid, rows: 14.0, cols: 8, wrap: torus}\n" SETUP_L
         "---\n", "rows: '14.0' is not a whole number"},
        {"rows a list", "---\nengine:\n  topology: {type: grid, rows: [14], cols: 8, wrap: torus}\n" SETUP_L "---\n",
         "rows: expected a whole number"},
        {"rows 0", "---\nengine:\n  topology: {type: grid, rows: 0, cols: 8, wrap: torus}\n" SETUP_L "---\n",
         "rows: 0 is out of range"},
        {"rows 17", "---\nengine:\n  topology: {type: grid, rows: 17, cols: 8, wrap: torus}\n" SETUP_L "---\n",
         "rows: 17 is out of range"},
        {"cols 1", "---\nengine:\n  topology: {type: grid, rows: 14, cols: 1, wrap: torus}\n" SETUP_L "---\n",
         "cols: 1 is out of range"},
        {"cols 99999", "---\nengine:\n  topology: {type: grid, rows: 14, cols: 99999, wrap: torus}\n" SETUP_L
         "---\n", "cols: 99999 is out of range"},
        {"cols huge", "---\nengine:\n  topology: {type: grid, rows: 14, cols: 99999999999999999999, wrap: torus}\n"
         SETUP_L "---\n", "cols: '99999999999999999999' is not a whole number"},
        {"missing rows", "---\nengine:\n  topology: {type: grid, cols: 8, wrap: torus}\n" SETUP_L "---\n",
         "engine.topology: missing 'rows'"},
        {"missing cols", "---\nengine:\n  topology: {type: grid, rows: 14, wrap: torus}\n" SETUP_L "---\n",
         "engine.topology: missing 'cols'"},
        {"missing wrap", "---\nengine:\n  topology: {type: grid, rows: 14, cols: 8}\n" SETUP_L "---\n",
         "engine.topology: missing 'wrap'"},
        {"empty rows", "---\nengine:\n  topology:\n    type: grid\n    rows:\n    cols: 8\n    wrap: torus\n"
         SETUP_L "---\n", "engine.topology: missing 'rows'"},
        {"missing type", "---\nengine:\n  topology: {rows: 14, cols: 8, wrap: torus}\n" SETUP_L "---\n",
         "engine.topology: missing 'type'"},
        {"type not grid", "---\nengine:\n  topology: {type: triangles, rows: 14, cols: 8, wrap: torus}\n" SETUP_L
         "---\n", "engine.topology.type: 'triangles' is not supported (only grid)"},
        /* issue 30.6: a hex page has no wrap; the type is the reason, not the missing field */
        {"type hex", "---\nengine:\n  topology: {type: hex, rows: 14, cols: 8}\n" SETUP_L "---\n",
         "engine.topology.type: hex boards are not supported: topochess plays square grids"},
        {"type hex, no size", "---\nengine:\n  topology: {type: hex}\n" SETUP_L "---\n",
         "engine.topology.type: hex boards are not supported"},
        {"missing setup", "---\nengine:\n" TOPO "---\n", "missing 'setup'"},
        {"empty setup", "---\nengine:\n" TOPO "  setup: ''\n---\n", "missing 'setup'"},
        {"setup twice, different", "---\nsetup: \"" S_SETUP "\"\nengine:\n" TOPO SETUP_L "---\n",
         "setup: given at top level and under engine"},
        {"setup of the wrong size", "---\nengine:\n" TOPO "  setup: \"" S_SETUP "\"\n---\n",
         "setup: board has 8 ranks, the variant has 14"},
        {"seam with torus", "---\nengine:\n" TOPO "    seam: 11\n" SETUP_L "---\n",
         "engine.topology.seam: given, but the ranks wrap (a seam goes with ranks: twist)"},
        {"seam with a twist overridden away",
         "---\nengine:\n  topology: {type: grid, rows: 14, cols: 8, wrap: mobius, ranks: fold, seam: 3}\n" SETUP_L
         "---\n", "engine.topology.seam: given, but the ranks fold"},
        {"cols 20 names its line", "---\ntitle: x\nengine:\n  topology:\n    type: grid\n    rows: 14\n"
         "    cols: 20\n    wrap: torus\n" SETUP_L "---\n",
         "engine.topology.cols: 20 is out of range (2..16) (line 7)"},
        {"rows 17 names its line", "---\nengine:\n  topology:\n    type: grid\n    rows: 17\n"
         "    cols: 8\n    wrap: torus\n" SETUP_L "---\n",
         "engine.topology.rows: 17 is out of range (2..16) (line 5)"},
        {"seam out of range", "---\nengine:\n  topology: {type: grid, rows: 14, cols: 8, wrap: mobius, seam: 15}\n"
         SETUP_L "---\n", "seam: 15 is not a rank of the board"},
        {"ranks unknown", "---\nengine:\n" TOPO "    ranks: spiral\n" SETUP_L "---\n",
         "engine.topology.ranks: unknown value 'spiral'"},
        {"duplicate key", "---\nengine:\n" TOPO "    rows: 8\n" SETUP_L "---\n",
         "engine.topology: duplicate key 'rows'"},
        {"notation", "---\nnotation: descriptive\nengine:\n" TOPO SETUP_L "---\n",
         "notation: 'descriptive' is not supported"},
        {"YAML syntax error", "---\ntitle: x\nengine:\n  topology: {type: grid, rows: 14\n" SETUP_L "---\n",
         "YAML syntax error"},
        {"YAML syntax error, bad indent", "---\nengine:\n  topology:\n    type: grid\n   rows: 14\n---\n",
         "YAML syntax error"},
        {"flow nesting too deep", "---\nengine: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n---\n",
         "more than 64 deep"},
        {"one line between markers, incomplete", "---\ntitle: x engine: topology: type: grid rows: 14 wrap: torus\n---\n",
         "engine.topology: missing 'cols'"},
        {"one line between markers, keys only", "---\njust: some: words\n---\n", "missing 'engine'"},
        {"one line between markers, not a page", "---\nkey: [unclosed: x: y\n---\n", "YAML syntax error"},
        {"one-line junk before a key", "--- junk title: x ---\n", "expected 'key:' but found 'junk'"},
        {"one-line unclosed quote", "--- title: \"x engine: y ---\n", "unterminated quoted string"},
        {"one-line unclosed flow", "--- engine: {topology: [grid ---\n", "unclosed '{'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("bad page: %s", cases[i].name);
        tc_variant_def d;
        tc_error e;
        int rc = parse(cases[i].text, &d, &e);
        CHECK(rc == -1, "accepted");
        CHECK(strstr(e.msg, cases[i].want) != NULL, "message '%s' lacks '%s'", e.msg, cases[i].want);
    }

    th_case("a syntax error names its page line");
    {
        tc_variant_def d;
        tc_error e;
        /* line 1 ---, 2 title, 3 engine, 4 topology (bad), 5 --- */
        int rc = parse("---\ntitle: x\nengine:\n  topology: x: y\n---\n", &d, &e);
        CHECK(rc == -1 && strstr(e.msg, "line 4") != NULL, "message '%s'", e.msg);
    }

    th_case("file errors name the path");
    {
        tc_variant_def d;
        tc_error e;
        const char *path = "tests/data/no-such-page.md";
        CHECK(tc_variant_file_load(path, &d, &e) == -1, "accepted a missing file");
        CHECK(strstr(e.msg, path) && strstr(e.msg, strerror(ENOENT)), "message '%s'", e.msg);

        char tmp[] = "/tmp/tc_fm_XXXXXX";
        int fd = mkstemp(tmp);
        CHECK(fd >= 0, "mkstemp");
        if (fd >= 0) {
            FILE *fp = fdopen(fd, "w");
            fputs("---\nengine:\n" TOPO SETUP_L "---\n", fp);
            static const char pad[] = "Padding so that the page is larger than one megabyte.\n";
            for (long total = 0; total <= (1L << 20); total += (long)sizeof pad - 1)
                fputs(pad, fp);
            fclose(fp);
            CHECK(tc_variant_file_load(tmp, &d, &e) == -1, "accepted a page over 1 MB");
            CHECK(strstr(e.msg, tmp) && strstr(e.msg, "1 MB"), "message '%s'", e.msg);
            fp = fopen(tmp, "w");
            fputs("---\nengine:\n" TOPO "    twist: 3\n" SETUP_L "---\n", fp);
            fclose(fp);
            CHECK(tc_variant_file_load(tmp, &d, &e) == -1, "accepted");
            CHECK(strncmp(e.msg, tmp, strlen(tmp)) == 0 && strstr(e.msg, "unknown key 'twist'"), "message '%s'",
                  e.msg);
            remove(tmp);
        }
    }
}

/* ---------------------------------------------------------------- writing */

static int round_trip(const tc_variant_def *def, tc_variant_def *back, tc_error *e)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        return -1;
    tc_variant_def_write_page(def, fp);
    fclose(fp);
    memset(back, 0x5a, sizeof *back);
    int rc = tc_frontmatter_parse(text, len, back, e);
    free(text);
    return rc;
}

static void test_write_page(void)
{
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *def = tc_preset(i);
        th_case("write_page round trip: %s", def->name);
        tc_variant_def back;
        tc_error e;
        int rc = round_trip(def, &back, &e);
        CHECK(rc == 0, "%s", e.msg);
        if (rc == 0) {
            check_same_def(&back, def, def->name);
            CHECK(strcmp(back.description, def->description) == 0, "description '%s'", back.description);
        }
    }

    th_case("write_page round trip: boards no preset has");
    {
        static const struct {
            int w, h;
            tc_file_rule f;
            tc_rank_rule r;
            int seam;
            const char *setup;
        } defs[] = {
            {8, 8, TC_FILES_OPEN, TC_RANKS_FOLD, 0, S_SETUP},
            {8, 10, TC_FILES_WRAP, TC_RANKS_TWIST, 5, "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR"},
            {3, 3, TC_FILES_OPEN, TC_RANKS_TWIST, 3, "k2/3/2K"},
            {16, 2, TC_FILES_OPEN, TC_RANKS_WRAP, 0, "k15/15K"},
        };
        for (size_t i = 0; i < sizeof defs / sizeof defs[0]; i++) {
            tc_variant_def d;
            char name[64];
            snprintf(name, sizeof name, "custom-%zu", i);
            th_def(&d, name, defs[i].w, defs[i].h, defs[i].f, defs[i].r, defs[i].seam, defs[i].setup);
            snprintf(d.title, sizeof d.title, "A \"quoted\" title: with \\ and # signs %zu", i);
            snprintf(d.description, sizeof d.description, "Line: one # not a comment");
            tc_variant_def back;
            tc_error e;
            int rc = round_trip(&d, &back, &e);
            CHECK(rc == 0, "def %zu: %s", i, e.msg);
            if (rc == 0) {
                check_same_def(&back, &d, d.name);
                CHECK(strcmp(back.description, d.description) == 0, "description '%s'", back.description);
            }
        }
    }
}

/* ---------------------------------------------------------------- robustness */

/* Every prefix of a page fails until it holds the closing marker, and from
 * then on gives the whole page's definition. Random bytes never crash. */
static void test_prefixes(void)
{
    int stride = th_sanitize() ? 5 : 1;
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *want = tc_preset(i);
        th_case("prefixes of variants/%s.md", want->name);
        char path[128];
        snprintf(path, sizeof path, "variants/%s.md", want->name);
        size_t len;
        char *text = th_read_file(path, &len);
        if (!text)
            continue;
        const char *close = strstr(text + 3, "\n---");
        CHECK(close != NULL, "%s: no closing marker", path);
        size_t need = close ? (size_t)(close - text) + 4 : len;
        for (size_t n = 0; n <= len; n += (size_t)stride) {
            tc_variant_def d;
            tc_error e;
            int rc = tc_frontmatter_parse(text, n, &d, &e);
            if (n < need)
                CHECK(rc == -1, "prefix %zu accepted", n);
            else {
                CHECK(rc == 0, "prefix %zu: %s", n, e.msg);
                if (rc == 0)
                    check_same_board(&d, want, path);
            }
        }
        free(text);
    }

    th_case("random and mutated pages do not crash");
    {
        uint64_t s = 0x9e3779b97f4a7c15ull;
        size_t len;
        char *base = th_read_file("variants/klein-bottle.md", &len);
        int rounds = th_sanitize() ? 300 : 3000;
        for (int r = 0; base && r < rounds; r++) {
            char buf[4096];
            size_t n = len < sizeof buf ? len : sizeof buf;
            memcpy(buf, base, n);
            for (int k = 0; k < 1 + r % 8; k++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                buf[(s >> 8) % n] = (char)(s >> 40);
            }
            if (r % 3 == 0) /* collapse line breaks, as in the seeds */
                for (size_t k = 0; k < n; k++)
                    if (buf[k] == '\n')
                        buf[k] = ' ';
            tc_variant_def d;
            tc_error e;
            if (tc_frontmatter_parse(buf, n, &d, &e) == 0) {
                tc_variant *v = tc_variant_new(&d, &e);
                tc_variant_free(v);
            } else {
                CHECK(e.msg[0] != '\0', "round %d: failure without a message", r);
            }
        }
        free(base);
    }
}

/* The setup's refusals name its line, those the library makes from the
 * text and those only the board can make (tc_frontmatter_variant). */
static void test_setup_lines(void)
{
    static const struct {
        const char *name, *setup, *want;
    } cases[] = {
        {"a rank too long", "k7/8/8/8/8/8/8/8/8/8/8/8/8/K8", "setup: rank 1 has more than 8 cells (line 11)"},
        {"no black king", "8/8/8/8/8/8/8/8/8/8/8/8/8/K7", "one king per side (white 1, black 0) (line 11)"},
        {"kings on one rank", "8/8/8/8/8/8/8/8/8/8/8/8/8/K3k3", "both kings stand on rank 1"},
        {"kings touch across the twist", "4k3/8/8/8/8/8/8/8/8/8/8/8/8/3K4", "touch"},
        {"a whole FEN", "k7/8/8/8/8/8/8/8/8/8/8/8/8/K7 w - - 0 1", "board field only; drop 'w - - 0 1'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("frontmatter: %s: the refusal names the setup's line", cases[i].name);
        char page[600];
        snprintf(page, sizeof page,
                 "---\ntitle: Klein\nengine:\n  topology:\n    type: grid\n    rows: 14\n    cols: 8\n"
                 "    wrap: klein-bottle\n    seam: 14\n  notation: algebraic\n  setup: \"%s\"\n---\n\nBody.\n",
                 cases[i].setup);
        tc_error err = {""};
        tc_variant_def d;
        tc_variant *v = tc_frontmatter_variant(page, strlen(page), &d, &err);
        CHECK(!v && strstr(err.msg, cases[i].want) && strstr(err.msg, "setup:") && strstr(err.msg, "(line 11)"),
              "%s: %s", cases[i].name, err.msg);
        tc_variant_free(v);
    }
    th_case("frontmatter: tc_frontmatter_variant makes the variant of a good page");
    const char *good = "---\nengine:\n  topology: {type: grid, rows: 8, cols: 8, wrap: cylinder}\n"
                       "  setup: \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"\n---\n";
    tc_error err = {""};
    tc_variant_def d;
    tc_variant *v = tc_frontmatter_variant(good, strlen(good), &d, &err);
    CHECK(v && d.width == 8 && d.files == TC_FILES_WRAP && d.ranks == TC_RANKS_OPEN, "%s", err.msg);
    tc_variant_free(v);
}

void suite_frontmatter(void)
{
    test_variant_pages();
    test_seeds();
    test_wrap_values();
    test_layouts();
    test_errors();
    test_write_page();
    test_prefixes();
    test_setup_lines();
}
