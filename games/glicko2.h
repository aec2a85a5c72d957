/* Glicko-2 ratings (Glickman, "Example of the Glicko-2 system", 2013), as
 * lichess uses them: one rating per player and variant, each rated game a
 * rating period of its own. Pure arithmetic: no state, no store. The
 * parameters are stated in docs/accounts.md. */
#ifndef TG_GLICKO2_H
#define TG_GLICKO2_H

#define TG_RATING_START 1500.0   /* a new player's rating */
#define TG_RD_START 500.0        /* and deviation (lichess: 500) */
#define TG_VOL_START 0.09        /* and volatility (lichess: 0.09) */
#define TG_TAU 0.75              /* how fast volatility may change (lichess: 0.75) */
#define TG_RD_MIN 45.0           /* the deviation never falls below this */
#define TG_RD_MAX 500.0          /* nor rises above the start */
#define TG_RD_PROVISIONAL 110.0  /* above this a rating is shown as provisional ("?") */

/// One player's rating in one variant.
typedef struct tg_rating {
    double r;   /* rating, Glicko scale (1500 = average) */
    double rd;  /* rating deviation */
    double vol; /* volatility */
} tg_rating;

/// One game of the period: the opponent's rating before it and the score.
typedef struct tg_rated_game {
    tg_rating opp;
    double score; /* 1 win, 0.5 draw, 0 loss */
} tg_rated_game;

/* A new player's rating (the start values above). */
tg_rating tg_rating_new(void);
/* The rating after a period of n games (n may be 0: the deviation grows),
 * with system constant tau, without the lichess bounds on rd. Returns the
 * player unchanged when the computation fails (a NaN input). */
tg_rating tg_glicko2_update(tg_rating player, const tg_rated_game *games, int n, double tau);
/* One rated game as the hub counts it: tau TG_TAU, rd kept within
 * [TG_RD_MIN, TG_RD_MAX]. */
tg_rating tg_rating_after_game(tg_rating player, tg_rating opp, double score);
/* True while the deviation is above TG_RD_PROVISIONAL. */
int tg_rating_provisional(tg_rating r);

#endif
