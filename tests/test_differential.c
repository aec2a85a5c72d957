/* Differential test: the library's legal moves against refgen's (a plain
 * generator written from docs/rules.md) at every position of seeded random
 * games on every preset, plus games started from the perft EPD positions.
 * Also compares check detection and attack maps, the captures-and-
 * promotions generator against refgen's moves of that kind, and checks that
 * make and unmake restore the key and the FEN. */
#include "epd.h"
#include "harness.h"
#include "internal.h" /* tc_gen_noisy, the quiescence generator */
#include "refgen.h"

#include <stdlib.h>
#include <string.h>

/// What the random games covered; each preset must see every kind.
typedef struct {
    long positions, captures, promotions, en_passant, castles, checks;
} diff_stats;

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int pick(uint64_t *s, int n) { return (int)(splitmix64(s) % (uint64_t)n); }

static int is_castle(int kind) { return kind == TC_MOVE_CASTLE_K || kind == TC_MOVE_CASTLE_Q; }

/* What the comparison looks at: from, to, promotion and castling side. */
static uint32_t key_of(int from, int to, int promo, int kind)
{
    return (uint32_t)from | (uint32_t)to << 8 | (uint32_t)promo << 16 |
           (uint32_t)(is_castle(kind) ? kind : 0) << 19;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static void key_text(const tc_variant *v, uint32_t k, char *buf, size_t n)
{
    char a[8], b[8];
    int promo = (k >> 16) & 7, kind = (k >> 19) & 7;
    tc_cell_name(v, (int)(k & 0xff), a);
    tc_cell_name(v, (int)((k >> 8) & 0xff), b);
    char pr[2] = {promo ? " pnbrqk"[promo] : '\0', '\0'};
    snprintf(buf, n, "%s%s%s%s", a, b, pr,
             kind == TC_MOVE_CASTLE_K ? "(O-O)" : kind == TC_MOVE_CASTLE_Q ? "(O-O-O)" : "");
}

/// Buffers reused across positions (the library's list is 32 KB).
typedef struct {
    tc_movelist lib;
    rg_move ref[RG_MAX_MOVES];
    uint32_t lk[TC_MAX_MOVES], rk[RG_MAX_MOVES];
} diff_buf;

/* Compares the move sets and the check flag; returns 0 when they agree. */
static int compare_position(const tc_position *p, diff_buf *d, const rg_board *rb, int nref)
{
    const tc_variant *v = tc_position_variant(p);
    int nlib = tc_generate_legal(p, &d->lib);
    for (int i = 0; i < nlib; i++) {
        tc_move m = d->lib.moves[i];
        d->lk[i] = key_of(TC_MOVE_FROM(m), TC_MOVE_TO(m), TC_MOVE_PROMO(m), TC_MOVE_KIND(m));
    }
    for (int i = 0; i < nref; i++)
        d->rk[i] = key_of(d->ref[i].from, d->ref[i].to, d->ref[i].promo, d->ref[i].kind);
    qsort(d->lk, (size_t)nlib, sizeof d->lk[0], cmp_u32);
    qsort(d->rk, (size_t)nref, sizeof d->rk[0], cmp_u32);

    char fen[800];
    tc_position_fen(p, fen, sizeof fen);
    int bad = 0;
    int same = nlib == nref;
    for (int i = 0; same && i < nlib; i++)
        same = d->lk[i] == d->rk[i];
    if (!same) {
        /* merge the sorted lists to name the moves only one side has */
        char only_lib[1024] = "", only_ref[1024] = "", t[24];
        int i = 0, j = 0;
        while (i < nlib || j < nref) {
            if (j == nref || (i < nlib && d->lk[i] < d->rk[j])) {
                key_text(v, d->lk[i++], t, sizeof t);
                if (strlen(only_lib) + strlen(t) + 2 < sizeof only_lib)
                    strcat(strcat(only_lib, " "), t);
            } else if (i == nlib || d->rk[j] < d->lk[i]) {
                key_text(v, d->rk[j++], t, sizeof t);
                if (strlen(only_ref) + strlen(t) + 2 < sizeof only_ref)
                    strcat(strcat(only_ref, " "), t);
            } else {
                i++;
                j++;
            }
        }
        CHECK(0, "%s: moves differ (library %d, refgen %d); library only:%s; refgen only:%s", fen,
              nlib, nref, only_lib, only_ref);
        bad = 1;
    }
    /* the noisy generator: exactly refgen's captures and promotions */
    int nnoisy = tc_gen_noisy(p, d->lib.moves), nexp = 0;
    for (int i = 0; i < nnoisy; i++) {
        tc_move m = d->lib.moves[i];
        d->lk[i] = key_of(TC_MOVE_FROM(m), TC_MOVE_TO(m), TC_MOVE_PROMO(m), TC_MOVE_KIND(m));
    }
    for (int i = 0; i < nref; i++) {
        const rg_move *r = &d->ref[i];
        bool noisy = r->promo || r->kind == TC_MOVE_EP || (!is_castle(r->kind) && tc_piece_at(p, r->to));
        if (noisy)
            d->rk[nexp++] = key_of(r->from, r->to, r->promo, r->kind);
    }
    qsort(d->lk, (size_t)nnoisy, sizeof d->lk[0], cmp_u32);
    qsort(d->rk, (size_t)nexp, sizeof d->rk[0], cmp_u32);
    int same_noisy = nnoisy == nexp;
    for (int i = 0; same_noisy && i < nnoisy; i++)
        same_noisy = d->lk[i] == d->rk[i];
    CHECK(same_noisy, "%s: captures and promotions differ (library %d, refgen %d)", fen, nnoisy, nexp);

    int lc = tc_in_check(p) != 0, rc = rg_in_check(rb);
    CHECK(lc == rc, "%s: tc_in_check %d, refgen %d", fen, lc, rc);
    return bad || lc != rc || !same_noisy;
}

/* Every cell, both colours: tc_attacked against refgen's attack test. */
static int compare_attacks(const tc_position *p, const rg_board *rb)
{
    int cells = tc_variant_cells(tc_position_variant(p));
    for (int c = 0; c < cells; c++)
        for (int col = 0; col < 2; col++) {
            int l = tc_attacked(p, c, col) != 0, r = rg_attacked(rb, c, col);
            if (l != r) {
                char fen[800], name[8];
                tc_position_fen(p, fen, sizeof fen);
                tc_cell_name(tc_position_variant(p), c, name);
                CHECK(0, "%s: tc_attacked(%s, %s) %d, refgen %d", fen, name,
                      col ? "black" : "white", l, r);
                return 1;
            }
        }
    return 0;
}

/* Make then unmake: key and FEN come back; the key after the move equals
 * the key of the same position read fresh from its FEN. */
static int check_make_unmake(tc_position *p, tc_position *scratch, tc_move m)
{
    char before[800], after[800], back[800];
    uint64_t k0 = tc_key(p);
    tc_position_fen(p, before, sizeof before);
    tc_make_move(p, m);
    uint64_t k1 = tc_key(p);
    tc_position_fen(p, after, sizeof after);
    tc_unmake_move(p);
    tc_position_fen(p, back, sizeof back);
    char uci[16];
    tc_move_to_uci(p, m, uci);
    int bad = 0;
    if (tc_key(p) != k0 || strcmp(before, back) != 0) {
        CHECK(0, "%s: make/unmake %s gives key %s, FEN %s", before, uci,
              tc_key(p) == k0 ? "restored" : "changed", back);
        bad = 1;
    }
    tc_error err;
    if (tc_position_set_fen(scratch, after, &err) != 0) {
        CHECK(0, "%s: after %s the FEN %s does not read back: %s", before, uci, after, err.msg);
        bad = 1;
    } else if (tc_key(scratch) != k1) {
        CHECK(0, "%s: after %s the key differs from the key of its FEN %s", before, uci, after);
        bad = 1;
    }
    return bad;
}

/* Chooses the next move, biased now and then toward castling, en passant,
 * promotions, captures and pawn moves so that every rule gets played. */
static tc_move choose(const tc_position *p, const tc_movelist *l, uint64_t *s)
{
    int idx[TC_MAX_MOVES], n = 0, r = pick(s, 10);
    enum { CASTLE, EP, PROMO, CAPTURE, PAWN, NKINDS };
    static const int want[NKINDS] = {5, 6, 6, 3, 5}; /* take the class when r < want */
    for (int k = 0; k < NKINDS; k++) {
        if ((k == CAPTURE && r >= want[k]) || (k == PAWN && (r < 3 || r >= want[k])) ||
            (k < CAPTURE && r >= want[k]))
            continue;
        n = 0;
        for (int i = 0; i < l->count; i++) {
            tc_move m = l->moves[i];
            int kind = TC_MOVE_KIND(m), pc = tc_piece_at(p, TC_MOVE_FROM(m));
            int cap = (tc_piece_at(p, TC_MOVE_TO(m)) && !is_castle(kind)) || kind == TC_MOVE_EP;
            int hit = k == CASTLE    ? is_castle(kind)
                      : k == EP      ? kind == TC_MOVE_EP
                      : k == PROMO   ? TC_MOVE_PROMO(m) != 0
                      : k == CAPTURE ? cap
                                     : TC_TYPE(pc) == TC_PAWN;
            if (hit)
                idx[n++] = i;
        }
        if (n)
            return l->moves[idx[pick(s, n)]];
    }
    return l->moves[pick(s, l->count)];
}

static void note_move(const tc_position *p, tc_move m, diff_stats *st)
{
    int kind = TC_MOVE_KIND(m);
    st->castles += is_castle(kind);
    st->en_passant += kind == TC_MOVE_EP;
    st->promotions += TC_MOVE_PROMO(m) != 0;
    st->captures += (tc_piece_at(p, TC_MOVE_TO(m)) && !is_castle(kind)) || kind == TC_MOVE_EP;
}

/* Plays one seeded random game from the position; stops at the first
 * disagreement so that one bug gives one report. */
static void play_game(tc_position *p, tc_position *scratch, diff_buf *d, int max_ply, uint64_t *s,
                      diff_stats *st)
{
    rg_board rb;
    for (int ply = 0; ply < max_ply; ply++) {
        if (rg_board_from(p, &rb) != 0) {
            CHECK(0, "refgen cannot read the setup of %s",
                  tc_variant_def_of(tc_position_variant(p))->name);
            return;
        }
        int nref = rg_legal(&rb, d->ref, RG_MAX_MOVES);
        st->positions++;
        st->checks += rg_in_check(&rb);
        if (compare_position(p, d, &rb, nref))
            return;
        if (ply % 16 == 5 && compare_attacks(p, &rb))
            return;
        if (d->lib.count == 0)
            return;
        tc_move m = choose(p, &d->lib, s);
        if (check_make_unmake(p, scratch, m) ||
            check_make_unmake(p, scratch, d->lib.moves[pick(s, d->lib.count)]))
            return;
        note_move(p, m, st);
        tc_make_move(p, m);
    }
}

static void random_games(const tc_variant_def *def, int games, uint64_t seed)
{
    th_case("differential %s: %d random games", def->name, games);
    tc_error err;
    tc_variant *v = tc_variant_new(def, &err);
    CHECK(v != NULL, "variant %s: %s", def->name, err.msg);
    diff_buf *d = malloc(sizeof *d);
    if (!v || !d) {
        tc_variant_free(v);
        free(d);
        return;
    }
    tc_position *p = tc_position_new(v), *scratch = tc_position_new(v);
    diff_stats st = {0};
    for (int g = 0; g < games; g++) {
        tc_position_reset(p);
        play_game(p, scratch, d, 120, &seed, &st);
    }
    /* the full run must have exercised every special rule (the short run
     * under the sanitizers is too short to promise en passant everywhere) */
    int covered = st.captures > 0 && st.promotions > 0 && st.en_passant > 0 &&
                  st.castles > 0 && st.checks > 0;
    CHECK(th_sanitize() || covered,
          "%s: too little coverage: %ld captures, %ld promotions, %ld en passant, %ld castles, "
          "%ld checks",
          def->name, st.captures, st.promotions, st.en_passant, st.castles, st.checks);
    if (getenv("TC_DIFF_STATS"))
        fprintf(stderr,
                "  %-18s %6ld positions, %5ld captures, %4ld promotions, %4ld e.p., "
                "%4ld castles, %5ld checks\n",
                def->name, st.positions, st.captures, st.promotions, st.en_passant, st.castles,
                st.checks);
    tc_position_free(scratch);
    tc_position_free(p);
    tc_variant_free(v);
    free(d);
}

/* Short random games from each line of one perft EPD file. */
static void epd_games(const char *file, int max_ply, uint64_t seed)
{
    th_case("differential games from %s", file);
    th_epd *lines;
    int n = th_epd_read(file, &lines);
    diff_buf *d = malloc(sizeof *d);
    if (n < 0 || !d) {
        th_epd_free(lines);
        free(d);
        return;
    }
    int played = 0;
    diff_stats st = {0};
    for (int i = 0; i < n; i++) {
        const char *fen = lines[i].fen;
        tc_variant *v = th_variant(lines[i].variant);
        if (!v)
            continue;
        tc_position *p = tc_position_new(v), *scratch = tc_position_new(v);
        tc_error err;
        if (tc_position_set_fen(p, fen, &err) == 0) {
            played++;
            for (int g = 0; g < 2; g++) {
                tc_position_set_fen(p, fen, &err);
                play_game(p, scratch, d, max_ply, &seed, &st);
            }
        } else {
            CHECK(0, "%s:%s: %s", file, fen, err.msg);
        }
        tc_position_free(scratch);
        tc_position_free(p);
        tc_variant_free(v);
    }
    th_epd_free(lines);
    free(d);
    CHECK(played > 0, "%s holds no positions", file);
}

/* ---------------------------------------------------------------- random boards */

/// What the random-board run compared.
typedef struct {
    long boards, refused, positions, perfts;
    uint64_t nodes;
    unsigned rules; /* bit files * 4 + ranks: that pair of rules was played */
} board_stats;

static const char piece_letters[] = "PNBRQpnbrq";

/* Whether a vertical walk from (x, y) starting dy reaches rank `enemy`
 * before rank `own` (docs/rules.md section 4), by refgen's step. */
static bool walk_reaches(const tc_variant_def *d, int x, int y, int dy, int own, int enemy)
{
    for (int k = 0; k < 2 * d->height + 2; k++) {
        rg_step r = rg_rules_step(d, x, y, 0, dy);
        if (r.off || r.y == own)
            return false;
        if (r.y == enemy)
            return true;
        x = r.x;
        y = r.y;
        dy = r.dy;
    }
    return false;
}

/* A random board of docs/rules.md (3..16 cells each way, the file and rank
 * rules given as files * 4 + ranks, any seam) with a random setup: two kings on different ranks (now
 * and then on the same one, or attacked, to exercise the refusals), now
 * and then castling-ready back ranks (king on e, one or both rooks), and a
 * few random pieces. */
static void random_board(tc_variant_def *d, uint64_t *s, int rules)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "random");
    d->width = 3 + pick(s, 14);
    d->height = 3 + pick(s, 14);
    d->files = rules / 4 ? TC_FILES_WRAP : TC_FILES_OPEN;
    d->ranks = (tc_rank_rule)(rules % 4);
    d->seam = d->ranks == TC_RANKS_TWIST ? 1 + pick(s, d->height) : 0;
    int W = d->width, H = d->height, n = W * H;
    char cell[TC_MAX_CELLS];
    memset(cell, 0, sizeof cell);
    int yw = pick(s, H), yb = pick(s, 20) ? (yw + 1 + pick(s, H - 1)) % H : yw;
    bool castles = W >= 8 && pick(s, 3) == 0;
    for (int col = 0; col < 2; col++) {
        int y = col ? yb : yw;
        int x = castles ? 4 : pick(s, W);
        if (cell[y * W + x])
            x = (x + 1) % W;
        cell[y * W + x] = col ? 'k' : 'K';
        if (castles && !cell[y * W] && !cell[y * W + 7]) {
            /* both rooks, or only one: each castling needs only its own
             * rook (docs/rules.md section 4) */
            int rooks = pick(s, 3);
            if (rooks != 2)
                cell[y * W] = col ? 'r' : 'R';
            if (rooks != 1)
                cell[y * W + 7] = col ? 'r' : 'R';
        }
    }
    int extra = pick(s, 1 + (n / 4 < 14 ? n / 4 : 14));
    for (int i = 0; i < extra; i++) {
        int c = pick(s, n), y = c / W;
        /* pawns twice as likely as each other piece */
        int k = pick(s, 14);
        char pc = k < 10 ? piece_letters[k] : (k < 12 ? 'P' : 'p');
        if (cell[c] || ((pc == 'P' || pc == 'p') && (y == yw || y == yb)))
            continue;
        /* a pawn with no forward direction makes the setup refused: keep
         * one now and then for that refusal, skip the rest so that most
         * boards are played */
        if (pc == 'P' || pc == 'p') {
            int own = pc == 'P' ? yw : yb, enemy = pc == 'P' ? yb : yw;
            if (!walk_reaches(d, c % W, y, 1, own, enemy) && !walk_reaches(d, c % W, y, -1, own, enemy) &&
                pick(s, 8))
                continue;
        }
        cell[c] = pc;
    }
    size_t k = 0;
    for (int y = H - 1; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < W; x++) {
            char pc = cell[y * W + x];
            if (!pc) {
                empty++;
                continue;
            }
            if (empty)
                k += (size_t)snprintf(d->setup + k, sizeof d->setup - k, "%d", empty);
            empty = 0;
            d->setup[k++] = pc;
        }
        if (empty)
            k += (size_t)snprintf(d->setup + k, sizeof d->setup - k, "%d", empty);
        if (y)
            d->setup[k++] = '/';
    }
    d->setup[k] = '\0';
}

static void def_text(const tc_variant_def *d, char *buf, size_t n)
{
    static const char *const ranks[] = {"open", "wrap", "twist", "fold"};
    snprintf(buf, n, "%dx%d files %s ranks %s seam %d setup %s", d->width, d->height,
             d->files == TC_FILES_WRAP ? "wrap" : "open", ranks[d->ranks], d->seam, d->setup);
}

/* One random board: the setup's legality against refgen's, then a random
 * walk comparing every position's moves, then perft from where it ended. */
static int one_board(diff_buf *d, uint64_t *s, board_stats *st)
{
    tc_variant_def def;
    random_board(&def, s, (int)(st->boards % 8)); /* every pair of rules in turn */
    char text[900], why[96];
    def_text(&def, text, sizeof text);
    int want = rg_setup_legal(&def, why, sizeof why);
    tc_error err;
    tc_variant *v = tc_variant_new(&def, &err);
    st->boards++;
    if (!v != !want) {
        CHECK(0, "%s: the library %s it (%s), refgen says %s", text, v ? "accepts" : "refuses",
              v ? "" : err.msg, why);
        tc_variant_free(v);
        return 1;
    }
    if (!v) {
        st->refused++;
        return 0;
    }
    st->rules |= 1u << (def.files * 4 + def.ranks);
    tc_position *p = tc_position_new(v), *scratch = tc_position_new(v);
    rg_board rb;
    int bad = !p || !scratch;
    int walk = pick(s, 24);
    for (int ply = 0; !bad && ply <= walk; ply++) {
        if (rg_board_from(p, &rb)) {
            CHECK(0, "%s: refgen cannot read the setup", text);
            bad = 1;
            break;
        }
        int nref = rg_legal(&rb, d->ref, RG_MAX_MOVES);
        st->positions++;
        if (compare_position(p, d, &rb, nref) || (ply % 8 == 3 && compare_attacks(p, &rb))) {
            fprintf(stderr, "  on the board %s\n", text);
            bad = 1;
            break;
        }
        if (ply == walk || d->lib.count == 0)
            break;
        tc_move m = choose(p, &d->lib, s);
        if (check_make_unmake(p, scratch, m)) {
            fprintf(stderr, "  on the board %s\n", text);
            bad = 1;
            break;
        }
        tc_make_move(p, m);
    }
    if (!bad) {
        /* perft 3 where the tree stays small, else 2 */
        int depth = tc_variant_cells(v) <= 48 || d->lib.count <= 12 ? 3 : 2;
        uint64_t lib = tc_perft(p, depth), ref = rg_perft(&rb, depth);
        st->perfts++;
        st->nodes += lib;
        if (lib != ref) {
            char fen[800];
            tc_position_fen(p, fen, sizeof fen);
            CHECK(0, "%s: perft %d from %s: library %llu, refgen %llu", text, depth, fen,
                  (unsigned long long)lib, (unsigned long long)ref);
            bad = 1;
        }
    }
    tc_position_free(scratch);
    tc_position_free(p);
    tc_variant_free(v);
    return bad;
}

/* TC_RANDOM_BOARDS=N runs N boards instead of the suite's fixed few;
 * TC_RANDOM_SEED=S starts from another seed. */
static void random_boards(int boards, uint64_t seed)
{
    const char *env = getenv("TC_RANDOM_BOARDS");
    if (env && atoi(env) > 0)
        boards = atoi(env);
    env = getenv("TC_RANDOM_SEED");
    if (env && *env)
        seed = strtoull(env, NULL, 0);
    th_case("differential: %d random boards, seed %#llx", boards, (unsigned long long)seed);
    diff_buf *d = malloc(sizeof *d);
    if (!d)
        return;
    board_stats st = {0};
    int failures = 0;
    for (int i = 0; i < boards && failures < 3; i++)
        failures += one_board(d, &seed, &st);
    free(d);
    /* the generator must make both legal and refused setups, and play
     * every pair of file and rank rules */
    CHECK(st.refused > 0 && st.perfts > 0, "%ld boards: %ld refused, %ld played", st.boards, st.refused,
          st.perfts);
    CHECK(failures || st.rules == 0xff, "file and rank rules played: %#x of 0xff", st.rules);
    if (getenv("TC_DIFF_STATS") || getenv("TC_RANDOM_BOARDS"))
        fprintf(stderr, "  %ld boards (%ld setups refused), %ld positions compared, %ld perfts (%llu nodes)\n",
                st.boards, st.refused, st.positions, st.perfts, (unsigned long long)st.nodes);
}

void suite_differential(void)
{
    int san = th_sanitize();
    uint64_t seed = 0x70b0c4e55u;
    for (int i = 0; i < tc_preset_count(); i++)
        random_games(tc_preset(i), san ? 5 : 45, splitmix64(&seed));

    th_case("differential: perft directory %s", th_perft_dir());
    char names[TH_EPD_MAX_FILES][64];
    int nfiles = th_epd_files(names, TH_EPD_MAX_FILES);
    for (int i = 0; i < nfiles; i++)
        epd_games(names[i], san ? 6 : 40, splitmix64(&seed));

    random_boards(san ? 40 : 300, 0x5eedb0a7dull);
}
