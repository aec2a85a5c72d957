/* topochess serve: the hub of variant pages over HTTP (server/). */
#include "cli.h"
#include "server.h"

#include <stdlib.h>
#include <string.h>

static int number(const char *opt, const char *s, int lo, int hi, int *out)
{
    char *end;
    long n = s ? strtol(s, &end, 10) : 0;
    if (!s || !*s || *end || n < lo || n > hi) {
        fprintf(stderr, "topochess serve: %s takes a number from %d to %d, not '%s'\n", opt, lo, hi, s ? s : "");
        return -1;
    }
    *out = (int)n;
    return 0;
}

int cmd_serve(cli_ctx *c)
{
    srv_options o;
    memset(&o, 0, sizeof o);
    o.port = 8080;
    for (int i = 0; i < c->argc; i++) {
        const char *a = c->argv[i], *v = i + 1 < c->argc ? c->argv[i + 1] : NULL;
        int bad = 0;
        if (!strcmp(a, "--port"))
            bad = number(a, v, 0, 65535, &o.port), i++;
        else if (!strcmp(a, "--threads"))
            bad = number(a, v, 1, 64, &o.threads), i++;
        else if (!strcmp(a, "--timeout"))
            bad = number(a, v, 1, 3600, &o.timeout), i++;
        else if (!strcmp(a, "--max-connections"))
            bad = number(a, v, 1, 100000, &o.max_connections), i++;
        else if (!strcmp(a, "--max-per-ip"))
            bad = number(a, v, 1, 100000, &o.max_per_ip), i++;
        else if ((!strcmp(a, "--host") || !strcmp(a, "--pages") || !strcmp(a, "--static")) && v) {
            *(a[2] == 'h' ? &o.host : a[2] == 'p' ? &o.pages_dir : &o.static_dir) = v;
            i++;
        } else if (!strcmp(a, "--log"))
            o.log = 1;
        else {
            int help = !strcmp(a, "--help") || !strcmp(a, "-h");
            if (!help)
                fprintf(stderr, "topochess serve: unknown or incomplete option '%s'\n", a);
            fprintf(help ? stdout : stderr,
                            "usage: topochess serve [--port 8080] [--host 127.0.0.1] [--pages DIR] [--static DIR]\n"
                            "                       [--threads N] [--timeout S] [--max-connections N] [--max-per-ip N] [--log]\n");
            return !help;
        }
        if (bad)
            return 1;
    }
    return srv_serve(&o);
}
