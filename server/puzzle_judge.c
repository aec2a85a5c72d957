/* Judging puzzle attempts with the library (puzzle_judge.h). */
#include "puzzle_judge.h"

#include "topochess_endgame.h"
#include "topochess_puzzle.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    tc_variant_def def;
    char material[16];
    tc_variant *v;
    tc_egtb *t;
    unsigned long long used; /* the judge's clock when last used */
} cached;

struct srv_judge {
    pthread_mutex_t lock;
    cached sets[SRV_JUDGE_TABLES];
    unsigned long long clock;
};

srv_judge *srv_judge_new(void)
{
    srv_judge *J = calloc(1, sizeof *J);
    if (J && pthread_mutex_init(&J->lock, NULL)) {
        free(J);
        return NULL;
    }
    return J;
}

static void drop(cached *c)
{
    tc_egtb_free(c->t);
    tc_variant_free(c->v);
    memset(c, 0, sizeof *c);
}

void srv_judge_free(srv_judge *J)
{
    if (!J)
        return;
    for (int i = 0; i < SRV_JUDGE_TABLES; i++)
        drop(&J->sets[i]);
    pthread_mutex_destroy(&J->lock);
    free(J);
}

/* The set of a board and material, solved if not cached (J->lock held). */
static cached *tables(srv_judge *J, const tc_variant_def *def, const char *material, tc_error *err)
{
    cached *oldest = &J->sets[0];
    for (int i = 0; i < SRV_JUDGE_TABLES; i++) {
        cached *c = &J->sets[i];
        if (c->t && !strcmp(c->material, material) && !memcmp(&c->def, def, sizeof *def)) {
            c->used = ++J->clock;
            return c;
        }
        if (!c->t || (oldest->t && c->used < oldest->used))
            oldest = c;
    }
    tc_variant *v = tc_variant_new(def, err);
    if (!v)
        return NULL;
    tc_egtb_options o = {.threads = 1, .max_entries = SRV_JUDGE_MAX_ENTRIES};
    tc_egtb *t = tc_egtb_solve(v, material, &o, err);
    if (!t) {
        tc_variant_free(v);
        return NULL;
    }
    drop(oldest);
    oldest->def = *def;
    snprintf(oldest->material, sizeof oldest->material, "%s", material);
    oldest->v = v;
    oldest->t = t;
    oldest->used = ++J->clock;
    return oldest;
}

int srv_judge_prepare(srv_judge *J, const tc_variant_def *def, const char *material, tc_error *err)
{
    pthread_mutex_lock(&J->lock);
    cached *c = tables(J, def, material, err);
    pthread_mutex_unlock(&J->lock);
    return c ? 0 : -1;
}

/* Splits the moves text into words (spaces or commas between): the count,
 * or -1 with the reason in out. */
static int split_moves(const char *text, char words[][16], srv_judgement *out)
{
    int n = 0;
    const char *s = text ? text : "";
    while (*s) {
        size_t len = strcspn(s, " ,");
        if (len) {
            if (n == SRV_JUDGE_MAX_MOVES) {
                snprintf(out->message, sizeof out->message, "more than %d moves in one attempt",
                         SRV_JUDGE_MAX_MOVES);
                return -1;
            }
            if (len > 15) {
                snprintf(out->message, sizeof out->message, "move %d is longer than 15 characters", n + 1);
                return -1;
            }
            for (size_t i = 0; i < len; i++) {
                char c = s[i];
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '=' ||
                      c == '+' || c == '#' || c == '-')) {
                    snprintf(out->message, sizeof out->message,
                             "move %d holds the character '%c' (moves are SAN or coordinates such as e2e4)", n + 1,
                             c >= 0x20 && c < 0x7f ? c : '?');
                    return -1;
                }
            }
            memcpy(words[n], s, len);
            words[n][len] = '\0';
            n++;
        }
        s += len;
        while (*s == ' ' || *s == ',')
            s++;
    }
    if (!n)
        snprintf(out->message, sizeof out->message, "no moves: send the moves of the attempt (e.g. moves=b2b5)");
    return n ? n : -1;
}

static void add_move(srv_judgement *out, const char *uci)
{
    size_t len = strlen(out->moves);
    snprintf(out->moves + len, sizeof out->moves - len, "%s%s", len ? " " : "", uci);
}

static void judge_ending(srv_judge *J, const srv_judge_puzzle *p, char words[][16], int n, srv_judgement *out)
{
    tc_error err;
    pthread_mutex_lock(&J->lock);
    cached *c = tables(J, p->def, p->material, &err);
    tc_position *pos = c ? tc_position_new(c->v) : NULL;
    if (!pos) {
        pthread_mutex_unlock(&J->lock);
        out->verdict = SRV_JUDGE_CANNOT;
        snprintf(out->message, sizeof out->message, "cannot judge this puzzle now: %s",
                 c ? "out of memory" : err.msg);
        return;
    }
    if (tc_position_set_fen(pos, p->fen, &err)) {
        out->verdict = SRV_JUDGE_CANNOT;
        snprintf(out->message, sizeof out->message, "the puzzle's position is bad: %s", err.msg);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        tc_puzzle_answer a;
        if (tc_puzzle_check(c->t, pos, words[i], &a, &err)) {
            out->verdict = SRV_JUDGE_CANNOT;
            snprintf(out->message, sizeof out->message, "the tables cannot judge move %d: %s", i + 1, err.msg);
            goto done;
        }
        if (a.verdict == TC_PUZZLE_ILLEGAL) {
            out->verdict = SRV_JUDGE_BAD;
            snprintf(out->message, sizeof out->message, "move %d: %.700s", i + 1, a.message);
            goto done;
        }
        char uci[16];
        tc_move_to_uci(pos, a.move, uci);
        add_move(out, uci);
        if (a.verdict != TC_PUZZLE_BEST) {
            if (i + 1 < n) {
                out->verdict = SRV_JUDGE_BAD;
                snprintf(out->message, sizeof out->message,
                         "move %d (%s) already failed the puzzle: send the moves up to it, none after", i + 1,
                         a.move_san);
                goto done;
            }
            out->verdict = SRV_JUDGE_FAILED;
            out->failed_at = i;
            snprintf(out->message, sizeof out->message, "%s", a.message);
            goto done;
        }
        tc_make_move(pos, a.move);
        if (a.mates) {
            if (i + 1 < n) {
                out->verdict = SRV_JUDGE_BAD;
                snprintf(out->message, sizeof out->message, "move %d (%s) is mate: nothing may follow it", i + 1,
                         a.move_san);
                goto done;
            }
            out->verdict = SRV_JUDGE_SOLVED;
            snprintf(out->message, sizeof out->message, "solved: %s is checkmate", a.move_san);
            goto done;
        }
        if (!a.reply) { /* a best move always leaves the defence a move */
            out->verdict = SRV_JUDGE_CANNOT;
            snprintf(out->message, sizeof out->message, "the tables have no defence after %s", a.move_san);
            goto done;
        }
        tc_make_move(pos, a.reply);
    }
    out->verdict = SRV_JUDGE_BAD;
    snprintf(out->message, sizeof out->message,
             "the puzzle goes on after these %d move%s: send the attempt when it is solved or failed", n,
             n == 1 ? "" : "s");
done:
    tc_position_free(pos);
    pthread_mutex_unlock(&J->lock);
}

/* The i-th word of a space-separated list into out (""): 1 found. */
static int nth_word(const char *list, int i, char out[16])
{
    out[0] = '\0';
    const char *s = list ? list : "";
    for (int k = 0; *s; k++) {
        while (*s == ' ')
            s++;
        size_t len = strcspn(s, " ");
        if (!len)
            break;
        if (k == i) {
            snprintf(out, 16, "%.*s", (int)len, s);
            return 1;
        }
        s += len;
    }
    return 0;
}

static void judge_tactic(const srv_judge_puzzle *p, char words[][16], int n, srv_judgement *out)
{
    tc_error err;
    tc_variant *v = tc_variant_new(p->def, &err);
    tc_position *pos = v ? tc_position_new(v) : NULL;
    if (!pos || tc_position_set_fen(pos, p->fen, &err)) {
        out->verdict = SRV_JUDGE_CANNOT;
        snprintf(out->message, sizeof out->message, "the puzzle's position is bad: %s", err.msg);
        goto done;
    }
    for (int i = 0; i < n; i++) {
        tc_move m;
        char uci[16], want[16], reply[16];
        if (tc_move_from_uci(pos, words[i], &m, &err)) {
            out->verdict = SRV_JUDGE_BAD;
            snprintf(out->message, sizeof out->message, "move %d: %s", i + 1, err.msg);
            goto done;
        }
        tc_move_to_uci(pos, m, uci);
        add_move(out, uci);
        int ok = nth_word(p->line, 2 * i, want) && !strcmp(uci, want);
        for (int k = 0; !ok && i == 0 && nth_word(p->accepted, k, want); k++)
            ok = !strcmp(uci, want);
        if (!ok) {
            out->verdict = i + 1 < n ? SRV_JUDGE_BAD : SRV_JUDGE_FAILED;
            out->failed_at = i;
            snprintf(out->message, sizeof out->message,
                     i + 1 < n ? "move %d (%s) already failed the puzzle: send the moves up to it, none after"
                               : "move %d (%s) is not the solution's",
                     i + 1, uci);
            goto done;
        }
        tc_make_move(pos, m);
        if (!nth_word(p->line, 2 * i + 1, reply)) {
            out->verdict = i + 1 < n ? SRV_JUDGE_BAD : SRV_JUDGE_SOLVED;
            snprintf(out->message, sizeof out->message, i + 1 < n ? "nothing may follow move %d" : "solved",
                     i + 1);
            goto done;
        }
        if (tc_move_from_uci(pos, reply, &m, &err)) {
            out->verdict = SRV_JUDGE_CANNOT;
            snprintf(out->message, sizeof out->message, "the puzzle's line is bad: %s", err.msg);
            goto done;
        }
        tc_make_move(pos, m);
    }
    out->verdict = SRV_JUDGE_BAD;
    snprintf(out->message, sizeof out->message, "the puzzle goes on after these moves: send the attempt when it is over");
done:
    tc_position_free(pos);
    tc_variant_free(v);
}

void srv_judge_attempt(srv_judge *J, const srv_judge_puzzle *p, const char *moves, srv_judgement *out)
{
    memset(out, 0, sizeof *out);
    out->failed_at = -1;
    char (*words)[16] = malloc(SRV_JUDGE_MAX_MOVES * sizeof *words);
    if (!words) {
        out->verdict = SRV_JUDGE_CANNOT;
        snprintf(out->message, sizeof out->message, "out of memory");
        return;
    }
    int n = split_moves(moves, words, out);
    if (n < 0)
        out->verdict = SRV_JUDGE_BAD;
    else if (!strcmp(p->kind, "tactic"))
        judge_tactic(p, words, n, out);
    else
        judge_ending(J, p, words, n, out);
    free(words);
}
