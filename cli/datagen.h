/* `topochess datagen`: self-play positions scored by the engine's search,
 * the training data of the learned evaluation (docs/nnue.md).
 *
 * datagen_file.c owns the file format (a header, then fixed-size records);
 * datagen.c plays the games and runs the command. */
#ifndef TC_DATAGEN_H
#define TC_DATAGEN_H

#include "topochess.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define DG_MAGIC "TCPD"
/* Version 2 added which evaluation scored the data; version 1 files (the
 * hand-written evaluation's) are still read and continued. */
#define DG_VERSION 2u
#define DG_HEADER_SIZE 128
/* Scores are clamped to this (a mate scores it). */
#define DG_SCORE_MAX 10000

/// The settings a data file was made with, kept in its header: a file is
/// only ever continued with the same ones, so that an interrupted and
/// resumed run writes the same bytes as an uninterrupted one.
typedef struct dg_header {
    uint32_t version;
    uint32_t width, height; /* the board, as in the variant */
    uint32_t record_size;   /* bytes per record (dg_record_size) */
    uint64_t seed;
    uint64_t nodes;         /* node budget per move */
    uint32_t random_plies;  /* random plies at the start of each game */
    uint32_t hash_mb;       /* hash table per game (it changes the searches) */
    uint32_t max_plies;     /* a game this long is a draw */
    char name[64];          /* the variant's name, NUL-terminated */
    uint32_t scored_by_net; /* 1: a net's evaluation, 0: the hand-written one */
    uint32_t net_crc;       /* that net's file checksum (its name), else 0 */
} dg_header;

/// One position as the file holds it. Cells are numbered as in the
/// library (y * width + x); piece codes are TC_PIECE(colour, type), 0 empty.
typedef struct dg_record {
    uint8_t board[TC_MAX_CELLS];
    int stm;       /* side to move, TC_WHITE or TC_BLACK */
    int castling;  /* bits 1 K, 2 Q, 4 k, 8 q */
    int result;    /* game result for the side to move: 1 win, 0 draw, -1 loss */
    int score;     /* search score for the side to move, centipawns, clamped */
    int ply;       /* plies played in the game before this position */
    uint32_t game; /* index of the game in the file's sequence, from 0 */
} dg_record;

/* Bytes per record on a board of `cells` cells. */
size_t dg_record_size(int cells);
/* Encodes / decodes one record of a board of `cells` cells. */
void dg_record_pack(const dg_record *r, int cells, uint8_t *out);
void dg_record_unpack(const uint8_t *in, int cells, dg_record *r);
/* Fills a record's board, side and castling from a position. */
void dg_record_from_position(dg_record *r, const tc_position *p);

/* The header's 128 bytes, and back (-1 with err naming what is wrong). */
/* "net 1a2b3c4d" or "the hand-written evaluation". */
void dg_scorer_text(const dg_header *h, char *buf, size_t n);
void dg_header_pack(const dg_header *h, uint8_t out[DG_HEADER_SIZE]);
int dg_header_unpack(const uint8_t in[DG_HEADER_SIZE], dg_header *h, tc_error *err);

/// An open data file: for appending (dg_open_append) or reading (dg_open_read).
typedef struct dg_file {
    FILE *f;
    dg_header h;
    int cells;
    uint64_t records;   /* whole records in the file */
    uint32_t next_game; /* the game to play next when appending */
    uint64_t dropped;   /* bytes of a cut-off tail removed (or left unread) when opening */
    uint64_t read;      /* records read so far */
} dg_file;

/* Opens `path` for appending: a missing or empty file gets the header
 * `want`; an existing one must have the same settings (err says which
 * differs). Records of the last game present, which may have been cut off
 * by a kill, and any torn record after them are removed, so the run goes on
 * from that game. -1 with err on failure. */
int dg_open_append(dg_file *df, const char *path, const dg_header *want, tc_error *err);
/* Opens `path` for reading; a torn last record is ignored (df->dropped). */
int dg_open_read(dg_file *df, const char *path, tc_error *err);
/* Reads the next record; 1 if read, 0 at the end. */
int dg_read(dg_file *df, dg_record *r);
/* Appends records (already in the file's order); -1 with err on a write error. */
int dg_append(dg_file *df, const dg_record *r, int n, tc_error *err);
void dg_close(dg_file *df);

/* The record's position as a FEN (no en passant cell, clocks from the
 * ply) in buf; returns its length (800 bytes always suffice). */
int dg_record_fen(const dg_record *r, int width, int height, char *buf, size_t n);
/* Writes one record as a text line: a FEN (no en passant cell, clocks from
 * the ply), then `; score S; result R; ply P; game G` with the score for
 * the side to move and the result as in PGN (White's view). */
void dg_record_text(const dg_record *r, int width, int height, FILE *out);
/* The whole file as text, one line per record after a comment line with
 * the header's settings; 0, or -1 with err. */
int dg_file_to_text(const char *path, FILE *out, tc_error *err);

/// What one run of the generator does.
typedef struct dg_config {
    tc_variant_def def;      /* the board */
    const char *out;         /* the data file (appended to) */
    uint64_t nodes;          /* node budget per move */
    uint64_t games;          /* stop when the file holds this many games (0: no limit) */
    uint64_t positions;      /* stop when it holds this many records (0: no limit) */
    int threads;             /* games played at once */
    uint64_t seed;
    int random_plies;
    int hash_mb;             /* hash table per thread */
    int max_plies;           /* a game this long is a draw */
    const char *eval_file;   /* the net that evaluates in the searches (NULL: the engine's default) */
    const char *hand_eval;   /* --hand-eval DATA: write DATA's hand-evaluation side file to `out` */
    bool board_given;        /* --variant or --variant-file was given */
    FILE *progress;          /* progress lines, or NULL */
    double progress_seconds; /* between progress lines */
} dg_config;

void dg_config_init(dg_config *c);
/* datagen_hand.c: writes the side file of the hand-written static
 * evaluation of every record of `data` (docs/nnue-training.md) to `out`,
 * on `threads` threads. board: the variant, or NULL for the preset the
 * data file names. A cut-off last record is left out, with a line on
 * `note`. 0, or -1 with err. */
int dg_hand_eval(const char *data, const char *out, const tc_variant_def *board, int threads, FILE *note,
                 tc_error *err);
/* Reads the command's arguments into c (a variant given by name or page
 * is loaded into c->def); *to_text receives the file of --to-text, if
 * given. -1 with err naming the problem; 1 for --help. */
int dg_parse_args(dg_config *c, int argc, char **argv, const char **to_text, tc_error *err);
/* Plays games until a limit is reached (or for ever); 0, or -1 with err. */
int dg_run(const dg_config *c, tc_error *err);
void dg_usage(FILE *out);

#endif
