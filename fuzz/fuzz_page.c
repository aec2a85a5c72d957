/* libFuzzer target: any bytes given to the page re-flow and the front
 * matter guess must give a text (or an error message), never a crash, a
 * hang or a leak; a re-flowed text must re-flow to itself (the re-flow is
 * applied wherever a page enters the hub, so a page saved after it must
 * come back unchanged) and must still be readable by the guess. */
#include "topochess_page.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size ? size : 1); /* a private copy: ASan sees overreads */
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    tc_error err;
    err.msg[0] = '\0';
    size_t n = 0;
    char *page = tc_page_reflow(text, size, &n, &err);
    if (!page && !err.msg[0])
        abort(); /* every failure must say why */
    if (page) {
        size_t n2 = 0;
        char *again = tc_page_reflow(page, n, &n2, &err);
        if (again && (n2 != n || memcmp(again, page, n)))
            abort(); /* not a fixed point */
        free(again);
    }
    tc_page_guess g;
    tc_page_guess_read(page ? page : text, page ? n : size, &g, &err);
    if (g.width < 0 || g.width > TC_MAX_FILES || g.height < 0 || g.height > TC_MAX_RANKS)
        abort();
    free(page);
    free(text);
    return 0;
}
