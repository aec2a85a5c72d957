/* Filling the hub's puzzle table (docs/puzzles.md, "On the hub"): from the
 * JSON of `topochess puzzles --json` (or a file of the same shape that
 * another generator writes: tactics add "kind", "themes" and "rating"),
 * and, so that a fresh hub is not empty, from the solved endings of the
 * presets whose 3-piece tables solve in a moment.
 *
 * The JSON: {"variant": V, "puzzles": [P, ...]} or a bare [P, ...]; each P
 * has "fen", "mate_in" and "line_uci" (and "accepted_uci", "line",
 * "material", "title", "side", "variant" (else V's), "kind" ("ending" by
 * default, or "tactic"), "themes" (a list of words [A-Za-z0-9-], at most 8;
 * an ending gets "mate-in-N" and its material besides), "rating").
 *
 * Limits: SRV_IMPORT_MAX_BYTES of JSON at once, SRV_IMPORT_MAX_PUZZLES
 * puzzles; the seeding makes SRV_SEED_PER_MATERIAL puzzles of KQK and of
 * KRK on each of SRV_SEED_PRESETS, only for a preset with no puzzle yet. */
#ifndef SRV_PUZZLE_IMPORT_H
#define SRV_PUZZLE_IMPORT_H

#include "puzzle_store.h"
#include "topochess_puzzle.h"

#include <stddef.h>

#define SRV_IMPORT_MAX_BYTES (64u << 20) /* = SRV_ADMIN_IMPORT_MAX_BYTES */
#define SRV_IMPORT_MAX_PUZZLES 200000
#define SRV_SEED_PER_MATERIAL 30
/* the presets whose KQK and KRK hold mates of 3 moves and more */
#define SRV_SEED_PRESETS {"chess", "cylinder", "mobius", "monteiro-cylinder"}

/// What an import did.
typedef struct srv_import_count {
    int added, existing, refused;
    char first_refusal[300]; /* "puzzle 3: no fen" */
} srv_import_count;

/* A puzzle of the library as a row (rating from tp_puzzle_start_rating). */
void srv_puzzle_row_from_tc(const tc_puzzle *z, const char *variant, int64_t now_ms, tp_puzzle_row *out);

/* Imports the JSON text into the table: 0 with the counts (a malformed
 * puzzle is refused, counted and the rest go on), or -1 with msg when the
 * text is no such JSON or the database fails. */
int srv_puzzles_import(tp_db *d, const char *text, size_t len, int64_t now_ms, srv_import_count *c, char *msg,
                       size_t n);

/* Seeds the presets above that have no puzzle: the number added, or -1
 * with err. */
int srv_puzzles_seed(tp_db *d, int64_t now_ms, tc_error *err);

#endif
