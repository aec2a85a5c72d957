/* topochess serve: the hub of variant pages over HTTP (server/). */
#include "cli.h"
#include "server.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static int usage(int help, const char *bad)
{
    if (bad)
        fprintf(stderr, "topochess serve: unknown or incomplete option '%s'\n", bad);
    fprintf(help ? stdout : stderr,
            "usage: topochess serve [--port 8080] [--host 127.0.0.1] [--pages DIR] [--static DIR]\n"
            "                       [--threads N] [--timeout S] [--head-timeout S] [--body-timeout S]\n"
            "                       [--max-connections N] [--max-per-ip N] [--log]\n"
            "                       [--db FILE|postgresql://...] [--no-games] [--engine-threads N]\n"
            "                       [--create-per-minute N] [--cors ORIGIN] [--docs DIR] [--secure-cookies]\n"
            "                       [--trusted-proxy ADDRESS] [--day-ms MS] [--tournaments FILE]\n"
            "                       [--analysis-threads K] [--analysis-nodes N]\n");
    return !help;
}

int cmd_serve(cli_ctx *c)
{
    srv_options o;
    memset(&o, 0, sizeof o);
    o.port = 8080;
    for (int i = 0; i < c->argc; i++) {
        const char *arg = c->argv[i], *v = NULL;
        char a[32];
        const char *eq = strchr(arg, '=');
        if (eq && (size_t)(eq - arg) < sizeof a) { /* --port=8080, as the other commands take it */
            snprintf(a, sizeof a, "%.*s", (int)(eq - arg), arg);
            v = eq + 1;
        } else {
            snprintf(a, sizeof a, "%.31s", arg);
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h"))
            return usage(1, NULL);
        if (!strcmp(a, "--log") && !v) {
            o.log = 1;
            continue;
        }
        if (!strcmp(a, "--no-games") && !v) {
            o.no_games = 1;
            continue;
        }
        if (!strcmp(a, "--secure-cookies") && !v) {
            o.secure_cookies = 1;
            continue;
        }
        if (!v && i + 1 < c->argc)
            v = c->argv[++i];
        int bad = 0;
        if (!v)
            return usage(0, arg);
        if (!strcmp(a, "--port"))
            bad = number(a, v, 0, 65535, &o.port);
        else if (!strcmp(a, "--threads"))
            bad = number(a, v, 1, 64, &o.threads);
        else if (!strcmp(a, "--timeout"))
            bad = number(a, v, 1, 3600, &o.timeout);
        else if (!strcmp(a, "--head-timeout"))
            bad = number(a, v, 1, 3600, &o.head_timeout);
        else if (!strcmp(a, "--body-timeout"))
            bad = number(a, v, 1, 3600, &o.body_timeout);
        else if (!strcmp(a, "--max-connections"))
            bad = number(a, v, 1, 100000, &o.max_connections);
        else if (!strcmp(a, "--max-per-ip"))
            bad = number(a, v, 1, 100000, &o.max_per_ip);
        else if (!strcmp(a, "--engine-threads"))
            bad = number(a, v, 1, 16, &o.engine_threads);
        else if (!strcmp(a, "--analysis-threads")) { /* 0: off (docs/analysis.md) */
            int k = 0;
            bad = number(a, v, 0, 8, &k);
            o.analysis_threads = k ? k : -1;
        } else if (!strcmp(a, "--analysis-nodes")) {
            int k = 0;
            bad = number(a, v, 1000, 100000000, &k);
            o.analysis_nodes = k;
        }
        else if (!strcmp(a, "--create-per-minute"))
            bad = number(a, v, 1, 1000000, &o.create_per_minute);
        else if (!strcmp(a, "--day-ms")) { /* tests: a correspondence day of MS (docs/correspondence.md) */
            int ms = 0;
            bad = number(a, v, 1000, 86400000, &ms);
            o.day_ms = ms;
        }
        else if (!strcmp(a, "--db"))
            o.db = v;
        else if (!strcmp(a, "--cors"))
            o.cors = v;
        else if (!strcmp(a, "--trusted-proxy"))
            o.trusted_proxy = v;
        else if (!strcmp(a, "--tournaments"))
            o.tournaments = v;
        else if (!strcmp(a, "--host"))
            o.host = v;
        else if (!strcmp(a, "--pages"))
            o.pages_dir = v;
        else if (!strcmp(a, "--static"))
            o.static_dir = v;
        else if (!strcmp(a, "--docs")) {
            /* the manual's folder (server/docs.c reads it per request) */
            if (access(v, R_OK | X_OK)) {
                fprintf(stderr, "topochess serve: --docs %s: %s\n", v, strerror(errno));
                return 1;
            }
            setenv("TC_DOCS_DIR", v, 1);
        }
        else
            return usage(0, arg);
        if (bad)
            return 1;
    }
    return srv_serve(&o);
}
