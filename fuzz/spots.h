/* Shared by the fuzz targets that try move text at fixed positions
 * (fuzz_san, fuzz_explain): the positions, their setup, and the input as
 * a NUL-ended string. */
#ifndef TC_FUZZ_SPOTS_H
#define TC_FUZZ_SPOTS_H

#include "topochess.h"

#include <stdlib.h>
#include <string.h>

/// A fixed position to try moves in.
typedef struct {
    const char *variant;
    const char *fen; /* NULL: the variant's start */
} spot;

/* Builds each spot's variant and position; aborts on failure (a broken
 * target, not a finding). */
static inline void spots_setup(const spot *spots, size_t n, tc_variant **variants, tc_position **pos)
{
    for (size_t i = 0; i < n; i++) {
        tc_variant_def def;
        tc_error err;
        if (tc_preset_find(spots[i].variant, &def, &err) || !(variants[i] = tc_variant_new(&def, &err)))
            abort();
        pos[i] = tc_position_new(variants[i]);
        if (!pos[i] || (spots[i].fen && tc_position_set_fen(pos[i], spots[i].fen, &err)))
            abort();
    }
}

/* The input as a NUL-ended heap string, or NULL. */
static inline char *spots_text(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
    }
    return text;
}

#endif
