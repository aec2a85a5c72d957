/* The commands that hand over to an adapter of their own: the two engine
 * protocols (protocol/) and the match runner (match/). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "match.h"
#include "protocols.h"

int cmd_uci(cli_ctx *c)
{
    proto_opts o = {0, NULL, 0, c->eval_file, c->tune};
    return uci_loop_opts(stdin, stdout, &c->def, &o);
}

int cmd_xboard(cli_ctx *c)
{
    return xboard_loop(stdin, stdout, &c->def);
}

int cmd_match(cli_ctx *c)
{
    if (c->argc == 0 || !strcmp(c->argv[0], "help")) {
        match_usage(c->argc ? stdout : stderr);
        return c->argc ? 0 : 1;
    }
    char exe[1024], self[1100];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    snprintf(self, sizeof self, "'%s' uci", n > 0 ? exe : "topochess");
    match_config cfg;
    match_config_init(&cfg, &c->def);
    tc_error err;
    if (match_parse_args(&cfg, c->argc, c->argv, self, &err)) {
        fprintf(stderr, "topochess: match: %s\n", err.msg);
        return 1;
    }
    match_score score;
    return match_run(&cfg, stdout, &score) ? 1 : 0;
}
