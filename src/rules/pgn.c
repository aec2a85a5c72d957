/* PGN: reading games (tags and main-line moves), replaying them on their
 * variant, and writing a position's history as a game (docs/rules.md section 7). */
#include "internal.h"
#include "topochess_explain.h"

#include <ctype.h>
#include <stdlib.h>

/* Longest move or symbol token kept; bad_text in tc_pgn_replay must hold it. */
#define PGN_TOKEN_MAX 63
/* Writer lines stay within this many columns. */
#define PGN_LINE_MAX 79
/* Longest tag name (names are identifiers such as WhiteFideId); values and
 * the number of tags are bounded only by memory. */
#define PGN_TAG_NAME_MAX 63

/* ---------------------------------------------------------------- reader */

void tc_pgn_reader_init(tc_pgn_reader *r, const char *text, size_t len)
{
    r->text = text ? text : "";
    r->len = text ? len : 0;
    r->pos = 0;
    r->line = 1;
}

void tc_pgn_game_free(tc_pgn_game *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nmoves; i++)
        free(g->moves[i]);
    free(g->moves);
    g->moves = NULL;
    g->nmoves = g->cap_moves = 0;
    for (int i = 0; i < g->ntags; i++) {
        free(g->tag_name[i]);
        free(g->tag_value[i]);
    }
    free(g->tag_name);
    free(g->tag_value);
    g->tag_name = g->tag_value = NULL;
    g->ntags = g->cap_tags = 0;
}

const char *tc_pgn_tag(const tc_pgn_game *g, const char *name)
{
    for (int i = 0; i < g->ntags; i++)
        if (strcmp(g->tag_name[i], name) == 0)
            return g->tag_value[i];
    return NULL;
}

static int peek(const tc_pgn_reader *r) { return r->pos < r->len ? (unsigned char)r->text[r->pos] : -1; }

static void advance(tc_pgn_reader *r)
{
    if (r->pos < r->len) {
        if (r->text[r->pos] == '\n')
            r->line++;
        r->pos++;
    }
}

static bool at_line_start(const tc_pgn_reader *r) { return r->pos == 0 || r->text[r->pos - 1] == '\n'; }

static void skip_line(tc_pgn_reader *r)
{
    while (r->pos < r->len && r->text[r->pos] != '\n')
        r->pos++;
}

/* Describes a character for an error message; bytes that would not print
 * are shown as hex so the message stays one clean line. */
static void char_text(int ch, char *buf, size_t n)
{
    if (ch < 0)
        snprintf(buf, n, "end of text");
    else if (isprint(ch))
        snprintf(buf, n, "'%c'", ch);
    else
        snprintf(buf, n, "byte 0x%02x", (unsigned)ch);
}

/* Skips a {comment}; the reader is on the '{'. */
static int skip_brace_comment(tc_pgn_reader *r, tc_error *err)
{
    int open_line = r->line;
    advance(r);
    size_t open_end = r->pos;
    while (peek(r) >= 0 && peek(r) != '}')
        advance(r);
    if (peek(r) < 0) {
        /* resume just after the '{' so later games are not swallowed */
        r->pos = open_end;
        r->line = open_line;
        tc_set_error(err, "line %d: unterminated comment (the '{' is never closed)", open_line);
        return -1;
    }
    advance(r);
    return 0;
}

/* Skips whitespace, comments and escape lines. */
static int skip_space(tc_pgn_reader *r, tc_error *err)
{
    for (;;) {
        int ch = peek(r);
        if (ch == '%' && at_line_start(r))
            skip_line(r); /* escape line: for other programs, not for us */
        else if (ch == ';')
            skip_line(r);
        else if (ch == '{') {
            if (skip_brace_comment(r, err))
                return -1;
        } else if (ch >= 0 && isspace(ch))
            advance(r);
        else
            return 0;
    }
}

/* Skips a ( variation ), nested ones and their comments included. */
static int skip_variation(tc_pgn_reader *r, tc_error *err)
{
    int open_line = r->line;
    size_t open_end = r->pos + 1, depth = 0;
    for (;;) {
        int ch = peek(r);
        if (ch < 0) {
            r->pos = open_end;
            r->line = open_line;
            tc_set_error(err, "line %d: unterminated variation (the '(' is never closed)", open_line);
            return -1;
        }
        if (ch == '{') {
            if (skip_brace_comment(r, err))
                return -1;
            continue;
        }
        if (ch == ';' || (ch == '%' && at_line_start(r))) {
            skip_line(r);
            continue;
        }
        advance(r);
        if (ch == '(')
            depth++;
        else if (ch == ')' && --depth == 0)
            return 0;
    }
}

/* Reads [Name "value"]; the reader is on the '['. */
static int read_tag(tc_pgn_reader *r, tc_pgn_game *g, tc_error *err)
{
    int line = r->line;
    advance(r);
    while (peek(r) == ' ' || peek(r) == '\t')
        advance(r);
    char name[PGN_TAG_NAME_MAX + 1];
    size_t n = 0;
    while (peek(r) >= 0 && (isalnum(peek(r)) || peek(r) == '_')) {
        if (n >= PGN_TAG_NAME_MAX) {
            tc_set_error(err, "line %d: tag name '%.20s...' is too long (at most %d characters)", line, name,
                         PGN_TAG_NAME_MAX);
            return -1;
        }
        name[n++] = (char)peek(r);
        name[n] = '\0';
        advance(r);
    }
    name[n] = '\0';
    char what[24];
    if (!n) {
        char_text(peek(r), what, sizeof what);
        tc_set_error(err, "line %d: tag without a name (found %s after '[')", line, what);
        return -1;
    }
    while (peek(r) == ' ' || peek(r) == '\t')
        advance(r);
    if (peek(r) != '"') {
        char_text(peek(r), what, sizeof what);
        tc_set_error(err, "line %d: tag '%s' has no value (expected '\"', found %s)", line, name, what);
        return -1;
    }
    advance(r);
    size_t vn = 0, room = 64;
    char *value = malloc(room);
    for (;;) {
        if (vn + 1 >= room || !value) {
            char *bigger = value ? realloc(value, room * 2) : NULL;
            if (!bigger) {
                tc_set_error(err, "line %d: out of memory", line);
                free(value);
                return -1;
            }
            value = bigger;
            room *= 2;
        }
        int ch = peek(r);
        if (ch < 0 || ch == '\n') {
            tc_set_error(err, "line %d: tag '%s': unterminated value (no closing '\"' on the line)", line, name);
            free(value);
            return -1;
        }
        advance(r);
        if (ch == '"')
            break;
        if (ch == '\\' && (peek(r) == '"' || peek(r) == '\\')) {
            ch = peek(r);
            advance(r);
        }
        value[vn++] = (char)ch;
    }
    value[vn] = '\0';
    while (peek(r) == ' ' || peek(r) == '\t')
        advance(r);
    if (peek(r) != ']') {
        char_text(peek(r), what, sizeof what);
        tc_set_error(err, "line %d: tag '%s': expected ']' after the value, found %s", line, name, what);
        free(value);
        return -1;
    }
    advance(r);
    char *name_copy = malloc(n + 1);
    if (g->ntags == g->cap_tags && name_copy) {
        int cap = g->cap_tags ? g->cap_tags * 2 : 16;
        char **names = realloc(g->tag_name, sizeof *names * (size_t)cap);
        if (names)
            g->tag_name = names;
        char **values = names ? realloc(g->tag_value, sizeof *values * (size_t)cap) : NULL;
        if (values)
            g->tag_value = values;
        if (names && values)
            g->cap_tags = cap;
    }
    if (!name_copy || g->ntags == g->cap_tags) {
        tc_set_error(err, "line %d: out of memory", line);
        free(name_copy);
        free(value);
        return -1;
    }
    memcpy(name_copy, name, n + 1);
    g->tag_name[g->ntags] = name_copy;
    g->tag_value[g->ntags] = value;
    g->ntags++;
    return 0;
}

static int add_move(tc_pgn_game *g, const char *text, int line, tc_error *err)
{
    if (g->nmoves == g->cap_moves) {
        int cap = g->cap_moves ? g->cap_moves * 2 : 64;
        char **m = realloc(g->moves, (size_t)cap * sizeof *m);
        if (!m) {
            tc_set_error(err, "line %d: out of memory", line);
            return -1;
        }
        g->moves = m;
        g->cap_moves = cap;
    }
    size_t n = strlen(text);
    char *copy = malloc(n + 1);
    if (!copy) {
        tc_set_error(err, "line %d: out of memory", line);
        return -1;
    }
    memcpy(copy, text, n + 1);
    g->moves[g->nmoves++] = copy;
    return 0;
}

/* The result that a token spells, or NULL. */
static const char *result_of(const char *t)
{
    static const char *const results[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (size_t i = 0; i < sizeof results / sizeof results[0]; i++)
        if (!strcmp(t, results[i]))
            return results[i];
    return NULL;
}

/* Characters that may form a movetext symbol: SAN, coordinates, move
 * numbers with their dots, results and suffix annotations. */
static bool symbol_char(int ch)
{
    return ch >= 0 && (isalnum(ch) || strchr("_+#=:-/.!?~", ch) != NULL);
}

/* Handles one symbol: a result (returns 1), a move number and/or a move
 * (returns 0), or -1 on error. */
static int take_symbol(tc_pgn_game *g, char *tok, int line, tc_error *err)
{
    const char *res = result_of(tok);
    if (res) {
        snprintf(g->result, sizeof g->result, "%s", res);
        return 1;
    }
    /* a move number, maybe glued to its move: "12.", "12...", "12.e4" */
    char *t = tok;
    if (isdigit((unsigned char)*t)) {
        char *q = t;
        while (isdigit((unsigned char)*q))
            q++;
        if (*q == '.' || *q == '\0') {
            t = q;
        }
    }
    while (*t == '.')
        t++;
    /* suffix annotations are not part of the move */
    size_t n = strlen(t);
    while (n && (t[n - 1] == '!' || t[n - 1] == '?'))
        t[--n] = '\0';
    if (!n)
        return 0;
    if (!isalpha((unsigned char)*t) && *t != '0') {
        tc_set_error(err, "line %d: '%s' is not a move", line, tok);
        return -1;
    }
    return add_move(g, t, line, err);
}

/* Reads the movetext up to the result (or the next game's tags, or the end
 * of the text). */
static int read_movetext(tc_pgn_reader *r, tc_pgn_game *g, tc_error *err)
{
    for (;;) {
        if (skip_space(r, err))
            return -1;
        int ch = peek(r);
        int line = r->line;
        if (ch < 0 || ch == '[')
            return 0; /* a game without a result */
        if (ch == '(') {
            if (skip_variation(r, err))
                return -1;
            continue;
        }
        if (ch == ')') {
            tc_set_error(err, "line %d: ')' without a matching '('", line);
            return -1;
        }
        if (ch == '$') {
            advance(r);
            if (peek(r) < 0 || !isdigit(peek(r))) {
                tc_set_error(err, "line %d: '$' without a number (a NAG is $ and digits)", line);
                return -1;
            }
            size_t digits = 0;
            while (peek(r) >= 0 && isdigit(peek(r))) {
                advance(r);
                digits++;
            }
            if (digits > 3) {
                tc_set_error(err, "line %d: NAG with %zu digits (at most 3)", line, digits);
                return -1;
            }
            continue;
        }
        if (ch == '*') {
            advance(r);
            snprintf(g->result, sizeof g->result, "*");
            return 0;
        }
        if (!symbol_char(ch)) {
            char what[24];
            char_text(ch, what, sizeof what);
            tc_set_error(err, "line %d: unexpected %s in the moves", line, what);
            return -1;
        }
        char tok[PGN_TOKEN_MAX + 1];
        size_t n = 0;
        while (symbol_char(peek(r))) {
            if (n >= PGN_TOKEN_MAX) {
                tc_set_error(err, "line %d: token '%.20s...' is too long (at most %d characters)", line, tok,
                             PGN_TOKEN_MAX);
                return -1;
            }
            tok[n++] = (char)peek(r);
            tok[n] = '\0';
            advance(r);
        }
        tok[n] = '\0';
        int done = take_symbol(g, tok, line, err);
        if (done)
            return done < 0 ? -1 : 0;
    }
}

/* After an error: moves to the next line that starts with '[' (the next
 * game's tags, most likely), always past where reading began. */
static void recover(tc_pgn_reader *r, size_t start)
{
    if (r->pos <= start) {
        r->pos = start;
        advance(r);
    }
    while (r->pos < r->len) {
        if (at_line_start(r) && r->text[r->pos] == '[')
            return;
        advance(r);
    }
}

int tc_pgn_read_game(tc_pgn_reader *r, tc_pgn_game *g, tc_error *err)
{
    memset(g, 0, sizeof *g);
    snprintf(g->result, sizeof g->result, "*");
    size_t start = r->pos;
    if (skip_space(r, err))
        goto fail;
    if (peek(r) < 0)
        return 0;
    g->first_line = r->line;
    while (peek(r) == '[') {
        if (read_tag(r, g, err) || skip_space(r, err))
            goto fail;
    }
    if (read_movetext(r, g, err))
        goto fail;
    return 1;
fail:
    tc_pgn_game_free(g);
    recover(r, start);
    return -1;
}

/* ---------------------------------------------------------------- replay */

void tc_pgn_replay_free(tc_pgn_replay *replay)
{
    if (!replay)
        return;
    tc_position_free(replay->position);
    tc_variant_free(replay->variant);
    replay->position = NULL;
    replay->variant = NULL;
}

static bool same_name(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

int tc_pgn_replay_game(const tc_pgn_game *g, const tc_variant_def *fallback, tc_pgn_replay *replay,
                       tc_error *err)
{
    memset(replay, 0, sizeof *replay);
    return tc_pgn_replay_next(g, fallback, replay, err);
}

static bool same_def(const tc_variant_def *a, const tc_variant_def *b)
{
    return !strcmp(a->name, b->name) && !strcmp(a->title, b->title) && !strcmp(a->description, b->description) &&
           a->width == b->width && a->height == b->height && a->files == b->files && a->ranks == b->ranks &&
           a->seam == b->seam && !strcmp(a->setup, b->setup);
}

int tc_pgn_game_def(const tc_pgn_game *g, const tc_variant_def *fallback, tc_variant_def *out, tc_error *err)
{
    const char *vname = tc_pgn_tag(g, "Variant");
    const char *board = tc_pgn_tag(g, "Topology");
    if (vname && fallback && same_name(vname, fallback->name)) {
        *out = *fallback; /* lets a variant page's own name stand in a PGN */
        return 0;
    }
    if (board) /* the board itself, whatever the name says */
        return tc_pgn_board_read(board, vname, out, err);
    if (vname) {
        if (tc_preset_find(vname, out, err)) {
            tc_error_prefix(err, "Variant tag: ");
            return -1;
        }
        return 0;
    }
    if (fallback) {
        *out = *fallback;
        return 0;
    }
    return tc_preset_find("chess", out, err);
}

int tc_pgn_replay_next(const tc_pgn_game *g, const tc_variant_def *fallback, tc_pgn_replay *replay,
                       tc_error *err)
{
    /* what the previous game left: its variant and position, kept if this
     * game can use them */
    tc_variant *old_v = replay->variant;
    tc_position *old_p = replay->position;
    memset(replay, 0, sizeof *replay);
    replay->bad_ply = -1;
    tc_variant_def def;
    if (tc_pgn_game_def(g, fallback, &def, err))
        def.name[0] = '\0'; /* no variant: nothing is kept */
    if (old_v && def.name[0] && same_def(tc_variant_def_of(old_v), &def)) {
        replay->variant = old_v;
        replay->position = old_p;
        tc_position_reset(old_p);
        old_v = NULL;
        old_p = NULL;
    } else if (def.name[0]) {
        replay->variant = tc_variant_new(&def, err);
    }
    /* the old game goes after the new variant is built: a new variant is
     * never at the old one's address */
    tc_position_free(old_p);
    tc_variant_free(old_v);
    if (!def.name[0])
        return -1;
    if (!replay->variant) {
        char prefix[96];
        snprintf(prefix, sizeof prefix, "variant %.60s: ", def.name);
        tc_error_prefix(err, prefix);
        return -1;
    }
    if (!replay->position)
        replay->position = tc_position_new(replay->variant);
    if (!replay->position) {
        tc_set_error(err, "out of memory");
        tc_pgn_replay_free(replay);
        return -1;
    }
    const char *setup = tc_pgn_tag(g, "SetUp");
    const char *fen = tc_pgn_tag(g, "FEN");
    /* a FEN tag without SetUp is common in the wild; only SetUp "0" vetoes it */
    if (setup && strcmp(setup, "0") && strcmp(setup, "1")) {
        tc_set_error(err, "SetUp tag: '%.40s' is not \"0\" or \"1\"", setup);
        tc_pgn_replay_free(replay);
        return -1;
    }
    if (setup && !strcmp(setup, "1") && !fen) {
        tc_set_error(err, "SetUp tag is \"1\" but there is no FEN tag");
        tc_pgn_replay_free(replay);
        return -1;
    }
    if (fen && !(setup && !strcmp(setup, "0"))) {
        if (tc_position_set_fen(replay->position, fen, err)) {
            tc_error_prefix(err, "FEN tag: ");
            tc_pgn_replay_free(replay);
            return -1;
        }
    }
    tc_position *p = replay->position;
    for (int i = 0; i < g->nmoves; i++) {
        tc_move m;
        if (tc_move_parse(p, g->moves[i], &m, err)) {
            /* the reason tc_explain_move gives, as `--play` writes it */
            tc_explanation *x = malloc(sizeof *x);
            if (x && tc_explain_move(p, g->moves[i], x) && x->message[0]) {
                bool plain = x->why == TC_WHY_SYNTAX || x->why == TC_WHY_AMBIGUOUS ||
                             x->why == TC_WHY_NEEDS_PROMOTION || x->why == TC_WHY_GAME_OVER;
                if (plain)
                    tc_set_error(err, "%s", x->message);
                else
                    tc_set_error(err, "illegal move '%.63s': %s", g->moves[i], x->message);
            }
            free(x);
            char prefix[128];
            snprintf(prefix, sizeof prefix, "move %d (%s): ", p->fullmove, p->side ? "black" : "white");
            tc_error_prefix(err, prefix);
            replay->ok = 0;
            replay->bad_ply = i;
            snprintf(replay->bad_text, sizeof replay->bad_text, "%s", g->moves[i]);
            return 0;
        }
        tc_make_move(p, m);
    }
    replay->ok = 1;
    if (err)
        err->msg[0] = '\0';
    return 0;
}

/* ---------------------------------------------------------------- writer */

/// A line of movetext being filled; units never break across lines.
typedef struct {
    FILE *out;
    int col;
} pgn_line;

static void put_unit(pgn_line *l, const char *unit)
{
    int n = (int)strlen(unit);
    if (l->col > 0 && l->col + 1 + n > PGN_LINE_MAX) {
        fputc('\n', l->out);
        l->col = 0;
    }
    if (l->col > 0) {
        fputc(' ', l->out);
        l->col++;
    }
    fputs(unit, l->out);
    l->col += n;
}

static void put_tag(FILE *out, const char *name, const char *value)
{
    fprintf(out, "[%s \"", name);
    for (const char *s = value; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
    }
    fputs("\"]\n", out);
}

static const char *tag_override(const char *const *tags, int ntags, const char *name)
{
    for (int i = 0; tags && i < ntags; i++)
        if (tags[2 * i] && tags[2 * i + 1] && !strcmp(tags[2 * i], name))
            return tags[2 * i + 1];
    return NULL;
}

static bool is_roster(const char *name)
{
    static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result",
                                         "Variant", "Topology", "SetUp", "FEN"};
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++)
        if (!strcmp(roster[i], name))
            return true;
    return false;
}

/* The result a finished game implies, or "*". */
static const char *implied_result(const tc_position *p)
{
    switch (tc_position_status(p)) {
    case TC_CHECKMATE:
        return p->side == TC_WHITE ? "0-1" : "1-0";
    case TC_ONGOING:
        return "*";
    default:
        return "1/2-1/2";
    }
}

static bool is_plain_chess(const tc_variant_def *d)
{
    tc_variant_def chess;
    tc_error err;
    if (tc_preset_find("chess", &chess, &err))
        return false;
    return !strcmp(d->name, chess.name) && d->width == chess.width && d->height == chess.height &&
           d->files == chess.files && d->ranks == chess.ranks && !strcmp(d->setup, chess.setup);
}

/* A comment as units: "{", its words ("[%...]" commands kept whole), "}". */
static void put_comment(pgn_line *l, const char *text)
{
    put_unit(l, "{");
    char word[160];
    for (const char *s = text; *s;) {
        while (*s == ' ')
            s++;
        size_t k = *s == '[' && strchr(s, ']') ? (size_t)(strchr(s, ']') - s) + 1 : strcspn(s, " ");
        if (!k)
            break;
        if (k >= sizeof word)
            k = sizeof word - 1;
        memcpy(word, s, k);
        word[k] = '\0';
        for (char *w = word; *w; w++) /* a brace would end the comment */
            if (*w == '{' || *w == '}')
                *w = ' ';
        put_unit(l, word);
        s += k;
    }
    put_unit(l, "}");
}

void tc_pgn_write(const tc_position *p, const char *const *tags, int ntags, const char *result, FILE *out)
{
    tc_pgn_write_annotated(p, tags, ntags, result, NULL, NULL, NULL, out);
}

void tc_pgn_write_annotated(const tc_position *p, const char *const *tags, int ntags, const char *result,
                            const char *before, const char *const *suffix, const char *const *comment, FILE *out)
{
    const tc_variant *v = p->v;
    if (!result)
        result = tag_override(tags, ntags, "Result");
    if (!result)
        result = implied_result(p);
    static const char *const roster[][2] = {{"Event", "?"}, {"Site", "?"},  {"Date", "????.??.??"},
                                            {"Round", "?"}, {"White", "?"}, {"Black", "?"}};
    for (size_t i = 0; i < sizeof roster / sizeof roster[0]; i++) {
        const char *value = tag_override(tags, ntags, roster[i][0]);
        put_tag(out, roster[i][0], value ? value : roster[i][1]);
    }
    put_tag(out, "Result", result);
    if (!is_plain_chess(&v->def))
        put_tag(out, "Variant", v->def.name);
    /* a board that no preset's name stands for travels with the game */
    char board[TC_SETUP_MAX + 200];
    if (tc_pgn_board_needed(&v->def) && tc_pgn_board_text(&v->def, board, sizeof board) == 0)
        put_tag(out, "Topology", board);

    tc_position *q = tc_position_new(v);
    if (!q)
        return;
    char standard[800];
    tc_position_fen(q, standard, sizeof standard);
    const char *setup = tag_override(tags, ntags, "SetUp");
    if (strcmp(standard, p->start_fen) || (setup && !strcmp(setup, "1"))) {
        put_tag(out, "SetUp", "1");
        put_tag(out, "FEN", p->start_fen);
    }
    for (int i = 0; tags && i < ntags; i++)
        if (tags[2 * i] && tags[2 * i + 1] && !is_roster(tags[2 * i]) &&
            tag_override(tags, ntags, tags[2 * i]) == tags[2 * i + 1])
            put_tag(out, tags[2 * i], tags[2 * i + 1]);
    fputc('\n', out);

    pgn_line line = {out, 0};
    tc_error err;
    if (before && *before)
        put_comment(&line, before);
    if (tc_position_set_fen(q, p->start_fen, &err) == 0) {
        int after_comment = 0; /* Black's move after a comment takes its number again */
        for (int i = 0; i < p->ply; i++) {
            tc_move m = p->hist[i].move;
            char san[32], unit[80];
            const char *suf = suffix && suffix[i] ? suffix[i] : "";
            tc_move_to_san(q, m, san);
            if (q->side == TC_WHITE)
                snprintf(unit, sizeof unit, "%d. %s%.8s", q->fullmove, san, suf);
            else if (i == 0 || after_comment)
                snprintf(unit, sizeof unit, "%d... %s%.8s", q->fullmove, san, suf);
            else
                snprintf(unit, sizeof unit, "%s%.8s", san, suf);
            put_unit(&line, unit);
            after_comment = comment && comment[i] && *comment[i];
            if (after_comment)
                put_comment(&line, comment[i]);
            tc_make_move(q, m);
        }
    }
    put_unit(&line, result);
    fputs("\n\n", out);
    tc_position_free(q);
}
