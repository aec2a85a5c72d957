/* A two-player game in the terminal: reads moves and commands line by line
 * and keeps the position consistent whatever the input. */
#include "cli.h"
#include "topochess_engine.h"

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
    tc_engine *engine; /* the opponent, or NULL in a two-player game */
    int engine_side;   /* the colour it plays, -1 none */
    int level, movetime;
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
           "  undo       take back one move (against the engine: yours and its reply)\n"
           "  go         let the engine move now (it then keeps that side)\n"
           "  engine white|black|off   choose the engine's side\n"
           "  level N    engine level 1-20 (20: full strength; below, Elo 800 + 80 (N - 1))\n"
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

static void undo_one(play_state *s)
{
    tc_move m = tc_last_move(s->pos);
    tc_unmake_move(s->pos);
    char san[32];
    tc_move_to_san(s->pos, m, san);
    printf("took back %s\n", san);
    s->redraw = 1;
}

static void undo(play_state *s)
{
    if (tc_ply_count(s->pos) == 0) {
        printf("nothing to undo\n");
        return;
    }
    undo_one(s);
    /* against the engine, give the move back to the player */
    if (s->engine && tc_side_to_move(s->pos) == s->engine_side && tc_ply_count(s->pos) > 0)
        undo_one(s);
}

/* The engine's move for the side to move: searched, printed, played. */
static void engine_move(play_state *s)
{
    if (tc_engine_set_position(s->engine, s->pos)) {
        printf("engine: cannot take this position\n");
        s->engine_side = -1;
        return;
    }
    tc_limits lim;
    tc_limits_init(&lim);
    lim.movetime = s->movetime;
    /* level L < 20: a limited-strength player of Elo 800 + 80 (L - 1)
     * (the engine's UCI_Elo scale), choosing among its best few moves */
    lim.elo = s->level < 20 ? TC_ELO_MIN + 80 * (s->level - 1) : 0;
    tc_search_result r = tc_engine_search(s->engine, &lim, NULL, NULL);
    if (!r.best)
        return;
    char san[32], score[32];
    tc_move_to_san(s->pos, r.best, san);
    if (r.mate)
        snprintf(score, sizeof score, "mate in %d", r.mate > 0 ? r.mate : -r.mate);
    else
        snprintf(score, sizeof score, "%+.2f", r.score / 100.0);
    int number = tc_fullmove_number(s->pos);
    int white = tc_side_to_move(s->pos) == TC_WHITE;
    tc_make_move(s->pos, r.best);
    printf("%d.%s %s   (topochess, depth %d, %s%s)\n", number, white ? "" : "..", san, r.depth,
           r.mate < 0 ? "mated in " : "", r.mate < 0 ? score + 8 : score);
    s->redraw = 1;
}

static int ensure_engine(play_state *s)
{
    if (!s->engine)
        s->engine = tc_engine_new(tc_position_variant(s->pos), 64, 1);
    if (!s->engine)
        printf("engine: out of memory\n");
    return s->engine != NULL;
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

    if (!strcmp(cmd, "engine") || !strcmp(cmd, "level")) {
        if (!strcmp(cmd, "level")) {
            char *end;
            long n = strtol(arg, &end, 10);
            if (!has_arg || *end || n < 1 || n > 20)
                printf("level takes a number from 1 to 20\n");
            else
                printf("engine level %ld\n", (long)(s->level = (int)n));
        } else if (!strcmp(arg, "off") || !strcmp(arg, "none")) {
            s->engine_side = -1;
            printf("two players: the engine is off\n");
        } else if (!strcmp(arg, "white") || !strcmp(arg, "black")) {
            if (ensure_engine(s)) {
                s->engine_side = !strcmp(arg, "white") ? TC_WHITE : TC_BLACK;
                printf("topochess plays %s\n", side_name(s->engine_side));
            }
        } else
            printf("engine takes white, black or off\n");
        return 0;
    }
    if (!strcmp(cmd, "go")) {
        if (has_arg)
            printf("'go' takes no argument (got '%s')\n", arg);
        else if (ensure_engine(s)) {
            s->engine_side = mover;
            engine_move(s);
        }
        return 0;
    }
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

/* The game loop: draw, judge, let the engine move when it is its turn,
 * else read a line from the player. */
static int play_loop(play_state *s)
{
    /* Room for the longest accepted line, its newline and the NUL: a line
     * that fills it without a newline is too long. */
    char buf[PLAY_LINE_MAX + 2];
    for (;;) {
        if (s->redraw) {
            cli_draw_board(s->pos, stdout, s->white_bottom, s->unicode);
            s->redraw = 0;
            if (check_game_over(s))
                return 0;
            if (tc_in_check(s->pos))
                printf("Check!\n");
        }
        if (s->engine && tc_side_to_move(s->pos) == s->engine_side) {
            engine_move(s);
            continue;
        }
        printf("%s to move> ", side_name(tc_side_to_move(s->pos)));
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
        if (s->echo)
            printf("%s\n", line);
        if (!*line)
            continue;
        if (run_command(s, line))
            return 0;
    }
}

int cmd_play(cli_ctx *c)
{
    if (c->argc > 0) {
        fprintf(stderr, "topochess: play takes no arguments (got '%s')\n", c->argv[0]);
        return 1;
    }
    play_state s = {c->pos, 1, !c->ascii && isatty(STDOUT_FILENO), !isatty(STDIN_FILENO), 1,
                    NULL, c->engine_side, c->level, c->movetime};
    if (s.engine_side >= 0 && !ensure_engine(&s))
        return 1;
    if (s.engine_side >= 0)
        s.white_bottom = s.engine_side == TC_BLACK;
    printf("%s: type a move or 'help'.%s\n", tc_variant_def_of(c->variant)->name,
           s.engine_side >= 0 ? "" : " Two players; 'engine black' or 'go' brings in topochess.");
    int status = play_loop(&s);
    tc_engine_free(s.engine);
    return status;
}
