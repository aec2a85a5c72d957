/* libFuzzer target for the PGN reader: every input must read game by game
 * to the end without crashing or looping, every game must replay (or fail
 * cleanly, keeping the variant from game to game as `topochess pgn` does),
 * and a game that replays must survive a write/read round trip. */
#include "topochess.h"

#include <stdlib.h>
#include <string.h>

/* Writes the replayed game, reads it back and replays it again: the final
 * position must be the same. */
static void round_trip(const tc_position *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    tc_pgn_write(p, NULL, 0, NULL, f);
    fclose(f);
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, buf, len);
    tc_pgn_game *g = malloc(sizeof *g);
    tc_error err;
    if (!g || tc_pgn_read_game(&r, g, &err) != 1)
        abort();
    static tc_pgn_replay rp; /* kept from run to run: variants are slow to build */
    if (tc_pgn_replay_next(g, tc_variant_def_of(tc_position_variant(p)), &rp, &err) || !rp.ok)
        abort();
    if (tc_key(rp.position) != tc_key(p) || tc_ply_count(rp.position) != tc_ply_count(p))
        abort();
    tc_pgn_game_free(g);
    free(g);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, (const char *)data, size);
    tc_pgn_game *g = malloc(sizeof *g);
    if (!g)
        return 0;
    size_t last = 0;
    int first = 1;
    /* carried from game to game, as `topochess pgn` does, and from run to
     * run, so that a variant is built only when the games change it */
    static tc_pgn_replay rp;
    for (;;) {
        tc_error err;
        int got = tc_pgn_read_game(&r, g, &err);
        if (got == 0)
            break;
        /* progress: each call moves on, so the loop ends */
        if (!first && r.pos <= last)
            abort();
        first = 0;
        last = r.pos;
        if (got < 0) {
            if (!strstr(err.msg, "line "))
                abort();
            continue;
        }
        if (tc_pgn_replay_next(g, NULL, &rp, &err) == 0 && rp.ok)
            round_trip(rp.position);
        tc_pgn_game_free(g);
    }
    free(g);
    return 0;
}
