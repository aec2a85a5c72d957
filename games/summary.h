/* A line of a game list (tg_store_list, tg_store_archive,
 * tg_store_pending). Its own header so that the store interface (store.h)
 * and the row helpers the backends share (store_row.h) both have it
 * without one including the other. */
#ifndef TG_SUMMARY_H
#define TG_SUMMARY_H

#include "game.h"

/// A line of a game list.
typedef struct tg_game_summary {
    char id[TG_ID_LEN + 1];
    char variant[64];
    char result[8];
    char termination[64];
    int nmoves;
    int engine_side;
    int64_t created_ms, updated_ms;
    /* the archive's (tg_store_archive; pending leaves them empty): the
     * sides' account names ("" for anonymous sides), their rating
     * in the variant as the game began (0 for an anonymous side; the start rating, provisional,
     * before an account's first rated game) and whether it is provisional,
     * whether the game counts for ratings */
    char white[40], black[40];
    int white_rating, black_rating;
    int white_provisional, black_provisional;
    int rated;
    char tournament_id[16], tournament[64]; /* the tournament the game belongs to ("" for none) */
} tg_game_summary;

#endif
