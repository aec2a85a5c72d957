/* Terminal text for the explain API: the lines of a check, and one piece's
 * moves with the path each takes. */
#include "cli.h"
#include "topochess_explain.h"

#include <stdlib.h>

void cli_explain_line(const char *text, const tc_explanation *x, char *buf, size_t n)
{
    tc_explain_line(text, x, buf, n);
}

void cli_print_check(const tc_position *p, FILE *out, int legend_wanted)
{
    if (!tc_in_check(p))
        return;
    tc_path_set *set = malloc(sizeof *set);
    if (!set)
        return;
    const tc_variant *v = tc_position_variant(p);
    int us = tc_side_to_move(p), joins = 0;
    tc_attack_paths(p, tc_king_cell(p, us), !us, set);
    for (int i = 0; i < set->count; i++) {
        char from[8], path[600], legend[96] = "";
        const tc_path *pa = &set->paths[i];
        tc_cell_name(v, pa->from, from);
        tc_path_text(v, pa, path, sizeof path);
        joins |= pa->joins_all;
        if (i + 1 == set->count && joins && legend_wanted)
            tc_join_legend(joins, legend, sizeof legend);
        fprintf(out, "check: %s %s via %s%s%s%s\n", tc_piece_name(pa->piece), from, path, legend[0] ? "   (" : "",
                legend, legend[0] ? ")" : "");
    }
    free(set);
}

void cli_print_piece_moves(const tc_position *p, int cell, int uci, FILE *out)
{
    const tc_variant *v = tc_position_variant(p);
    int piece = tc_piece_at(p, cell), us = tc_side_to_move(p), joins = 0;
    char name[8], path[600];
    tc_cell_name(v, cell, name);
    const char *owner = TC_COLOUR(piece) == TC_WHITE ? "White" : "Black";
    if (TC_COLOUR(piece) != us) {
        /* not its turn: where it could go, checks aside */
        tc_path_set *set = malloc(sizeof *set);
        if (!set)
            return;
        int n = tc_piece_lines(p, cell, TC_LINES_MOVES, set);
        fprintf(out, "the %s on %s is %s's and %s is to move; its lines, checks aside (%d):\n",
                tc_piece_name(piece), name, owner, us == TC_WHITE ? "White" : "Black", n);
        for (int i = 0; i < set->count; i++) {
            tc_path_text(v, &set->paths[i], path, sizeof path);
            joins |= set->paths[i].joins_all;
            fprintf(out, "  %s\n", path);
        }
        free(set);
    } else {
        tc_movelist *list = malloc(sizeof *list);
        if (!list)
            return;
        int n = tc_generate_legal(p, list), count = 0;
        for (int i = 0; i < n; i++)
            count += TC_MOVE_FROM(list->moves[i]) == cell;
        fprintf(out, "the %s on %s has %d legal move%s%s\n", tc_piece_name(piece), name, count, count == 1 ? "" : "s",
                count ? ":" : "");
        for (int i = 0; i < n; i++) {
            tc_move m = list->moves[i];
            tc_path pa;
            if (TC_MOVE_FROM(m) != cell)
                continue;
            char san[32];
            if (uci)
                tc_move_to_uci(p, m, san);
            else
                tc_move_to_san(p, m, san);
            if (tc_move_path(p, m, &pa) == 0) {
                tc_path_text(v, &pa, path, sizeof path);
                joins |= pa.joins_all;
            } else {
                path[0] = '\0';
            }
            fprintf(out, "  %-8s %s\n", san, path);
        }
        free(list);
    }
    if (joins) {
        char legend[96];
        tc_join_legend(joins, legend, sizeof legend);
        fprintf(out, "  (%s)\n", legend);
    }
}
