/* Glicko-2 (games/glicko2.h): Glickman's worked example, and random
 * periods against a reference written here independently: the paper's
 * formulas with the new volatility found by plain bisection on the same
 * equation instead of the Illinois iteration. */
#include "glicko2.h"
#include "harness.h"

#include <math.h>
#include <stdint.h>

#define REF_SCALE 173.7178

static double ref_f(double x, double delta, double phi2, double v, double a, double tau)
{
    double ex = exp(x);
    return ex * (delta * delta - phi2 - v - ex) / (2.0 * (phi2 + v + ex) * (phi2 + v + ex)) - (x - a) / (tau * tau);
}

/* The paper's steps 2-8, volatility by bisection (f falls as x grows);
 * also the puzzle suite's reference (test_puzzles_hub.c). */
tg_rating th_glicko2_reference(tg_rating p, const tg_rated_game *gs, int n, double tau);
tg_rating th_glicko2_reference(tg_rating p, const tg_rated_game *gs, int n, double tau)
{
    const double pi = 3.14159265358979323846;
    double mu = (p.r - 1500.0) / REF_SCALE, phi = p.rd / REF_SCALE;
    double vinv = 0, dsum = 0;
    for (int j = 0; j < n; j++) {
        double phij = gs[j].opp.rd / REF_SCALE, muj = (gs[j].opp.r - 1500.0) / REF_SCALE;
        double g = 1.0 / sqrt(1.0 + 3.0 * phij * phij / (pi * pi));
        double e = 1.0 / (1.0 + exp(-g * (mu - muj)));
        vinv += g * g * e * (1.0 - e);
        dsum += g * (gs[j].score - e);
    }
    double v = 1.0 / vinv, delta = v * dsum, a = log(p.vol * p.vol);
    double lo = a - 1.0, hi = a + 1.0;
    while (ref_f(lo, delta, phi * phi, v, a, tau) < 0)
        lo -= 1.0;
    while (ref_f(hi, delta, phi * phi, v, a, tau) > 0)
        hi += 1.0;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2.0;
        if (ref_f(mid, delta, phi * phi, v, a, tau) > 0)
            lo = mid;
        else
            hi = mid;
    }
    double sigma = exp((lo + hi) / 4.0);
    double pstar2 = phi * phi + sigma * sigma;
    double phin = 1.0 / sqrt(1.0 / pstar2 + 1.0 / v);
    return (tg_rating){1500.0 + REF_SCALE * (mu + phin * phin * dsum), REF_SCALE * phin, sigma};
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static double uniform(double lo, double hi)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return lo + (hi - lo) * (double)(rng >> 11) / 9007199254740992.0;
}

static void test_paper_example(void)
{
    th_case("Glickman's example: 1500/200/0.06 against 1400/30, 1550/100, 1700/300 (1, 0, 0), tau 0.5");
    tg_rated_game gs[3] = {{{1400, 30, 0.06}, 1}, {{1550, 100, 0.06}, 0}, {{1700, 300, 0.06}, 0}};
    tg_rating r = tg_glicko2_update((tg_rating){1500, 200, 0.06}, gs, 3, 0.5);
    CHECK(fabs(r.r - 1464.06) < 0.01, "rating %.4f, paper 1464.06", r.r);
    CHECK(fabs(r.rd - 151.52) < 0.01, "deviation %.4f, paper 151.52", r.rd);
    CHECK(fabs(r.vol - 0.05999) < 0.00001, "volatility %.6f, paper 0.05999 (printed to 5 places)", r.vol);
}

static void test_reference(void)
{
    th_case("2,000 random periods of 1 to 8 games agree with the bisection reference");
    int worst = 0;
    double worst_r = 0, worst_rd = 0, worst_vol = 0;
    for (int t = 0; t < 2000; t++) {
        tg_rating p = {uniform(600, 2800), uniform(30, 500), uniform(0.03, 0.15)};
        int n = 1 + (int)uniform(0, 8);
        tg_rated_game gs[8];
        for (int j = 0; j < n; j++) {
            gs[j].opp = (tg_rating){uniform(600, 2800), uniform(30, 500), uniform(0.03, 0.15)};
            double u = uniform(0, 3);
            gs[j].score = u < 1 ? 0.0 : u < 2 ? 0.5 : 1.0;
        }
        double tau = uniform(0.3, 1.2);
        tg_rating got = tg_glicko2_update(p, gs, n, tau), want = th_glicko2_reference(p, gs, n, tau);
        double dr = fabs(got.r - want.r), drd = fabs(got.rd - want.rd), dv = fabs(got.vol - want.vol);
        if (dr > worst_r)
            worst_r = dr;
        if (drd > worst_rd)
            worst_rd = drd;
        if (dv > worst_vol)
            worst_vol = dv;
        if (dr > 1e-3 || drd > 1e-3 || dv > 1e-6)
            worst++;
    }
    CHECK(worst == 0, "%d periods differ; worst |dr| %.2g |drd| %.2g |dvol| %.2g", worst, worst_r, worst_rd,
          worst_vol);
}

static void test_bounds_and_marks(void)
{
    th_case("a new player is provisional; wins raise, losses lower; rd stays within [45, 500]; no games: rd grows");
    tg_rating a = tg_rating_new(), b = tg_rating_new();
    CHECK(a.r == 1500 && a.rd == 500 && a.vol == 0.09, "start %.1f/%.1f/%.3f", a.r, a.rd, a.vol);
    CHECK(tg_rating_provisional(a), "a new player is provisional");
    tg_rating w = tg_rating_after_game(a, b, 1), l = tg_rating_after_game(b, a, 0);
    CHECK(w.r > 1500 && l.r < 1500 && fabs((w.r - 1500) - (1500 - l.r)) < 1e-9, "win %.2f loss %.2f", w.r, l.r);
    tg_rating d = tg_rating_after_game(a, b, 0.5);
    CHECK(fabs(d.r - 1500) < 1e-9 && d.rd < a.rd, "a draw between equals: %.3f/%.2f", d.r, d.rd);
    tg_rating x = a;
    for (int i = 0; i < 300; i++)
        x = tg_rating_after_game(x, (tg_rating){1500, 45, 0.06}, i % 2 ? 1 : 0.5);
    CHECK(x.rd >= TG_RD_MIN && x.rd < TG_RD_PROVISIONAL && !tg_rating_provisional(x), "after 300 games rd %.2f",
          x.rd);
    tg_rating idle = tg_glicko2_update((tg_rating){1700, 80, 0.06}, NULL, 0, TG_TAU);
    CHECK(idle.r == 1700 && fabs(idle.rd - sqrt(80.0 * 80.0 + pow(0.06 * 173.7178, 2))) < 1e-6,
          "idle rd %.4f", idle.rd);
    tg_rating nan_in = tg_glicko2_update((tg_rating){NAN, 80, 0.06}, NULL, 0, TG_TAU);
    CHECK(isnan(nan_in.r) && nan_in.rd == 80, "a NaN rating comes back unchanged");
}

void suite_glicko2(void)
{
    test_paper_example();
    test_reference();
    test_bounds_and_marks();
}
