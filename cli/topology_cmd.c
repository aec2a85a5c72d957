/* `topochess topology`: prints the topology report of the chosen variant
 * (RULES.md section 10); all figures come from the library. */
#include "cli.h"

int cmd_topology(cli_ctx *c)
{
    if (c->argc > 0) {
        fprintf(stderr, "topochess: topology takes no arguments, got '%s'\n", c->argv[0]);
        return 1;
    }
    tc_topology_report(c->variant, stdout);
    return 0;
}
