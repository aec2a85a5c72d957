/* Variants as data: the seven presets of RULES.md section 3 and the checks
 * that any definition must pass before tables are built from it. */
#include "internal.h"
#include "topochess_explain.h"

#include <ctype.h>
#include <stdio.h>

#define STANDARD "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
#define LONG "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

/// A preset: its definition and the other names it answers to.
typedef struct {
    tc_variant_def def;
    const char *aliases;
} preset;

static const preset presets[] = {
    {{"chess", "Chess", "Standard FIDE chess on a flat 8x8 board.", 8, 8, TC_FILES_OPEN,
      TC_RANKS_OPEN, 0, STANDARD},
     "standard"},
    {{"cylinder", "Cylinder Chess", "Files a and h are joined: the 8x8 board is a cylinder.", 8, 8,
      TC_FILES_WRAP, TC_RANKS_OPEN, 0, STANDARD},
     "cylinder-chess"},
    {{"monteiro-cylinder", "Cylindrical Chess (Monteiro)",
      "8x14 board whose ranks 14 and 1 are joined behind the kings; 16 pawns a side.", 8, 14,
      TC_FILES_OPEN, TC_RANKS_WRAP, 0, LONG},
     "cylindrical"},
    {{"torus", "Toroidal Chess", "8x14 board with files and ranks both joined: a torus.", 8, 14,
      TC_FILES_WRAP, TC_RANKS_WRAP, 0, LONG},
     "toroidal"},
    {{"mobius", "Moebius Strip Chess",
      "8x14 ranks joined with a half-twist between ranks 11 and 12; files a and h stay apart.", 8,
      14, TC_FILES_OPEN, TC_RANKS_TWIST, 11, LONG},
     "mobius-strip,mobius-strip-chess"},
    {{"klein-bottle", "Klein Bottle Chess",
      "Moebius strip with files a and h joined too: an 8x14 Klein bottle.", 8, 14, TC_FILES_WRAP,
      TC_RANKS_TWIST, 11, LONG},
     "klein,klein-bottle-chess"},
    {{"folding", "Folding Magnetic Chess",
      "8x8 board folded in half: files wrap and each end rank is glued to itself, mirrored.", 8,
      8, TC_FILES_WRAP, TC_RANKS_FOLD, 0, STANDARD},
     "folding-magnetic,folding-magnetic-chess"},
};

#define NPRESETS ((int)(sizeof presets / sizeof presets[0]))

int tc_preset_count(void) { return NPRESETS; }

const tc_variant_def *tc_preset(int i)
{
    return i >= 0 && i < NPRESETS ? &presets[i].def : NULL;
}

const char *tc_preset_aliases(int i)
{
    return i >= 0 && i < NPRESETS ? presets[i].aliases : NULL;
}

static bool alias_match(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncmp(s, name, n) == 0)
            return true;
        if (!e)
            break;
        s = e + 1;
    }
    return false;
}

int tc_preset_find(const char *name, tc_variant_def *out, tc_error *err)
{
    char low[64];
    size_t n = 0;
    for (; name && name[n] && n < sizeof low - 1; n++)
        low[n] = (char)tolower((unsigned char)name[n]);
    low[n] = '\0';
    for (int i = 0; i < NPRESETS; i++)
        if (strcmp(presets[i].def.name, low) == 0 || alias_match(presets[i].aliases, low)) {
            *out = presets[i].def;
            return 0;
        }
    /* titles, other spellings and did-you-mean hints: names.c */
    int i = tc_preset_lookup(name, err);
    if (i < 0)
        return -1;
    *out = presets[i].def;
    return 0;
}

int tc_variant_def_check(const tc_variant_def *d, tc_error *err)
{
    if (d->width < 2 || d->width > TC_MAX_FILES) {
        tc_set_error(err, "cols: %d is out of range (2..%d)", d->width, TC_MAX_FILES);
        return -1;
    }
    if (d->height < 2 || d->height > TC_MAX_RANKS) {
        tc_set_error(err, "rows: %d is out of range (2..%d)", d->height, TC_MAX_RANKS);
        return -1;
    }
    if (d->files != TC_FILES_OPEN && d->files != TC_FILES_WRAP) {
        tc_set_error(err, "files: unknown file rule");
        return -1;
    }
    if (d->ranks < TC_RANKS_OPEN || d->ranks > TC_RANKS_FOLD) {
        tc_set_error(err, "ranks: unknown rank rule");
        return -1;
    }
    if (d->ranks == TC_RANKS_TWIST && (d->seam < 1 || d->seam > d->height)) {
        tc_set_error(err, "seam: %d is not a rank of the board (1..%d)", d->seam, d->height);
        return -1;
    }
    if (!memchr(d->setup, '\0', sizeof d->setup) || d->setup[0] == '\0') {
        tc_set_error(err, "setup: missing");
        return -1;
    }
    return 0;
}
