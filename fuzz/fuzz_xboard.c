/* libFuzzer target: the CECP (xboard) loop. The first byte picks the
 * preset, the rest is the command stream. The loop starts with a 1 MB
 * table and reuses variants and engines from run to run (fuzz_proto.h).
 * The engine thinks after `go`, and after a move when it is its turn;
 * plan_limits() in protocol/xboard.c bounds that search by `sd` first, by
 * `st`, the clocks or 2 s otherwise. So that every search ends fast, the
 * transcript is rewritten before the loop reads it (the protocol code is
 * not touched):
 *   - `sd 2` comes first, and again after every `new` (which clears it);
 *   - `sd N` with N above 2 becomes `sd 2`; smaller or bad values stay;
 *   - `memory N` is capped at 4 MB and `cores N` at 4.
 * `st`, `level`, `time` and `otim` stay as they are: the depth bound ends
 * the search whatever the clock says, and their parsing is fuzzed; the end
 * of input stops any search still running. */
#include "fuzz_proto.h"

static void rewrite(fz_buf *out, const char *line, size_t len, size_t visible, char *copy, char **tok)
{
    /* the loop cuts the line at its first '\r' or '\n' and splits it at
     * blanks */
    size_t cut = 0;
    while (cut < visible && line[cut] != '\r' && line[cut] != '\n')
        cut++;
    int n = fz_tokens(line, cut, " \t", copy, tok);
    if (n >= 2 && !strcmp(tok[0], "sd") && fz_above(tok[1], 2)) {
        fz_puts(out, "sd 2\n");
        return;
    }
    if (n >= 2 && !strcmp(tok[0], "memory") && fz_above(tok[1], 4)) {
        fz_puts(out, "memory 4\n");
        return;
    }
    if (n >= 2 && !strcmp(tok[0], "cores") && fz_above(tok[1], 4)) {
        fz_puts(out, "cores 4\n");
        return;
    }
    if (n >= 1 && !strcmp(tok[0], "new")) {
        fz_put_line(out, line, len);
        fz_puts(out, "sd 2\n");
        return;
    }
    fz_put(out, line, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fz_run(data, size, "sd 2\n", rewrite, xboard_loop_opts);
}
