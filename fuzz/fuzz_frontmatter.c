/* libFuzzer target: any bytes given to the variant page reader must give a
 * definition or an error message, never a crash, a hang or a leak; a
 * definition it accepts must also be safe to build tables from. */
#include "topochess.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A private copy, so that reading past `size` is caught by ASan. */
    char *text = malloc(size ? size : 1);
    if (!text)
        return 0;
    if (size)
        memcpy(text, data, size);
    tc_variant_def def;
    tc_error err;
    err.msg[0] = '\0';
    if (tc_frontmatter_parse(text, size, &def, &err) == 0) {
        tc_variant *v = tc_variant_new(&def, &err);
        tc_variant_free(v);
    } else if (err.msg[0] == '\0') {
        abort(); /* every failure must say why */
    }
    free(text);
    return 0;
}
