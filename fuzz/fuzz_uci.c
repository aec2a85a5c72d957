/* libFuzzer target: the UCI loop. The first byte picks the preset, the
 * rest is the command stream. The loop starts with a 1 MB table and reuses
 * variants and engines from run to run (fuzz_proto.h). Every search must
 * end fast, so each line is rewritten before the loop reads it (the
 * protocol code is not touched):
 *   - `go ...` keeps its arguments and gets `nodes 300 nodes 300 depth 2
 *     depth 2` appended: the last of each wins, and the first may be eaten
 *     as the value of a dangling key (`go wtime`). `infinite` stays: the
 *     loop stops an endless search at `stop`, `setoption`, `ucinewgame` or
 *     end of input.
 *   - `go perft N` with N above 2 becomes `go perft 2`.
 *   - Hash values are capped at 4 MB and Threads at 2.
 * Other lines are passed through byte for byte. */
#include "fuzz_proto.h"

#include <ctype.h>

#define DELIMS " \t\r\n"

static int ieq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

static void rewrite(fz_buf *out, const char *line, size_t len, size_t visible, char *copy, char **tok)
{
    int n = fz_tokens(line, visible, DELIMS, copy, tok);
    if (n >= 1 && !strcmp(tok[0], "go")) {
        if (n >= 2 && !strcmp(tok[1], "perft")) {
            if (n >= 3 && fz_above(tok[2], 2))
                tok[2] = "2";
            fz_put_tokens(out, tok, n);
            return;
        }
        tok[n++] = "nodes 300 nodes 300 depth 2 depth 2";
        fz_put_tokens(out, tok, n);
        return;
    }
    /* setoption name Hash|Threads value N: one value token only */
    if (n == 5 && !strcmp(tok[0], "setoption") && !strcmp(tok[1], "name") && !strcmp(tok[3], "value")) {
        if (ieq(tok[2], "Hash") && fz_above(tok[4], 4))
            tok[4] = "4";
        else if (ieq(tok[2], "Threads") && fz_above(tok[4], 2))
            tok[4] = "2";
    }
    if (n == 5 && !strcmp(tok[0], "setoption"))
        fz_put_tokens(out, tok, n);
    else
        fz_put(out, line, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fz_run(data, size, "", rewrite, uci_loop_opts);
}
