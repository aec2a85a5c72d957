/* Tournaments' rules as pure functions (docs/tournaments.md): Berger
 * tables for round-robins, the arena's scoring with streaks, and the
 * arena's pairing from standings to pairs. No database, no clock: the
 * pairer (server/tourney.c) reads the rows, calls these, writes the rows.
 *
 * Limits: a round-robin has 2 to TT_RR_MAX players; an arena pairs at
 * most TT_ARENA_MAX waiting players a call. */
#ifndef TT_TOURNEY_RULES_H
#define TT_TOURNEY_RULES_H

#define TT_RR_MAX 16
#define TT_ARENA_MAX 256

/* Points of the arena (lichess's): a win 2, a draw 1, a loss 0; after two
 * wins in a row a player is "on fire": a win scores 4 and a draw 2, until
 * a game that is not a win. */
#define TT_WIN 2
#define TT_DRAW 1
#define TT_FIRE_AFTER 2

/// A game's outcome for one player.
typedef enum { TT_LOSS = 0, TT_DRAWN = 1, TT_WON = 2 } tt_outcome;

/* The number of rounds of a round-robin of n players (n even: n - 1;
 * odd: n, each player sitting out one round), 0 when n is out of 2 to
 * TT_RR_MAX. */
int tt_berger_rounds(int n);

/* Round r (0-based) of the Berger table of n players (seats 0 to n-1):
 * fills white[i], black[i] for each board and returns the number of
 * boards (n / 2); with n odd the seat left out has the bye (*bye, else
 * -1). -1 for a bad n or r. Over all rounds each pair meets once, and
 * each player has White in half its games (one more or less). */
int tt_berger_round(int n, int r, int *white, int *black, int *bye);

/* The points a result brings to a player whose current streak of wins is
 * streak, and the streak after it. */
int tt_arena_points(int streak, tt_outcome o, int *streak_after);

/// A player waiting for an arena game: the pairer's view.
typedef struct tt_waiter {
    int score;
    int last_opp;  /* the index (in the caller's list of players) of the last opponent, -1 none */
    int self;      /* this player's index in that list */
    int whites;    /* games with White minus games with Black so far */
    long long since_ms; /* waiting since: the longer waiter goes first among equals */
} tt_waiter;

/* Pairs waiting arena players: best score first, each with the waiting
 * player of the nearest score who is not its last opponent (nor it the
 * other's), ties to the one waiting longest. Fills pairs (as indexes into
 * w, white first: the one with fewer Whites so far) and returns the
 * number of pairs; players left waiting have no allowed opponent now. n
 * is at most TT_ARENA_MAX. */
int tt_arena_pair(const tt_waiter *w, int n, int (*pairs)[2]);

#endif
