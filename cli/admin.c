/* topochess admin: the operator's commands on the hub's database
 * (server/admin.h). */
#include "admin.h"
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage(int help)
{
    fprintf(help ? stdout : stderr, "usage: topochess admin editor NAME [--revoke] [--db FILE|postgresql://...]\n"
                                    "       topochess admin puzzles-import [FILE|-] [--db FILE|postgresql://...]\n"
                                    "       (the JSON of 'topochess puzzles --json'; - or none: standard input)\n");
    return !help;
}

/* Reads the whole file (or standard input) and imports it. */
static int puzzles_import(const char *db, const char *path)
{
    int std = !path || !strcmp(path, "-");
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "topochess admin: puzzles-import: cannot open %s: %s\n", path, strerror(errno));
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = malloc(cap);
    while (text) {
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (len < cap)
            break;
        if (cap >= SRV_ADMIN_IMPORT_MAX_BYTES) {
            fprintf(stderr, "topochess admin: puzzles-import: more than %u bytes: split the file\n",
                    SRV_ADMIN_IMPORT_MAX_BYTES);
            free(text);
            text = NULL;
            len = 0;
            break;
        }
        char *more = realloc(text, cap * 2);
        if (!more) {
            free(text);
            text = NULL;
        }
        text = more;
        cap *= 2;
    }
    if (!std)
        fclose(f);
    if (!text)
        return 1;
    char msg[512];
    int rc = srv_admin_puzzles_import(db, text, len, msg, sizeof msg);
    free(text);
    if (rc)
        fprintf(stderr, "topochess admin: %s\n", msg);
    else
        printf("%s\n", msg);
    return rc;
}

int cmd_admin(cli_ctx *c)
{
    const char *db = "topochess.db", *name = NULL, *what = NULL;
    int grant = 1;
    for (int i = 0; i < c->argc; i++) {
        const char *a = c->argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(1);
        if (!strncmp(a, "--db=", 5))
            db = a + 5;
        else if (!strcmp(a, "--db") && i + 1 < c->argc)
            db = c->argv[++i];
        else if (!strcmp(a, "--revoke"))
            grant = 0;
        else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "topochess admin: unknown or incomplete option '%s'\n", a);
            return usage(0);
        } else if (!what)
            what = a;
        else if (!name)
            name = a;
        else {
            fprintf(stderr, "topochess admin: one NAME only, not also '%s'\n", a);
            return usage(0);
        }
    }
    if (what && !strcmp(what, "puzzles-import"))
        return puzzles_import(db, name);
    if (!what || strcmp(what, "editor") || !name) {
        if (what && strcmp(what, "editor"))
            fprintf(stderr, "topochess admin: unknown command '%s' (there are: editor, puzzles-import)\n", what);
        return usage(0);
    }
    char msg[300];
    int rc = srv_admin_editor(db, name, grant, msg, sizeof msg);
    fprintf(rc ? stderr : stdout, "topochess admin: %s\n", msg);
    return rc;
}
