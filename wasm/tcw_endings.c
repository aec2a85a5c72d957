/* The export layer: a board's solved endings and dead materials, for the
 * editor's endings worker (web/src/lib/endings-worker.ts). A solve reports
 * each pass through the host's tc_host_info and stops when its tc_host_poll
 * says so (see tc_wasm.c for the conventions). */
#include "tcw_internal.h"

static int on_pass(void *ctx, const char *ending, int plies, uint64_t entries)
{
    int poll = *(const int *)ctx;
    sb s = {0};
    sb_puts(&s, "{\"ending\":");
    sb_str(&s, ending);
    sb_printf(&s, ",\"plies\":%d,\"entries\":%llu}", plies, (unsigned long long)entries);
    if (!s.oom && s.b)
        tc_host_info(s.b, s.n);
    free(s.b);
    return poll && tc_host_poll();
}

static void pair_u64(sb *s, const char *key, const uint64_t v[2])
{
    sb_printf(s, ",\"%s\":[%llu,%llu]", key, (unsigned long long)v[0], (unsigned long long)v[1]);
}

/* Solves ENDING on the board and answers its figures:
 * {"ending" (normalised), "entries", "symmetries", "win", "draw", "loss",
 *  "checkmates" ([White to move, Black to move], counted for the side to
 *  move), "longest" (plies, for the side to move), "longestFen", "mateFen",
 *  "possible" (some position is won: the material can force a mate from
 *  somewhere), "seconds"}; NULL with err set on a bad name, a board too
 * large, no memory or a stop (poll nonzero: tc_host_poll is asked after
 * every pass). max_entries 0: the library's own limit. */
char *EXPORT(tcw_variant_ending)(const tc_variant *v, const char *ending, double max_entries, int poll,
                                 tc_error *err)
{
    tcw_clear(err);
    tc_egtb_options opt = {.threads = 1,
                           .max_entries = max_entries > 0 && max_entries < 1e18 ? (uint64_t)max_entries : 0,
                           .on_pass = on_pass,
                           .ctx = &poll};
    tc_egtb *t = tc_egtb_solve(v, ending, &opt, err);
    if (!t)
        return NULL;
    tc_egtb_stats st;
    tc_egtb_stats_get(t, &st);
    sb s = {0};
    sb_puts(&s, "{\"ending\":");
    sb_str(&s, tc_egtb_name(t));
    sb_printf(&s, ",\"entries\":%llu,\"symmetries\":%d", (unsigned long long)st.table_entries,
              tc_egtb_symmetries(t));
    pair_u64(&s, "win", st.win);
    pair_u64(&s, "draw", st.draw);
    pair_u64(&s, "loss", st.loss);
    pair_u64(&s, "checkmates", st.mates);
    sb_printf(&s, ",\"longest\":[%d,%d],\"longestFen\":[", st.longest_plies[0], st.longest_plies[1]);
    sb_str(&s, st.longest_fen[0]);
    sb_puts(&s, ",");
    sb_str(&s, st.longest_fen[1]);
    sb_puts(&s, "],\"mateFen\":[");
    sb_str(&s, st.mate_fen[0]);
    sb_puts(&s, ",");
    sb_str(&s, st.mate_fen[1]);
    sb_printf(&s, "],\"possible\":%s,\"seconds\":%.3f}", st.win[0] + st.win[1] ? "true" : "false", st.seconds);
    tc_egtb_free(t);
    return sb_done(&s, err);
}

/* How many positions of each material (names separated by spaces, "KBK
 * KNK KBKN") are dead on the board (docs/rules.md section 6, the help-mate
 * pass of tc_dead_material_count; any board, the flat one too), as
 * `topochess dead` counts them: {"KBK":{"dead":D,"total":N,"tables":true},...}
 * under each name as given ("tables":false over the size limit); NULL with
 * err set on a bad name. */
char *EXPORT(tcw_variant_dead)(const tc_variant *v, const char *names, tc_error *err)
{
    tcw_clear(err);
    tc_dead_table *d = tc_dead_table_new(v, err);
    if (!d)
        return NULL;
    sb s = {0};
    sb_puts(&s, "{");
    int k = 0, failed = 0;
    for (const char *p = names; *p && !failed;) {
        size_t n = strcspn(p, " ");
        if (n) {
            char name[16];
            if (n >= sizeof name) {
                if (err)
                    snprintf(err->msg, sizeof err->msg, "material '%.*s': not a pawnless material of 2..4 pieces",
                             (int)n, p);
                failed = 1;
                break;
            }
            memcpy(name, p, n);
            name[n] = '\0';
            tc_dead_count c;
            if (tc_dead_material_count(d, name, &c, err)) {
                failed = 1;
                break;
            }
            sb_puts(&s, k++ ? "," : "");
            sb_str(&s, name);
            sb_printf(&s, ":{\"dead\":%llu,\"total\":%llu,\"tables\":%s}", (unsigned long long)c.dead,
                      (unsigned long long)c.total, c.tables ? "true" : "false");
        }
        p += n;
        p += *p == ' ';
    }
    tc_dead_table_free(d);
    if (failed) {
        free(s.b);
        return NULL;
    }
    sb_puts(&s, "}");
    return sb_done(&s, err);
}
