/* `topochess pgn FILE [--variant V] [--fen]`: replays every game of a PGN
 * file and reports, per game, its length and result or its first bad move. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file into a heap buffer; NULL with a message on failure. */
static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "topochess: cannot open '%s': %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *bigger = realloc(buf, cap * 2);
        if (!bigger) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = bigger;
        cap *= 2;
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        fprintf(stderr, "topochess: cannot read '%s'%s\n", path, buf ? "" : ": out of memory");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int cmd_pgn(cli_ctx *c)
{
    if (c->argc != 1) {
        fprintf(stderr, "topochess: pgn needs exactly one FILE (usage: topochess pgn FILE [--variant V] [--fen])\n");
        return 1;
    }
    size_t len;
    char *text = read_file(c->argv[0], &len);
    if (!text)
        return 1;
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, len);
    tc_pgn_game *g = malloc(sizeof *g);
    if (!g) {
        free(text);
        return 1;
    }
    int status = 0, number = 0;
    tc_pgn_replay rp; /* carried from game to game: one variant build per run of games */
    memset(&rp, 0, sizeof rp);
    for (;;) {
        tc_error err;
        int got = tc_pgn_read_game(&r, g, &err);
        if (got == 0)
            break;
        number++;
        if (got < 0) {
            fprintf(stderr, "topochess: %s: game %d: %s\n", c->argv[0], number, err.msg);
            status = 1;
            continue;
        }
        if (tc_pgn_replay_next(g, &c->def, &rp, &err)) {
            fprintf(stderr, "topochess: %s: game %d (line %d): %s\n", c->argv[0], number, g->first_line, err.msg);
            status = 1;
        } else {
            if (rp.ok) {
                int plies = tc_ply_count(rp.position);
                /* full moves, counting a first move by black as one */
                int black_first = strstr(tc_position_start_fen(rp.position), " b ") != NULL;
                int moves = (plies + 1 + black_first) / 2;
                printf("game %d: %d move%s, result %s, ok\n", number, moves, moves == 1 ? "" : "s", g->result);
            } else {
                printf("game %d: %s\n", number, err.msg);
                status = 1;
            }
            if (c->print_fen) {
                char fen[800];
                tc_position_fen(rp.position, fen, sizeof fen);
                printf("%s\n", fen);
            }
        }
        tc_pgn_game_free(g);
    }
    tc_pgn_replay_free(&rp);
    if (number == 0)
        fprintf(stderr, "topochess: %s: no games found\n", c->argv[0]);
    free(g);
    free(text);
    return status;
}
