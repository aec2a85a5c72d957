/* Reading the perft EPD files (see epd.h). */
#include "epd.h"
#include "harness.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

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
static int parse_line(char *line, th_epd *e)
{
    char *field[TH_EPD_MAX_DEPTH + 3];
    int n = 0;
    for (char *s = line; s && n < TH_EPD_MAX_DEPTH + 3;) {
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
    memset(e->count, 0, sizeof e->count);
    for (int i = 2; i < n; i++) {
        int depth;
        unsigned long long count;
        if (sscanf(field[i], "D%d %llu", &depth, &count) != 2 || depth < 1 || depth > TH_EPD_MAX_DEPTH)
            return -1;
        e->count[depth] = count;
    }
    return 0;
}

static int cmp_names(const void *a, const void *b) { return strcmp(a, b); }

int th_epd_files(char (*names)[64], int max)
{
    const char *dir = th_perft_dir();
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return 0;
    int n = 0;
    for (struct dirent *e; n < max && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len > 4 && len < sizeof names[0] && strcmp(e->d_name + len - 4, ".epd") == 0)
            memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_names);
    return n;
}

/* Appends one position to a growing array; 0, or -1 when out of memory. */
static int append(th_epd **lines, int *n, int *cap, const th_epd *e)
{
    if (*n == *cap) {
        int grown = *cap ? *cap * 2 : 64;
        th_epd *more = realloc(*lines, sizeof **lines * (size_t)grown);
        if (!more)
            return -1;
        *lines = more;
        *cap = grown;
    }
    (*lines)[(*n)++] = *e;
    return 0;
}

int th_epd_read(const char *file, th_epd **out)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", th_perft_dir(), file);
    *out = NULL;
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return -1;
    th_epd e;
    memset(&e, 0, sizeof e);
    snprintf(e.file, sizeof e.file, "%s", file);
    char buf[2048];
    int n = 0, cap = 0;
    while (fgets(buf, sizeof buf, f)) {
        e.line++;
        char *s = trim(buf);
        if (!*s || *s == '#')
            continue;
        if (parse_line(s, &e) != 0) {
            CHECK(0, "%s:%d: malformed EPD line", file, e.line);
            continue;
        }
        if (append(out, &n, &cap, &e) != 0) {
            CHECK(0, "%s: out of memory", file);
            break;
        }
    }
    fclose(f);
    return n;
}

int th_epd_load(th_epd **out)
{
    char names[TH_EPD_MAX_FILES][64];
    int nfiles = th_epd_files(names, TH_EPD_MAX_FILES), n = 0, cap = 0;
    *out = NULL;
    for (int i = 0; i < nfiles; i++) {
        th_epd *lines;
        int k = th_epd_read(names[i], &lines);
        for (int j = 0; j < k; j++)
            if (append(out, &n, &cap, &lines[j]) != 0) {
                CHECK(0, "out of memory after %d EPD lines", n);
                break;
            }
        th_epd_free(lines);
    }
    return n;
}

void th_epd_free(th_epd *lines) { free(lines); }
