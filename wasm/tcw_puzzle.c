/* The export layer: mate puzzles from the solved endings (docs/puzzles.md)
 * for the hub's puzzle page (web/src/pages/puzzles.ts): a solved set kept
 * as a handle, its puzzles, and the checker's answer to a move, as JSON
 * (see tc_wasm.c for the conventions). */
#include "tcw_internal.h"
#include "topochess_puzzle.h"

/* Solves a material (3- or 4-piece, pawnless) on the board: the handle, or
 * NULL with err (a bad name, a table over max_entries, no memory). */
tc_egtb *EXPORT(tcw_puzzle_set)(const tc_variant *v, const char *material, double max_entries, tc_error *err)
{
    tcw_clear(err);
    tc_egtb_options opt = {.threads = 1,
                           .max_entries = max_entries > 0 && max_entries < 1e18 ? (uint64_t)max_entries : 0};
    return tc_egtb_solve(v, material, &opt, err);
}

void EXPORT(tcw_puzzle_set_free)(tc_egtb *t) { tc_egtb_free(t); }

/* Up to count puzzles of the set, mates of min_mate..max_mate moves, in the
 * order seed fixes: [{title, fen, side, mate_in, material, accepted: [SAN],
 * line: [SAN], line_uci: [UCI]}]; NULL with err on bad options. */
char *EXPORT(tcw_puzzles)(const tc_egtb *t, int count, double seed, int min_mate, int max_mate, tc_error *err)
{
    tcw_clear(err);
    if (count < 1 || count > 500) {
        snprintf(err->msg, sizeof err->msg, "puzzles: count must be 1 to 500, not %d", count);
        return NULL;
    }
    tc_puzzle_options o;
    tc_puzzle_options_default(&o);
    o.min_mate = min_mate;
    o.max_mate = max_mate;
    o.seed = seed > 0 ? (uint64_t)seed : 1;
    tc_puzzle *list = calloc((size_t)count, sizeof *list);
    int n = list ? tc_puzzles_generate(t, &o, list, count, err) : -1;
    if (!list)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    if (n < 0) {
        free(list);
        return NULL;
    }
    sb s = {0};
    sb_puts(&s, "[");
    for (int i = 0; i < n; i++) {
        const tc_puzzle *p = &list[i];
        sb_puts(&s, i ? ",{\"title\":" : "{\"title\":");
        sb_str(&s, p->title);
        sb_puts(&s, ",\"fen\":");
        sb_str(&s, p->fen);
        sb_printf(&s, ",\"side\":\"%s\",\"mate_in\":%d,\"material\":", p->side == TC_WHITE ? "white" : "black",
                  p->mate_in);
        sb_str(&s, p->material);
        sb_puts(&s, ",\"accepted\":[");
        for (int k = 0; k < p->naccepted; k++) {
            sb_puts(&s, k ? "," : "");
            sb_str(&s, p->accepted_san[k]);
        }
        sb_puts(&s, "],\"line\":[");
        for (int k = 0; k < p->nline; k++) {
            sb_puts(&s, k ? "," : "");
            sb_str(&s, p->line_san[k]);
        }
        sb_puts(&s, "],\"line_uci\":[");
        for (int k = 0; k < p->nline; k++) {
            sb_puts(&s, k ? "," : "");
            sb_str(&s, p->line_uci[k]);
        }
        sb_puts(&s, "]}");
    }
    sb_puts(&s, "]");
    free(list);
    return sb_done(&s, err);
}

/* The checker on a move (SAN or coordinates) in p, whose side to move must
 * win by the set: {verdict: "best"|"slower"|"not winning"|"illegal", move,
 * uci, mate_before, mate_after, slower_by, mates, reply, reply_uci,
 * message}; p is left as it was. NULL with err when the set does not hold
 * p or its side to move does not win. */
char *EXPORT(tcw_puzzle_check)(const tc_egtb *t, tc_position *p, const char *text, tc_error *err)
{
    tcw_clear(err);
    tc_puzzle_answer a;
    if (tc_puzzle_check(t, p, text ? text : "", &a, err))
        return NULL;
    static const char *const verdicts[] = {"best", "slower", "not winning", "illegal"};
    char uci[16] = "";
    if (a.move)
        tc_move_to_uci(p, a.move, uci);
    sb s = {0};
    sb_printf(&s, "{\"verdict\":\"%s\",\"move\":", verdicts[a.verdict]);
    sb_str(&s, a.move_san);
    sb_puts(&s, ",\"uci\":");
    sb_str(&s, uci);
    sb_printf(&s, ",\"mate_before\":%d,\"mate_after\":%d,\"slower_by\":%d,\"mates\":%s,\"reply\":", a.mate_before,
              a.mate_after, a.slower_by, a.mates ? "true" : "false");
    sb_str(&s, a.reply ? a.reply_san : NULL);
    sb_puts(&s, ",\"reply_uci\":");
    sb_str(&s, a.reply ? a.reply_uci : NULL);
    sb_puts(&s, ",\"message\":");
    sb_str(&s, a.message);
    sb_puts(&s, "}");
    return sb_done(&s, err);
}
