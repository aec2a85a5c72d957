/* A two-player game in the terminal: reads moves and commands line by line
 * and keeps the position consistent whatever the input. */
#include "cli.h"
#include "topochess_endgame.h"
#include "topochess_engine.h"
#include "topochess_explain.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define PLAY_LINE_MAX 1000

/// The session around the position: how the board is drawn, whether the
/// input is echoed (piped input would otherwise vanish from the log), the
/// opponent, and the game's end. A finished game stays open: the result is
/// kept until `undo` takes it back, and the record is written at the end.
typedef struct play_state {
    tc_position *pos;
    int white_bottom;
    int unicode;
    int echo;
    int redraw; /* the board changed since it was last drawn */
    tc_engine *engine; /* the opponent, or NULL in a two-player game */
    int engine_side;   /* the colour it plays, -1 none */
    int level, movetime;
    int compact;       /* the short drawing: board and one status line */
    int over;          /* the game has ended */
    int over_by_agreement; /* ended by resignation or agreement, not by the position */
    char result[8];    /* "1-0", "0-1", "1/2-1/2" or "*" */
    char engine_line[160]; /* the engine's last move, shown under the board */
    const char *pgn_out;
    const tc_pgn_game *loaded; /* tags of a game given with --pgn, or NULL */
    const char *eval_file;     /* --eval-file (<none>: hand-written), or NULL: the built-in net */
    tc_dead_table *dead; /* dead materials of this board (docs/rules.md section 6) */
    cli_analysis *analysis; /* `analyse`: the last solved ending, made on first use */
    unsigned char *by_engine; /* [ply]: 1 when the engine played that move (for the record's names) */
    int by_engine_cap;
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
           "  analyse [depth N] [time SECONDS] [lines K]   the engine's best lines here (scores\n"
           "             for White) and the solved ending's verdict; a second by default\n"
           "  flip       turn the board around\n"
           "  moves      list the legal moves; moves CELL: that piece's moves and their paths\n"
           "  fen        print the position's FEN\n"
           "  pgn FILE   save the game so far as PGN\n"
           "  resign     resign the game\n"
           "  draw       offer a draw (the engine accepts only an equal or drawn position)\n"
           "  help       show this text\n"
           "  quit       leave; the game record is printed (or saved with --pgn-out FILE)\n"
           "After the end of a game, undo, fen, moves and pgn FILE still work.\n"
           "Paths mark the joins they cross: ~ file join, | rank join, = twist, ^ fold.\n");
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

/* The tags of the record: players, date, time control, event. */
static void write_pgn(const play_state *s, const char *result, FILE *f)
{
    char date[16] = "????.??.??", engine_name[96], tc[32] = "-";
    time_t now = time(NULL);
    struct tm tmv;
    if (localtime_r(&now, &tmv))
        strftime(date, sizeof date, "%Y.%m.%d", &tmv);
    snprintf(engine_name, sizeof engine_name, "topochess (level %d, %d ms per move)", s->level, s->movetime);
    if (s->engine_side >= 0 && s->movetime % 1000 == 0)
        snprintf(tc, sizeof tc, "1/%d", s->movetime / 1000);
    const char *tags[2 * 8];
    int n = 0;
#define TAG(name, value) (tags[2 * n] = (name), tags[2 * n + 1] = (value), n++)
    const tc_pgn_game *g = s->loaded;
    const char *event = g ? tc_pgn_tag(g, "Event") : NULL, *site = g ? tc_pgn_tag(g, "Site") : NULL;
    const char *gdate = g ? tc_pgn_tag(g, "Date") : NULL;
    TAG("Event", event ? event : "Casual game");
    TAG("Site", site ? site : "topochess play");
    TAG("Date", gdate ? gdate : date);
    /* a side is named after who played its moves: the engine, the player
     * (or the loaded game's name), or both when they took turns */
    int plies = tc_ply_count(s->pos), first = tc_side_to_move(s->pos) ^ (plies & 1);
    int by_engine[2] = {0, 0}, by_other[2] = {0, 0};
    for (int i = 0; i < plies; i++)
        (i < s->by_engine_cap && s->by_engine[i] ? by_engine : by_other)[(first + i) & 1]++;
    char mixed[2][200];
    for (int colour = 0; colour < 2; colour++) {
        const char *tag = colour ? "Black" : "White";
        const char *given = g ? tc_pgn_tag(g, tag) : NULL;
        const char *person = given && strcmp(given, "?") ? given : "Player";
        snprintf(mixed[colour], sizeof mixed[colour], "%.80s and %s", person, engine_name);
        int engine = by_engine[colour] > 0 || (s->engine_side == colour && !by_other[colour]);
        TAG(tag, !engine ? person : by_other[colour] && by_engine[colour] ? mixed[colour] : engine_name);
    }
    TAG("TimeControl", tc);
    if (tc_game_status(s->dead, s->pos) == TC_DRAW_DEAD)
        TAG("Termination", "dead position"); /* docs/rules.md section 6 */
#undef TAG
    tc_pgn_write(s->pos, tags, n, result, f);
}

/* Returns 0 when the file was written. */
static int save_pgn(const play_state *s, const char *path, const char *result)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("cannot open '%s' for writing: %s\n", path, strerror(errno));
        return -1;
    }
    write_pgn(s, result, f);
    if (fclose(f) != 0) {
        printf("error writing '%s': %s\n", path, strerror(errno));
        return -1;
    }
    printf("saved the game to %s\n", path);
    return 0;
}

/* Leaving: the record goes to --pgn-out FILE, else (or when that fails, so
 * that the game is not lost) to the terminal. Returns the exit status. */
static int finish(const play_state *s)
{
    const char *result = s->over ? s->result : "*";
    int status = 0;
    if (s->pgn_out) {
        if (save_pgn(s, s->pgn_out, result) == 0)
            return 0;
        status = 1;
    }
    printf("Game record (PGN):\n");
    write_pgn(s, result, stdout);
    return status;
}

/* Announces the end; the prompt stays for undo, fen, pgn and quit. */
static void end_game(play_state *s, const char *message, const char *result, int agreed)
{
    printf("%s  %s\n", message, result);
    printf("The game is over: 'undo' takes back the last move, 'pgn FILE' saves the game, 'quit' leaves.\n");
    s->over = 1;
    s->over_by_agreement = agreed;
    snprintf(s->result, sizeof s->result, "%s", result);
}

/* Ends the game if the position is over. */
static void check_game_over(play_state *s)
{
    tc_status st = tc_game_status(s->dead, s->pos);
    int mover = tc_side_to_move(s->pos);
    char msg[96];
    switch (st) {
    case TC_ONGOING:
        return;
    case TC_CHECKMATE:
        snprintf(msg, sizeof msg, "Checkmate: %s wins", side_name(!mover));
        end_game(s, msg, mover == TC_WHITE ? "0-1" : "1-0", 0);
        return;
    case TC_STALEMATE:
        end_game(s, "Stalemate: draw", "1/2-1/2", 0);
        return;
    case TC_DRAW_FIFTY:
        end_game(s, "Draw by the 50-move rule", "1/2-1/2", 0);
        return;
    case TC_DRAW_REPETITION:
        end_game(s, "Draw by threefold repetition", "1/2-1/2", 0);
        return;
    case TC_DRAW_DEAD:
        end_game(s, "Draw: dead position (no checkmate is possible)", "1/2-1/2", 0);
        return;
    }
}

static void undo_one(play_state *s)
{
    tc_move m = tc_last_move(s->pos);
    tc_unmake_move(s->pos);
    char san[32];
    tc_move_to_san(s->pos, m, san);
    printf("took back %s\n", san);
    s->engine_line[0] = '\0'; /* it may name the move just taken back */
    s->redraw = 1;
}

static void undo(play_state *s)
{
    if (s->over && s->over_by_agreement) {
        s->over = 0;
        printf("taken back: the game goes on\n");
        return;
    }
    if (tc_ply_count(s->pos) == 0) {
        printf("nothing to undo\n");
        return;
    }
    s->over = 0;
    undo_one(s);
    /* against the engine, give the move back to the player */
    if (s->engine && tc_side_to_move(s->pos) == s->engine_side && tc_ply_count(s->pos) > 0)
        undo_one(s);
}

/* Notes who plays the move about to be made at the current ply. */
static void mark_ply(play_state *s, int engine)
{
    int ply = tc_ply_count(s->pos);
    if (ply >= s->by_engine_cap) {
        int cap = ply + 256;
        unsigned char *bigger = realloc(s->by_engine, (size_t)cap);
        if (!bigger)
            return; /* the record then names the side by --engine alone */
        memset(bigger + s->by_engine_cap, 0, (size_t)(cap - s->by_engine_cap));
        s->by_engine = bigger;
        s->by_engine_cap = cap;
    }
    s->by_engine[ply] = (unsigned char)engine;
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
    mark_ply(s, 1);
    tc_make_move(s->pos, r.best);
    /* shown under the board, so that it stays in sight on a short screen */
    snprintf(s->engine_line, sizeof s->engine_line, "%d.%s %s   (topochess, depth %d, %s%s)", number,
             white ? "" : "..", san, r.depth, r.mate < 0 ? "mated in " : "", r.mate < 0 ? score + 8 : score);
    s->redraw = 1;
}

static int ensure_engine(play_state *s)
{
    if (!s->engine) {
        s->engine = tc_engine_new(tc_position_variant(s->pos), 64, 1);
        tc_error err;
        if (s->engine && s->eval_file && !strcmp(s->eval_file, "<none>"))
            tc_engine_clear_net(s->engine); /* as UCI's EvalFile <none> */
        else if (s->engine && s->eval_file && tc_engine_load_net(s->engine, s->eval_file, &err))
            printf("engine: --eval-file %s; evaluation: hand-written\n", err.msg);
    }
    if (!s->engine)
        printf("engine: out of memory\n");
    return s->engine != NULL;
}

static void try_move(play_state *s, const char *text)
{
    if (s->over) {
        printf("the game is over (%s): 'undo' takes back the last move, 'quit' leaves\n", s->result);
        return;
    }
    tc_explanation *x = malloc(sizeof *x);
    if (!x) {
        printf("out of memory\n");
        return;
    }
    if (tc_explain_move(s->pos, text, x)) {
        char line[800];
        cli_explain_line(text, x, line, sizeof line);
        if (x->why == TC_WHY_SYNTAX)
            printf("not a legal move or a command: %s (type 'help')\n", x->message);
        else
            printf("%s\n", line);
        free(x);
        return;
    }
    tc_move m = x->move;
    free(x);
    char san[32];
    tc_move_to_san(s->pos, m, san);
    int number = tc_fullmove_number(s->pos);
    int white = tc_side_to_move(s->pos) == TC_WHITE;
    mark_ply(s, 0);
    tc_make_move(s->pos, m);
    printf("%d.%s %s\n", number, white ? "" : "..", san);
    s->engine_line[0] = '\0';
    s->redraw = 1;
}

/* A draw offer to the engine: accepted when the position is drawn by rule
 * or its search finds the game near equal, as a player would. */
static void offer_draw(play_state *s)
{
    const tc_position *p = s->pos;
    if (tc_halfmove_clock(p) >= 100 || tc_repetitions(p) >= 3 || tc_dead_position(s->dead, p)) {
        end_game(s, "Draw by rule, accepted by topochess", "1/2-1/2", 1);
        return;
    }
    if (!ensure_engine(s) || tc_engine_set_position(s->engine, p)) {
        printf("topochess cannot judge this position: the game goes on\n");
        return;
    }
    tc_limits lim;
    tc_limits_init(&lim);
    lim.depth = 6;
    lim.movetime = s->movetime;
    tc_search_result r = tc_engine_search(s->engine, &lim, NULL, NULL);
    /* the score is the side to move's; turn it to the engine's side */
    int mine = tc_side_to_move(p) == s->engine_side ? r.score : -r.score;
    int mate = tc_side_to_move(p) == s->engine_side ? r.mate : -r.mate;
    if (!mate && mine <= 30 && mine >= -30) {
        char msg[96];
        snprintf(msg, sizeof msg, "topochess accepts the draw (it sees %+.2f)", mine / 100.0);
        end_game(s, msg, "1/2-1/2", 1);
    } else if (mate > 0 || mine > 30) {
        printf("topochess declines the draw: it sees %s%+.2f for itself\n", mate ? "a mate, " : "", mine / 100.0);
    } else {
        printf("topochess declines the draw: it sees %+.2f for itself and plays on\n", mine / 100.0);
    }
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
        else if (s->over)
            printf("the game is over (%s): 'undo' takes back the last move\n", s->result);
        else if (ensure_engine(s)) {
            s->engine_side = mover;
            engine_move(s);
        }
        return 0;
    }
    if (!strcmp(cmd, "analyse") || !strcmp(cmd, "analyze")) {
        if (!s->analysis)
            s->analysis = cli_analysis_new();
        if (!s->analysis || !ensure_engine(s))
            printf("analyse: out of memory\n");
        else
            cli_analyse(s->analysis, s->engine, s->dead, s->pos, arg, stdout, stdout);
        return 0;
    }
    if (!strcmp(cmd, "pgn")) {
        if (!has_arg)
            printf("pgn needs a file name: pgn FILE\n");
        else
            save_pgn(s, arg, s->over ? s->result : "*");
        return 0;
    }
    if (!strcmp(cmd, "moves") && has_arg) {
        const tc_variant *v = tc_position_variant(s->pos);
        int cell = tc_cell_parse(v, arg);
        if (cell < 0)
            printf("'%s' is not a cell of this %dx%d board\n", arg, tc_variant_width(v), tc_variant_height(v));
        else if (!tc_piece_at(s->pos, cell))
            printf("there is no piece on %s\n", arg);
        else
            cli_print_piece_moves(s->pos, cell, 0, stdout);
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
    else if (s->over && (!strcmp(cmd, "resign") || !strcmp(cmd, "draw")))
        printf("the game is over (%s)\n", s->result);
    else if (!strcmp(cmd, "resign")) {
        char msg[64];
        /* against the engine the player resigns, whoever is to move */
        int loser = s->engine_side >= 0 ? !s->engine_side : mover;
        snprintf(msg, sizeof msg, "%s resigns: %s wins", side_name(loser), side_name(!loser));
        end_game(s, msg, loser == TC_WHITE ? "0-1" : "1-0", 1);
    } else if (!strcmp(cmd, "draw")) {
        if (s->engine_side >= 0)
            offer_draw(s);
        else
            end_game(s, "Draw agreed", "1/2-1/2", 1);
    } else
        return 1; /* quit, exit */
    return 0;
}

/* The status line of the compact view. */
static void compact_status(const play_state *s)
{
    const tc_position *p = s->pos;
    tc_move last = tc_last_move(p);
    char lastbuf[48] = "";
    if (last) {
        tc_position *before = tc_position_clone(p);
        if (before) {
            char san[32];
            tc_unmake_move(before);
            tc_move_to_san(before, last, san);
            snprintf(lastbuf, sizeof lastbuf, "; last %d.%s %s", tc_fullmove_number(before),
                     tc_side_to_move(before) == TC_WHITE ? "" : "..", san);
            tc_position_free(before);
        }
    }
    printf("%s to move%s%s\n", side_name(tc_side_to_move(p)), lastbuf, tc_in_check(p) ? "; check" : "");
}

static void draw(play_state *s)
{
    if (s->compact) {
        cli_draw_board_compact(s->pos, stdout, s->white_bottom, s->unicode);
        compact_status(s);
    } else {
        cli_draw_board(s->pos, stdout, s->white_bottom, s->unicode);
    }
    if (s->engine_line[0])
        printf("%s\n", s->engine_line);
}

/* The game loop: draw, judge, let the engine move when it is its turn,
 * else read a line from the player. */
static int play_loop(play_state *s)
{
    /* Room for the longest accepted line, its newline and the NUL: a line
     * that fills it without a newline is too long. */
    char buf[PLAY_LINE_MAX + 2];
    for (;;) {
        /* the engine answers before the board is drawn, so that one
         * drawing shows both moves and the engine's line under it */
        if (!s->over && s->engine && tc_side_to_move(s->pos) == s->engine_side &&
            tc_game_status(s->dead, s->pos) == TC_ONGOING) {
            engine_move(s);
            continue;
        }
        if (s->redraw) {
            draw(s);
            s->redraw = 0;
            cli_print_check(s->pos, stdout, !s->compact); /* the mating line too */
            if (!s->over)
                check_game_over(s);
        }
        if (s->over)
            printf("Game over (%s)> ", s->result);
        else
            printf("%s to move> ", side_name(tc_side_to_move(s->pos)));
        fflush(stdout);
        line_status ls = read_line(buf, sizeof buf);
        if (ls == LINE_EOF) {
            printf("\n");
            return finish(s);
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
            return finish(s);
    }
}

/* Reads the first game of a PGN file and replays it: play goes on from its
 * end. Returns 0, or 1 after printing the problem. */
static int load_game(cli_ctx *c, tc_pgn_game *g, tc_pgn_replay *rp)
{
    size_t len;
    char *text = cli_read_file(c->pgn_in, &len);
    if (!text)
        return 1;
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, len);
    tc_error err;
    int got = tc_pgn_read_game(&r, g, &err);
    free(text);
    if (got <= 0) {
        fprintf(stderr, "topochess: %s: %s\n", c->pgn_in, got < 0 ? err.msg : "no game found");
        return 1;
    }
    char conflict[200];
    if (cli_pgn_variant_conflict(g, c, conflict, sizeof conflict)) {
        fprintf(stderr, "topochess: %s: %s\n", c->pgn_in, conflict);
        return 1;
    }
    if (tc_pgn_replay_game(g, &c->def, rp, &err)) {
        fprintf(stderr, "topochess: %s: %s\n", c->pgn_in, err.msg);
        return 1;
    }
    if (!rp->ok) {
        fprintf(stderr, "topochess: %s: %s\n", c->pgn_in, err.msg);
        return 1;
    }
    return 0;
}

int cmd_play(cli_ctx *c)
{
    if (c->argc > 0) {
        fprintf(stderr, "topochess: play takes no arguments (got '%s')\n", c->argv[0]);
        return 1;
    }
    tc_pgn_game *g = NULL;
    tc_pgn_replay rp;
    memset(&rp, 0, sizeof rp);
    tc_position *pos = c->pos;
    if (c->pgn_in) {
        g = calloc(1, sizeof *g);
        if (!g || load_game(c, g, &rp)) {
            tc_pgn_replay_free(&rp);
            if (g)
                tc_pgn_game_free(g);
            free(g);
            return 1;
        }
        pos = rp.position;
    }
    play_state s = {pos, 1, !c->ascii && isatty(STDOUT_FILENO), !isatty(STDIN_FILENO), 1,
                    NULL, c->engine_side, c->level, c->movetime, c->compact, 0, 0, "*", "", c->pgn_out, g, c->eval_file,
                    NULL, NULL, NULL, 0};
    tc_error err;
    /* without it (no memory) dead positions are those of the rules alone */
    s.dead = tc_dead_table_new(tc_position_variant(pos), &err);
    if (!s.compact && isatty(STDOUT_FILENO)) {
        /* a terminal too short for the full drawing gets the compact one */
        struct winsize ws;
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
            (int)ws.ws_row < cli_board_lines(pos) + 4)
            s.compact = 1;
    }
    int status = 0;
    if (s.engine_side >= 0 && !ensure_engine(&s))
        status = 1;
    else {
        if (s.engine_side >= 0)
            s.white_bottom = s.engine_side == TC_BLACK;
        printf("%s: type a move or 'help'.%s\n", tc_variant_def_of(tc_position_variant(pos))->name,
               s.engine_side >= 0 ? "" : " Two players; 'engine black' or 'go' brings in topochess.");
        if (c->pgn_in)
            printf("continuing %s after %d plies\n", c->pgn_in, tc_ply_count(pos));
        status = play_loop(&s);
    }
    tc_engine_free(s.engine);
    cli_analysis_free(s.analysis);
    free(s.by_engine);
    tc_dead_table_free(s.dead);
    tc_pgn_replay_free(&rp);
    if (g)
        tc_pgn_game_free(g);
    free(g);
    return status;
}
