/* An external engine as a child process, driven over UCI or CECP (xboard
 * protocol 2) through pipes. Every read has a deadline, so an engine that
 * stops answering costs a timeout, never a hang. Used by `topochess match`. */
#ifndef TC_ENGINE_PROC_H
#define TC_ENGINE_PROC_H

#include "topochess.h"

#include <stdio.h>
#include <sys/types.h>

typedef enum { EP_UCI, EP_CECP } ep_proto;

/// One running engine: the process, its pipes and read buffer, and what the
/// handshake told us (name, variants, CECP features). `sent` counts the plies
/// a CECP engine already has on its board, since CECP sends moves one by one.
typedef struct ep_engine {
    ep_proto proto;
    pid_t pid;
    int to_fd, from_fd;
    char buf[16384];
    size_t len;
    char name[96];           /* id name / feature myname, else "" */
    char variants[4096];     /* UCI_Variant vars or CECP variants, comma separated */
    int has_variant_option;  /* UCI: option UCI_Variant exists */
    char options[2048];      /* UCI option names, comma separated */
    int setboard, usermove, san, ping; /* CECP features */
    int sent;
    int ping_id;
    FILE *debug;             /* traffic log, or NULL */
    char tag[24];            /* prefix of the log lines */
    char error[512];
    char said[256];          /* last `info string` / `telluser` line of a move */
    int has_score;           /* the last move came with a score */
    int score;               /* its score, centipawns from the mover's side;
                                mates as +-(EP_MATE_SCORE - moves) */
} ep_engine;

#define EP_MATE_SCORE 100000

/// The search limit for one move of one engine. Clocks are in milliseconds;
/// when tc_base_ms is 0 the move has nodes (UCI only) if given, else
/// movetime_ms.
typedef struct ep_limits {
    int movetime_ms;
    long nodes;
    int tc_base_ms, tc_inc_ms;
    long clock_ms[2]; /* remaining time of White and Black */
    int inc_ms[2];    /* increments of White and Black (engines may differ) */
} ep_limits;

/// What waiting for an engine's move produced.
typedef enum {
    EP_MOVE,    /* text holds the move */
    EP_TIMEOUT, /* no move before the deadline */
    EP_DIED,    /* the engine closed its output or could not be written to */
    EP_RESIGN,  /* CECP `resign` */
    EP_CLAIM,   /* CECP result claim: text holds the line */
    EP_REJECT   /* CECP `Illegal move` for one of our moves: text holds it */
} ep_reply;

/* Starts `cmd` through /bin/sh and runs the handshake (uci/uciok or
 * xboard/protover 2/features). 0, or -1 with e->error set; on failure the
 * process is already gone. */
int ep_start(ep_engine *e, const char *cmd, ep_proto proto, FILE *debug, const char *tag);
/* 1 if the engine lists the variant (by its protocol name). */
int ep_has_variant(const ep_engine *e, const char *name);
/* 1 if the UCI engine declared the option. */
int ep_has_option(const ep_engine *e, const char *name);
/* UCI setoption. */
int ep_set_option(ep_engine *e, const char *name, const char *value);
/* The name the protocol uses for our variant: CECP calls chess "normal". */
const char *ep_variant_name(ep_proto proto, const char *ours);
/* Prepares a new game in `variant` (our name) from p's start FEN, with the
 * time control in lim, and waits until the engine is ready. */
int ep_new_game(ep_engine *e, const tc_position *p, const ep_limits *lim);
/* Asks for a move in position p (its history holds the game). Waits up to
 * timeout_ms; *elapsed_ms gets the thinking time. */
ep_reply ep_go(ep_engine *e, const tc_position *p, const ep_limits *lim, int timeout_ms,
               char *text, size_t size, long *elapsed_ms);
/* Tells a CECP engine the result, sends quit, and ends the process (killed
 * if it does not exit soon, or at once when `graceful` is 0). */
void ep_stop(ep_engine *e, const char *result, const char *reason, int graceful);

/* Milliseconds of a monotonic clock. */
long ep_now_ms(void);

#endif
