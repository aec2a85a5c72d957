/* `topochess topology`: prints the topology report of the chosen variant
 * (RULES.md section 10); all figures come from the library. Then the solved
 * endings: the 3-piece ones always (they take a moment), the 4-piece ones
 * of issue 12 with --endgames. */
#include "cli.h"

#include <string.h>

int cmd_topology(cli_ctx *c)
{
    int all = c->endgames;
    tc_topology_report(c->variant, stdout);
    static const char *const endings[] = {"KQK", "KRK", "KBK", "KNK", "KBBK", "KBNK", "KNNK", "KQKR", "KRKB", "KRKN"};
    printf("\nSolved endings (retrograde analysis of every position, topochess endgame;\n"
           "won: the stronger side wins; %s)\n",
           all ? "all endings" : "the 4-piece ones with --endgames");
    /* without --endgames only what takes a moment (every preset's 3-piece tables) */
    cli_endgame_summary(c->variant, endings, all ? 10 : 4, all ? 0 : 1u << 20, stdout);
    return 0;
}
