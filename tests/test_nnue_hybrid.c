/* Hybrid (residual) nets, net file version 2 (docs/nnue-format.md): a
 * hybrid net's static value is the hand-written evaluation plus the net's
 * output, in the search's incremental path and in a fresh evaluation, with
 * every SIMD level; a zero net searches exactly like the hand-written
 * evaluation; the flags field is checked; UCI's `eval` shows both parts. */
#include "harness.h"
#include "nnue.h"
#include "proto_driver.h"
#include "search.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <unistd.h>

#define LIMIT (MATE_BOUND - 1000)

static int clamp_eval(int cp) { return cp > LIMIT ? LIMIT : cp < -LIMIT ? -LIMIT : cp; }

static tc_engine *engine_with(const tc_variant *v, const unsigned char *b, size_t len)
{
    tc_engine *e = tc_engine_new(v, 1, 1);
    tc_error err;
    if (b)
        CHECK(tc_engine_load_net_data(e, b, len, &err) == 0, "net refused: %s", err.msg);
    else
        tc_engine_clear_net(e);
    return e;
}

static int eval_at(tc_engine *e, const tc_position *p)
{
    tc_engine_set_position(e, p);
    return tc_engine_evaluate(e);
}

/* Rewrites the checksum after a change to the bytes. */
static void reseal(unsigned char *b, size_t len)
{
    uint32_t c = nnue_crc32(b, len - 4);
    for (int i = 0; i < 4; i++)
        b[len - 4 + i] = (unsigned char)(c >> (8 * i));
}

static void test_sum(void)
{
    int steps = th_sanitize() ? 40 : 150;
    for (int i = 0; i < tc_preset_count(); i++) {
        const tc_variant_def *d = tc_preset(i);
        th_case("nnue hybrid: hand-written + the pure net's value, incremental and fresh, every kernel (%s)",
                d->name);
        tc_variant *v = th_variant_cached(d->name);
        if (!v)
            continue;
        size_t lp, lh;
        unsigned char *bp = nnue_random_file(d->width, d->height, 64, 32, 32, 0, 40 + (uint64_t)i, &lp);
        unsigned char *bh = nnue_random_file(d->width, d->height, 64, 32, 32, NNUE_FLAG_HYBRID, 40 + (uint64_t)i, &lh);
        tc_engine *eh = engine_with(v, bh, lh), *ep = engine_with(v, bp, lp), *hand = engine_with(v, NULL, 0);
        CHECK(tc_engine_net_is_hybrid(eh) && !tc_engine_net_is_hybrid(ep), "hybrid flags: %d %d",
              tc_engine_net_is_hybrid(eh), tc_engine_net_is_hybrid(ep));
        CHECK(strstr(tc_engine_eval_text(eh), "hybrid") != NULL, "eval text '%s'", tc_engine_eval_text(eh));
        /* one search thread per kernel, each with its position */
        search_thread *t[NNUE_SIMD_COUNT] = {0};
        for (int l = 0; eh->net && l < NNUE_SIMD_COUNT; l++)
            if (nnue_simd_available(l) && (t[l] = calloc(1, sizeof *t[l]))) {
                t[l]->e = eh;
                t[l]->pos = tc_position_new(v);
                t[l]->nn = nnue_state_new(eh->net, 300);
                CHECK(nnue_state_set_simd(t[l]->nn, l) == 0, "level %s refused", nnue_simd_name(l));
                nnue_refresh(t[l]->nn, t[l]->pos);
            }
        tc_movelist *ml = malloc(sizeof *ml);
        uint64_t r = 7 + (uint64_t)i;
        int bad = 0, seen = 0;
        for (int step = 0; t[0] && step < steps && !bad; step++) {
            const tc_position *p = t[0]->pos;
            int h = eval_at(hand, p), pure = eval_at(ep, p), want = clamp_eval(h + pure), hp, np;
            int fresh = eval_at(eh, p), parts = tc_engine_evaluate_parts(eh, &hp, &np);
            bad |= fresh != want || parts != want || hp != h || np != pure;
            CHECK(!bad, "step %d: hybrid %d (parts %d = %d + %d), hand-written %d + pure net %d", step, fresh, parts,
                  hp, np, h, pure);
            for (int l = 0; l < NNUE_SIMD_COUNT; l++)
                if (t[l]) {
                    int got = engine_static_eval(t[l]);
                    CHECK(got == want, "step %d, %s: the search's value %d, want %d", step, nnue_simd_name(l), got,
                          want);
                    bad |= got != want;
                    seen++;
                }
            r ^= r << 13, r ^= r >> 7, r ^= r << 17;
            int n = tc_generate_legal(t[0]->pos, ml);
            bool back = (n == 0 || r % 5 == 0) && tc_ply_count(t[0]->pos) > 0;
            if (n == 0 && !back)
                break;
            tc_move m = n ? ml->moves[(r >> 8) % (uint64_t)n] : 0;
            for (int l = 0; l < NNUE_SIMD_COUNT; l++)
                if (t[l]) {
                    if (back)
                        nnue_unmake(t[l]->nn, t[l]->pos);
                    else
                        nnue_make(t[l]->nn, t[l]->pos, m);
                }
        }
        CHECK(seen > steps / 2, "only %d comparisons", seen);
        free(ml);
        for (int l = 0; l < NNUE_SIMD_COUNT; l++)
            if (t[l]) {
                nnue_state_free(t[l]->nn);
                tc_position_free(t[l]->pos);
                free(t[l]);
            }
        tc_engine_free(eh), tc_engine_free(ep), tc_engine_free(hand);
        free(bp), free(bh);
    }
}

static uint64_t search_nodes(const tc_variant *v, const unsigned char *b, size_t len, tc_move *best)
{
    tc_engine *e = engine_with(v, b, len);
    tc_position *p = tc_position_new(v);
    tc_engine_set_position(e, p);
    tc_limits l;
    tc_limits_init(&l);
    l.depth = th_sanitize() ? 4 : 6;
    tc_search_result r = tc_engine_search(e, &l, NULL, NULL);
    *best = r.best;
    tc_engine_free(e);
    tc_position_free(p);
    return r.nodes;
}

static void test_zero_net(void)
{
    th_case("nnue hybrid: a net that outputs 0 searches exactly like the hand-written evaluation");
    tc_variant *v = th_variant_cached("klein-bottle");
    if (!v)
        return;
    int W = tc_variant_width(v), R = tc_variant_height(v);
    size_t len;
    unsigned char *b = nnue_random_file(W, R, 32, 32, 32, NNUE_FLAG_HYBRID, 3, &len);
    /* output weights and bias zero: the net's output is 0 everywhere */
    size_t ow = len - 4 - 32, ob = ow - 4;
    memset(b + ob, 0, 4 + 32);
    reseal(b, len);
    tc_move m0, m1, m2;
    uint64_t hand = search_nodes(v, NULL, 0, &m0), zero = search_nodes(v, b, len, &m1);
    CHECK(hand == zero && m0 == m1, "hand-written %llu nodes, zero hybrid net %llu (moves %d, %d)",
          (unsigned long long)hand, (unsigned long long)zero, (int)m0, (int)m1);
    size_t lr;
    unsigned char *rnd = nnue_random_file(W, R, 32, 32, 32, NNUE_FLAG_HYBRID, 3, &lr);
    uint64_t random = search_nodes(v, rnd, lr, &m2);
    CHECK(random != hand, "a random hybrid net searched the hand-written evaluation's %llu nodes",
          (unsigned long long)random);
    free(b), free(rnd);
}

static void test_header(void)
{
    tc_variant *v = th_variant_cached("chess");
    if (!v)
        return;
    size_t len;
    unsigned char *b = nnue_random_file(8, 8, 32, 32, 32, NNUE_FLAG_HYBRID, 9, &len);
    tc_error err;
    th_case("nnue hybrid: unknown flag bits and unknown versions are refused with a message");
    for (int bit = 1; bit < 32; bit += 7) {
        b[36 + bit / 8] ^= (unsigned char)(1u << (bit % 8));
        reseal(b, len);
        nnue_net *n = nnue_net_load(b, len, v, &err);
        CHECK(!n && strstr(err.msg, "unknown flags"), "flag bit %d: %s", bit, n ? "accepted" : err.msg);
        nnue_net_free(n);
        b[36 + bit / 8] ^= (unsigned char)(1u << (bit % 8));
    }
    for (uint32_t version = 0; version < 5; version += 3) {
        b[4] = (unsigned char)version;
        reseal(b, len);
        nnue_net *n = nnue_net_load(b, len, v, &err);
        CHECK(!n && strstr(err.msg, "version") && strstr(err.msg, "versions 1 and 2"), "version %u: %s", version,
              n ? "accepted" : err.msg);
        nnue_net_free(n);
    }
    b[4] = 2;
    reseal(b, len);

    th_case("nnue hybrid: a version 1 file (no flags field) loads as a pure net with version 2's values");
    /* version 1 is version 2 without the flags word */
    unsigned char *v1 = malloc(len - 4);
    memcpy(v1, b, 36);
    memcpy(v1 + 36, b + 40, len - 40);
    v1[4] = 1;
    reseal(v1, len - 4);
    size_t lp;
    unsigned char *pure = nnue_random_file(8, 8, 32, 32, 32, 0, 9, &lp);
    nnue_net *n1 = nnue_net_load(v1, len - 4, v, &err), *n2 = nnue_net_load(pure, lp, v, &err);
    CHECK(n1 && n2 && !n1->hybrid && !n2->hybrid, "version 1 or a pure version 2 refused or hybrid: %s", err.msg);
    tc_position *p = th_at_fen(v, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    if (n1 && n2 && p)
        for (int l = 0; l < NNUE_SIMD_COUNT; l++)
            if (nnue_simd_available(l))
                CHECK(nnue_evaluate_fresh(n1, p, l) == nnue_evaluate_fresh(n2, p, l), "%s: %d vs %d",
                      nnue_simd_name(l), nnue_evaluate_fresh(n1, p, l), nnue_evaluate_fresh(n2, p, l));
    nnue_net_free(n1), nnue_net_free(n2);

    th_case("nnue hybrid: UCI's eval shows the hand-written part, the net's part and their sum");
    char path[] = "/tmp/tc_hybrid_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0 && write(fd, b, len) == (ssize_t)len, "writing %s", path);
    if (fd >= 0)
        close(fd);
    tc_engine *hand = engine_with(v, NULL, 0), *ep = engine_with(v, pure, lp);
    int h = eval_at(hand, p), net = eval_at(ep, p);
    char script[400], want[160];
    snprintf(script, sizeof script,
             "setoption name EvalFile value %s\nposition fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/"
             "RNBQK2R w KQkq - 4 4\neval\nquit\n",
             path);
    snprintf(want, sizeof want, "info string eval %d (hand %d + net %d = %d, ", h + net, h, net, h + net);
    char *out = th_proto_checked(uci_loop_opts, "chess", script);
    CHECK(strstr(out, want) != NULL, "no '%s' in:\n%s", want, out);
    CHECK(strstr(out, "evaluation: hand-written + hybrid net 'random'") != NULL, "no hybrid net line in:\n%s", out);
    free(out);
    unlink(path);
    tc_engine_free(hand), tc_engine_free(ep);
    tc_position_free(p);
    free(b), free(v1), free(pure);
}

void suite_nnue_hybrid(void)
{
    test_header();
    test_sum();
    test_zero_net();
}
