/* Tournaments' rules (tourney_rules.h). */
#include "tourney_rules.h"

#include <stdlib.h>
#include <string.h>

int tt_berger_rounds(int n)
{
    if (n < 2 || n > TT_RR_MAX)
        return 0;
    return n % 2 ? n : n - 1;
}

/* Berger's circle: with seats made even (a dummy seat for an odd n), m =
 * seats - 1 seats turn around the last one. In round r, seat a meets the
 * seat b with a + b = r (mod m); the one seat with 2a = r (m is odd, so
 * there is exactly one) meets the last seat. Between two turning seats a
 * < b, a has White when b - a is odd: each turning seat then has White in
 * exactly half of its m - 1 games among them; the last seat has White in
 * the even rounds. */
int tt_berger_round(int n, int r, int *white, int *black, int *bye)
{
    int rounds = tt_berger_rounds(n);
    if (!rounds || r < 0 || r >= rounds)
        return -1;
    int seats = n + n % 2, m = seats - 1, boards = 0;
    *bye = -1;
    for (int a = 0; a < m; a++) {
        int b = ((r - a) % m + m) % m;
        if (b == a)
            b = seats - 1; /* the turning seat that meets the fixed one */
        else if (b < a)
            continue; /* listed from its lower seat */
        int w, k;
        if (b == seats - 1)
            w = r % 2 ? a : b, k = r % 2 ? b : a;
        else
            w = (b - a) % 2 ? a : b, k = (b - a) % 2 ? b : a;
        if (w >= n || k >= n) { /* the dummy seat: a bye */
            *bye = w >= n ? k : w;
            continue;
        }
        white[boards] = w;
        black[boards] = k;
        boards++;
    }
    return boards;
}

int tt_arena_points(int streak, tt_outcome o, int *streak_after)
{
    int fire = streak >= TT_FIRE_AFTER;
    *streak_after = o == TT_WON ? streak + 1 : 0;
    int pts = o == TT_WON ? TT_WIN : o == TT_DRAWN ? TT_DRAW : 0;
    return fire ? 2 * pts : pts;
}

/* Whether waiter x goes before y: the higher score, then the longer
 * wait, then the lower index. */
static int before(const tt_waiter *w, int x, int y)
{
    if (w[x].score != w[y].score)
        return w[x].score > w[y].score;
    if (w[x].since_ms != w[y].since_ms)
        return w[x].since_ms < w[y].since_ms;
    return x < y;
}

static int allowed(const tt_waiter *a, const tt_waiter *b)
{
    return a->last_opp != b->self && b->last_opp != a->self;
}

int tt_arena_pair(const tt_waiter *w, int n, int (*pairs)[2])
{
    if (n < 2 || n > TT_ARENA_MAX)
        return 0;
    int order[TT_ARENA_MAX], taken[TT_ARENA_MAX];
    for (int i = 0; i < n; i++)
        order[i] = i, taken[i] = 0;
    for (int i = 1; i < n; i++) /* insertion sort: n is small */
        for (int j = i; j > 0 && before(w, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int np = 0;
    for (int i = 0; i < n; i++) {
        int a = order[i];
        if (taken[a])
            continue;
        int best = -1;
        for (int j = i + 1; j < n; j++) {
            int b = order[j];
            if (taken[b] || !allowed(&w[a], &w[b]))
                continue;
            int d = abs(w[a].score - w[b].score);
            /* the order puts equal scores by waiting time, so the first
             * nearest one found has waited longest */
            if (best < 0 || d < abs(w[a].score - w[best].score))
                best = b;
        }
        if (best < 0)
            continue;
        taken[a] = taken[best] = 1;
        int a_white = w[a].whites < w[best].whites ||
                      (w[a].whites == w[best].whites && w[a].since_ms <= w[best].since_ms);
        pairs[np][0] = a_white ? a : best;
        pairs[np][1] = a_white ? best : a;
        np++;
    }
    return np;
}
