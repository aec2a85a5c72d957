/* `topochess match`: two engine processes play each other under our rules.
 * The library judges every move (legality, mate, draws); the engines only
 * propose moves. */
#ifndef TC_MATCH_H
#define TC_MATCH_H

#include "engine_proc.h"
#include "topochess.h"

#include <stdint.h>
#include <stdio.h>

#define MATCH_MAX_OPTIONS 32 /* option= words per engine (SPSA sets every search parameter) */

/// How to run one side: the shell command, its protocol, an optional
/// `Skill Level` to set, other UCI options, and a display name ("" = ask the
/// engine).
typedef struct match_engine_cfg {
    char cmd[1024];
    ep_proto proto;
    int skill; /* -1: leave the engine's default */
    char name[96];
    int noptions; /* UCI options to set: option=NAME=VALUE */
    char option[MATCH_MAX_OPTIONS][2][64];
    /* this engine's limit per move: one of movetime, nodes, clock */
    int movetime_ms;
    long nodes;
    int tc_base_ms, tc_inc_ms;
} match_engine_cfg;

/// Adjudication by the engines' own scores (cutechess-style): a game is
/// resigned when both engines agree, for `resign_moves` moves each, that one
/// side is at least `resign_cp` ahead; drawn when, from move
/// `draw_movenumber` on, both report |score| <= `draw_cp` for `draw_moves`
/// moves each. A count of 0 turns the rule off.
typedef struct match_adjudication {
    int resign_moves, resign_cp;
    int draw_movenumber, draw_moves, draw_cp;
} match_adjudication;

/// Game-pair results (both colours of one opening), the pentanomial
/// counts: index = points of engine 1 in the pair times 2 (0, 1/2, ... 2).
typedef struct match_penta {
    int n[5];
} match_penta;

/// Sequential probability ratio test: H0 "elo <= elo0" against H1 "elo >=
/// elo1" (logistic Elo), with error rates alpha and beta.
typedef struct match_sprt {
    int on;
    double elo0, elo1, alpha, beta;
    /* sprt-prior=: the pair counts of an earlier run of the same test
     * (same engines and settings, other openings) that this match
     * continues; the SPRT decides on both runs' pairs together */
    match_penta prior;
} match_sprt;

/// Everything `topochess match` was told, with defaults filled in by
/// match_config_init. Times are in milliseconds.
/* The most games a match plays at once (concurrency=). */
#define MATCH_MAX_CONCURRENCY 64

typedef struct match_config {
    tc_variant_def def;
    match_engine_cfg eng[2];
    int games;
    int movetime_ms;           /* the limits given for both engines (each */
    int tc_base_ms, tc_inc_ms; /* engine's own are in eng[k]) */
    long nodes;
    int margin_ms;             /* grace before a late move loses; -1: by the
                                  move time (match_margin) */
    int hang_ms;               /* deadline for a nodes-limited move */
    int openings;              /* random openings to make, 0: none */
    char openings_file[512];   /* FENs or move lists, EPD, or PGN */
    int plies;                 /* plies of a random opening */
    int plies_given;           /* plies= was given: it also caps PGN openings */
    int balance_cp;            /* > 0: keep random openings whose short
                                  search scores within this */
    int balance_depth;         /* depth of that search */
    match_adjudication adj;
    match_sprt sprt;
    uint64_t seed;
    int maxplies;
    int concurrency;
    char pgn_path[512];
    char event[96];
    int debug;                 /* log all engine traffic to the log */
} match_config;

/// The score from the first engine's side.
typedef struct match_score {
    int wins, losses, draws;
} match_score;

void match_config_init(match_config *cfg, const tc_variant_def *def);
/* Reads key=value words; `self` is the command that runs this binary
 * (for engineN=self:LEVEL). */
int match_parse_args(match_config *cfg, int argc, char **argv, const char *self, tc_error *err);
/* Plays the match, printing a line per game and the summary to `log`.
 * 0, or -1 when the match could not start (the reason is printed). */
int match_run(const match_config *cfg, FILE *log, match_score *score);
/* The same, also giving the pair counts (may be NULL). */
int match_run_penta(const match_config *cfg, FILE *log, match_score *score, match_penta *penta);

/* Colours and openings of game g (0-based): games come in pairs that share
 * an opening, engine 1 playing White in the first game of each pair. */
int match_white_engine(int game);
int match_opening_index(int game, int nopenings);

/// A start for one pair of games: a FEN (NULL: the variant's start) and
/// moves played from it in coordinate form.
typedef struct match_opening {
    char *fen;
    char *moves;
} match_opening;

/* match_openings.c: the openings cfg asks for (its file, N random ones, or
 * the start alone); 0, or -1 with the reason printed to `log`. */
int match_make_openings(const match_config *cfg, const tc_variant *v, match_opening **out, int *count,
                        FILE *log);
int match_apply_opening(tc_position *p, const match_opening *o, tc_error *err);
void match_free_openings(match_opening *list, int n);

/* The grace a move of engine k gets past its limit: cfg->margin_ms when
 * given, else 100 ms plus half the move time (a tenth of a clock's base
 * share plus the increment, under clocks). */
int match_margin(const match_config *cfg, int k);

/* Log-likelihood ratio of the GSPRT for the pair results (pentanomial
 * model, as fastchess does by default); trinomial from single games. */
double match_sprt_llr_penta(const match_penta *p, double elo0, double elo1);
double match_sprt_llr_trinomial(const match_score *s, double elo0, double elo1);
/* Bounds: log(beta / (1 - alpha)) and log((1 - beta) / alpha). */
void match_sprt_bounds(const match_sprt *t, double *lower, double *upper);
/* -1: H0 accepted, 1: H1 accepted, 0: go on. A match decides only after
 * this many pairs. */
#define MATCH_SPRT_MIN_PAIRS 10
int match_sprt_decide(const match_sprt *t, double llr);
/* The number of pairs counted in p. */
int match_penta_total(const match_penta *p);
/* The pairs the SPRT decides on: this match's and the prior's. */
match_penta match_sprt_pairs(const match_sprt *t, const match_penta *own);
/* The SPRT line and the pair counts it was computed from (this match's
 * pairs `own` and the prior's). */
void match_print_sprt(const match_sprt *t, const match_penta *own, FILE *log);

/* Elo difference for a score fraction in (0, 1); +-INFINITY at 1 and 0. */
double match_elo(double score);
/* Elo difference and its 95% error bar (INFINITY when unbounded). */
void match_elo_range(const match_score *s, double *elo, double *error);
/* The score line and the Elo line that end a match. */
void match_print_summary(const match_score *s, const char *name1, const char *name2, FILE *log);

/* The command: key=value words in c->argv. */
/* Prints the list of key=value words that match_parse_args takes. */
void match_usage(FILE *out);

#endif
