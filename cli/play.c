/* A two-player game in the terminal: reads moves and commands line by line
 * and keeps the position consistent whatever the input. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PLAY_LINE_MAX 1000

/// The session around the position: how the board is drawn and whether
/// the input is echoed (piped input would otherwise vanish from the log).
typedef struct play_state {
    tc_position *pos;
    int white_bottom;
    int unicode;
    int echo;
    int redraw; /* the board changed since it was last drawn */
} play_state;

typedef enum { LINE_OK, LINE_TOO_LONG, LINE_EOF } line_status;

/* Reads one line of at most PLAY_LINE_MAX characters; a longer one is read
 * to its end and reported, so the next prompt starts on a fresh line. */
static line_status read_line(char *buf, size_t size)
{
    if (!fgets(buf, (int)size, stdin))
        return LINE_EOF;
    size_t len = strlen(buf);
    if (len > 0 && buf[len - 1] == '\n') {
        buf[--len] = '\0';
        if (len > 0 && buf[len - 1] == '\r')
            buf[--len] = '\0';
        return LINE_OK;
    }
    if (len <= PLAY_LINE_MAX)
        return LINE_OK; /* last line without a newline */
    int ch;
    while ((ch = getchar()) != EOF && ch != '\n')
        ;
    return LINE_TOO_LONG;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static const char *side_name(int colour) { return colour == TC_WHITE ? "White" : "Black"; }

static void print_help(void)
{
    printf("Enter a move in SAN (e4, Nf3, exc12, O-O, e8=Q) or coordinates (e2e4, b7b8q).\n"
           "Commands:\n"
           "  undo       take back one move\n"
           "  flip       turn the board around\n"
           "  moves      list the legal moves\n"
           "  fen        print the position's FEN\n"
           "  pgn FILE   save the game so far as PGN\n"
           "  resign     resign the game\n"
           "  draw       end the game as an agreed draw\n"
           "  help       show this text\n"
           "  quit       leave without a result\n");
}

static void list_moves(const tc_position *p)
{
    tc_movelist *list = malloc(sizeof *list);
    if (!list) {
        printf("out of memory\n");
        return;
    }
    int n = tc_generate_legal(p, list);
    printf("%d legal move%s:", n, n == 1 ? "" : "s");
    for (int i = 0; i < n; i++) {
        char san[32];
        tc_move_to_san(p, list->moves[i], san);
        printf("%s%s", i % 12 == 0 ? "\n  " : " ", san);
    }
    printf("\n");
    free(list);
}

static void print_fen(const tc_position *p)
{
    char fen[800];
    tc_position_fen(p, fen, sizeof fen);
    printf("%s\n", fen);
}

static void save_pgn(const tc_position *p, const char *path, const char *result)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("cannot open '%s' for writing: %s\n", path, strerror(errno));
        return;
    }
    tc_pgn_write(p, NULL, 0, result, f);
    if (fclose(f) != 0)
        printf("error writing '%s': %s\n", path, strerror(errno));
    else
        printf("saved the game to %s\n", path);
}

/* Prints the final message and the game as PGN, so a finished game can
 * still be kept after the program ends. */
static int end_game(const play_state *s, const char *message, const char *result)
{
    printf("%s  %s\n", message, result);
    printf("Game record (PGN):\n");
    tc_pgn_write(s->pos, NULL, 0, result, stdout);
    return 0;
}

/* Ends the game if the position is over; returns 1 when it did. */
static int check_game_over(const play_state *s)
{
    tc_status st = tc_position_status(s->pos);
    int mover = tc_side_to_move(s->pos);
    char msg[96];
    switch (st) {
    case TC_ONGOING:
        return 0;
    case TC_CHECKMATE:
        snprintf(msg, sizeof msg, "Checkmate: %s wins", side_name(!mover));
        end_game(s, msg, mover == TC_WHITE ? "0-1" : "1-0");
        return 1;
    case TC_STALEMATE:
        end_game(s, "Stalemate: draw", "1/2-1/2");
        return 1;
    case TC_DRAW_FIFTY:
        end_game(s, "Draw by the 50-move rule", "1/2-1/2");
        return 1;
    case TC_DRAW_REPETITION:
        end_game(s, "Draw by threefold repetition", "1/2-1/2");
        return 1;
    case TC_DRAW_DEAD:
        end_game(s, "Draw: dead position (no checkmate is possible)", "1/2-1/2");
        return 1;
    }
    return 0;
}

static void undo(play_state *s)
{
    if (tc_ply_count(s->pos) == 0) {
        printf("nothing to undo\n");
        return;
    }
    tc_move m = tc_last_move(s->pos);
    tc_unmake_move(s->pos);
    char san[32];
    tc_move_to_san(s->pos, m, san);
    printf("took back %s\n", san);
    s->redraw = 1;
}

static void try_move(play_state *s, const char *text)
{
    tc_move m;
    tc_error err;
    if (tc_move_parse(s->pos, text, &m, &err)) {
        printf("not a legal move or a command: %s (type 'help')\n", err.msg);
        return;
    }
    char san[32];
    tc_move_to_san(s->pos, m, san);
    int number = tc_fullmove_number(s->pos);
    int white = tc_side_to_move(s->pos) == TC_WHITE;
    tc_make_move(s->pos, m);
    printf("%d.%s %s\n", number, white ? "" : "..", san);
    s->redraw = 1;
}

/* Runs one input line; returns 1 when the game is over or left. */
static int run_command(play_state *s, char *line)
{
    char *cmd = line, *arg = line + strcspn(line, " \t");
    if (*arg)
        *arg++ = '\0';
    arg = trim(arg);
    int has_arg = *arg != '\0';
    int mover = tc_side_to_move(s->pos);

    if (!strcmp(cmd, "pgn")) {
        if (!has_arg)
            printf("pgn needs a file name: pgn FILE\n");
        else
            save_pgn(s->pos, arg, "*");
        return 0;
    }
    static const char *const plain[] = {"undo", "flip", "moves", "fen", "resign", "draw",
                                        "help", "quit", "exit"};
    int known = 0;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        known |= !strcmp(cmd, plain[i]);
    if (known && has_arg) {
        printf("'%s' takes no argument (got '%s')\n", cmd, arg);
        return 0;
    }
    if (!known) {
        try_move(s, cmd);
        if (has_arg)
            printf("one move per line: ignored '%s'\n", arg);
        return 0;
    }
    if (!strcmp(cmd, "undo"))
        undo(s);
    else if (!strcmp(cmd, "flip")) {
        s->white_bottom = !s->white_bottom;
        s->redraw = 1;
    } else if (!strcmp(cmd, "moves"))
        list_moves(s->pos);
    else if (!strcmp(cmd, "fen"))
        print_fen(s->pos);
    else if (!strcmp(cmd, "help"))
        print_help();
    else if (!strcmp(cmd, "resign")) {
        char msg[64];
        snprintf(msg, sizeof msg, "%s resigns: %s wins", side_name(mover), side_name(!mover));
        return end_game(s, msg, mover == TC_WHITE ? "0-1" : "1-0"), 1;
    } else if (!strcmp(cmd, "draw"))
        return end_game(s, "Draw agreed", "1/2-1/2"), 1;
    else
        return 1; /* quit, exit */
    return 0;
}

int cmd_play(cli_ctx *c)
{
    play_state s = {c->pos, 1, !c->ascii && isatty(STDOUT_FILENO), !isatty(STDIN_FILENO), 1};
    /* Room for the longest accepted line, its newline and the NUL: a line
     * that fills it without a newline is too long. */
    char buf[PLAY_LINE_MAX + 2];
    if (c->argc > 0) {
        fprintf(stderr, "topochess: play takes no arguments (got '%s')\n", c->argv[0]);
        return 1;
    }
    printf("%s: type a move or 'help'.\n", tc_variant_def_of(c->variant)->name);
    for (;;) {
        if (s.redraw) {
            cli_draw_board(s.pos, stdout, s.white_bottom, s.unicode);
            s.redraw = 0;
            if (check_game_over(&s))
                return 0;
            if (tc_in_check(s.pos))
                printf("Check!\n");
        }
        printf("%s to move> ", side_name(tc_side_to_move(s.pos)));
        fflush(stdout);
        line_status ls = read_line(buf, sizeof buf);
        if (ls == LINE_EOF) {
            printf("\n");
            return 0;
        }
        if (ls == LINE_TOO_LONG) {
            printf("\nline too long (over %d characters): ignored\n", PLAY_LINE_MAX);
            continue;
        }
        char *line = trim(buf);
        if (s.echo)
            printf("%s\n", line);
        if (!*line)
            continue;
        if (run_command(&s, line))
            return 0;
    }
}
