/* The command line's options: each command accepts the options that mean
 * something to it and the number of arguments it uses; anything else is an
 * error with a message (and a did-you-mean for names), never ignored. */
#include "cli.h"
#include "topochess_explain.h"

#include <stdlib.h>
#include <string.h>

/// One option: its name, whether it takes a value, and its bit.
typedef struct {
    const char *name;
    int takes_value;
    unsigned bit;
} option;

static const option options[] = {
    {"--variant", 1, OPT_VARIANT},   {"--variant-file", 1, OPT_VARIANT_FILE}, {"--fen", 1, OPT_FEN},
    {"--play", 1, OPT_PLAY},         {"--engine", 1, OPT_ENGINE},             {"--level", 1, OPT_LEVEL},
    {"--movetime", 1, OPT_MOVETIME}, {"--uci", 0, OPT_UCI},                   {"--divide", 0, OPT_DIVIDE},
    {"--ascii", 0, OPT_ASCII},       {"--pgn", 1, OPT_PGN},                   {"--pgn-out", 1, OPT_PGN_OUT},
    {"--compact", 0, OPT_COMPACT},   {"--json", 0, OPT_JSON},                 {"--out", 1, OPT_OUT},
    {"--threads", 1, OPT_THREADS},   {"--endgames", 0, OPT_ENDGAMES},
    {"--xboard", 0, OPT_XBOARD},     {"--eval-file", 1, OPT_EVAL_FILE},
    {"--symmetries", 0, OPT_SYMMETRIES}, {"--tune", 0, OPT_TUNE},
};
#define NOPTIONS ((int)(sizeof options / sizeof options[0]))

static const option *find_option(const char *name, size_t len)
{
    for (int i = 0; i < NOPTIONS; i++)
        if (strlen(options[i].name) == len && !strncmp(options[i].name, name, len))
            return &options[i];
    return NULL;
}

static int parse_number(const char *opt, const char *text, int lo, int hi, int *out)
{
    char *end;
    long n = strtol(text, &end, 10);
    if (!*text || *end || n < lo || n > hi) {
        fprintf(stderr, "topochess: %s takes a number from %d to %d, not '%s'\n", opt, lo, hi, text);
        return -1;
    }
    *out = (int)n;
    return 0;
}

/* Sets one option's value in the context; -1 after printing the problem. */
static int apply(const option *o, const char *value, cli_ctx *c)
{
    switch (o->bit) {
    case OPT_VARIANT: c->variant_name = value; break;
    case OPT_VARIANT_FILE: c->variant_file = value; break;
    case OPT_FEN:
        if (value)
            c->fen_arg = value;
        else
            c->print_fen = 1;
        break;
    case OPT_PLAY: c->play_moves = value; break;
    case OPT_ENGINE:
        if (!strcmp(value, "white"))
            c->engine_side = TC_WHITE;
        else if (!strcmp(value, "black"))
            c->engine_side = TC_BLACK;
        else if (!strcmp(value, "none") || !strcmp(value, "off"))
            c->engine_side = -1;
        else {
            fprintf(stderr, "topochess: --engine takes white, black or off, not '%s'\n", value);
            return -1;
        }
        break;
    case OPT_LEVEL: return parse_number(o->name, value, 1, 20, &c->level);
    case OPT_MOVETIME: c->movetime_given = 1; return parse_number(o->name, value, 1, 600000, &c->movetime);
    case OPT_UCI: c->uci = 1; break;
    case OPT_DIVIDE: c->divide = 1; break;
    case OPT_ASCII: c->ascii = 1; break;
    case OPT_JSON: c->json = 1; break;
    case OPT_OUT: c->out_dir = value; break;
    case OPT_THREADS: return parse_number(o->name, value, 1, 8, &c->threads);
    case OPT_ENDGAMES: c->endgames = 1; break;
    case OPT_SYMMETRIES: c->symmetries = 1; break;
    case OPT_XBOARD: c->xboard = 1; break;
    case OPT_PGN: c->pgn_in = value; break;
    case OPT_PGN_OUT: c->pgn_out = value; break;
    case OPT_COMPACT: c->compact = 1; break;
    case OPT_EVAL_FILE: c->eval_file = value; break;
    case OPT_TUNE: c->tune = 1; break;
    }
    return 0;
}

int cli_parse_args(const cli_command *cmd, int argc, char **argv, cli_ctx *c)
{
    unsigned seen = 0;
    if (cmd->options & OPT_OWN) {
        for (int i = 0; i < argc; i++)
            c->argv[c->argc++] = argv[i];
        return 0;
    }
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            c->help = 1;
            continue;
        }
        if (a[0] != '-' || a[1] != '-' || !a[2]) {
            if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
                fprintf(stderr, "topochess: unknown option '%s' (options start with --; try 'topochess %s --help')\n", a,
                        cmd->name);
                return -1;
            }
            c->argv[c->argc++] = argv[i];
            continue;
        }
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        const option *o = find_option(a, len);
        if (!o) {
            const char *names[NOPTIONS];
            for (int k = 0; k < NOPTIONS; k++)
                names[k] = options[k].name;
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(len < 60 ? len : 60), a);
            int near = tc_closest_name(name, names, NOPTIONS);
            if (near >= 0)
                fprintf(stderr, "topochess: unknown option '%s': did you mean '%s'?\n", name, names[near]);
            else
                fprintf(stderr, "topochess: unknown option '%s' (try 'topochess %s --help')\n", name, cmd->name);
            return -1;
        }
        /* `pgn --fen` is a flag: print each game's final FEN */
        int takes_value = o->takes_value && !(o->bit == OPT_FEN && !strcmp(cmd->name, "pgn"));
        if (!(cmd->options & o->bit)) {
            fprintf(stderr, "topochess: %s does not apply to '%s' (try 'topochess %s --help')\n", o->name, cmd->name,
                    cmd->name);
            return -1;
        }
        if (seen & o->bit) {
            if (o->bit == OPT_PLAY)
                fprintf(stderr, "topochess: --play given twice: put every move in one --play \"e4 e5 Nf3\"\n");
            else
                fprintf(stderr, "topochess: %s given twice\n", o->name);
            return -1;
        }
        seen |= o->bit;
        const char *value = NULL;
        if (takes_value) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else {
                fprintf(stderr, "topochess: %s needs a value\n", o->name);
                return -1;
            }
        } else if (eq) {
            fprintf(stderr, "topochess: %s takes no value (got '%s')\n", o->name, a);
            return -1;
        }
        if (apply(o, value, c))
            return -1;
    }
    if (c->variant_name && c->variant_file) {
        fprintf(stderr, "topochess: give --variant or --variant-file, not both\n");
        return -1;
    }
    if (c->pgn_in && (c->fen_arg || c->play_moves)) {
        fprintf(stderr, "topochess: play --pgn continues a saved game: it cannot be combined with %s\n",
                c->fen_arg ? "--fen" : "--play");
        return -1;
    }
    c->variant_given = c->variant_name || c->variant_file;
    return 0;
}

/* Says what a stray argument probably meant. */
static void stray_hint(const cli_command *cmd, const char *arg, cli_ctx *c)
{
    tc_error err;
    if (tc_preset_lookup(arg, &err) >= 0) {
        fprintf(stderr, "topochess: to choose the variant: topochess %s --variant %s\n", cmd->name, arg);
        return;
    }
    tc_move m;
    if (c->pos && tc_move_parse(c->pos, arg, &m, &err) == 0) {
        fprintf(stderr, "topochess: to play moves first: topochess %s --play \"%s\"\n", cmd->name, arg);
        return;
    }
    if (strchr(arg, '/'))
        fprintf(stderr, "topochess: to start from a position: topochess %s --fen \"%s\"\n", cmd->name, arg);
}

int cli_check_arg_count(const cli_command *cmd, cli_ctx *c)
{
    if (c->argc >= cmd->min_args && (cmd->max_args < 0 || c->argc <= cmd->max_args))
        return 0;
    if (c->argc < cmd->min_args) {
        fprintf(stderr, "topochess: %s needs %s (usage: topochess %s)\n", cmd->name, cmd->args_text, cmd->usage);
        return -1;
    }
    const char *extra = c->argv[cmd->max_args];
    if (cmd->max_args == 0)
        fprintf(stderr, "topochess: %s takes no arguments (got '%s')\n", cmd->name, extra);
    else
        fprintf(stderr, "topochess: %s takes only %s (got the extra argument '%s')\n", cmd->name, cmd->args_text, extra);
    stray_hint(cmd, extra, c);
    return -1;
}

void cli_json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            printf("\\u%04x", (unsigned char)*s);
        else
            putchar(*s);
    }
    putchar('"');
}
