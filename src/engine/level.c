/* Limited strength: a depth cap and a weighted choice among the main
 * thread's MultiPV lines. */
#include "search.h"

#include <math.h>

/* Calibration (bench/engine.sh levels, 100 ms a move): the full engine
 * plays like Stockfish 15.1's UCI_Elo 2000-2100; the earlier mapping
 * (depth 1 + (N - 800) / 160, scale (2500 - N) / 6) played like about
 * UCI_Elo 1260-1300 at both N = 1500 and N = 1800, so the choice among
 * lines, not the depth cap, set the strength. The scale now shrinks with
 * the square of the distance to full strength. */
#define LEVEL_FULL_ELO 2050

int search_level_depth(int elo)
{
    int d = 1 + (elo - TC_ELO_MIN) / 100;
    return d < 1 ? 1 : d;
}

/* A weak player sees the best few moves and their scores and picks one at
 * random, weighing each by how much worse it looks: the weaker the player,
 * the more a worse move may be chosen (scale: centipawns per factor e). */
tc_move search_level_choice(const tc_engine *e, int *score)
{
    const search_thread *t = e->threads[0];
    if (e->limits.elo <= 0 || t->mpv_count < 2) {
        *score = t->best_score;
        return t->best;
    }
    int elo = e->limits.elo < TC_ELO_MIN ? TC_ELO_MIN : e->limits.elo > TC_ELO_MAX ? TC_ELO_MAX : e->limits.elo;
    double gap = elo < LEVEL_FULL_ELO ? LEVEL_FULL_ELO - elo : 0;
    double scale = 1 + gap * gap / 4500.0;
    /* the position and the node count seed the draw: repeatable for one
     * search, different from move to move */
    uint64_t x = t->pos->key ^ (t->nodes * 0x9e3779b97f4a7c15ull);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    double u = (double)(x >> 11) / 9007199254740992.0;
    double w[TC_ENGINE_MAX_MULTIPV], sum = 0;
    int top = t->mpv_score[0];
    for (int k = 1; k < t->mpv_count; k++)
        top = t->mpv_score[k] > top ? t->mpv_score[k] : top;
    for (int k = 0; k < t->mpv_count; k++) {
        double d = (top - t->mpv_score[k]) / scale;
        w[k] = d > 30 ? 0 : exp(-d);
        sum += w[k];
    }
    double acc = 0;
    for (int k = 0; k < t->mpv_count; k++) {
        acc += w[k] / sum;
        if (u < acc) {
            *score = t->mpv_score[k];
            return t->mpv_move[k];
        }
    }
    *score = t->mpv_score[0];
    return t->mpv_move[0];
}
