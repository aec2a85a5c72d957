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
