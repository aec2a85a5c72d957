/* `topochess pgn FILE [--variant V] [--fen | --xboard]`: replays every game
 * of a PGN file and reports, per game, its length and result or its first
 * bad move; with --xboard it writes the games for XBoard instead. */
#include "cli.h"

#include "topochess_explain.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Reads a whole file into a heap buffer; NULL with a message on failure. */
char *cli_read_file(const char *path, size_t *len)
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

/* Names equal but for case, spaces, '-' and '_'. */
static int loose_equal(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || *a == '-' || *a == '_')
            a++;
        while (*b == ' ' || *b == '-' || *b == '_')
            b++;
        if (!*a || !*b)
            return !*a && !*b;
        if (tolower((unsigned char)*a++) != tolower((unsigned char)*b++))
            return 0;
    }
}

int cli_pgn_variant_conflict(const tc_pgn_game *g, const cli_ctx *c, char *msg, size_t n)
{
    const char *tag = tc_pgn_tag(g, "Variant");
    if (!tag || !c->variant_given || loose_equal(tag, c->def.name))
        return 0;
    tc_error err;
    int i = tc_preset_lookup(tag, &err);
    if (i >= 0 && !strcmp(tc_preset(i)->name, c->def.name))
        return 0;
    snprintf(msg, n, "the game's [Variant \"%.60s\"] tag contradicts %s %s", tag,
             c->variant_file ? "--variant-file" : "--variant", c->variant_file ? c->variant_file : c->def.name);
    return 1;
}

/* Writes one PGN token, breaking lines before column 80. */
static void put_token(FILE *out, const char *tok, int *col)
{
    int n = (int)strlen(tok);
    if (*col && *col + 1 + n > 79) {
        fputc('\n', out);
        *col = 0;
    }
    fprintf(out, "%s%s", *col ? " " : "", tok);
    *col += n + (*col ? 1 : 0);
}

static void put_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *s = value; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s, out);
    }
    fputs("\"]\n", out);
}

/* `--xboard`: the game again in a form XBoard 4.9 loads with -lgf (see
 * docs/xboard.md). XBoard resolves SAN with the moves of a flat board, so
 * every move is written in coordinates. A board of XBoard's own (chess,
 * cylinder) keeps its name; any other is tagged "fairy" with its start FEN,
 * which XBoard sets up by itself (given -boardWidth and -boardHeight)
 * before the engine's `setup` arrives; the engine still gets the variant
 * named by -variant. */
static void write_xboard_game(const tc_pgn_game *g, const tc_pgn_replay *rp, const char *why, FILE *out)
{
    const char *name = tc_variant_def_of(rp->variant)->name;
    const char *tag = !strcmp(name, "chess") ? "normal" : !strcmp(name, "cylinder") ? "cylinder" : "fairy";
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->tag_name[i], "Variant") && strcmp(g->tag_name[i], "SetUp") && strcmp(g->tag_name[i], "FEN"))
            put_tag(out, g->tag_name[i], g->tag_value[i]);
    const char *start = tc_position_start_fen(rp->position);
    put_tag(out, "Variant", tag);
    put_tag(out, "SetUp", "1");
    put_tag(out, "FEN", start);
    fputc('\n', out);
    tc_position *p = tc_position_new(rp->variant);
    tc_error err;
    if (!p || tc_position_set_fen(p, start, &err)) {
        tc_position_free(p);
        fputs("*\n\n", out);
        return;
    }
    int col = 0, plies = tc_ply_count(rp->position);
    char tok[128];
    for (int i = 0; i < plies; i++) {
        if (tc_side_to_move(p) == TC_WHITE || i == 0) {
            snprintf(tok, sizeof tok, "%d.%s", tc_fullmove_number(p), tc_side_to_move(p) == TC_WHITE ? "" : "..");
            put_token(out, tok, &col);
        }
        tc_move m = tc_history_move(rp->position, i);
        tc_move_to_uci(p, m, tok);
        tc_make_move(p, m);
        put_token(out, tok, &col);
    }
    tc_position_free(p);
    if (why) {
        /* braces would end the comment early */
        snprintf(tok, sizeof tok, "{%.120s}", why);
        for (char *t = tok + 1; t[1]; t++)
            if (*t == '{' || *t == '}')
                *t = ' ';
        put_token(out, tok, &col);
    }
    put_token(out, why || !g->result[0] ? "*" : g->result, &col);
    fputs("\n\n", out);
}

int cmd_pgn(cli_ctx *c)
{
    if (c->argc != 1) {
        fprintf(stderr, "topochess: pgn needs exactly one FILE (usage: topochess pgn FILE [--variant V] [--fen | --xboard])\n");
        return 1;
    }
    size_t len;
    char *text = cli_read_file(c->argv[0], &len);
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
        char conflict[200];
        if (cli_pgn_variant_conflict(g, c, conflict, sizeof conflict)) {
            fprintf(stderr, "topochess: %s: game %d (line %d): %s\n", c->argv[0], number, g->first_line, conflict);
            status = 1;
            tc_pgn_game_free(g);
            continue;
        }
        if (tc_pgn_replay_next(g, &c->def, &rp, &err)) {
            fprintf(stderr, "topochess: %s: game %d (line %d): %s\n", c->argv[0], number, g->first_line, err.msg);
            status = 1;
        } else if (c->xboard) {
            write_xboard_game(g, &rp, rp.ok ? NULL : err.msg, stdout);
            if (!rp.ok) {
                fprintf(stderr, "topochess: %s: game %d: %s\n", c->argv[0], number, err.msg);
                status = 1;
            }
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
    if (number == 0) { /* nothing was checked: not a success */
        fprintf(stderr, "topochess: %s: no games found (%s)\n", c->argv[0],
                len ? "no tag pair or move in it" : "the file is empty");
        status = 1;
    }
    free(g);
    free(text);
    return status;
}
