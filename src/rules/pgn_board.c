/* The board of a PGN game as a tag of its own: [Topology "..."] carries a
 * board's whole definition (size, file and rank rules, seam, setup) in the
 * terms of a variant page's front matter, so that a game on any board can
 * be replayed from its PGN alone (docs/rules.md, "Notation").
 *
 * The value is the `engine:` mapping of a variant page in YAML flow style:
 *   {topology: {type: grid, rows: 8, cols: 11, wrap: none, files: open,
 *    ranks: twist, seam: 3}, setup: 6k4/11/11/8p2/11/11/5P5/R3K6}
 * It is read by putting it under `engine:` in a page and reading that page
 * like any other, so every check of a page applies to it. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

/* The setup's characters that a plain YAML scalar in a flow mapping
 * cannot hold unquoted; setups are piece letters, digits and '/'. */
static bool plain_setup(const char *s)
{
    for (; *s; s++)
        if (!strchr("pnbrqkPNBRQK0123456789/", *s))
            return false;
    return true;
}

bool tc_pgn_board_needed(const tc_variant_def *d)
{
    tc_variant_def preset;
    tc_error err;
    if (tc_preset_find(d->name, &preset, &err))
        return true;
    /* a preset's own name, spelled as it is, with its own board */
    return strcmp(d->name, preset.name) || d->width != preset.width || d->height != preset.height ||
           d->files != preset.files || d->ranks != preset.ranks ||
           (d->ranks == TC_RANKS_TWIST && d->seam != preset.seam) || strcmp(d->setup, preset.setup);
}

int tc_pgn_board_text(const tc_variant_def *d, char *buf, size_t n)
{
    static const char *const ranks[] = {"open", "wrap", "twist", "fold"};
    if (!plain_setup(d->setup) || (unsigned)d->ranks > TC_RANKS_FOLD)
        return -1;
    char seam[24] = "";
    if (d->ranks == TC_RANKS_TWIST)
        snprintf(seam, sizeof seam, ", seam: %d", d->seam);
    int k = snprintf(buf, n, "{topology: {type: grid, rows: %d, cols: %d, wrap: none, files: %s, ranks: %s%s}, setup: %s}",
                     d->height, d->width, d->files == TC_FILES_WRAP ? "wrap" : "open", ranks[d->ranks], seam,
                     d->setup);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

int tc_pgn_board_read(const char *value, const char *name, tc_variant_def *out, tc_error *err)
{
    size_t len = strlen(value);
    if (len > 4000) {
        tc_set_error(err, "Topology tag: too long (%zu characters)", len);
        return -1;
    }
    char *page = malloc(len + 32);
    if (!page) {
        tc_set_error(err, "out of memory");
        return -1;
    }
    snprintf(page, len + 32, "---\nengine: %s\n---\n", value);
    int rc = tc_frontmatter_parse(page, strlen(page), out, err);
    free(page);
    if (rc) {
        /* the page's line numbers mean nothing here: line 2 is the tag */
        char *at = err ? strstr(err->msg, " (line ") : NULL;
        if (at)
            *at = '\0';
        tc_error_prefix(err, "Topology tag: ");
        return -1;
    }
    snprintf(out->name, sizeof out->name, "%s", name && *name ? name : "custom");
    snprintf(out->title, sizeof out->title, "%s", name && *name ? name : "Custom board");
    out->description[0] = '\0';
    return 0;
}
