/* Perft: every line of every reference EPD file, the standard
 * chessprogramming positions on `chess`, and refgen's own depth-2 perft
 * (an independent generator) against the library's on every EPD line. */
#include "harness.h"
#include "refgen.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 8

/* Depths above this are run from startpos.epd only, and not under the
 * sanitizers, so that the suite stays fast. */
#define EPD_DEPTH 3

/// One EPD line: variant name, FEN and the expected count per depth
/// (0 where the line gives none).
typedef struct {
    char variant[64];
    char fen[1024];
    uint64_t count[MAX_DEPTH + 1];
} epd_line;

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

/* Splits `variant ; FEN ; D1 n ; D2 n ...`; returns 0, or -1 if malformed. */
static int parse_epd(char *line, epd_line *e)
{
    memset(e, 0, sizeof *e);
    char *field[MAX_DEPTH + 3];
    int n = 0;
    for (char *s = line; s && n < MAX_DEPTH + 3;) {
        char *semi = strchr(s, ';');
        if (semi)
            *semi = '\0';
        field[n++] = trim(s);
        s = semi ? semi + 1 : NULL;
    }
    if (n < 3 || strlen(field[0]) >= sizeof e->variant || strlen(field[1]) >= sizeof e->fen)
        return -1;
    strcpy(e->variant, field[0]);
    strcpy(e->fen, field[1]);
    for (int i = 2; i < n; i++) {
        int depth;
        unsigned long long count;
        if (sscanf(field[i], "D%d %llu", &depth, &count) != 2 || depth < 1 || depth > MAX_DEPTH)
            return -1;
        e->count[depth] = count;
    }
    return 0;
}

static void run_epd_line(const char *file, int lineno, const epd_line *e, int max_depth)
{
    th_case("perft %s:%d %s", file, lineno, e->variant);
    tc_variant *v = th_variant(e->variant);
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    tc_error err;
    if (tc_position_set_fen(p, e->fen, &err) != 0) {
        CHECK(0, "%s: %s", e->fen, err.msg);
    } else {
        for (int d = 1; d <= max_depth; d++) {
            if (!e->count[d])
                continue;
            uint64_t got = tc_perft(p, d);
            CHECK(got == e->count[d], "%s: D%d gives %llu, expected %llu", e->fen, d,
                  (unsigned long long)got, (unsigned long long)e->count[d]);
        }
        /* the independent generator agrees at depth 2 */
        rg_board rb;
        if (rg_board_from(p, &rb) != 0) {
            CHECK(0, "refgen cannot read the setup of %s", e->variant);
        } else {
            uint64_t ref = rg_perft(&rb, 2), lib = tc_perft(p, 2);
            CHECK(ref == lib, "%s: refgen D2 %llu, library D2 %llu", e->fen,
                  (unsigned long long)ref, (unsigned long long)lib);
            CHECK(!e->count[2] || ref == e->count[2], "%s: refgen D2 %llu, expected %llu",
                  e->fen, (unsigned long long)ref, (unsigned long long)e->count[2]);
        }
    }
    tc_position_free(p);
    tc_variant_free(v);
}

static void run_epd_file(const char *dir, const char *file)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    th_case("perft %s", file);
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    int deep = strcmp(file, "startpos.epd") == 0 && !th_sanitize();
    char line[2048];
    int lineno = 0, lines = 0;
    epd_line *e = malloc(sizeof *e);
    while (e && fgets(line, sizeof line, f)) {
        lineno++;
        char *s = trim(line);
        if (!*s || *s == '#')
            continue;
        if (parse_epd(s, e) != 0) {
            th_case("perft %s:%d", file, lineno);
            CHECK(0, "malformed EPD line");
            continue;
        }
        lines++;
        run_epd_line(file, lineno, e, deep ? MAX_DEPTH : EPD_DEPTH);
    }
    free(e);
    fclose(f);
    th_case("perft %s: lines", file);
    CHECK(lines > 0, "%s holds no positions", path);
}

/// A standard position with its published counts (chessprogramming wiki,
/// "Perft Results"); 0 ends the list.
typedef struct {
    const char *name, *fen;
    uint64_t count[7];
} std_pos;

static const std_pos standard[] = {
    {"startpos", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
     {20, 400, 8902, 197281, 4865609, 119060324}},
    {"kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {48, 2039, 97862, 4085603}},
    {"position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", {14, 191, 2812, 43238, 674624}},
    {"position 4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {6, 264, 9467, 422333}},
    {"position 4 mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     {6, 264, 9467, 422333}},
    {"position 5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {44, 1486, 62379, 2103487}},
    {"position 6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {46, 2079, 89890, 3894594}},
};

static void run_standard(void)
{
    /* under the sanitizers only the depths with small counts */
    uint64_t limit = th_sanitize() ? 200000 : UINT64_MAX;
    tc_variant *v = th_variant("chess");
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++) {
        const std_pos *s = &standard[i];
        th_case("perft chess %s", s->name);
        tc_error err;
        if (tc_position_set_fen(p, s->fen, &err) != 0) {
            CHECK(0, "%s: %s", s->fen, err.msg);
            continue;
        }
        for (int d = 1; d <= 7 && s->count[d - 1]; d++) {
            if (s->count[d - 1] > limit)
                break;
            uint64_t got = tc_perft(p, d);
            CHECK(got == s->count[d - 1], "%s: D%d gives %llu, expected %llu", s->fen, d,
                  (unsigned long long)got, (unsigned long long)s->count[d - 1]);
        }
        rg_board rb;
        CHECK(rg_board_from(p, &rb) == 0, "refgen cannot read the chess setup");
        uint64_t ref = rg_perft(&rb, 2);
        CHECK(ref == s->count[1], "%s: refgen D2 %llu, expected %llu", s->fen,
              (unsigned long long)ref, (unsigned long long)s->count[1]);
    }
    tc_position_free(p);
    tc_variant_free(v);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void suite_perft(void)
{
    run_standard();

    const char *dir = th_perft_dir();
    th_case("perft directory %s", dir);
    DIR *dp = opendir(dir);
    CHECK(dp != NULL, "cannot open %s", dir);
    if (!dp)
        return;
    char *names[64];
    int nfiles = 0;
    for (struct dirent *e; (e = readdir(dp)) != NULL && nfiles < 64;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".epd") == 0) {
            names[nfiles] = malloc(len + 1);
            if (names[nfiles])
                memcpy(names[nfiles++], e->d_name, len + 1);
        }
    }
    closedir(dp);
    CHECK(nfiles > 0, "no .epd files in %s", dir);
    qsort(names, (size_t)nfiles, sizeof names[0], cmp_str);
    for (int i = 0; i < nfiles; i++) {
        run_epd_file(dir, names[i]);
        free(names[i]);
    }
}
