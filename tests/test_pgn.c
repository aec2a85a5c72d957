/* PGN: the reader on annotated files and on each syntax error, replays on
 * the topological presets, the illegal-move report, and write/read round
 * trips of random games. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

/// Every game of one text, read and kept for the checks.
typedef struct {
    int n;
    tc_pgn_game games[8];
} game_set;

/* Reads all games of a file; a syntax error fails the case. */
static int read_all(const char *path, game_set *set)
{
    size_t len = 0;
    char *text = th_read_file(path, &len);
    set->n = 0;
    if (!text)
        return -1;
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, len);
    tc_error err;
    int got;
    while (set->n < 8 && (got = tc_pgn_read_game(&r, &set->games[set->n], &err)) != 0) {
        CHECK(got == 1, "%s: %s", path, err.msg);
        if (got != 1)
            break;
        set->n++;
    }
    free(text);
    return 0;
}

static void free_all(game_set *set)
{
    for (int i = 0; i < set->n; i++)
        tc_pgn_game_free(&set->games[i]);
    set->n = 0;
}

static void check_final_fen(const tc_pgn_game *g, const tc_variant_def *fallback, const char *want,
                            const char *what)
{
    tc_pgn_replay rp;
    tc_error err;
    int rc = tc_pgn_replay_game(g, fallback, &rp, &err);
    CHECK(rc == 0 && rp.ok, "%s: replay failed: %s", what, err.msg);
    if (rc == 0) {
        char fen[800];
        tc_position_fen(rp.position, fen, sizeof fen);
        CHECK(!strcmp(fen, want), "%s: final FEN\n  got  %s\n  want %s", what, fen, want);
    }
    tc_pgn_replay_free(&rp);
}

/* ---------------------------------------------------------------- reader */

static void test_annotated(void)
{
    th_case("pgn: comments, NAGs, variations, escape lines, several games");
    game_set *set = calloc(1, sizeof *set);
    if (!set)
        return;
    read_all("tests/data/pgn/annotated.pgn", set);
    CHECK(set->n == 4, "read %d games, want 4", set->n);
    if (set->n == 4) {
        const tc_pgn_game *g = &set->games[0];
        CHECK(g->ntags == 7, "game 1 has %d tags", g->ntags);
        const char *ev = tc_pgn_tag(g, "Event"), *site = tc_pgn_tag(g, "Site");
        CHECK(ev && !strcmp(ev, "Annotated \"test\" game"), "escaped quote: %s", ev ? ev : "(none)");
        CHECK(site && !strcmp(site, "Back\\slash"), "escaped backslash: %s", site ? site : "(none)");
        CHECK(tc_pgn_tag(g, "Annotator") == NULL, "absent tag found");
        CHECK(g->nmoves == 20, "game 1: %d moves, want 20", g->nmoves);
        CHECK(!strcmp(g->result, "1-0"), "game 1 result %s", g->result);
        CHECK(g->first_line == 3, "game 1 starts on line %d, want 3", g->first_line);
        if (g->nmoves == 20) {
            CHECK(!strcmp(g->moves[0], "e4"), "move 1: %s", g->moves[0]);
            CHECK(!strcmp(g->moves[2], "Nf3"), "glued number: %s", g->moves[2]);
            CHECK(!strcmp(g->moves[4], "Bb5"), "after ; comment: %s", g->moves[4]);
            CHECK(!strcmp(g->moves[5], "a6"), "suffix annotation kept: %s", g->moves[5]);
            CHECK(!strcmp(g->moves[6], "Ba4"), "variation not skipped: %s", g->moves[6]);
            CHECK(!strcmp(g->moves[8], "O-O"), "escape line not skipped: %s", g->moves[8]);
        }
        /* the Breyer Ruy Lopez after 10...Nbd7 */
        check_final_fen(g, NULL, "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11",
                        "game 1");

        g = &set->games[1];
        CHECK(g->nmoves == 7 && !strcmp(g->moves[6], "Qxf7#"), "game 2: mate move kept as written");
        tc_pgn_replay rp;
        tc_error err;
        if (tc_pgn_replay_game(g, NULL, &rp, &err) == 0) {
            CHECK(rp.ok && tc_position_status(rp.position) == TC_CHECKMATE, "game 2 should end in mate");
            tc_pgn_replay_free(&rp);
        } else
            CHECK(0, "game 2: %s", err.msg);

        g = &set->games[2];
        CHECK(g->ntags == 0 && g->nmoves == 14 && !strcmp(g->result, "1/2-1/2"),
              "game 3 (no tags): %d tags, %d moves, result %s", g->ntags, g->nmoves, g->result);
        check_final_fen(g, NULL, "rnbq1rk1/p1p1bpp1/1p2pn1p/3p4/2PP3B/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
                        "game 3");

        g = &set->games[3];
        CHECK(g->nmoves == 9 && !strcmp(g->moves[0], "c5") && !strcmp(g->result, "*"),
              "game 4 (black first): %d moves", g->nmoves);
        check_final_fen(g, NULL, "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6", "game 4");
    }
    free_all(set);
    free(set);
}

static void test_topological_games(void)
{
    /* docs/rules.md 8.1, with the board worked out by hand: White's pawns left
     * c14, d14, e14 (c12 was taken), Black's e9 pawn took on c12 across the
     * twist and g9 went to g11, passing g10 */
    static const char *after =
        "PP3PPP/8/2pPP3/6p1/8/pppp1p1p/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq g10 0 4";
    game_set *set = calloc(1, sizeof *set);
    if (!set)
        return;
    th_case("pgn: Mobius sample game of docs/rules.md 8.1");
    read_all("tests/data/pgn/mobius.pgn", set);
    CHECK(set->n == 1, "read %d games", set->n);
    if (set->n == 1) {
        CHECK(set->games[0].nmoves == 6 && !strcmp(set->games[0].moves[3], "exc12"), "moves as written");
        check_final_fen(&set->games[0], NULL, after, "mobius");
    }
    free_all(set);

    th_case("pgn: Klein bottle games, by name and alias");
    read_all("tests/data/pgn/klein.pgn", set);
    CHECK(set->n == 2, "read %d games", set->n);
    if (set->n == 2) {
        /* the twist needs no file wrap here, so the sample plays the same */
        check_final_fen(&set->games[0], NULL, after, "klein 1");
        check_final_fen(&set->games[1], NULL,
                        "1PPPPPPP/8/P7/4p3/8/pppp1ppp/rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq a13 0 2",
                        "klein 2");
        /* the same moves on a flat board fail at once: no pawn reaches d12 */
        tc_pgn_game g = set->games[0];
        g.ntags = 0;
        tc_pgn_replay rp;
        tc_error err;
        int rc = tc_pgn_replay_game(&g, NULL, &rp, &err);
        CHECK(rc == 0 && !rp.ok && rp.bad_ply == 0, "without a Variant tag the game is chess");
        tc_pgn_replay_free(&rp);
        /* with the fallback it is a Mobius game again */
        tc_variant_def mob;
        tc_preset_find("mobius", &mob, &err);
        check_final_fen(&g, &mob, after, "fallback mobius");
    }
    free_all(set);
    free(set);
}

static void test_illegal(void)
{
    th_case("pgn: the first illegal move is reported by ply, move number and text");
    game_set *set = calloc(1, sizeof *set);
    if (!set)
        return;
    read_all("tests/data/pgn/illegal.pgn", set);
    CHECK(set->n == 4, "read %d games", set->n);
    if (set->n == 4) {
        struct {
            int ok, ply;
            const char *text, *where;
        } want[4] = {{1, -1, "", ""},
                     /* the f8 bishop is in the way; the reason is tc_explain_move's */
                     {0, 11, "O-O", "move 6 (black): illegal move 'O-O': cannot castle kingside (O-O): f8 is not empty"},
                     /* e5 holds Black's own pawn */
                     {0, 5, "Nxe5", "move 3 (black): illegal move 'Nxe5': "},
                     {1, -1, "", ""}};
        for (int i = 0; i < 4; i++) {
            tc_pgn_replay rp;
            tc_error err;
            int rc = tc_pgn_replay_game(&set->games[i], NULL, &rp, &err);
            CHECK(rc == 0, "game %d: %s", i + 1, err.msg);
            if (rc)
                continue;
            CHECK(rp.ok == want[i].ok, "game %d: ok %d", i + 1, rp.ok);
            if (!want[i].ok) {
                CHECK(rp.bad_ply == want[i].ply, "game %d: bad ply %d, want %d", i + 1, rp.bad_ply, want[i].ply);
                CHECK(!strcmp(rp.bad_text, want[i].text), "game %d: bad text '%s'", i + 1, rp.bad_text);
                CHECK(strstr(err.msg, want[i].where) != NULL, "game %d: message '%s' lacks \"%s\"", i + 1,
                      err.msg, want[i].where);
                CHECK(tc_ply_count(rp.position) == want[i].ply, "game %d: stops after the last legal move",
                      i + 1);
            }
            tc_pgn_replay_free(&rp);
        }
    }
    free_all(set);
    free(set);
}

/* Reads the first game of a text. */
static int read_text(const char *text, tc_pgn_game *g, tc_error *err)
{
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, strlen(text));
    return tc_pgn_read_game(&r, g, err);
}

static void test_setup_and_variant_errors(void)
{
    th_case("pgn: SetUp/FEN games and bad Variant/FEN tags");
    tc_pgn_game *g = malloc(sizeof *g);
    if (!g)
        return;
    tc_error err;
    tc_pgn_replay rp;
    /* a Torus position, Black to move at move 12: the White king crosses
     * the rank join (e1-e14) and the Black king the file join (a8-h8) */
    const char *torus = "[Variant \"torus\"]\n[SetUp \"1\"]\n"
                        "[FEN \"8/8/8/8/8/8/4k3/8/8/8/8/8/8/4K3 b - - 3 12\"]\n\n"
                        "12... Kd8 13. Ke14 Kc8 14. Kd13 Kb8 15. Kc12 Ka8 16. Kb11 Kh8 *\n";
    if (read_text(torus, g, &err) == 1) {
        check_final_fen(g, NULL, "8/8/8/1K6/8/8/7k/8/8/8/8/8/8/8 w - - 12 17", "torus setup");
        tc_pgn_game_free(g);
    } else
        CHECK(0, "torus: %s", err.msg);

    struct {
        const char *text, *needle;
    } bad[] = {
        {"[Variant \"hyperbolic\"]\n1. e4 *\n", "hyperbolic"},
        {"[SetUp \"1\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n*\n", "FEN"},
        {"[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 x - - 0 1\"]\n*\n", "side to move"},
        {"[Variant \"mobius\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n*\n", "ranks"},
        {"[SetUp \"1\"]\n1. e4 *\n", "FEN"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int got = read_text(bad[i].text, g, &err);
        CHECK(got == 1, "bad case %zu should read: %s", i, err.msg);
        if (got != 1)
            continue;
        int rc = tc_pgn_replay_game(g, NULL, &rp, &err);
        CHECK(rc == -1, "bad case %zu replays", i);
        CHECK(rc == 0 || strstr(err.msg, bad[i].needle) != NULL, "bad case %zu: '%s' lacks '%s'", i, err.msg,
              bad[i].needle);
        CHECK(rp.variant == NULL && rp.position == NULL, "bad case %zu leaves objects behind", i);
        tc_pgn_replay_free(&rp);
        tc_pgn_game_free(g);
    }

    /* a variant page's own name in [Variant] means the fallback it was given */
    tc_variant_def custom;
    tc_preset_find("cylinder", &custom, &err);
    snprintf(custom.name, sizeof custom.name, "my-cylinder");
    /* hxa5 crosses the cylinder's file join */
    if (read_text("[Variant \"my-cylinder\"]\n1. h4 a5 2. hxa5 *\n", g, &err) == 1) {
        int rc = tc_pgn_replay_game(g, &custom, &rp, &err);
        CHECK(rc == 0 && rp.ok, "custom variant by name: %s", err.msg);
        tc_pgn_replay_free(&rp);
        rc = tc_pgn_replay_game(g, NULL, &rp, &err);
        CHECK(rc == -1 && strstr(err.msg, "my-cylinder"), "unknown custom name without fallback: %s", err.msg);
        tc_pgn_replay_free(&rp);
        tc_pgn_game_free(g);
    }
    free(g);
}

static void test_syntax_errors(void)
{
    static char long_token[200];
    memset(long_token, 'a', 100);
    memcpy(long_token, "1. ", 3);
    strcpy(long_token + 100, " *\n");

    struct {
        const char *name, *text;
        int line;
        const char *needle;
    } cases[] = {
        {"unterminated tag", "[Event \"x\"]\n[Site \"nowhere\n1. e4 *\n", 2, "unterminated"},
        {"tag without close", "[Event \"x\" 1. e4 *\n", 1, "expected ']'"},
        {"tag without value", "[Event]\n1. e4 *\n", 1, "no value"},
        {"tag without name", "[ \"x\"]\n1. e4 *\n", 1, "without a name"},
        {"tag name too long",
         "[AVeryLongTagNameThatGoesOnAndOnAndOnAndOnAndOnAndOnAndOnAndOnAndOn \"x\"]\n*\n", 1, "too long"},
        {"unterminated comment", "[Event \"x\"]\n\n1. e4 {never\nclosed\n", 3, "unterminated comment"},
        {"unterminated variation", "1. e4 (1. d4 d5\n2. c4 {)} \n", 1, "unterminated variation"},
        {"unmatched parenthesis", "1. e4 e5\n2. Nf3 ) Nc6 *\n", 2, "')'"},
        {"overlong token", long_token, 1, "too long"},
        {"bad NAG", "1. e4 $ e5 *\n", 1, "NAG"},
        {"stray character", "1. e4\n\n e5 @ *\n", 3, "'@'"},
        {"number only", "1. e4 2.. 3 -- *\n", 1, "not a move"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        th_case("pgn: syntax error: %s", cases[i].name);
        tc_pgn_game g;
        tc_error err;
        err.msg[0] = '\0';
        tc_pgn_reader r;
        tc_pgn_reader_init(&r, cases[i].text, strlen(cases[i].text));
        int got = tc_pgn_read_game(&r, &g, &err);
        CHECK(got == -1, "read gives %d, want -1", got);
        char where[32];
        snprintf(where, sizeof where, "line %d:", cases[i].line);
        CHECK(strstr(err.msg, where) != NULL, "'%s' lacks '%s'", err.msg, where);
        CHECK(strstr(err.msg, cases[i].needle) != NULL, "'%s' lacks '%s'", err.msg, cases[i].needle);
        CHECK(g.moves == NULL && g.nmoves == 0, "moves left allocated");
        /* the reader always moves on and reaches the end */
        size_t last = r.pos;
        int rounds = 0;
        while (got != 0 && rounds++ < 100) {
            got = tc_pgn_read_game(&r, &g, &err);
            if (got == 1)
                tc_pgn_game_free(&g);
            CHECK(got == 0 || r.pos > last, "no progress at %zu", r.pos);
            last = r.pos;
        }
        CHECK(got == 0, "never reached the end");
    }

    th_case("pgn: reading goes on with the next game after an error");
    const char *text = "[Event \"bad\"]\n1. e4 {oops\n[Event \"x\"]\n*\n";
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, strlen(text));
    tc_pgn_game g;
    tc_error err;
    CHECK(tc_pgn_read_game(&r, &g, &err) == -1, "unterminated comment accepted");
    text = "[Event \"bad\"]\n1. e4 ) e5 *\n\n[Event \"good\"]\n\n1. d4 d5 1/2-1/2\n";
    tc_pgn_reader_init(&r, text, strlen(text));
    CHECK(tc_pgn_read_game(&r, &g, &err) == -1, "unmatched ')' accepted");
    int got = tc_pgn_read_game(&r, &g, &err);
    CHECK(got == 1, "next game not read: %s", err.msg);
    if (got == 1) {
        const char *ev = tc_pgn_tag(&g, "Event");
        CHECK(ev && !strcmp(ev, "good") && g.nmoves == 2 && !strcmp(g.result, "1/2-1/2"), "wrong next game");
        tc_pgn_game_free(&g);
    }
    CHECK(tc_pgn_read_game(&r, &g, &err) == 0, "end not reached");

    th_case("pgn: empty and comment-only texts hold no game");
    CHECK(read_text("", &g, &err) == 0, "empty text");
    CHECK(read_text("  \n% only an escape\n{ and a comment }\n; and another\n", &g, &err) == 0, "comments only");
    CHECK(read_text("1. e4", &g, &err) == 1 && g.nmoves == 1 && !strcmp(g.result, "*"), "no result at the end");
    tc_pgn_game_free(&g);
}

/* ---------------------------------------------------------------- round trips */

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/// How often the random games reached the moves that notation finds hard.
typedef struct {
    int castles, promotions, en_passant, captures, mates;
} special_count;

/* Plays up to `plies` random legal moves, preferring special moves and
 * pawn moves so that promotions and en passant come up. */
static void play_random(tc_position *p, int plies, uint64_t *seed, tc_movelist *list, special_count *sc)
{
    for (int i = 0; i < plies; i++) {
        int n = tc_generate_legal(p, list);
        if (!n)
            break;
        tc_move pick = list->moves[rng_next(seed) % (uint64_t)n];
        int special = -1, pawn = -1, npawn = 0;
        for (int k = 0; k < n; k++) {
            tc_move m = list->moves[k];
            int kind = TC_MOVE_KIND(m);
            if (kind == TC_MOVE_EP || kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q || TC_MOVE_PROMO(m))
                special = k;
            if (TC_TYPE(tc_piece_at(p, TC_MOVE_FROM(m))) == TC_PAWN && rng_next(seed) % (uint64_t)++npawn == 0)
                pawn = k;
        }
        uint64_t roll = rng_next(seed) % 4;
        if (special >= 0 && roll < 3)
            pick = list->moves[special];
        else if (pawn >= 0 && roll < 2)
            pick = list->moves[pawn];
        int kind = TC_MOVE_KIND(pick);
        sc->castles += kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q;
        sc->en_passant += kind == TC_MOVE_EP;
        sc->promotions += TC_MOVE_PROMO(pick) != 0;
        sc->captures += tc_piece_at(p, TC_MOVE_TO(pick)) != 0 && kind != TC_MOVE_CASTLE_K && kind != TC_MOVE_CASTLE_Q;
        tc_make_move(p, pick);
    }
    sc->mates += tc_position_status(p) == TC_CHECKMATE;
}

static char *write_game(const tc_position *p, const char *const *tags, int ntags, const char *result,
                        size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    tc_pgn_write(p, tags, ntags, result, f);
    fclose(f);
    return buf;
}

/* The longest line of the movetext (tag lines may not be wrapped). */
static int longest_line(const char *s)
{
    int best = 0, cur = 0;
    const char *body = strstr(s, "\n\n");
    s = body ? body + 2 : s;
    for (; *s; s++) {
        cur = *s == '\n' ? 0 : cur + 1;
        best = cur > best ? cur : best;
    }
    return best;
}

/* Writes p's game, reads it back and replays it: the same moves must lead
 * to the same position. */
static void round_trip(const tc_position *p, const char *preset, const char *const *tags, int ntags)
{
    size_t len;
    char *text = write_game(p, tags, ntags, NULL, &len);
    CHECK(text != NULL, "%s: nothing written", preset);
    if (!text)
        return;
    CHECK(longest_line(text) <= 79, "%s: a line of %d columns:\n%s", preset, longest_line(text), text);
    tc_pgn_game *g = malloc(sizeof *g);
    tc_error err;
    tc_pgn_reader r;
    tc_pgn_reader_init(&r, text, len);
    int got = g ? tc_pgn_read_game(&r, g, &err) : -1;
    CHECK(got == 1, "%s: written game does not read: %s\n%s", preset, err.msg, text);
    if (got == 1) {
        CHECK(g->nmoves == tc_ply_count(p), "%s: %d moves read, %d played", preset, g->nmoves, tc_ply_count(p));
        const char *variant = tc_pgn_tag(g, "Variant");
        tc_variant_def pd;
        tc_error perr;
        const tc_variant_def *own = tc_variant_def_of(tc_position_variant(p));
        int is_preset = tc_preset_find(preset, &pd, &perr) == 0 && pd.seam == own->seam &&
                        pd.files == own->files && pd.ranks == own->ranks && !strcmp(pd.setup, own->setup);
        CHECK((tc_pgn_tag(g, "Topology") == NULL) == is_preset, "%s: a Topology tag %s", preset,
              is_preset ? "for a preset" : "is missing");
        if (!strcmp(preset, "chess"))
            CHECK(variant == NULL, "chess game has a Variant tag");
        else
            CHECK(variant && !strcmp(variant, preset), "%s: Variant tag %s", preset, variant ? variant : "(none)");
        static const char *const roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
        for (int i = 0; i < 7; i++)
            CHECK(tc_pgn_tag(g, roster[i]) != NULL, "%s: no %s tag", preset, roster[i]);
        const char *res = tc_pgn_tag(g, "Result");
        CHECK(res && !strcmp(res, g->result), "%s: Result tag %s, movetext %s", preset, res ? res : "-", g->result);
        tc_pgn_replay rp;
        int rc = tc_pgn_replay_game(g, NULL, &rp, &err);
        CHECK(rc == 0 && rp.ok, "%s: replay: %s\n%s", preset, err.msg, text);
        if (rc == 0 && rp.ok) {
            char a[800], b[800];
            tc_position_fen(p, a, sizeof a);
            tc_position_fen(rp.position, b, sizeof b);
            CHECK(!strcmp(a, b), "%s: FEN after the round trip\n  got  %s\n  want %s", preset, b, a);
            CHECK(tc_key(p) == tc_key(rp.position), "%s: key differs", preset);
            CHECK(!strcmp(tc_position_start_fen(p), tc_position_start_fen(rp.position)), "%s: start differs",
                  preset);
        }
        tc_pgn_replay_free(&rp);
        tc_pgn_game_free(g);
    }
    CHECK(tc_pgn_read_game(&r, g, &err) == 0, "%s: more than one game written", preset);
    free(g);
    free(text);
}

static void test_round_trips(void)
{
    static const char *const presets[] = {"chess", "cylinder", "monteiro-cylinder", "torus",
                                          "mobius", "klein-bottle", "folding"};
    tc_movelist *list = malloc(sizeof *list);
    if (!list)
        return;
    special_count sc = {0, 0, 0, 0, 0};
    int games = th_sanitize() ? 2 : 10, plies = th_sanitize() ? 80 : 200;
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++) {
        th_case("pgn: round trip of random %s games", presets[i]);
        tc_variant *v = th_variant(presets[i]);
        if (!v)
            continue;
        for (int k = 0; k < games; k++) {
            tc_position *p = tc_position_new(v);
            play_random(p, plies, &seed, list, &sc);
            round_trip(p, presets[i], NULL, 0);
            tc_position_free(p);
        }
        tc_variant_free(v);
    }
    th_case("pgn: the random games reached castling, promotion and en passant");
    CHECK(sc.castles > 0 && sc.promotions > 0 && sc.en_passant > 0 && sc.captures > 0,
          "castles %d, promotions %d, en passant %d, captures %d", sc.castles, sc.promotions, sc.en_passant,
          sc.captures);

    th_case("pgn: round trip from a set-up position with Black to move");
    tc_variant *v = th_variant("klein-bottle");
    if (v) {
        tc_position *p = tc_position_new(v);
        tc_error err;
        tc_position_set_fen(p, "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 0 12",
                            &err);
        play_random(p, plies / 2, &seed, list, &sc);
        size_t len;
        const char *tags[] = {"White", "Alice", "Black", "Bob", "Annotator", "tests"};
        char *text = write_game(p, tags, 3, NULL, &len);
        if (text) {
            CHECK(strstr(text, "[SetUp \"1\"]\n[FEN \"") != NULL, "no SetUp/FEN tags:\n%s", text);
            CHECK(strstr(text, "\n12... ") != NULL, "no '12... ' at the start:\n%s", text);
            CHECK(strstr(text, "[White \"Alice\"]") && strstr(text, "[Black \"Bob\"]"), "tags not overridden");
            CHECK(strstr(text, "[Annotator \"tests\"]") != NULL, "extra tag missing");
            CHECK(strstr(text, "[Variant \"klein-bottle\"]") != NULL, "Variant tag missing");
            free(text);
        }
        round_trip(p, "klein-bottle", tags, 3);
        tc_position_free(p);
        tc_variant_free(v);
    }
    free(list);
}

static void test_writer(void)
{
    th_case("pgn: writer layout, result and escapes");
    tc_variant *v = th_variant("chess");
    if (!v)
        return;
    tc_position *p = tc_position_new(v);
    tc_error err;
    int rc = tc_play_moves(p, "e4 e5 Qh5 Nc6 Bc4 Nf6 Qxf7", &err);
    CHECK(rc == 0, "%s", err.msg);
    size_t len;
    const char *tags[] = {"Event", "A \"quoted\" \\ event"};
    char *text = write_game(p, tags, 1, NULL, &len);
    if (text) {
        const char *want =
            "[Event \"A \\\"quoted\\\" \\\\ event\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n"
            "[White \"?\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n"
            "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n";
        CHECK(!strcmp(text, want), "written:\n%s\nwant:\n%s", text, want);
        free(text);
    }
    /* an explicit result wins over the implied one */
    tc_position_reset(p);
    text = write_game(p, NULL, 0, "1/2-1/2", &len);
    if (text) {
        CHECK(strstr(text, "[Result \"1/2-1/2\"]") && strstr(text, "\n\n1/2-1/2\n"), "empty game:\n%s", text);
        CHECK(!strstr(text, "Variant") && !strstr(text, "FEN"), "chess start needs no Variant/FEN:\n%s", text);
        free(text);
    }
    /* long games wrap within 79 columns and never split "12. Nf3" */
    for (int i = 0; i < 40; i++)
        tc_play_moves(p, i % 4 < 2 ? (i % 2 ? "Nf6" : "Nf3") : (i % 2 ? "Ng8" : "Ng1"), &err);
    text = write_game(p, NULL, 0, NULL, &len);
    if (text) {
        CHECK(longest_line(text) <= 79 && longest_line(text) > 60, "line length %d", longest_line(text));
        const char *body = strstr(text, "\n\n");
        CHECK(body && strchr(body + 2, '\n') - (body + 2) > 60, "first movetext line is short");
        for (const char *s = body ? body + 2 : text; s && (s = strchr(s + 1, '\n')) != NULL;)
            CHECK(s[-1] != '.', "a move number was split from its move:\n%s", text);
        free(text);
    }
    tc_position_free(p);
    tc_variant_free(v);
}

/* Issue 7.8: any number of tags (real files carry more than 32), values
 * of any length; issue 7.7: game after game of one variant keeps it. */
static void test_many_tags_and_reuse(void)
{
    th_case("pgn: a game with 1000 tags and a 5000-byte value");
    size_t cap = 1000 * 32 + 6000, n = 0;
    char *text = malloc(cap);
    if (!text)
        return;
    for (int i = 0; i < 1000; i++)
        n += (size_t)snprintf(text + n, cap - n, "[Tag%d \"v%d\"]\n", i, i);
    n += (size_t)snprintf(text + n, cap - n, "[Annotator \"");
    memset(text + n, 'a', 5000);
    n += 5000;
    snprintf(text + n, cap - n, "\"]\n\n1. e4 e5 *\n");
    tc_pgn_reader r;
    tc_pgn_game g;
    tc_error err;
    tc_pgn_reader_init(&r, text, strlen(text));
    int got = tc_pgn_read_game(&r, &g, &err);
    CHECK(got == 1, "read gives %d: %s", got, got < 0 ? err.msg : "");
    if (got == 1) {
        CHECK(g.ntags == 1001 && g.nmoves == 2, "%d tags, %d moves", g.ntags, g.nmoves);
        const char *t999 = tc_pgn_tag(&g, "Tag999"), *ann = tc_pgn_tag(&g, "Annotator");
        CHECK(t999 && !strcmp(t999, "v999"), "Tag999 is '%s'", t999 ? t999 : "(none)");
        CHECK(ann && strlen(ann) == 5000, "Annotator has %zu bytes", ann ? strlen(ann) : 0);
        tc_pgn_game_free(&g);
    }
    free(text);

    th_case("pgn: replay_next keeps the variant across games of one variant");
    const char *games = "[Variant \"torus\"]\n1. d4 *\n\n[Variant \"torus\"]\n1. e4 e5 *\n\n"
                        "[Variant \"klein-bottle\"]\n1. d12 *\n\n[Variant \"flatland\"]\n*\n\n1. e4 *\n";
    tc_pgn_reader_init(&r, games, strlen(games));
    tc_pgn_replay rp;
    memset(&rp, 0, sizeof rp);
    const tc_variant *seen[5] = {0};
    int rc[5] = {0}, i = 0;
    for (; i < 5 && tc_pgn_read_game(&r, &g, &err) == 1; i++) {
        rc[i] = tc_pgn_replay_next(&g, NULL, &rp, &err);
        seen[i] = rc[i] == 0 ? rp.variant : NULL;
        /* the same game replayed alone gives the same position */
        tc_pgn_replay alone;
        int rc_alone = tc_pgn_replay_game(&g, NULL, &alone, &err);
        CHECK(rc_alone == rc[i], "game %d: %d alone, %d in a run", i + 1, rc_alone, rc[i]);
        if (rc_alone == 0 && rc[i] == 0) {
            CHECK(tc_key(alone.position) == tc_key(rp.position) && tc_ply_count(alone.position) == tc_ply_count(rp.position),
                  "game %d: the reused position differs", i + 1);
            CHECK(!strcmp(tc_position_start_fen(alone.position), tc_position_start_fen(rp.position)),
                  "game %d: start FEN differs", i + 1);
            tc_pgn_replay_free(&alone);
        }
        tc_pgn_game_free(&g);
    }
    CHECK(i == 5, "read %d games", i);
    CHECK(rc[0] == 0 && rc[1] == 0 && rc[2] == 0 && rc[3] == -1 && rc[4] == 0, "results %d %d %d %d %d", rc[0],
          rc[1], rc[2], rc[3], rc[4]);
    CHECK(seen[0] && seen[0] == seen[1], "the second torus game rebuilt the variant");
    /* a new variant is built before the old one is freed, so a kept one is
     * the only way to see the same address twice */
    CHECK(seen[2] && seen[2] != seen[1], "klein-bottle replayed on the torus");
    CHECK(seen[4] && !strcmp(tc_variant_def_of(seen[4])->name, "chess"), "the last game is not chess");
    tc_pgn_replay_free(&rp);
}

/* Any board's game replays from its own PGN alone: the Topology tag holds
 * the board (issue 28). */
static void test_custom_boards(void)
{
    static const struct {
        const char *name;
        int w, h;
        tc_file_rule files;
        tc_rank_rule ranks;
        int seam;
        const char *setup;
    } boards[] = {
        {"one-rook", 11, 8, TC_FILES_OPEN, TC_RANKS_TWIST, 3, "6k4/11/11/8p2/11/11/5P5/R3K6"},
        {"fold-5x11", 5, 11, TC_FILES_WRAP, TC_RANKS_FOLD, 0, "1k3/5/2p2/1b3/5/2b2/n4/5/q4/2p2/KN3"},
        {"custom:0123456789abcdef", 8, 8, TC_FILES_OPEN, TC_RANKS_OPEN, 0, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
        /* a preset's name on another board: the board travels too */
        {"klein-bottle", 8, 14, TC_FILES_WRAP, TC_RANKS_TWIST, 3,
         "PPPPPPPP/8/8/8/8/pppppppp/rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
        {"wide", 16, 6, TC_FILES_WRAP, TC_RANKS_OPEN, 0,
         "rnbqkbnrrnbqrbnr/pppppppppppppppp/16/16/PPPPPPPPPPPPPPPP/RNBQKBNRRNBQRBNR"},
    };
    tc_movelist *list = malloc(sizeof *list);
    special_count sc = {0, 0, 0, 0, 0};
    uint64_t seed = 0x28;
    for (size_t i = 0; list && i < sizeof boards / sizeof boards[0]; i++) {
        th_case("pgn: round trip on the board %s (%dx%d) from its Topology tag", boards[i].name, boards[i].w,
                boards[i].h);
        tc_variant_def d;
        th_def(&d, boards[i].name, boards[i].w, boards[i].h, boards[i].files, boards[i].ranks, boards[i].seam,
               boards[i].setup);
        tc_error err;
        tc_variant *v = tc_variant_new(&d, &err);
        CHECK(v != NULL, "%s", err.msg);
        for (int k = 0; v && k < 4; k++) {
            tc_position *p = tc_position_new(v);
            play_random(p, 60, &seed, list, &sc);
            round_trip(p, boards[i].name, NULL, 0);
            tc_position_free(p);
        }
        tc_variant_free(v);
    }
    free(list);

    th_case("pgn: a Topology tag that is no board, or whose setup is refused, says why");
    static const struct {
        const char *tag, *want;
    } bad[] = {
        {"{topology: {type: grid, rows: 8, cols: 40, wrap: none}, setup: 8/8/8/8/8/8/8/8}",
         "Topology tag: engine.topology.cols: 40 is out of range"},
        {"{topology: {type: grid, rows: 8, cols: 8, wrap: none}}", "Topology tag: engine: missing 'setup'"},
        {"not yaml: [", "Topology tag: "},
        {"{topology: {type: grid, rows: 8, cols: 8, wrap: none}, setup: 4k3/8/8/8/8/8/4K3/2P5}",
         "the white pawn on c1 has no forward direction"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[400];
        snprintf(text, sizeof text, "[Variant \"x\"]\n[Topology \"%s\"]\n\n1. a3 *\n", bad[i].tag);
        tc_pgn_game g;
        tc_error err = {{0}};
        tc_pgn_replay rp;
        CHECK(read_text(text, &g, &err) == 1, "%s", err.msg);
        CHECK(tc_pgn_replay_game(&g, NULL, &rp, &err) == -1, "%s: accepted", bad[i].tag);
        CHECK(strstr(err.msg, bad[i].want) != NULL, "'%s', want '%s'", err.msg, bad[i].want);
        tc_pgn_game_free(&g);
    }
}

void suite_pgn(void)
{
    test_many_tags_and_reuse();
    test_annotated();
    test_topological_games();
    test_illegal();
    test_setup_and_variant_errors();
    test_syntax_errors();
    test_round_trips();
    test_custom_boards();
    test_writer();
}
