/* A game record as one row of values, in the column order of
 * TG_GAME_COLUMNS, so that both backends bind and read it the same way.
 * It leans on game.h and summary.h alone: the store interface (store.h, store.c) picks
 * a backend, and the backends call this file, one direction of calls. */
#ifndef TG_STORE_ROW_H
#define TG_STORE_ROW_H

#include "game.h"
#include "summary.h"

/* The columns of the games table in the order every backend binds them. */
#define TG_GAME_COLUMNS                                                                             \
    "id, white_token, black_token, variant, title, description, width, height, files, ranks, seam, " \
    "setup, start_fen, clock_kind, initial_ms, increment_ms, days, engine_side, engine_level, "      \
    "white_ms, black_ms, turn_started_ms, draw_offer, takeback_offer, result, termination, nmoves, " \
    "version, created_ms, updated_ms, day_ms"
#define TG_GAME_NCOLUMNS 31

/// One column value: an integer or text (text points into the game, or
/// into buf for numbers written as text).
typedef struct tg_value {
    bool is_int;
    int64_t i;
    const char *s;
    char buf[24];
} tg_value;

/* The game's record as values. */
void tg_row_from_game(const tg_game *g, tg_value row[TG_GAME_NCOLUMNS]);
/* Reads column values (text, as both backends can give it) into a game
 * record; -1 when a value is out of range (err names the column). */
int tg_row_to_game(const char *const text[TG_GAME_NCOLUMNS], tg_game *g, tc_error *err);
/* Adds a move record (for loading); -1 when memory runs out. */
int tg_row_add_move(tg_game *g, const char *uci, const char *san, int64_t at_ms, int64_t clock_ms);
/* Fills the ratings of an archive row from the stored rating and
 * deviation (rd < 0: no rating yet) of each side. */
void tg_summary_ratings(tg_game_summary *g, double wr, double wrd, double br, double brd);

#endif
