/* Glicko-2 (glicko2.h), step by step as in Glickman's paper: to the
 * Glicko-2 scale, the estimated variance v and improvement delta, the new
 * volatility by the Illinois variant of regula falsi, then the new
 * deviation and rating, back to the Glicko scale. */
#include "glicko2.h"

#include <math.h>

#define SCALE 173.7178 /* 400 / ln 10 */
#define EPSILON 1e-6   /* convergence of the volatility iteration */
#define PI 3.14159265358979323846

static double g_of(double phi) { return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (PI * PI)); }

tg_rating tg_rating_new(void) { return (tg_rating){TG_RATING_START, TG_RD_START, TG_VOL_START}; }

/* f(x) of step 5.1; its root is ln(sigma'^2). */
static double vol_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x), d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

tg_rating tg_glicko2_update(tg_rating p, const tg_rated_game *games, int n, double tau)
{
    double mu = (p.r - 1500.0) / SCALE, phi = p.rd / SCALE, sigma = p.vol;
    if (!(phi > 0) || !(sigma > 0) || !(tau > 0) || isnan(mu))
        return p;
    if (n <= 0) { /* step 6 alone: the deviation grows by the volatility */
        p.rd = sqrt(phi * phi + sigma * sigma) * SCALE;
        return p;
    }
    double inv_v = 0, sum = 0;
    for (int j = 0; j < n; j++) {
        double muj = (games[j].opp.r - 1500.0) / SCALE, g = g_of(games[j].opp.rd / SCALE);
        double e = 1.0 / (1.0 + exp(-g * (mu - muj)));
        inv_v += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    if (!(inv_v > 0))
        return p;
    double v = 1.0 / inv_v, delta = v * sum;

    double a = log(sigma * sigma), A = a, B;
    if (delta * delta > phi * phi + v) {
        B = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (vol_f(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000)
            k++;
        B = a - k * tau;
    }
    double fa = vol_f(A, delta, phi, v, a, tau), fb = vol_f(B, delta, phi, v, a, tau);
    for (int it = 0; fabs(B - A) > EPSILON && it < 200; it++) {
        double C = A + (A - B) * fa / (fb - fa), fc = vol_f(C, delta, phi, v, a, tau);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        B = C;
        fb = fc;
    }
    double sigma2 = exp(A / 2.0);
    double phi_star = sqrt(phi * phi + sigma2 * sigma2);
    double phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu2 = mu + phi2 * phi2 * sum;
    tg_rating out = {1500.0 + mu2 * SCALE, phi2 * SCALE, sigma2};
    if (isnan(out.r) || isnan(out.rd) || isnan(out.vol))
        return p;
    return out;
}

tg_rating tg_rating_after_game(tg_rating player, tg_rating opp, double score)
{
    tg_rated_game g = {opp, score};
    tg_rating r = tg_glicko2_update(player, &g, 1, TG_TAU);
    if (r.rd < TG_RD_MIN)
        r.rd = TG_RD_MIN;
    if (r.rd > TG_RD_MAX)
        r.rd = TG_RD_MAX;
    return r;
}

int tg_rating_provisional(tg_rating r) { return r.rd > TG_RD_PROVISIONAL; }
