/* The learned evaluation (src/nnue): the accumulator kept in make/unmake
 * equals a refresh along random games of every preset; the SIMD kernels
 * agree with the scalar ones; refused net files name their problem and
 * leave the hand-written evaluation; a tiny net's value computed by hand;
 * the built-in nets follow nets/. Nets are written here with a small
 * writer of the file format (docs/nnue-format.md) and a fixed seed. */
#include "harness.h"
#include "nnue.h"
#include "proto_driver.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- test nets */

/// A net as the trainer would hold it before writing it out.
typedef struct {
    int W, R, H, L1, L2, scale;
    int16_t *ftb, *ftw; /* [2][H], [2][12N][H] */
    int32_t *l1b, *l2b, ob;
    int8_t *l1w, *l2w, *ow;
} tnet;

static void tnet_init(tnet *n, int W, int R, int H, int L1, int L2)
{
    memset(n, 0, sizeof *n);
    n->W = W, n->R = R, n->H = H, n->L1 = L1, n->L2 = L2, n->scale = 400;
    size_t in = 12 * (size_t)W * R;
    n->ftb = calloc(2 * (size_t)H, sizeof *n->ftb);
    n->ftw = calloc(2 * in * H, sizeof *n->ftw);
    n->l1b = calloc((size_t)L1, sizeof *n->l1b);
    n->l1w = calloc((size_t)L1 * 2 * H, 1);
    n->l2b = calloc((size_t)L2, sizeof *n->l2b);
    n->l2w = calloc((size_t)L2 * L1, 1);
    n->ow = calloc((size_t)L2, 1);
}

static void tnet_free(tnet *n)
{
    free(n->ftb), free(n->ftw), free(n->l1b), free(n->l1w), free(n->l2b), free(n->l2w), free(n->ow);
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static int rnd(uint64_t *s, int lo, int hi) { return lo + (int)(rng_next(s) % (uint64_t)(hi - lo + 1)); }

/* Random weights: feature transformer within +-ft, layer biases within
 * +-bias, int8 weights over their whole range. */
static void tnet_random(tnet *n, uint64_t seed, int ft, int bias)
{
    uint64_t s = seed * 2654435761u + 1;
    size_t in = 12 * (size_t)n->W * n->R;
    for (size_t i = 0; i < 2 * (size_t)n->H; i++)
        n->ftb[i] = (int16_t)rnd(&s, -ft, ft);
    for (size_t i = 0; i < 2 * in * n->H; i++)
        n->ftw[i] = (int16_t)rnd(&s, -ft, ft);
    for (int i = 0; i < n->L1; i++)
        n->l1b[i] = rnd(&s, -bias, bias);
    for (size_t i = 0; i < (size_t)n->L1 * 2 * n->H; i++)
        n->l1w[i] = (int8_t)rnd(&s, -128, 127);
    for (int i = 0; i < n->L2; i++)
        n->l2b[i] = rnd(&s, -bias, bias);
    for (size_t i = 0; i < (size_t)n->L2 * n->L1; i++)
        n->l2w[i] = (int8_t)rnd(&s, -128, 127);
    n->ob = rnd(&s, -bias, bias);
    for (int i = 0; i < n->L2; i++)
        n->ow[i] = (int8_t)rnd(&s, -128, 127);
}

static unsigned char *put(unsigned char *p, uint32_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        *p++ = (unsigned char)(x >> (8 * i));
    return p;
}

/* The file's bytes (heap), with the given version and name. */
static unsigned char *tnet_bytes(const tnet *n, uint32_t version, const char *name, size_t *len)
{
    size_t in = 12 * (size_t)n->W * n->R, H = (size_t)n->H, nl = strlen(name);
    *len = 36 + nl + 4 * H + 4 * in * H + 4 * (size_t)n->L1 + (size_t)n->L1 * 2 * H + 4 * (size_t)n->L2 +
           (size_t)n->L2 * n->L1 + 4 + (size_t)n->L2 + 4;
    unsigned char *b = malloc(*len), *p = b;
    memcpy(p, "TCNN", 4);
    p += 4;
    uint32_t head[8] = {version, (uint32_t)n->W, (uint32_t)n->R, (uint32_t)n->H, (uint32_t)n->L1,
                        (uint32_t)n->L2, (uint32_t)n->scale, (uint32_t)nl};
    for (int i = 0; i < 8; i++)
        p = put(p, head[i], 4);
    memcpy(p, name, nl);
    p += nl;
    for (size_t i = 0; i < 2 * H; i++)
        p = put(p, (uint16_t)n->ftb[i], 2);
    for (size_t i = 0; i < 2 * in * H; i++)
        p = put(p, (uint16_t)n->ftw[i], 2);
    for (int i = 0; i < n->L1; i++)
        p = put(p, (uint32_t)n->l1b[i], 4);
    for (size_t i = 0; i < (size_t)n->L1 * 2 * H; i++)
        *p++ = (unsigned char)n->l1w[i];
    for (int i = 0; i < n->L2; i++)
        p = put(p, (uint32_t)n->l2b[i], 4);
    for (size_t i = 0; i < (size_t)n->L2 * n->L1; i++)
        *p++ = (unsigned char)n->l2w[i];
    p = put(p, (uint32_t)n->ob, 4);
    for (int i = 0; i < n->L2; i++)
        *p++ = (unsigned char)n->ow[i];
    put(p, nnue_crc32(b, *len - 4), 4);
    return b;
}

/* Floor division by 64, spelled out (the format's arithmetic shift). */
static int32_t floor64(int32_t z) { return (z - ((z % 64 + 64) % 64)) / 64; }
static int clamp127(int32_t x) { return x < 0 ? 0 : x > 127 ? 127 : x; }

/* The format's formula read straight off the weights, apart from the code
 * under test. */
static int ref_eval(const tnet *n, const tc_position *p)
{
    const tc_variant *v = tc_position_variant(p);
    int N = n->W * n->R, H = n->H, us = tc_side_to_move(p);
    int32_t acc[2][1024], a0[2048], a1[64], a2[64];
    for (int q = 0; q < 2; q++)
        for (int j = 0; j < H; j++)
            acc[q][j] = n->ftb[q * H + j];
    for (int s = 0; s < tc_variant_cells(v); s++) {
        int pc = tc_piece_at(p, s);
        if (!pc)
            continue;
        for (int q = 0; q < 2; q++) {
            int f = ((TC_COLOUR(pc) == q ? 0 : 6) + TC_TYPE(pc) - 1) * N + s;
            for (int j = 0; j < H; j++)
                acc[q][j] += n->ftw[((size_t)q * 12 * N + f) * H + j];
        }
    }
    for (int j = 0; j < H; j++) {
        a0[j] = clamp127(acc[us][j]);
        a0[H + j] = clamp127(acc[1 - us][j]);
    }
    for (int i = 0; i < n->L1; i++) {
        int32_t z = n->l1b[i];
        for (int j = 0; j < 2 * H; j++)
            z += n->l1w[i * 2 * H + j] * a0[j];
        a1[i] = clamp127(floor64(z));
    }
    for (int i = 0; i < n->L2; i++) {
        int32_t z = n->l2b[i];
        for (int j = 0; j < n->L1; j++)
            z += n->l2w[i * n->L1 + j] * a1[j];
        a2[i] = clamp127(floor64(z));
    }
    int32_t out = n->ob;
    for (int i = 0; i < n->L2; i++)
        out += n->ow[i] * a2[i];
    return (int)((int64_t)out * n->scale / (127 * 64));
}

static nnue_net *load_tnet(const tnet *t, const tc_variant *v)
{
    size_t len;
    unsigned char *b = tnet_bytes(t, 1, "test", &len);
    tc_error err;
    nnue_net *n = nnue_net_load(b, len, v, &err);
    CHECK(n != NULL, "a valid test net is refused: %s", err.msg);
    free(b);
    return n;
}

/* ---------------------------------------------------------------- cases */

static void test_crc(void)
{
    th_case("nnue: CRC-32 of '123456789' is the standard check value cbf43926");
    CHECK(nnue_crc32("123456789", 9) == 0xcbf43926u, "crc %08x", nnue_crc32("123456789", 9));
}

/* Compares the state's accumulator with a refresh and its value with the
 * formula; `what` names the step for the message. */
static int check_state(nnue_state *s, nnue_state *fresh, const tnet *t, tc_position *p, const char *what,
                       int step)
{
    nnue_refresh(fresh, p);
    int H = s->net->H, bad = 0;
    if (s->over == 0 && memcmp(nnue_accumulator(s), nnue_accumulator(fresh), 2 * (size_t)H * sizeof(int16_t))) {
        CHECK(0, "accumulator differs from a refresh after %s (step %d)", what, step);
        bad = 1;
    }
    int got = nnue_evaluate(s, p), want = ref_eval(t, p);
    if (got != want) {
        CHECK(0, "eval %d after %s (step %d), the formula gives %d", got, what, step, want);
        bad = 1;
    }
    return bad;
}

/* A random walk: moves, take-backs, null moves; the state checked after
 * each (every: 1), or after about one in `every` (the updates it skipped
 * are then made several plies at once). plies: the state's room (small
 * rooms overflow it). */
static void walk(const tnet *t, const nnue_net *net, const tc_variant *v, uint64_t seed, int steps, int plies,
                 int every)
{
    tc_position *p = tc_position_new(v);
    nnue_state *s = nnue_state_new(net, plies), *fresh = nnue_state_new(net, 4);
    tc_movelist *ml = malloc(sizeof *ml);
    uint64_t r = seed;
    /* a few plies before the first refresh, so that take-backs go past it */
    for (int i = 0; i < 3 && tc_generate_legal(p, ml) > 0; i++)
        tc_make_move(p, ml->moves[rng_next(&r) % (uint64_t)ml->count]);
    nnue_refresh(s, p);
    int bad = check_state(s, fresh, t, p, "refresh", 0);
    for (int i = 1; i <= steps && !bad; i++) {
        int n = tc_generate_legal(p, ml), roll = (int)(rng_next(&r) % 100);
        bool look = rng_next(&r) % (uint64_t)every == 0;
        if ((n == 0 || roll < 25) && tc_ply_count(p) > 0) {
            nnue_unmake(s, p);
            bad = look && check_state(s, fresh, t, p, "unmake", i);
        } else if (n > 0 && roll < 30 && !tc_in_check(p)) {
            nnue_make_null(s, p);
            bad = look && check_state(s, fresh, t, p, "null move", i);
            nnue_unmake_null(s, p);
        } else if (n > 0) {
            tc_move m = ml->moves[rng_next(&r) % (uint64_t)n];
            /* prefer captures, castling, promotions: the moves with most changes */
            for (int k = 0; k < 4 && !TC_MOVE_KIND(m) && !tc_piece_at(p, TC_MOVE_TO(m)) && !TC_MOVE_PROMO(m); k++)
                m = ml->moves[rng_next(&r) % (uint64_t)n];
            char uci[16];
            tc_move_to_uci(p, m, uci);
            nnue_make(s, p, m);
            bad = look && check_state(s, fresh, t, p, uci, i);
        }
    }
    free(ml);
    nnue_state_free(s);
    nnue_state_free(fresh);
    tc_position_free(p);
}

static void test_incremental(void)
{
    int steps = th_sanitize() ? 60 : 300;
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *d = tc_preset(i);
        th_case("nnue: incremental accumulator equals a refresh along random games (%s)", d->name);
        tc_variant *v = th_variant_cached(d->name);
        if (!v)
            continue;
        tnet t;
        tnet_init(&t, d->width, d->height, 32, 32, 32);
        tnet_random(&t, 1000 + (uint64_t)i, 40, 3000);
        nnue_net *n = load_tnet(&t, v);
        /* checked at every step; at about one step in four (updates made
         * several plies at once); with room for 5 plies only */
        for (int g = 0; n && g < 3; g++)
            walk(&t, n, v, 77 + 13 * (uint64_t)g + (uint64_t)i, steps, g == 2 ? 5 : 200, g == 1 ? 4 : 1);
        nnue_net_free(n);
        tnet_free(&t);
    }
}

static void test_simd(void)
{
    char names[64] = "";
    for (int l = 1; l < NNUE_SIMD_COUNT; l++)
        if (nnue_simd_available(l))
            snprintf(names + strlen(names), sizeof names - strlen(names), " %s", nnue_simd_name(l));
    th_case("nnue: the SIMD kernels (%s) give the scalar path's accumulators and values",
            names[0] ? names + 1 : "none in this build");
    CHECK(names[0], "no SIMD level in this build (expected SSE2 at least on x86-64)");
    const char *presets[] = {"chess", "klein-bottle", "torus"};
    for (int k = 0; k < 3; k++) {
        tc_variant *v = th_variant_cached(presets[k]);
        if (!v)
            continue;
        tnet t;
        /* large weights: accumulators above 127 and below 0, layer sums
         * far beyond int16 */
        tnet_init(&t, tc_variant_width(v), tc_variant_height(v), 64 + 32 * k, 32 + 32 * (k & 1), 64 - 32 * (k & 1));
        tnet_random(&t, 5 + (uint64_t)k, 300, 200000);
        nnue_net *n = load_tnet(&t, v);
        nnue_state *s[NNUE_SIMD_COUNT] = {0};
        tc_position *p[NNUE_SIMD_COUNT] = {0};
        for (int l = 0; n && l < NNUE_SIMD_COUNT; l++)
            if (nnue_simd_available(l) && (s[l] = nnue_state_new(n, 300))) {
                CHECK(nnue_state_set_simd(s[l], l) == 0, "level %s refused", nnue_simd_name(l));
                p[l] = tc_position_new(v);
                nnue_refresh(s[l], p[l]);
            }
        tc_movelist *ml = malloc(sizeof *ml);
        uint64_t r = 99 + (uint64_t)k;
        int compared = 0, bad = 0;
        for (int step = 0; s[0] && step < 150 && !bad; step++) {
            int nm = tc_generate_legal(p[0], ml);
            bool back = (nm == 0 || rng_next(&r) % 5 == 0) && tc_ply_count(p[0]) > 0;
            if (nm == 0 && !back)
                break;
            tc_move m = nm ? ml->moves[rng_next(&r) % (uint64_t)nm] : 0;
            for (int l = 0; l < NNUE_SIMD_COUNT; l++) {
                if (!s[l])
                    continue;
                if (back)
                    nnue_unmake(s[l], p[l]);
                else
                    nnue_make(s[l], p[l], m);
            }
            int e0 = nnue_evaluate(s[0], p[0]);
            for (int l = 1; l < NNUE_SIMD_COUNT; l++) {
                if (!s[l])
                    continue;
                int el = nnue_evaluate(s[l], p[l]), fl = nnue_evaluate_fresh(n, p[l], l);
                bool same = !memcmp(nnue_accumulator(s[0]), nnue_accumulator(s[l]), 2 * (size_t)n->H * 2);
                CHECK(same, "%s: %s accumulator differs from scalar at step %d", presets[k], nnue_simd_name(l), step);
                CHECK(el == e0 && fl == e0, "%s: %s gives %d (fresh %d), scalar %d at step %d", presets[k],
                      nnue_simd_name(l), el, fl, e0, step);
                bad |= !same || el != e0 || fl != e0;
                compared++;
            }
            CHECK(e0 == ref_eval(&t, p[0]), "%s: scalar %d (fresh %d), the formula %d, step %d", presets[k], e0, nnue_evaluate_fresh(n, p[0], 0), ref_eval(&t, p[0]), step);
        }
        CHECK(compared > 100 || !names[0], "%s: only %d comparisons", presets[k], compared);
        free(ml);
        for (int l = 0; l < NNUE_SIMD_COUNT; l++) {
            nnue_state_free(s[l]);
            tc_position_free(p[l]);
        }
        nnue_net_free(n);
        tnet_free(&t);
    }
}

/* The hand-written evaluation of p, from an engine without a net. */
static int hand_eval(const tc_variant *v, const tc_position *p)
{
    tc_engine *e = tc_engine_new(v, 1, 1);
    tc_engine_clear_net(e);
    tc_engine_set_position(e, p);
    int x = tc_engine_evaluate(e);
    tc_engine_free(e);
    return x;
}

static void test_refused(void)
{
    tc_variant *v = th_variant_cached("chess");
    if (!v)
        return;
    tc_position *p = th_at_fen(v, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    int hand = hand_eval(v, p);
    tnet t, t10;
    tnet_init(&t, 8, 8, 32, 32, 32);
    tnet_random(&t, 3, 40, 3000);
    tnet_init(&t10, 8, 10, 32, 32, 32);
    tnet_random(&t10, 4, 40, 3000);
    size_t len, len10, len2;
    unsigned char *good = tnet_bytes(&t, 1, "test-chess", &len), *b10 = tnet_bytes(&t10, 1, "ten", &len10);
    unsigned char *v2 = tnet_bytes(&t, 3, "test-chess", &len2);
    unsigned char *bad = malloc(len + 1);
    tc_engine *e = tc_engine_new(v, 1, 1);
    tc_engine_set_position(e, p);
    tc_error err;

    th_case("nnue: a valid net file is loaded and gives the formula's value");
    CHECK(tc_engine_load_net_data(e, good, len, &err) == 0, "refused: %s", err.msg);
    CHECK(tc_engine_has_net(e), "no net after a load");
    CHECK(tc_engine_evaluate(e) == ref_eval(&t, p), "eval %d, formula %d", tc_engine_evaluate(e), ref_eval(&t, p));
    CHECK(strstr(tc_engine_eval_text(e), "test-chess") != NULL, "eval text '%s'", tc_engine_eval_text(e));

    memcpy(bad, good, len);
    bad[len] = 0;
    /// One refused file: its bytes, and a word the message must hold.
    const struct {
        const char *what, *word;
        const unsigned char *data;
        size_t len;
    } cases[] = {
        {"one byte short", "implies", bad, len - 1},
        {"one byte too many", "implies", bad, len + 1},
        {"version 3", "version 3", v2, len2},
        {"an 8x10 board", "8x10 board", b10, len10},
        {"shorter than a header", "too short", good, 20},
    };
    int nc = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < nc; i++) {
        th_case("nnue: a net file with %s is refused and the hand-written evaluation used", cases[i].what);
        tc_engine_load_net_data(e, good, len, &err); /* a net in place before each */
        CHECK(tc_engine_load_net_data(e, cases[i].data, cases[i].len, &err) == -1, "accepted");
        CHECK(strstr(err.msg, cases[i].word) != NULL, "message '%s' lacks '%s'", err.msg, cases[i].word);
        CHECK(!tc_engine_has_net(e) && !strcmp(tc_engine_eval_text(e), "hand-written"), "still '%s'",
              tc_engine_eval_text(e));
        CHECK(tc_engine_evaluate(e) == hand, "eval %d, hand-written %d", tc_engine_evaluate(e), hand);
    }

    th_case("nnue: a damaged net file (one weight changed) is refused by its checksum");
    memcpy(bad, good, len);
    bad[len / 2] ^= 0x10;
    tc_engine_load_net_data(e, good, len, &err);
    CHECK(tc_engine_load_net_data(e, bad, len, &err) == -1, "accepted");
    CHECK(strstr(err.msg, "checksum") != NULL, "message '%s'", err.msg);
    CHECK(tc_engine_evaluate(e) == hand, "eval %d, hand-written %d", tc_engine_evaluate(e), hand);

    th_case("nnue: bad magic and a hidden size off the multiples of 32 are refused");
    memcpy(bad, good, len);
    memcpy(bad, "TCNX", 4);
    CHECK(tc_engine_load_net_data(e, bad, len, &err) == -1 && strstr(err.msg, "magic"), "'%s'", err.msg);
    memcpy(bad, good, len);
    bad[16] = 48; /* H; the length then no longer matters: the sizes are checked first */
    CHECK(tc_engine_load_net_data(e, bad, len, &err) == -1 && strstr(err.msg, "H = 48"), "'%s'", err.msg);

    th_case("nnue: EvalFile over UCI: a damaged file gets an info string and the hand-written evaluation");
    char path[] = "/tmp/tc_nnue_XXXXXX", gpath[] = "/tmp/tc_nnue_XXXXXX";
    int fd = mkstemp(path), gfd = mkstemp(gpath);
    CHECK(fd >= 0 && gfd >= 0, "mkstemp");
    if (fd >= 0 && gfd >= 0) {
        memcpy(bad, good, len);
        bad[len - 3] ^= 1; /* the checksum itself */
        CHECK(write(fd, bad, len) == (ssize_t)len && write(gfd, good, len) == (ssize_t)len, "write");
        close(fd);
        close(gfd);
        CHECK(tc_engine_load_net(e, path, &err) == -1 && strstr(err.msg, "checksum"), "file: '%s'", err.msg);
        CHECK(tc_engine_load_net(e, gpath, &err) == 0, "good file refused: %s", err.msg);
        char script[600], want[80], want_net[80];
        snprintf(script, sizeof script,
                 "setoption name EvalFile value %s\nposition fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/"
                 "RNBQK2R w KQkq - 4 4\neval\nsetoption name EvalFile value %s\neval\nquit\n",
                 path, gpath);
        snprintf(want, sizeof want, "info string eval %d ", hand);
        snprintf(want_net, sizeof want_net, "info string eval %d ", ref_eval(&t, p));
        char *out = th_proto_checked(uci_loop_opts, "chess", script);
        char *err_line = strstr(out, "info string error: EvalFile:");
        CHECK(err_line && strstr(err_line, "checksum") && strstr(err_line, "evaluation: hand-written"),
              "no error line naming the checksum in:\n%s", out);
        char *first = strstr(out, want);
        CHECK(first != NULL, "no '%s' (hand-written) in:\n%s", want, out);
        CHECK(strstr(out, "info string evaluation: net 'test-chess'") && strstr(out, want_net),
              "the good file is not in use after it:\n%s", out);
        free(out);

        th_case("nnue: CECP's option EvalFile: a damaged file gets telluser, a good one is used");
        snprintf(script, sizeof script,
                 "xboard\nprotover 2\noption EvalFile=%s\noption EvalFile=%s\nping 1\n#wait pong 1\nquit\n", path,
                 gpath);
        out = th_proto_checked(xboard_loop_opts, "chess", script);
        CHECK(strstr(out, "feature option=\"EvalFile -file"), "no EvalFile feature in:\n%s", out);
        char *tell = strstr(out, "telluser EvalFile:");
        CHECK(tell && strstr(tell, "checksum") && strstr(tell, "hand-written"), "no telluser naming the checksum:\n%s",
              out);
        CHECK(strstr(out, "# evaluation: net 'test-chess'"), "the good file is not in use:\n%s", out);
        free(out);
        unlink(path);
        unlink(gpath);
    }
    tc_engine_free(e);
    free(good), free(b10), free(v2), free(bad);
    tc_position_free(p);
    tnet_free(&t);
    tnet_free(&t10);
}

/* A net small enough to follow by hand: H = L1 = L2 = 32, almost all
 * weights 0. */
static void test_hand_computed(void)
{
    th_case("nnue: a tiny net gives the values computed by hand (332, 22, 136)");
    tc_variant *v = th_variant_cached("chess");
    if (!v)
        return;
    tnet t;
    tnet_init(&t, 8, 8, 32, 32, 32);
    int N = 64, H = 32;
    /* feature (p, f) row: ftw[(p * 12N + f) * H + unit]; f = (own 0 / their 6 + type) * N + cell */
    for (int s = 0; s < N; s++) {
        t.ftw[((0 * 12 * N) + (0 + 5) * N + s) * H + 0] = 40;  /* White: own king -> unit 0 */
        t.ftw[((0 * 12 * N) + (6 + 5) * N + s) * H + 1] = 30;  /* White: their king -> unit 1 */
        t.ftw[((0 * 12 * N) + (0 + 4) * N + s) * H + 2] = 200; /* White: own queen -> unit 2 */
        t.ftw[((1 * 12 * N) + (0 + 5) * N + s) * H + 0] = 20;  /* Black: own king */
        t.ftw[((1 * 12 * N) + (6 + 5) * N + s) * H + 1] = 10;  /* Black: their king */
        t.ftw[((1 * 12 * N) + (6 + 4) * N + s) * H + 3] = -50; /* Black: their queen */
    }
    t.ftb[4] = t.ftb[H + 4] = 64;
    t.l1w[0 * 64 + 0] = 100, t.l1w[0 * 64 + 2] = 20, t.l1w[0 * 64 + 32] = -10, t.l1b[0] = -300;
    t.l1w[1 * 64 + 1] = 127, t.l1w[1 * 64 + 33] = -128, t.l1b[1] = -5000;
    t.l1w[2 * 64 + 4] = 127, t.l1w[2 * 64 + 36] = 127;
    t.l2w[0 * 32 + 0] = 64, t.l2w[0 * 32 + 2] = -16, t.l2b[0] = 100;
    t.l2w[1 * 32 + 2] = 3, t.l2b[1] = -1;
    t.ow[0] = 100, t.ow[1] = -7, t.ob = 500;
    /* White to move, Ke1 Qd1 against Ke8:
     *   us = White: acc 40 30 200 0 64 | them: 20 10 0 -50 64
     *   a0 = 40 30 127 0 64 ... | 20 10 0 0 64 ...
     *   l1: -300 + 100*40 + 20*127 - 10*20 = 6040 -> 94; -5000 + 127*30 - 128*10 = -2470 -> 0;
     *       127*64 + 127*64 = 16256 -> 254 -> 127
     *   l2: 100 + 64*94 - 16*127 = 4084 -> 63; -1 + 3*127 = 380 -> 5
     *   out 500 + 100*63 - 7*5 = 6765; 6765 * 400 / 8128 = 332.9 -> 332
     * After Qd8+ (Black to move; every cell has the same weights): a0 = 20 10 0 0 64 | 40 30 127 0 64
     *   l1: -300 + 2000 - 400 = 1300 -> 20; negative -> 0; 127. l2: 100 + 1280 - 2032 -> 0; 5
     *   out 500 - 35 = 465 -> 22
     * After Kxd8 (White to move, no queen): a0 = 40 30 0 0 64 | 20 10 0 0 64
     *   l1: -300 + 4000 - 200 = 3500 -> 54; 0; 127. l2: 100 + 3456 - 2032 = 1524 -> 23; 5
     *   out 500 + 2300 - 35 = 2765 -> 136 */
    size_t len;
    unsigned char *b = tnet_bytes(&t, 1, "hand", &len);
    tc_error err;
    nnue_net *n = nnue_net_load(b, len, v, &err);
    CHECK(n != NULL, "refused: %s", err.msg);
    tc_position *p = th_at_fen(v, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
    nnue_state *s = n ? nnue_state_new(n, 8) : NULL;
    if (s && p) {
        nnue_refresh(s, p);
        CHECK(nnue_evaluate(s, p) == 332, "start: %d", nnue_evaluate(s, p));
        tc_move m;
        CHECK(tc_move_parse(p, "Qd8+", &m, &err) == 0, "Qd8+: %s", err.msg);
        nnue_make(s, p, m);
        CHECK(nnue_evaluate(s, p) == 22, "after Qd8+: %d", nnue_evaluate(s, p));
        CHECK(tc_move_parse(p, "Kxd8", &m, &err) == 0, "Kxd8: %s", err.msg);
        nnue_make(s, p, m);
        CHECK(nnue_evaluate(s, p) == 136, "after Kxd8: %d", nnue_evaluate(s, p));
        nnue_unmake(s, p);
        nnue_unmake(s, p);
        CHECK(nnue_evaluate(s, p) == 332, "taken back: %d", nnue_evaluate(s, p));
        for (int l = 0; l < NNUE_SIMD_COUNT; l++)
            if (nnue_simd_available(l))
                CHECK(nnue_evaluate_fresh(n, p, l) == 332, "%s: %d", nnue_simd_name(l), nnue_evaluate_fresh(n, p, l));
        tc_engine *e = tc_engine_new(v, 1, 1);
        tc_engine_set_position(e, p);
        CHECK(tc_engine_load_net_data(e, b, len, &err) == 0 && tc_engine_evaluate(e) == 332, "engine: %d",
              tc_engine_evaluate(e));
        tc_engine_free(e);
    }
    nnue_state_free(s);
    nnue_net_free(n);
    tc_position_free(p);
    free(b);
    tnet_free(&t);
}

/* A search with a net: its make/unmake hooks keep the accumulators right
 * (under TC_DEBUG each search evaluation is compared with a refresh). */
static void test_search_with_net(void)
{
    th_case("nnue: searches with a net are deterministic and differ from the hand-written evaluation's");
    tc_variant *v = th_variant_cached("klein-bottle");
    if (!v)
        return;
    tnet t;
    tnet_init(&t, tc_variant_width(v), tc_variant_height(v), 64, 32, 32);
    tnet_random(&t, 11, 40, 3000);
    size_t len;
    unsigned char *b = tnet_bytes(&t, 1, "rand", &len);
    tc_error err;
    tc_position *p = tc_position_new(v);
    uint64_t nodes[3];
    for (int k = 0; k < 3; k++) {
        tc_engine *e = tc_engine_new(v, 4, 1);
        if (k < 2)
            CHECK(tc_engine_load_net_data(e, b, len, &err) == 0, "refused: %s", err.msg);
        tc_engine_set_position(e, p);
        tc_limits l;
        tc_limits_init(&l);
        l.depth = th_sanitize() ? 4 : 6;
        tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
        nodes[k] = r.nodes;
        CHECK(r.best != 0 && tc_is_legal(p, r.best), "no legal move");
        tc_engine_free(e);
    }
    CHECK(nodes[0] == nodes[1], "two searches with the net: %llu and %llu nodes", (unsigned long long)nodes[0],
          (unsigned long long)nodes[1]);
    CHECK(nodes[0] != nodes[2], "the net's search has the hand-written one's node count %llu",
          (unsigned long long)nodes[2]);
    free(b);
    tc_position_free(p);
    tnet_free(&t);
}

static void test_builtin(void)
{
    th_case("nnue: a preset has a built-in net exactly when nets/<preset>.tcnn exists");
    for (int i = 0; i < tc_preset_count(); i++) {
        const char *name = tc_preset(i)->name;
        char path[128];
        snprintf(path, sizeof path, "nets/%s.tcnn", name);
        tc_variant *v = th_variant_cached(name);
        if (!v)
            continue;
        tc_engine *e = tc_engine_new(v, 1, 1);
        int file = access(path, R_OK) == 0;
        CHECK(tc_engine_has_net(e) == file, "%s: net %d, file %d (%s)", name, tc_engine_has_net(e), file,
              tc_engine_eval_text(e));
        CHECK(tc_engine_use_builtin_net(e) == (file ? 0 : -1), "%s: use_builtin", name);
        tc_engine_free(e);
    }
}

/* The net a page's board gets: CRC 0 for the hand-written evaluation. */
static uint32_t page_net(const char *title, const char *rows_cols_wrap, const char *setup, char *text, size_t n)
{
    char page[1024];
    snprintf(page, sizeof page, "---\ntitle: %s\nengine:\n  topology:\n    type: grid\n%ssetup: \"%s\"\n---\n",
             title, rows_cols_wrap, setup);
    tc_error err;
    tc_variant *v = tc_frontmatter_variant(page, strlen(page), NULL, &err);
    CHECK(v != NULL, "%s: %s", title, v ? "" : err.msg);
    snprintf(text, n, "no variant");
    if (!v)
        return 0;
    tc_engine *e = tc_engine_new(v, 1, 1);
    uint32_t crc = tc_engine_has_net(e) ? tc_engine_net_crc(e) : 0;
    snprintf(text, n, "%s", tc_engine_eval_text(e));
    tc_engine_free(e);
    tc_variant_free(v);
    return crc;
}

/* The net a preset's own engine evaluates with (CRC 0: none). */
static uint32_t preset_net(const char *name)
{
    tc_variant *v = th_variant_cached(name);
    tc_engine *e = v ? tc_engine_new(v, 1, 1) : NULL;
    uint32_t crc = e && tc_engine_has_net(e) ? tc_engine_net_crc(e) : 0;
    tc_engine_free(e);
    return crc;
}

static void test_builtin_pages(void)
{
    th_case("nnue: a variant page on a preset's board (own title, own setup) gets that preset's net; "
            "another board size the hand-written evaluation");
    char text[200];
    uint32_t torus = preset_net("torus"), chess = preset_net("chess"), cylinder = preset_net("cylinder");
    uint32_t got = page_net("Torus, queens swapped", "    rows: 14\n    cols: 8\n    wrap: torus\n",
                            "PPPPPPPP/8/8/8/8/pppppppp/rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR", text,
                            sizeof text);
    CHECK(got == torus, "torus page: net %08x (%s), the torus preset's %08x", (unsigned)got, text, (unsigned)torus);
    got = page_net("Flat board, kings on d", "    rows: 8\n    cols: 8\n    wrap: none\n",
                   "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR", text, sizeof text);
    CHECK(got == chess, "8x8 page: net %08x (%s), chess's %08x", (unsigned)got, text, (unsigned)chess);
    got = page_net("A cylinder of my own", "    rows: 8\n    cols: 8\n    wrap: cylinder\n",
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", text, sizeof text);
    CHECK(got == cylinder, "cylinder page: net %08x (%s), the cylinder preset's %08x", (unsigned)got, text,
          (unsigned)cylinder);
    got = page_net("Ten ranks", "    rows: 10\n    cols: 8\n    wrap: cylinder\n",
                   "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR", text, sizeof text);
    CHECK(got == 0 && !strcmp(text, "hand-written"), "8x10 cylinder page: net %08x (%s), want hand-written",
          (unsigned)got, text);
}

/* With nets/chess.tcnn built in: UCI and CECP say which evaluation runs
 * when they start, `eval` gives the net's and the hand-written parts, and
 * EvalFile <none> goes back to the hand-written evaluation. */
static void test_builtin_protocols(void)
{
    if (access("nets/chess.tcnn", R_OK) != 0)
        return;
    th_case("nnue: the protocols announce chess's built-in net; eval shows its parts; EvalFile <none> is hand-written");
    tc_variant *v = th_variant_cached("chess");
    tc_position *p = v ? tc_position_new(v) : NULL;
    tc_engine *e = v ? tc_engine_new(v, 1, 1) : NULL;
    if (!p || !e) {
        CHECK(0, "no chess engine");
        tc_engine_free(e);
        tc_position_free(p);
        return;
    }
    int hand = 0, net = 0;
    tc_engine_set_position(e, p);
    int total = tc_engine_evaluate_parts(e, &hand, &net);
    char announce[300], parts[120], plain[80];
    snprintf(announce, sizeof announce, "evaluation: %s", tc_engine_eval_text(e));
    CHECK(strstr(announce, "built in") != NULL, "chess's engine does not use its built-in net: %s", announce);
    if (tc_engine_net_is_hybrid(e))
        snprintf(parts, sizeof parts, "info string eval %d (hand %d + net %d = %d,", total, hand, net, total);
    else
        snprintf(parts, sizeof parts, "info string eval %d (", total);
    tc_engine_clear_net(e);
    snprintf(plain, sizeof plain, "info string eval %d (centipawns", tc_engine_evaluate(e));
    char *out = th_proto_checked(uci_loop_opts, "chess",
                                 "uci\nposition startpos\neval\nsetoption name EvalFile value <none>\neval\nquit\n");
    char *ok = strstr(out, "uciok"), *said = ok ? strstr(ok, announce) : NULL;
    CHECK(said != NULL, "no '%s' after uciok in:\n%s", announce, out);
    char *first = strstr(out, parts);
    CHECK(first != NULL, "no '%s' in:\n%s", parts, out);
    char *none = first ? strstr(first, "info string evaluation: hand-written\n") : NULL;
    CHECK(none && strstr(none, plain), "no hand-written evaluation ('%s') after EvalFile <none> in:\n%s", plain, out);
    free(out);
    char xb_announce[310];
    snprintf(xb_announce, sizeof xb_announce, "# %s", announce);
    out = th_proto_checked(xboard_loop_opts, "chess",
                           "xboard\nprotover 2\noption EvalFile=<none>\nping 1\n#wait pong 1\nquit\n");
    said = strstr(out, xb_announce);
    CHECK(said && strstr(said, "# evaluation: hand-written"), "no '%s' then hand-written in:\n%s", xb_announce, out);
    free(out);
    tc_engine_free(e);
    tc_position_free(p);
}

void suite_nnue(void)
{
    test_crc();
    test_hand_computed();
    test_refused();
    test_simd();
    test_incremental();
    test_search_with_net();
    test_builtin();
    test_builtin_pages();
    test_builtin_protocols();
}
