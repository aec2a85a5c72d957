/* `topochess match` results: Elo difference and its error bar from a score,
 * and the summary printed after the last game. */
#include "match.h"

#include <math.h>

/* ---------------------------------------------------------------- Elo */

double match_elo(double score)
{
    if (score >= 1)
        return INFINITY;
    if (score <= 0)
        return -INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

void match_elo_range(const match_score *s, double *elo, double *error)
{
    double n = s->wins + s->losses + s->draws;
    if (n <= 0) {
        *elo = 0;
        *error = INFINITY;
        return;
    }
    double p = (s->wins + 0.5 * s->draws) / n;
    /* Variance of one game's score, then of the mean over n games. */
    double var = (s->wins * (1 - p) * (1 - p) + s->losses * p * p + s->draws * (0.5 - p) * (0.5 - p)) / n;
    double sd = sqrt(var / n);
    double hi = p + 1.959964 * sd, lo = p - 1.959964 * sd;
    *elo = match_elo(p);
    *error = hi >= 1 || lo <= 0 ? INFINITY : (match_elo(hi) - match_elo(lo)) / 2;
}

static void elo_text(double x, char *buf, size_t n)
{
    if (isinf(x))
        snprintf(buf, n, "%sinf", x > 0 ? "+" : "-");
    else
        snprintf(buf, n, "%.1f", fabs(x) < 0.05 ? 0.0 : x); /* no "-0.0" */
}

void match_print_summary(const match_score *s, const char *name1, const char *name2, FILE *log)
{
    int n = s->wins + s->losses + s->draws;
    double ratio = n ? (s->wins + 0.5 * s->draws) / n : 0;
    fprintf(log, "Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", name1, name2, s->wins,
            s->losses, s->draws, ratio, n);
    double elo, error;
    match_elo_range(s, &elo, &error);
    char e1[32], e2[32];
    elo_text(elo, e1, sizeof e1);
    elo_text(error, e2, sizeof e2);
    fprintf(log, "Elo difference: %s +/- %s\n", e1, e2 + (e2[0] == '+'));
}

/* ---------------------------------------------------------------- SPRT */

static double logistic_score(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* The GSPRT log-likelihood ratio of a sample of outcomes x[i] (scores in
 * [0, 1]) seen count[i] times, for the expected scores of elo0 and elo1:
 * N (s1 - s0) (2 mean - s0 - s1) / (2 var), the normal approximation that
 * fishtest and fastchess use. Empty bins get a count of 1e-3, so that a
 * one-sided start does not divide by a zero variance. */
static double gsprt_llr(const double *x, const int *count, int k, double elo0, double elo1)
{
    double c[5], n = 0, real = 0;
    for (int i = 0; i < k; i++) {
        real += count[i];
        c[i] = count[i] > 0 ? count[i] : 1e-3;
        n += c[i];
    }
    if (real <= 0)
        return 0;
    double mean = 0, var = 0;
    for (int i = 0; i < k; i++)
        mean += c[i] * x[i] / n;
    for (int i = 0; i < k; i++)
        var += c[i] * (x[i] - mean) * (x[i] - mean) / n;
    if (var <= 0)
        return 0;
    double s0 = logistic_score(elo0), s1 = logistic_score(elo1);
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

double match_sprt_llr_penta(const match_penta *p, double elo0, double elo1)
{
    static const double x[5] = {0, 0.25, 0.5, 0.75, 1};
    return gsprt_llr(x, p->n, 5, elo0, elo1);
}

double match_sprt_llr_trinomial(const match_score *s, double elo0, double elo1)
{
    static const double x[3] = {0, 0.5, 1};
    int count[3] = {s->losses, s->draws, s->wins};
    return gsprt_llr(x, count, 3, elo0, elo1);
}

void match_sprt_bounds(const match_sprt *t, double *lower, double *upper)
{
    *lower = log(t->beta / (1 - t->alpha));
    *upper = log((1 - t->beta) / t->alpha);
}

int match_sprt_decide(const match_sprt *t, double llr)
{
    double lo, hi;
    match_sprt_bounds(t, &lo, &hi);
    return llr >= hi ? 1 : llr <= lo ? -1 : 0;
}

int match_penta_total(const match_penta *p)
{
    return p->n[0] + p->n[1] + p->n[2] + p->n[3] + p->n[4];
}

match_penta match_sprt_pairs(const match_sprt *t, const match_penta *own)
{
    match_penta all;
    for (int i = 0; i < 5; i++)
        all.n[i] = own->n[i] + t->prior.n[i];
    return all;
}

void match_print_sprt(const match_sprt *t, const match_penta *own, FILE *log)
{
    match_penta all = match_sprt_pairs(t, own);
    const match_penta *p = &all;
    double lo, hi, llr = match_sprt_llr_penta(p, t->elo0, t->elo1);
    match_sprt_bounds(t, &lo, &hi);
    int earlier = match_penta_total(&t->prior);
    int d = match_penta_total(p) >= MATCH_SPRT_MIN_PAIRS ? match_sprt_decide(t, llr) : 0;
    if (earlier)
        fprintf(log, "SPRT counts %d earlier pairs (sprt-prior) and this match's %d\n", earlier,
                match_penta_total(own));
    fprintf(log, "SPRT: llr %.2f (%.1f%%), lbound %.2f, ubound %.2f, elo0 %g elo1 %g alpha %g beta %g%s\n", llr,
            100.0 * llr / hi, lo, hi, t->elo0, t->elo1, t->alpha, t->beta,
            d > 0 ? " - H1 was accepted" : d < 0 ? " - H0 was accepted" : "");
    fprintf(log, "Ptnml(0-2): %d, %d, %d, %d, %d\n", p->n[0], p->n[1], p->n[2], p->n[3], p->n[4]);
}
