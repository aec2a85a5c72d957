/* topochess admin: the operator's commands on the hub's database
 * (server/admin.h). */
#include "admin.h"
#include "cli.h"

#include <stdio.h>
#include <string.h>

static int usage(int help)
{
    fprintf(help ? stdout : stderr, "usage: topochess admin editor NAME [--revoke] [--db FILE|postgresql://...]\n");
    return !help;
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
        else if (a[0] == '-') {
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
    if (!what || strcmp(what, "editor") || !name) {
        if (what && strcmp(what, "editor"))
            fprintf(stderr, "topochess admin: unknown command '%s' (there is: editor)\n", what);
        return usage(0);
    }
    char msg[300];
    int rc = srv_admin_editor(db, name, grant, msg, sizeof msg);
    fprintf(rc ? stderr : stdout, "topochess admin: %s\n", msg);
    return rc;
}
