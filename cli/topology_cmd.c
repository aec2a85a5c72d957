/* `topochess topology`: prints the topology report of the chosen variant
 * (docs/rules.md section 10); all figures come from the library. Then the solved
 * endings: the 3-piece ones always (they take a moment), the 4-piece ones
 * of issue 12 with --endgames. With --symmetries, the symmetries of the
 * rules instead (tc_symmetries), as text or JSON for the trainer. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static int print_symmetries(const tc_variant *v, int json)
{
    tc_symmetry *s = malloc(TC_MAX_SYMMETRIES * sizeof *s);
    if (!s) {
        fprintf(stderr, "topochess: out of memory\n");
        return 1;
    }
    int n = tc_symmetries(v, s, TC_MAX_SYMMETRIES), cells = tc_variant_cells(v);
    const tc_variant_def *d = tc_variant_def_of(v);
    if (json)
        printf("{\"variant\": \"%s\", \"width\": %d, \"height\": %d, \"symmetries\": [", d->name, d->width,
               d->height);
    else
        printf("%s: %d symmetr%s of the rules (checked against the move tables)\n", d->name, n,
               n == 1 ? "y" : "ies");
    for (int i = 0; i < n; i++) {
        if (json)
            printf("%s\n  {\"name\": \"%s\", \"mirror_files\": %d, \"shift_files\": %d, \"mirror_ranks\": %d, "
                   "\"shift_ranks\": %d, \"swap_colours\": %s, \"with_castling\": %s, \"cells\": [",
                   i ? "," : "", s[i].name, s[i].mirror_files, s[i].shift_files, s[i].mirror_ranks,
                   s[i].shift_ranks, s[i].swap_colours ? "true" : "false", s[i].with_castling ? "true" : "false");
        else
            printf("%-28s %s\n  a1.. maps to:", s[i].name,
                   s[i].with_castling ? "(castling rights too)" : "(only without castling rights)");
        for (int c = 0; c < cells; c++) {
            char nm[8];
            tc_cell_name(v, s[i].cell[c], nm);
            if (json)
                printf("%s%d", c ? ", " : "", s[i].cell[c]);
            else
                printf(" %s", nm);
        }
        printf(json ? "]}" : "\n");
    }
    printf(json ? "\n]}\n" : "");
    free(s);
    return 0;
}

int cmd_topology(cli_ctx *c)
{
    if (c->symmetries)
        return print_symmetries(c->variant, c->json);
    if (c->json) {
        fprintf(stderr, "topochess: topology --json goes with --symmetries\n");
        return 1;
    }
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
