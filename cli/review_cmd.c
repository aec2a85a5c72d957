/* `topochess review FILE [nodes N | depth N] [--movetime MS] [--json]`:
 * every game of a PGN file reviewed move by move (tc_review_game,
 * docs/analysis.md) and written again as PGN with the engine's evaluation
 * after each move as a [%eval] comment (the form lichess and other
 * programs read), a NAG and a word for each inaccuracy, mistake and
 * blunder with the move that was best, and each side's accuracy; with
 * --json one JSON object a game instead. Progress goes to stderr. */
#include "cli.h"

#include "topochess_engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define REVIEW_DEFAULT_NODES 150000
#define REVIEW_MAX_NODES 100000000ull

/* The game's own tags, then the reviewer's [Annotator], and the moves
 * with the review's notes (tc_review_pgn). */
static void write_pgn(const tc_pgn_game *g, const tc_position *game, const tc_review_move *mv,
                      const tc_review_side sides[2], const char *budget, FILE *out)
{
    const char **tags = calloc(2 * ((size_t)g->ntags + 1), sizeof *tags);
    char annotator[120];
    snprintf(annotator, sizeof annotator, "topochess review (%s a position)", budget);
    int k = 0;
    for (int i = 0; tags && i < g->ntags; i++)
        if (strcmp(g->tag_name[i], "Annotator")) {
            tags[2 * k] = g->tag_name[i];
            tags[2 * k++ + 1] = g->tag_value[i];
        }
    if (tags) {
        tags[2 * k] = "Annotator";
        tags[2 * k++ + 1] = annotator;
    }
    tc_review_pgn(game, mv, sides, tags, k, g->result[0] ? g->result : "*", out);
    free((void *)tags);
}

static void write_json(int number, const tc_position *game, const tc_review_move *mv, const tc_review_side sides[2],
                       FILE *out)
{
    char *json = tc_review_json(game, mv, sides);
    /* the library's object, with the game's number in front */
    if (json)
        fprintf(out, "{\"game\":%d,%s\n", number, json + 1);
    free(json);
}

static void on_progress(int done, int total, void *ctx)
{
    int number = *(int *)ctx;
    if (done == total || done % 10 == 0)
        fprintf(stderr, "\rreview: game %d: %d of %d positions", number, done, total);
    if (done == total)
        fputc('\n', stderr);
}

/* "nodes N" or "depth N" after FILE; -1 with a message when they are not. */
static int read_budget(const cli_ctx *c, tc_limits *lim, char *text, size_t n)
{
    tc_limits_init(lim);
    if (c->argc == 2 || c->argc > 3) {
        fprintf(stderr, "topochess: review FILE takes 'nodes N' or 'depth N' after it, not '%s'\n", c->argv[1]);
        return -1;
    }
    if (c->argc == 3) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(c->argv[2], &end, 10);
        int depth = !strcmp(c->argv[1], "depth");
        if ((!depth && strcmp(c->argv[1], "nodes")) || errno || *end || !*c->argv[2] || c->argv[2][0] == '-' ||
            v < 1 || v > (depth ? (unsigned long long)TC_ENGINE_MAX_PLY - 1 : REVIEW_MAX_NODES)) {
            fprintf(stderr, "topochess: review: expected 'nodes N' (1 to %llu) or 'depth N' (1 to %d), not '%s %s'\n",
                    REVIEW_MAX_NODES, TC_ENGINE_MAX_PLY - 1, c->argv[1], c->argv[2]);
            return -1;
        }
        if (depth)
            lim->depth = (int)v;
        else
            lim->nodes = v;
    } else if (c->movetime_given) {
        lim->movetime = c->movetime;
    } else {
        lim->nodes = REVIEW_DEFAULT_NODES;
    }
    if (lim->depth)
        snprintf(text, n, "depth %d", lim->depth);
    else if (lim->nodes)
        snprintf(text, n, "%llu nodes", (unsigned long long)lim->nodes);
    else
        snprintf(text, n, "%lld ms", (long long)lim->movetime);
    return 0;
}

int cmd_review(cli_ctx *c)
{
    tc_limits lim;
    char budget[48];
    if (read_budget(c, &lim, budget, sizeof budget))
        return 1;
    size_t len;
    char *text = cli_read_file(c->argv[0], &len);
    if (!text)
        return 1;
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, len);
    tc_pgn_game *g = malloc(sizeof *g);
    tc_pgn_replay rp;
    memset(&rp, 0, sizeof rp);
    tc_engine *e = NULL;
    int status = 0, number = 0;
    for (;;) {
        tc_error err;
        int got = g ? tc_pgn_read_game(&r, g, &err) : 0;
        if (got == 0)
            break;
        number++;
        char conflict[200] = "";
        if (got < 0) {
            fprintf(stderr, "topochess: %s: game %d: %s\n", c->argv[0], number, err.msg);
            status = 1;
            continue;
        }
        int refused = cli_pgn_variant_conflict(g, c, conflict, sizeof conflict);
        if (refused || tc_pgn_replay_next(g, &c->def, &rp, &err) || !rp.ok) {
            fprintf(stderr, "topochess: %s: game %d (line %d): %s\n", c->argv[0], number, g->first_line,
                    refused ? conflict : err.msg);
            status = 1;
            tc_pgn_game_free(g);
            continue;
        }
        /* an engine a game: the replay may free the previous game's board */
        tc_engine_free(e);
        e = tc_engine_new(rp.variant, 32, 1);
        int n = tc_ply_count(rp.position);
        tc_review_move *mv = malloc((size_t)(n ? n : 1) * sizeof *mv);
        tc_review_side sides[2];
        if (!e || !mv || tc_review_game(e, rp.position, &lim, mv, sides, on_progress, &number, &err)) {
            fprintf(stderr, "topochess: %s: game %d: %s\n", c->argv[0], number, e && mv ? err.msg : "out of memory");
            status = 1;
        } else if (c->json) {
            write_json(number, rp.position, mv, sides, stdout);
        } else {
            write_pgn(g, rp.position, mv, sides, budget, stdout);
        }
        free(mv);
        tc_pgn_game_free(g);
    }
    if (number == 0) {
        fprintf(stderr, "topochess: %s: no games found (%s)\n", c->argv[0],
                len ? "no tag pair or move in it" : "the file is empty");
        status = 1;
    }
    tc_engine_free(e);
    tc_pgn_replay_free(&rp);
    free(g);
    free(text);
    return status;
}
