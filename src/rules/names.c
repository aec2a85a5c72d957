/* Names as people write them: presets found by name, alias or title in any
 * spelling ("Klein Bottle", "moebius"), and "did you mean" suggestions.
 * One layer above variant.c: it reads the preset table, never the reverse. */
#include "internal.h"
#include "topochess_explain.h"

#include <ctype.h>
#include <stdio.h>

#define FOLD_MAX 96

/* Lower case letters and digits only, "oe" and UTF-8 "ö" read as "o". */
static void fold(const char *s, char *out)
{
    size_t n = 0;
    for (; s && *s && n < FOLD_MAX - 1; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == 0xc3 && ((unsigned char)s[1] == 0xb6 || (unsigned char)s[1] == 0x96)) {
            out[n++] = 'o';
            s++;
            continue;
        }
        if (!isalnum(c))
            continue;
        c = (unsigned char)tolower(c);
        if (c == 'e' && n > 0 && out[n - 1] == 'o')
            continue;
        out[n++] = (char)c;
    }
    out[n] = '\0';
}

/* Edit distance with transpositions (optimal string alignment), three
 * rolling rows so that the stack stays small (the library also runs as
 * WebAssembly). */
static int distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    int rows[3][FOLD_MAX + 1];
    int *two = rows[0], *prev = rows[1], *cur = rows[2];
    for (int j = 0; j <= lb; j++)
        prev[j] = j;
    for (int i = 1; i <= la; i++) {
        cur[0] = i;
        for (int j = 1; j <= lb; j++) {
            int cost = a[i - 1] != b[j - 1];
            int best = prev[j] + 1;
            if (cur[j - 1] + 1 < best)
                best = cur[j - 1] + 1;
            if (prev[j - 1] + cost < best)
                best = prev[j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && two[j - 2] + 1 < best)
                best = two[j - 2] + 1;
            cur[j] = best;
        }
        int *t = two;
        two = prev;
        prev = cur;
        cur = t;
    }
    return prev[lb];
}

int tc_closest_name(const char *word, const char *const *names, int n)
{
    char w[FOLD_MAX], c[FOLD_MAX];
    fold(word, w);
    int len = (int)strlen(w);
    if (len == 0)
        return -1;
    int limit = len / 3 > 1 ? len / 3 : 1;
    int best = -1, best_d = limit + 1;
    for (int i = 0; i < n; i++) {
        if (!names[i])
            continue;
        fold(names[i], c);
        int d = distance(w, c);
        if (d < best_d) {
            best_d = d;
            best = i;
        }
    }
    return best;
}

/* Every spelling of preset i, folded: name, aliases, title with and
 * without a trailing "chess". Returns how many were written. */
static int spellings(int i, char out[][FOLD_MAX], int max)
{
    const tc_variant_def *d = tc_preset(i);
    const char *al = tc_preset_aliases(i);
    int n = 0;
    fold(d->name, out[n++]);
    char one[FOLD_MAX];
    for (const char *s = al; s && *s && n < max - 2;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len >= sizeof one)
            len = sizeof one - 1;
        memcpy(one, s, len);
        one[len] = '\0';
        fold(one, out[n++]);
        if (!e)
            break;
        s = e + 1;
    }
    fold(d->title, out[n]);
    size_t tl = strlen(out[n]);
    if (tl) {
        n++;
        if (tl > 5 && !strcmp(out[n - 1] + tl - 5, "chess") && n < max) {
            memcpy(out[n], out[n - 1], tl - 5);
            out[n][tl - 5] = '\0';
            n++;
        }
    }
    return n;
}

int tc_preset_lookup(const char *name, tc_error *err)
{
    char w[FOLD_MAX], sp[16][FOLD_MAX];
    fold(name, w);
    int np = tc_preset_count();
    for (int i = 0; w[0] && i < np; i++) {
        int n = spellings(i, sp, 16);
        for (int k = 0; k < n; k++)
            if (!strcmp(w, sp[k]))
                return i;
    }
    /* suggestions come from names and aliases, as written */
    const char *cand[64];
    int owner[64], nc = 0;
    for (int i = 0; i < np && nc < 64; i++) {
        cand[nc] = tc_preset(i)->name;
        owner[nc++] = i;
    }
    char known[512] = "";
    size_t kl = 0;
    for (int i = 0; i < np; i++)
        kl += (size_t)snprintf(known + kl, kl < sizeof known ? sizeof known - kl : 0, "%s%s", i ? ", " : "",
                               tc_preset(i)->name);
    /* aliases as extra candidates: "klein" is closer to "kelin" than "klein-bottle" */
    char alias_buf[64][FOLD_MAX];
    int na = 0;
    for (int i = 0; i < np; i++) {
        const char *al = tc_preset_aliases(i);
        for (const char *s = al; s && *s && nc < 64 && na < 64;) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            if (len >= FOLD_MAX)
                len = FOLD_MAX - 1;
            memcpy(alias_buf[na], s, len);
            alias_buf[na][len] = '\0';
            cand[nc] = alias_buf[na++];
            owner[nc++] = i;
            if (!e)
                break;
            s = e + 1;
        }
    }
    int best = tc_closest_name(name, cand, nc);
    if (best >= 0)
        tc_set_error(err, "unknown variant '%.60s': did you mean '%s'? (known: %s)", name ? name : "",
                     tc_preset(owner[best])->name, known);
    else
        tc_set_error(err, "unknown variant '%.60s' (known: %s)", name ? name : "", known);
    return -1;
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
    for (int i = 0; i < tc_preset_count(); i++)
        if (strcmp(tc_preset(i)->name, low) == 0 || alias_match(tc_preset_aliases(i), low)) {
            *out = *tc_preset(i);
            return 0;
        }
    /* titles, other spellings and did-you-mean hints */
    int i = tc_preset_lookup(name, err);
    if (i < 0)
        return -1;
    *out = *tc_preset(i);
    return 0;
}
