/* The operator's schedule of tournaments (docs/tournaments.md): one event
 * a line,
 *
 *     KIND PERIOD [DAY] HH:MM SIZE VARIANT CLOCK RATED NAME...
 *
 * KIND arena or round-robin; PERIOD weekly (then DAY: sun, mon, ...) or
 * daily; the start in UTC; SIZE an arena's minutes (60m) or a
 * round-robin's most players (8p); VARIANT a page's slug; CLOCK a
 * tournament clock key (3+2, corr3); RATED rated or casual; the rest of
 * the line the name. Blank lines and lines starting with # are skipped.
 * Each event is made SRV_TOURNEY_ANNOUNCE_MS before its start, once
 * whatever the number of processes (its sched_key, NAME@START, is
 * unique in the table). */
#include "tourney_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAY_MS (24LL * 3600 * 1000)

static const char *const days[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

/* The next whitespace-separated word of *s (copied into out, n bytes):
 * 0, or -1 when none. */
static int word(const char **s, char *out, size_t n)
{
    const char *p = *s;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t len = strcspn(p, " \t\r\n");
    if (!len || len >= n)
        return -1;
    memcpy(out, p, len);
    out[len] = '\0';
    *s = p + len;
    return 0;
}

static int parse_line(const char *line, srv_sched *e, char *why, size_t n)
{
    char w[80];
    const char *s = line;
    memset(e, 0, sizeof *e);
    if (word(&s, w, sizeof w) || (strcmp(w, "arena") && strcmp(w, "round-robin"))) {
        snprintf(why, n, "the kind is arena or round-robin");
        return -1;
    }
    e->kind = strcmp(w, "arena") ? TP_ROUND_ROBIN : TP_ARENA;
    if (word(&s, w, sizeof w) || (strcmp(w, "weekly") && strcmp(w, "daily"))) {
        snprintf(why, n, "the period is weekly or daily");
        return -1;
    }
    e->weekday = -1;
    if (!strcmp(w, "weekly")) {
        if (word(&s, w, sizeof w)) {
            snprintf(why, n, "a weekly event names its day (sun, mon, tue, wed, thu, fri, sat)");
            return -1;
        }
        for (int d = 0; d < 7; d++)
            if (!strcmp(w, days[d]))
                e->weekday = d;
        if (e->weekday < 0) {
            snprintf(why, n, "'%.20s' is not a day: sun, mon, tue, wed, thu, fri or sat", w);
            return -1;
        }
    }
    int hh, mm;
    char tail;
    if (word(&s, w, sizeof w) || sscanf(w, "%2d:%2d%c", &hh, &mm, &tail) != 2 || hh < 0 || hh > 23 || mm < 0 ||
        mm > 59 || strlen(w) != 5) {
        snprintf(why, n, "the start is HH:MM in UTC (00:00 to 23:59)");
        return -1;
    }
    e->minute = hh * 60 + mm;
    char unit = e->kind == TP_ARENA ? 'm' : 'p';
    int lo = 2, hi = e->kind == TP_ARENA ? SRV_ARENA_MAX_MIN : TT_RR_MAX;
    if (e->kind == TP_ARENA)
        lo = 1;
    char *end;
    if (word(&s, w, sizeof w) || !isdigit((unsigned char)w[0]) || (e->size = (int)strtol(w, &end, 10)) < lo ||
        e->size > hi || end[0] != unit || end[1]) {
        snprintf(why, n, "%s", e->kind == TP_ARENA ? "an arena's size is its minutes, 1m to 360m"
                                                    : "a round-robin's size is its most players, 2p to 16p");
        return -1;
    }
    if (word(&s, e->variant, sizeof e->variant)) {
        snprintf(why, n, "the variant's slug is missing");
        return -1;
    }
    const tg_clock *ck = word(&s, w, sizeof w) ? NULL : srv_tourney_clock(w);
    if (!ck || (e->kind == TP_ARENA && ck->kind != TG_CLOCK_FISCHER)) {
        snprintf(why, n, "the clock is one of 1+0, 2+1, 3+2, 5+3, 10+5, 15+10, 30+20 (arenas) or corr1, corr2, "
                 "corr3, corr5, corr7, corr14 (round-robins only)");
        return -1;
    }
    e->clock = *ck;
    if (word(&s, w, sizeof w) || (strcmp(w, "rated") && strcmp(w, "casual"))) {
        snprintf(why, n, "say rated or casual before the name");
        return -1;
    }
    e->rated = !strcmp(w, "rated");
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strcspn(s, "\r\n");
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    if (len < 3 || len > TP_TOURNEY_NAME_MAX) {
        snprintf(why, n, "the name (the rest of the line) has 3 to %d bytes", TP_TOURNEY_NAME_MAX);
        return -1;
    }
    memcpy(e->name, s, len);
    e->name[len] = '\0';
    return 0;
}

int srv_tourneys_schedule(srv_tourneys *T, const char *path, tc_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "--tournaments %.200s: cannot read it", path);
        return -1;
    }
    char line[512], why[200];
    int no = 0;
    T->nsched = 0;
    while (fgets(line, sizeof line, f)) {
        no++;
        const char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#' || *p == '\n' || *p == '\r')
            continue;
        if (!strchr(line, '\n') && !feof(f)) {
            snprintf(err->msg, sizeof err->msg, "%.200s:%d: a line has at most %d bytes", path, no,
                     (int)sizeof line - 2);
            fclose(f);
            return -1;
        }
        if (T->nsched == SRV_TOURNEY_SCHEDULE_MAX) {
            snprintf(err->msg, sizeof err->msg, "%.200s:%d: at most %d events", path, no, SRV_TOURNEY_SCHEDULE_MAX);
            fclose(f);
            return -1;
        }
        if (parse_line(p, &T->sched[T->nsched], why, sizeof why)) {
            snprintf(err->msg, sizeof err->msg, "%.80s:%d: %.150s", path, no, why);
            fclose(f);
            return -1;
        }
        T->sched[T->nsched++].line = no;
    }
    fclose(f);
    return 0;
}

void srv_tourneys_sched_make(srv_tourneys *T, int64_t now_ms)
{
    const srv_site *site = srv_tourneys_site(T);
    int64_t today = now_ms - now_ms % DAY_MS;
    for (int i = 0; i < T->nsched; i++) {
        srv_sched *e = &T->sched[i];
        for (int d = 0; d <= 7; d++) {
            int64_t day = today + d * DAY_MS;
            int weekday = (int)((day / DAY_MS + 4) % 7); /* 1970-01-01 was a Thursday */
            int64_t at = day + (int64_t)e->minute * 60000;
            if ((e->weekday >= 0 && weekday != e->weekday) || at < now_ms || at - now_ms > SRV_TOURNEY_ANNOUNCE_MS ||
                at <= e->made)
                continue;
            const srv_page *p = site ? srv_site_find(site, e->variant) : NULL;
            if (!p) {
                if (!e->warned)
                    fprintf(stderr, "topochess serve: --tournaments line %d: no variant '%s': not scheduled\n",
                            e->line, e->variant);
                e->warned = 1;
                continue;
            }
            tp_tourney t;
            memset(&t, 0, sizeof t);
            unsigned char raw[TP_TOURNEY_ID_LEN / 2];
            tg_random_bytes(raw, sizeof raw);
            for (size_t k = 0; k < sizeof raw; k++)
                snprintf(t.id + 2 * k, 3, "%02x", raw[k]);
            snprintf(t.name, sizeof t.name, "%s", e->name);
            t.kind = e->kind;
            snprintf(t.variant, sizeof t.variant, "%s", p->slug);
            t.clock = e->clock;
            t.rated = e->rated;
            snprintf(t.sched_key, sizeof t.sched_key, "%s@%lld", e->name, (long long)at);
            t.starts_ms = at;
            t.minutes = e->kind == TP_ARENA ? e->size : 0;
            t.ends_ms = e->kind == TP_ARENA ? at + (int64_t)e->size * 60000 : 0;
            t.max_players = e->kind == TP_ARENA ? SRV_ARENA_MAX_PLAYERS : e->size;
            t.created_ms = now_ms;
            tc_error err;
            int rc = tp_tourney_insert(T->db, &t, &err);
            if (rc < 0 && rc != TP_EUNIQUE)
                fprintf(stderr, "topochess serve: tournaments: the schedule: %s\n", err.msg);
            else
                e->made = at; /* made here, or by another process (the key is taken) */
        }
    }
}
