/* `topochess match`: its configuration, read from key=value words
 * (match_parse_args) with a message naming each bad word, and its usage.
 * The games themselves are played by match.c. */
#include "match.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- config */

void match_config_init(match_config *cfg, const tc_variant_def *def)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->def = *def;
    cfg->eng[0].skill = cfg->eng[1].skill = -1;
    cfg->games = 2;
    cfg->margin_ms = -1;
    cfg->balance_depth = 6;
    cfg->hang_ms = 60000;
    cfg->plies = 4;
    cfg->seed = 1;
    cfg->maxplies = 400;
    cfg->concurrency = 1;
    snprintf(cfg->event, sizeof cfg->event, "topochess match");
}

static int bad(tc_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_long(const char *key, const char *value, long lo, long hi, long *out, tc_error *err)
{
    char *end;
    long n = strtol(value, &end, 10);
    if (!*value || *end || n < lo || n > hi)
        return bad(err, "%s=%s: expected a whole number from %ld to %ld", key, value, lo, hi);
    *out = n;
    return 0;
}

static int parse_seconds(const char *text, int *ms)
{
    char *end;
    double s = strtod(text, &end);
    if (end == text || s < 0 || s > 1e6)
        return -1;
    *ms = (int)(s * 1000 + 0.5);
    return (int)(end - text);
}

/* engineN=CMD or engineN=self:LEVEL */
static int set_engine(match_engine_cfg *e, const char *value, const char *self, tc_error *err)
{
    if (!strncmp(value, "self", 4) && (value[4] == '\0' || value[4] == ':')) {
        snprintf(e->cmd, sizeof e->cmd, "%s", self);
        e->proto = EP_UCI;
        long level = -1;
        if (value[4] == ':' && parse_long("self", value + 5, 0, 100, &level, err))
            return -1;
        e->skill = (int)level;
        return 0;
    }
    if (!*value)
        return bad(err, "empty engine command");
    if (strlen(value) >= sizeof e->cmd)
        return bad(err, "engine command too long");
    snprintf(e->cmd, sizeof e->cmd, "%s", value);
    return 0;
}

static int set_proto(match_engine_cfg *e, const char *value, tc_error *err)
{
    if (!strcmp(value, "uci"))
        e->proto = EP_UCI;
    else if (!strcmp(value, "cecp") || !strcmp(value, "xboard"))
        e->proto = EP_CECP;
    else
        return bad(err, "proto=%s: expected uci or cecp", value);
    return 0;
}

/* KEY=A,B[,C]: `count` whole numbers, none negative. */
static int parse_list(const char *key, const char *val, int count, long *out, tc_error *err)
{
    const char *s = val;
    for (int i = 0; i < count; i++) {
        char *end;
        out[i] = strtol(s, &end, 10);
        if (end == s || out[i] < 0 || out[i] > 100000 || (i + 1 < count ? *end != ',' : *end != '\0'))
            return bad(err, "%s=%s: expected %d whole numbers separated by commas", key, val, count);
        s = end + 1;
    }
    return 0;
}

/// One limit as given: kind 0 none, 1 movetime, 2 nodes, 3 clock.
typedef struct {
    int kind, movetime;
    long nodes;
    int base, inc;
} limit_spec;

int match_parse_args(match_config *cfg, int argc, char **argv, const char *self, tc_error *err)
{
    limit_spec glob = {0, 0, 0, 0, 0}, spec[2] = {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}};
    for (int i = 0; i < argc; i++) {
        const char *eq = strchr(argv[i], '=');
        if (!eq)
            return bad(err, "'%s': arguments are key=value words (see 'topochess match help')", argv[i]);
        char key[32];
        snprintf(key, sizeof key, "%.*s", (int)(eq - argv[i]), argv[i]);
        const char *val = eq + 1;
        size_t klen = strlen(key);
        /* A trailing 1 or 2 picks one engine; no digit means both. */
        int first = 0, last = 1;
        char base[32];
        snprintf(base, sizeof base, "%s", key);
        if (klen > 1 && (key[klen - 1] == '1' || key[klen - 1] == '2')) {
            first = last = key[klen - 1] - '1';
            base[klen - 1] = '\0';
        }
        long n = 0;
        int r = 0;
        if (!strcmp(base, "option")) {
            const char *eq2 = strchr(val, '=');
            if (!eq2 || eq2 == val || eq2 - val >= 64 || strlen(eq2 + 1) >= 64)
                return bad(err, "%s: expected NAME=VALUE (each under 64 characters), got '%s'", key, val);
            for (int k = first; k <= last; k++) {
                match_engine_cfg *e = &cfg->eng[k];
                if (e->noptions == MATCH_MAX_OPTIONS)
                    return bad(err, "%s: at most %d options per engine", key, MATCH_MAX_OPTIONS);
                snprintf(e->option[e->noptions][0], 64, "%.*s", (int)(eq2 - val), val);
                snprintf(e->option[e->noptions][1], 64, "%s", eq2 + 1);
                e->noptions++;
            }
        } else if (!strcmp(base, "engine") || !strcmp(base, "proto") || !strcmp(base, "name") ||
                   !strcmp(base, "skill")) {
            for (int k = first; k <= last && !r; k++) {
                match_engine_cfg *e = &cfg->eng[k];
                if (!strcmp(base, "engine"))
                    r = set_engine(e, val, self, err);
                else if (!strcmp(base, "proto"))
                    r = set_proto(e, val, err);
                else if (!strcmp(base, "name"))
                    snprintf(e->name, sizeof e->name, "%s", val);
                else if (!(r = parse_long(key, val, 0, 100, &n, err)))
                    e->skill = (int)n;
            }
        } else if (!strcmp(key, "games")) {
            r = parse_long(key, val, 1, 1000000, &n, err);
            cfg->games = (int)n;
        } else if (!strcmp(base, "movetime") || !strcmp(base, "nodes") || !strcmp(base, "tc")) {
            limit_spec l = {0, 0, 0, 0, 0};
            if (!strcmp(base, "movetime")) {
                r = parse_long(key, val, 1, 86400000, &n, err);
                l.kind = 1;
                l.movetime = (int)n;
            } else if (!strcmp(base, "nodes")) {
                r = parse_long(key, val, 1, 2000000000, &n, err);
                l.kind = 2;
                l.nodes = n;
            } else {
                l.kind = 3;
                int used = parse_seconds(val, &l.base);
                int ok = used > 0 && l.base > 0;
                if (ok && val[used]) {
                    int inc = val[used] == '+' ? parse_seconds(val + used + 1, &l.inc) : -1;
                    ok = inc > 0 && !val[used + 1 + inc];
                }
                if (!ok)
                    return bad(err, "%s=%s: expected SECONDS or SECONDS+INCREMENT", key, val);
            }
            limit_spec *slot = first == last ? &spec[first] : &glob;
            if (slot->kind && slot->kind != l.kind)
                return bad(err, "give one of movetime%s=, tc%s= and nodes%s=", first == last ? key + klen - 1 : "",
                           first == last ? key + klen - 1 : "", first == last ? key + klen - 1 : "");
            *slot = l;
        } else if (!strcmp(key, "sprt")) {
            match_sprt *t = &cfg->sprt;
            char extra;
            if (sscanf(val, "%lf,%lf,%lf,%lf%c", &t->elo0, &t->elo1, &t->alpha, &t->beta, &extra) != 4 ||
                !(t->elo1 > t->elo0) || !(t->alpha > 0 && t->alpha < 0.5) || !(t->beta > 0 && t->beta < 0.5))
                return bad(err, "sprt=%s: expected ELO0,ELO1,ALPHA,BETA with elo0 < elo1 and 0 < alpha, beta < 0.5", val);
            t->on = 1;
        } else if (!strcmp(key, "sprt-prior")) {
            long a[5];
            if (parse_list(key, val, 5, a, err))
                return -1;
            for (int j = 0; j < 5; j++)
                cfg->sprt.prior.n[j] = (int)a[j];
        } else if (!strcmp(key, "resign")) {
            long a[2];
            if (parse_list(key, val, 2, a, err))
                return -1;
            cfg->adj.resign_moves = (int)a[0];
            cfg->adj.resign_cp = (int)a[1];
        } else if (!strcmp(key, "draw")) {
            long a[3];
            if (parse_list(key, val, 3, a, err))
                return -1;
            cfg->adj.draw_movenumber = (int)a[0];
            cfg->adj.draw_moves = (int)a[1];
            cfg->adj.draw_cp = (int)a[2];
        } else if (!strcmp(key, "balance")) {
            r = parse_long(key, val, 0, 10000, &n, err);
            cfg->balance_cp = (int)n;
        } else if (!strcmp(key, "balancedepth")) {
            r = parse_long(key, val, 1, 30, &n, err);
            cfg->balance_depth = (int)n;
        } else if (!strcmp(key, "margin")) {
            r = parse_long(key, val, 0, 600000, &n, err);
            cfg->margin_ms = (int)n;
        } else if (!strcmp(key, "timeout")) {
            r = parse_long(key, val, 1, 86400000, &n, err);
            cfg->hang_ms = (int)n;
        } else if (!strcmp(key, "openings")) {
            int digits = *val != '\0';
            for (const char *s = val; *s; s++)
                digits = digits && isdigit((unsigned char)*s);
            if (digits) {
                r = parse_long(key, val, 0, 1000000, &n, err);
                cfg->openings = (int)n;
            } else {
                snprintf(cfg->openings_file, sizeof cfg->openings_file, "%s", val);
            }
        } else if (!strcmp(key, "plies")) {
            r = parse_long(key, val, 0, 200, &n, err);
            cfg->plies = (int)n;
            cfg->plies_given = 1;
        } else if (!strcmp(key, "seed")) {
            char *end;
            cfg->seed = strtoull(val, &end, 10);
            if (!*val || *end)
                return bad(err, "seed=%s: expected a whole number", val);
        } else if (!strcmp(key, "maxplies")) {
            r = parse_long(key, val, 1, 100000, &n, err);
            cfg->maxplies = (int)n;
        } else if (!strcmp(key, "concurrency")) {
            r = parse_long(key, val, 1, MATCH_MAX_CONCURRENCY, &n, err);
            cfg->concurrency = (int)n;
        } else if (!strcmp(key, "pgn")) {
            snprintf(cfg->pgn_path, sizeof cfg->pgn_path, "%s", val);
        } else if (!strcmp(key, "event")) {
            snprintf(cfg->event, sizeof cfg->event, "%s", val);
        } else if (!strcmp(key, "debug")) {
            r = parse_long(key, val, 0, 1, &n, err);
            cfg->debug = (int)n;
        } else {
            return bad(err, "unknown key '%s' (see 'topochess match help')", key);
        }
        if (r)
            return -1;
    }
    if (!cfg->sprt.on && match_penta_total(&cfg->sprt.prior) > 0)
        return bad(err, "sprt-prior= continues an SPRT: give sprt= too");
    if (!cfg->eng[0].cmd[0] || !cfg->eng[1].cmd[0])
        return bad(err, "give both engines: engine1=CMD engine2=CMD (or engine=CMD for both)");
    if (!glob.kind)
        glob = (limit_spec){1, 100, 0, 0, 0};
    cfg->movetime_ms = glob.kind == 1 ? glob.movetime : 0;
    cfg->nodes = glob.kind == 2 ? glob.nodes : 0;
    cfg->tc_base_ms = glob.kind == 3 ? glob.base : 0;
    cfg->tc_inc_ms = glob.kind == 3 ? glob.inc : 0;
    for (int k = 0; k < 2; k++) {
        const limit_spec *l = spec[k].kind ? &spec[k] : &glob;
        match_engine_cfg *e = &cfg->eng[k];
        e->movetime_ms = l->kind == 1 ? l->movetime : 0;
        e->nodes = l->kind == 2 ? l->nodes : 0;
        e->tc_base_ms = l->kind == 3 ? l->base : 0;
        e->tc_inc_ms = l->kind == 3 ? l->inc : 0;
        if (e->nodes > 0 && e->proto == EP_CECP)
            return bad(err, "nodes= needs UCI engines; engine%d speaks CECP", k + 1);
    }
    return 0;
}

void match_usage(FILE *out)
{
    fprintf(out,
            "usage: topochess match [--variant NAME] engine1=CMD engine2=CMD [key=value ...]\n"
            "  engine1=CMD, engine2=CMD  shell commands, or self[:SKILL] for this binary's uci\n"
            "  option1=NAME=VALUE  a UCI option to set (repeatable, up to 32 per engine)\n"
            "  proto1=, proto2=    uci (default) or cecp\n"
            "  name1=, name2=      names for the report and the PGN\n"
            "  skill1=, skill2=    a Skill Level to set (0-100)\n"
            "  engine=, option=, proto=, name=, skill=  without 1 or 2: the same for both engines\n"
            "  games=N             games to play (default 2), in pairs with colours swapped\n"
            "  movetime=MS | tc=SECONDS[+INC] | nodes=N   limit per move (default movetime=100);\n"
            "                      movetime1= nodes2= tc1= ... give one engine its own limit\n"
            "  margin=MS           grace before a late move loses (default 100 + half the\n"
            "                      move time; under tc= 100 + base/400 + increment)\n"
            "  timeout=MS          deadline for a nodes= move (default 60000)\n"
            "  openings=N plies=K seed=S   N random openings of K plies (default 4)\n"
            "  balance=CP balancedepth=D   keep random openings a depth-D search (default 6)\n"
            "                      scores within CP centipawns\n"
            "  openings=FILE       one FEN or one move list per line; .epd (FEN first\n"
            "                      fields) or .pgn (each game's moves, plies= caps them)\n"
            "  sprt=ELO0,ELO1,ALPHA,BETA   stop when the SPRT (pentanomial GSPRT) decides\n"
            "  sprt-prior=N0,N1,N2,N3,N4   continue an earlier run of the same SPRT: its\n"
            "                      pair counts (the Ptnml line of its log) count too\n"
            "  resign=MOVES,CP     adjudicate a win when both engines score it >= CP for\n"
            "                      MOVES moves each\n"
            "  draw=MOVENUMBER,MOVES,CP   adjudicate a draw after MOVENUMBER when both\n"
            "                      score within CP for MOVES moves each\n"
            "  maxplies=N          draw after N plies (default 400)\n"
            "  concurrency=N       games played at once (default 1)\n"
            "  pgn=FILE event=NAME debug=1\n");
}
