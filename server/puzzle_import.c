/* Filling the puzzle table (puzzle_import.h). */
#include "puzzle_import.h"

#include "topochess_endgame.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Appends word to a space-separated list of size n (dropped when full). */
static void append(char *list, size_t n, const char *word)
{
    size_t len = strlen(list);
    if (len + strlen(word) + 2 <= n)
        snprintf(list + len, n - len, "%s%s", len ? " " : "", word);
}

static void ending_themes(char *themes, size_t n, int mate_in, const char *material)
{
    char t[32];
    snprintf(t, sizeof t, "mate-in-%d", mate_in);
    append(themes, n, t);
    if (material && *material)
        append(themes, n, material);
}

void srv_puzzle_row_from_tc(const tc_puzzle *z, const char *variant, int64_t now_ms, tp_puzzle_row *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->variant, sizeof out->variant, "%s", variant);
    snprintf(out->kind, sizeof out->kind, "ending");
    snprintf(out->material, sizeof out->material, "%s", z->material);
    snprintf(out->fen, sizeof out->fen, "%s", z->fen);
    tp_puzzle_make_id(out->variant, out->fen, out->id);
    out->side = z->side;
    out->mate_in = z->mate_in;
    for (int i = 0; i < z->naccepted; i++)
        append(out->accepted, sizeof out->accepted, z->accepted_uci[i]);
    for (int i = 0; i < z->nline; i++) {
        append(out->line, sizeof out->line, z->line_uci[i]);
        append(out->line_san, sizeof out->line_san, z->line_san[i]);
    }
    ending_themes(out->themes, sizeof out->themes, z->mate_in, z->material);
    snprintf(out->title, sizeof out->title, "%s", z->title);
    out->rating = tp_puzzle_start_rating(z->mate_in);
    out->created_ms = now_ms;
}

static int word_ok(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (!n || n > max)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
              *s == '=' || *s == '+' || *s == '#'))
            return 0;
    return 1;
}

/* A list of move words into a space-separated field: 0, or -1 with msg. */
static int moves_field(json_t *list, const char *key, char *out, size_t n, int need, char *msg, size_t mn)
{
    out[0] = '\0';
    if (!list) {
        if (need)
            snprintf(msg, mn, "no \"%s\"", key);
        return need ? -1 : 0;
    }
    if (!json_is_array(list)) {
        snprintf(msg, mn, "\"%s\" is not a list", key);
        return -1;
    }
    size_t i;
    json_t *m;
    json_array_foreach(list, i, m)
    {
        const char *s = json_string_value(m);
        if (!s || !word_ok(s, 15)) {
            snprintf(msg, mn, "\"%s\" item %zu is not a move", key, i + 1);
            return -1;
        }
        if (strlen(out) + strlen(s) + 2 > n) {
            snprintf(msg, mn, "\"%s\" is too long", key);
            return -1;
        }
        append(out, n, s);
    }
    if (need && !out[0]) {
        snprintf(msg, mn, "\"%s\" is empty", key);
        return -1;
    }
    return 0;
}

static const char *str(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

/* One puzzle of the JSON into a row: 0, or -1 with msg. */
static int row_from_json(json_t *o, const char *variant, const char *kind0, int64_t now_ms, tp_puzzle_row *out,
                         char *msg, size_t mn)
{
    memset(out, 0, sizeof *out);
    if (!json_is_object(o)) {
        snprintf(msg, mn, "not an object");
        return -1;
    }
    const char *v = *str(o, "variant") ? str(o, "variant") : variant;
    const char *kind = *str(o, "kind") ? str(o, "kind") : kind0;
    const char *fen = str(o, "fen");
    json_int_t mate = json_integer_value(json_object_get(o, "mate_in"));
    if (!json_object_get(o, "mate_in") && !strcmp(kind, "tactic")) {
        /* topochess tactics --json: "mate" (0: a material gain), the line
         * (the winner's moves: its odd plies) */
        mate = json_integer_value(json_object_get(o, "mate"));
        if (mate <= 0)
            mate = ((json_int_t)json_array_size(json_object_get(o, "line_uci")) + 1) / 2;
    }
    if (!v || !word_ok(v, 63)) {
        snprintf(msg, mn, "no variant (a slug such as klein-bottle)");
        return -1;
    }
    if (strcmp(kind, "ending") && strcmp(kind, "tactic")) {
        snprintf(msg, mn, "kind '%.20s' is neither ending nor tactic", kind);
        return -1;
    }
    if (!*fen || strlen(fen) >= sizeof out->fen) {
        snprintf(msg, mn, "no fen (or one longer than %zu bytes)", sizeof out->fen - 1);
        return -1;
    }
    if (mate < 1 || mate > 200) {
        snprintf(msg, mn, "mate_in must be a number from 1 to 200");
        return -1;
    }
    const char *material = str(o, "material");
    if (!strcmp(kind, "ending") && (!word_ok(material, 15) || material[0] != 'K')) {
        snprintf(msg, mn, "an ending needs its material (\"KRK\")");
        return -1;
    }
    if (moves_field(json_object_get(o, "line_uci"), "line_uci", out->line, sizeof out->line, 1, msg, mn) ||
        moves_field(json_object_get(o, "line"), "line", out->line_san, sizeof out->line_san, 0, msg, mn) ||
        moves_field(json_object_get(o, "accepted_uci"), "accepted_uci", out->accepted, sizeof out->accepted, 0, msg,
                    mn))
        return -1;
    if (!out->accepted[0]) /* the line's first move */
        snprintf(out->accepted, sizeof out->accepted, "%.*s", (int)strcspn(out->line, " "), out->line);
    snprintf(out->variant, sizeof out->variant, "%s", v);
    snprintf(out->kind, sizeof out->kind, "%s", kind);
    snprintf(out->material, sizeof out->material, "%s", material);
    snprintf(out->fen, sizeof out->fen, "%s", fen);
    out->mate_in = (int)mate;
    const char *side = str(o, "side");
    const char *turn = strchr(fen, ' ');
    out->side = *side ? !strcmp(side, "black") : (turn && turn[1] == 'b');
    json_t *themes = json_object_get(o, "themes");
    if (themes && (!json_is_array(themes) || json_array_size(themes) > 8)) {
        snprintf(msg, mn, "\"themes\" must be a list of at most 8 words");
        return -1;
    }
    if (!strcmp(kind, "ending"))
        ending_themes(out->themes, sizeof out->themes, out->mate_in, material);
    size_t i;
    json_t *t;
    json_array_foreach(themes, i, t)
    {
        const char *s = json_string_value(t);
        if (!s || !word_ok(s, 32) || strchr(s, '=') || strchr(s, '+') || strchr(s, '#')) {
            snprintf(msg, mn, "theme %zu is not a word of letters, digits and '-' (at most 32)", i + 1);
            return -1;
        }
        char padded[TP_PUZZLE_THEMES_MAX + 2], needle[36];
        snprintf(padded, sizeof padded, " %s ", out->themes);
        snprintf(needle, sizeof needle, " %s ", s);
        if (!strstr(padded, needle))
            append(out->themes, sizeof out->themes, s);
    }
    if (*str(o, "title"))
        snprintf(out->title, sizeof out->title, "%s", str(o, "title"));
    else if (*str(o, "text")) /* a tactic's own words: "wins 300 centipawns of material" */
        snprintf(out->title, sizeof out->title, "%s to move %.100s", out->side ? "Black" : "White", str(o, "text"));
    else
        snprintf(out->title, sizeof out->title, "%s to move: %s in %d", out->side ? "Black" : "White",
                 strcmp(kind, "ending") ? "win" : "mate", out->mate_in);
    out->rating = tp_puzzle_start_rating(out->mate_in);
    json_t *r = json_object_get(o, "rating");
    if (r) {
        double x = json_number_value(r);
        if (!json_is_number(r) || x < 400 || x > 3500) {
            snprintf(msg, mn, "rating must be a number from 400 to 3500");
            return -1;
        }
        out->rating.r = x;
    }
    out->created_ms = now_ms;
    tp_puzzle_make_id(out->variant, out->fen, out->id);
    return 0;
}

int srv_puzzles_import(tp_db *d, const char *text, size_t len, int64_t now_ms, srv_import_count *c, char *msg,
                       size_t n)
{
    memset(c, 0, sizeof *c);
    if (len > SRV_IMPORT_MAX_BYTES) {
        snprintf(msg, n, "more than %u bytes of JSON: import it in parts", SRV_IMPORT_MAX_BYTES);
        return -1;
    }
    json_error_t je;
    json_t *root = json_loadb(text, len, 0, &je);
    if (!root) {
        snprintf(msg, n, "not JSON: line %d: %s", je.line, je.text);
        return -1;
    }
    /* topochess puzzles --json lists "puzzles"; topochess tactics --json
     * "tactics" (kind tactic unless an item says otherwise) */
    json_t *tactics = json_is_object(root) ? json_object_get(root, "tactics") : NULL;
    json_t *list = json_is_array(root) ? root : tactics ? tactics : json_object_get(root, "puzzles");
    const char *variant = json_is_object(root) ? json_string_value(json_object_get(root, "variant")) : NULL;
    if (!json_is_array(list) || json_array_size(list) > SRV_IMPORT_MAX_PUZZLES) {
        snprintf(msg, n, "%s", json_is_array(list) ? "too many puzzles at once (at most 200000)"
                                                    : "no list of puzzles (\"puzzles\": [...] or \"tactics\": [...])");
        json_decref(root);
        return -1;
    }
    tp_puzzle_row *row = malloc(sizeof *row);
    if (!row) {
        json_decref(root);
        snprintf(msg, n, "out of memory");
        return -1;
    }
    int rc = 0;
    size_t i;
    json_t *o;
    json_array_foreach(list, i, o)
    {
        char why[240];
        if (row_from_json(o, variant, tactics ? "tactic" : "ending", now_ms, row, why, sizeof why)) {
            if (!c->refused++)
                snprintf(c->first_refusal, sizeof c->first_refusal, "puzzle %zu: %s", i + 1, why);
            continue;
        }
        tc_error err;
        int got = tp_puzzle_insert(d, row, &err);
        if (got < 0) {
            snprintf(msg, n, "the database failed at puzzle %zu: %s", i + 1, err.msg);
            rc = -1;
            break;
        }
        if (got)
            c->added++;
        else
            c->existing++;
    }
    free(row);
    json_decref(root);
    return rc;
}

/* Puzzles of one material of a preset into the table: the number added. */
static int seed_material(tp_db *d, const tc_variant *v, const char *slug, const char *material, int64_t now_ms,
                         tc_error *err)
{
    tc_egtb_options eo = {.threads = 1};
    tc_egtb *t = tc_egtb_solve(v, material, &eo, err);
    if (!t)
        return -1;
    tc_puzzle_options o;
    tc_puzzle_options_default(&o);
    o.seed = 1;
    tc_puzzle *list = calloc(SRV_SEED_PER_MATERIAL, sizeof *list);
    tp_puzzle_row *row = malloc(sizeof *row);
    int got = list && row ? tc_puzzles_generate(t, &o, list, SRV_SEED_PER_MATERIAL, err) : -1;
    if (!list || !row)
        snprintf(err->msg, sizeof err->msg, "out of memory");
    int added = 0;
    for (int i = 0; i < got && added >= 0; i++) {
        srv_puzzle_row_from_tc(&list[i], slug, now_ms, row);
        int rc = tp_puzzle_insert(d, row, err);
        added = rc < 0 ? -1 : added + rc;
    }
    free(row);
    free(list);
    tc_egtb_free(t);
    return got < 0 ? -1 : added;
}

int srv_puzzles_seed(tp_db *d, int64_t now_ms, tc_error *err)
{
    static const char *const presets[] = SRV_SEED_PRESETS;
    static const char *const materials[] = {"KQK", "KRK"};
    int total = 0;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        int have = tp_puzzle_count(d, presets[i], NULL, err);
        if (have < 0)
            return -1;
        if (have > 0)
            continue;
        tc_variant_def def;
        if (tc_preset_find(presets[i], &def, err))
            return -1;
        tc_variant *v = tc_variant_new(&def, err);
        if (!v)
            return -1;
        for (int m = 0; m < 2; m++) {
            int added = seed_material(d, v, presets[i], materials[m], now_ms, err);
            if (added < 0) {
                tc_variant_free(v);
                return -1;
            }
            total += added;
        }
        tc_variant_free(v);
    }
    return total;
}
