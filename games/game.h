/* Hosted games: a game between two sides (people, or a person and the
 * engine) as the hub keeps it. The rules library judges every move; this
 * layer adds what a hosted game needs on top: a secret token per side,
 * clocks kept by the server, draw offers, takebacks, resignation, and the
 * record that a store (store.h) writes and reads back. It depends only on
 * the public headers and keeps no global state. */
#ifndef TG_GAME_H
#define TG_GAME_H

#include "topochess.h"
#include "topochess_engine.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define TG_ID_LEN 16    /* hex characters of a game's public id (64 bits) */
#define TG_TOKEN_LEN 32 /* hex characters of a side's secret (128 bits) */
#define TG_MAX_PLIES 20000
#define TG_RESULT_ABORTED "-" /* ended without a result (written "*" in PGN) */

/// How a game's time is kept. Fischer: each side starts with initial_ms and
/// gains increment_ms after each of its moves; correspondence: each move must
/// come within `days` days; none: untimed.
typedef enum { TG_CLOCK_NONE = 0, TG_CLOCK_FISCHER = 1, TG_CLOCK_CORRESPONDENCE = 2 } tg_clock_kind;

typedef struct tg_clock {
    tg_clock_kind kind;
    int64_t initial_ms, increment_ms;
    int days;
    int64_t day_ms; /* correspondence: the length of a day (0: TG_DAY_MS) */
} tg_clock;
#define TG_DAY_MS (86400LL * 1000)
/* The length of one of the clock's days. */
int64_t tg_clock_day_ms(const tg_clock *c);

/// One move as stored: coordinates and SAN (both written by the library),
/// when it was played and the mover's clock after it (-1 when untimed).
typedef struct tg_move_rec {
    char uci[16];
    char san[32];
    int64_t at_ms;
    int64_t clock_ms;
} tg_move_rec;

/// Errors of the game operations, each with its HTTP meaning.
typedef enum {
    TG_OK = 0,
    TG_EBADINPUT = 400, /* an unreadable or illegal move, a bad field */
    TG_EFORBIDDEN = 403, /* not this side's token */
    TG_ENOTFOUND = 404,
    TG_ECONFLICT = 409, /* not your turn, game over, nothing to accept */
    TG_ETOOLARGE = 413,
    TG_EINTERNAL = 500,
    TG_EUNAVAILABLE = 503 /* the store cannot be reached now (PostgreSQL reconnecting): retry */
} tg_code;

/// A hosted game: its record (everything a store keeps) and, built from it
/// by tg_game_rebuild, the variant and position that replay its moves.
typedef struct tg_game {
    char id[TG_ID_LEN + 1];
    char token[2][TG_TOKEN_LEN + 1]; /* [TC_WHITE], [TC_BLACK] */
    tc_variant_def def;
    char start_fen[720];
    tg_clock clock;
    int engine_side; /* the side the server's engine plays, -1 none */
    int engine_level; /* 1..20 */
    tg_move_rec *moves;
    int nmoves, cap;
    int64_t remaining_ms[2]; /* each side's clock as of turn_started_ms */
    int64_t turn_started_ms; /* when the side to move's time began to run */
    int64_t created_ms, updated_ms;
    int draw_offer;     /* the side offering a draw, -1 none; once the game is over, the side offering a rematch */
    int takeback_offer; /* the side asking to take back, -1 none */
    char result[8];     /* "*", "1-0", "0-1", "1/2-1/2", or TG_RESULT_ABORTED */
    char termination[64]; /* why it ended: "checkmate", "time forfeit", ... */
    int64_t version;    /* bumped by every change; stores refuse stale saves */
    /* derived by tg_game_rebuild, never stored */
    tc_variant *variant;
    tc_position *pos;
} tg_game;

/* Makes a new game of a variant from its setup or from fen (NULL: the
 * setup), with fresh random id and tokens. now_ms is wall-clock time in ms.
 * TG_OK, or TG_EBADINPUT with the reason in err. */
tg_code tg_game_new(tg_game *g, const tc_variant_def *def, const char *fen, const tg_clock *clock,
                    int engine_side, int engine_level, int64_t now_ms, tc_error *err);
/* Builds the variant and position from the record and replays its moves
 * (after a store loaded it). TG_OK, or TG_EINTERNAL when the record does not
 * replay (a corrupted store). */
tg_code tg_game_rebuild(tg_game *g, tc_error *err);
void tg_game_free(tg_game *g);

/* The side a token belongs to (TC_WHITE or TC_BLACK), or -1. Compares in
 * time that does not depend on where the strings differ. */
int tg_game_side_of(const tg_game *g, const char *token);

/* True while the game goes on. */
bool tg_game_active(const tg_game *g);
/* The side to move. */
int tg_game_turn(const tg_game *g);
/* The side to move's remaining time at now_ms (its clock runs from
 * turn_started_ms), or -1 when untimed. For correspondence games: the time
 * left until the move is due. */
int64_t tg_game_clock_left(const tg_game *g, int side, int64_t now_ms);

/* Ends the game on time when the side to move's clock has run out by now_ms
 * (flag fall, or a correspondence move overdue), or aborts it when it never
 * started: a Fischer game whose side to move has not made its first move
 * TG_ABANDON_MS after it could (after the game was made for White, after
 * White's first move for Black), or a correspondence game whose first
 * move of a side is overdue. Returns 1 when it ended it. */
#define TG_ABANDON_MS (5 * 60 * 1000)
int tg_game_check_flag(tg_game *g, int64_t now_ms);

/* Plays a move (SAN or coordinates) for `side`. On success the game's
 * clocks, offers and result are updated (mate, stalemate and the draws of
 * the rules end it). Errors: TG_ECONFLICT when the game is over or it is not
 * side's turn, TG_EBADINPUT with the library's reason. */
tg_code tg_game_move(tg_game *g, int side, const char *text, int64_t now_ms, tc_error *err);
/* Resigns for side; before both sides moved (fewer than two plies) this
 * aborts the game instead (no result, so a rated game does not count). */
tg_code tg_game_resign(tg_game *g, int side, int64_t now_ms, tc_error *err);
/* Aborts the game without a result: only in its first two plies. */
tg_code tg_game_abort(tg_game *g, int side, int64_t now_ms, tc_error *err);
/* After the end: side offers a rematch (kept in draw_offer), or declines
 * the opponent's offer (or withdraws its own). Accepting is the server's:
 * it makes the new game. */
tg_code tg_game_offer_rematch(tg_game *g, int side, int64_t now_ms, tc_error *err);
tg_code tg_game_decline_rematch(tg_game *g, int side, int64_t now_ms, tc_error *err);
/* Offers a draw; when the opponent's offer stands, the draw is agreed. */
tg_code tg_game_offer_draw(tg_game *g, int side, int64_t now_ms, tc_error *err);
/* Declines the opponent's draw offer (or withdraws one's own). */
tg_code tg_game_decline_draw(tg_game *g, int side, int64_t now_ms, tc_error *err);
/* Asks to take back side's last move; when the opponent accepts
 * (tg_game_accept_takeback), the moves since side's last move are undone
 * so that it is side's turn again. */
tg_code tg_game_request_takeback(tg_game *g, int side, int64_t now_ms, tc_error *err);
tg_code tg_game_accept_takeback(tg_game *g, int side, int64_t now_ms, tc_error *err);
tg_code tg_game_decline_takeback(tg_game *g, int side, int64_t now_ms, tc_error *err);

/* Writes the game as PGN with [Variant], [SetUp]/[FEN] and clock tags;
 * [Event] is event (a tournament's name), or "topochess hub game" when
 * NULL. */
void tg_game_pgn(const tg_game *g, const char *event, FILE *out);
/// A review to write with the moves (tg_game_pgn_reviewed).
typedef struct tg_pgn_review {
    const tc_review_move *moves; /* one a ply */
    const tc_review_side *sides; /* [TC_WHITE], [TC_BLACK] */
    const char *annotator;       /* the Annotator tag: who analysed, with what budget */
} tg_pgn_review;
/* The same with the review's [%eval] comments, marks and summary
 * (tc_review_pgn). */
void tg_game_pgn_reviewed(const tg_game *g, const char *event, const tg_pgn_review *review, FILE *out);

/* Fills buf with n random bytes from the system's generator; 0 or -1. */
int tg_random_bytes(void *buf, size_t n);

#endif
