/* Engine processes over pipes: spawning, line I/O with deadlines, and the
 * UCI and CECP conversations that `match` needs. Moves go to engines in
 * coordinate form (SAN for CECP engines that ask for it). */
#include "engine_proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define HANDSHAKE_MS 10000
#define FEATURE_MS 2000 /* protocol 2: how long features may take without done=0 */
#define QUIT_MS 1000

/* Pipes and fork under one lock, so that a child started by another game's
 * thread cannot inherit our pipe ends before they are close-on-exec. */
static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;

long ep_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) && errno == EINTR) {
    }
}

static void fail(ep_engine *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->error, sizeof e->error, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- lines */

static int send_text(ep_engine *e, const char *text)
{
    if (e->debug)
        fprintf(e->debug, "%ld %s> %s\n", ep_now_ms() % 1000000, e->tag, text);
    size_t n = strlen(text);
    char *buf = malloc(n + 1);
    if (!buf)
        return -1;
    memcpy(buf, text, n);
    buf[n] = '\n';
    size_t done = 0;
    while (done < n + 1) {
        ssize_t w = write(e->to_fd, buf + done, n + 1 - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            free(buf);
            return -1;
        }
        done += (size_t)w;
    }
    free(buf);
    return 0;
}

static int sendf(ep_engine *e, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    return send_text(e, line);
}

/* One line without its newline: 1, or 0 at the deadline, or -1 at end of
 * output. An overlong line is cut into pieces rather than refused. */
static int read_line(ep_engine *e, char *line, size_t size, long deadline)
{
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl || e->len == sizeof e->buf) {
            size_t k = nl ? (size_t)(nl - e->buf) : e->len;
            size_t copy = k < size - 1 ? k : size - 1;
            memcpy(line, e->buf, copy);
            line[copy] = '\0';
            if (copy && line[copy - 1] == '\r')
                line[copy - 1] = '\0';
            size_t drop = nl ? k + 1 : k;
            memmove(e->buf, e->buf + drop, e->len - drop);
            e->len -= drop;
            if (e->debug)
                fprintf(e->debug, "%ld %s< %s\n", ep_now_ms() % 1000000, e->tag, line);
            return 1;
        }
        long left = deadline - ep_now_ms();
        struct pollfd pfd = {e->from_fd, POLLIN, 0};
        int r = poll(&pfd, 1, left > 0 ? (int)left : 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 0;
        ssize_t got = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        e->len += (size_t)got;
    }
}

static int starts(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* Says why the engine went away, from its exit status if it has one soon:
 * its output closes just before it exits. */
static void fail_closed(ep_engine *e, const char *when)
{
    int status = 0;
    pid_t r = 0;
    for (int i = 0; i < 40 && r == 0; i++) {
        r = waitpid(e->pid, &status, WNOHANG);
        if (r == 0)
            sleep_ms(5);
    }
    if (r != e->pid) {
        fail(e, "engine closed its output %s", when);
        return;
    }
    e->pid = -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        fail(e, "engine closed its output %s (exit status 127: command not found?)", when);
    else if (WIFEXITED(status))
        fail(e, "engine closed its output %s (exit status %d)", when, WEXITSTATUS(status));
    else
        fail(e, "engine closed its output %s (killed by signal %d)", when,
             WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* ---------------------------------------------------------------- process */

static int spawn(ep_engine *e, const char *cmd)
{
    size_t n = strlen(cmd) + 8;
    char *script = malloc(n);
    if (!script)
        return -1;
    snprintf(script, n, "exec %s", cmd);
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    int in[2], out[2];
    pthread_mutex_lock(&spawn_lock);
    if (pipe(in)) {
        pthread_mutex_unlock(&spawn_lock);
        fail(e, "pipe: %s", strerror(errno));
        free(script);
        return -1;
    }
    if (pipe(out)) {
        pthread_mutex_unlock(&spawn_lock);
        close(in[0]);
        close(in[1]);
        fail(e, "pipe: %s", strerror(errno));
        free(script);
        return -1;
    }
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid == 0) {
        /* Own process group, so that a kill reaches whatever it starts. */
        setpgid(0, 0);
        dup2(in[0], 0);
        dup2(out[1], 1);
        if (!e->debug && devnull >= 0)
            dup2(devnull, 2);
        for (int fd = 3; fd < 1024; fd++)
            close(fd);
        execl("/bin/sh", "sh", "-c", script, (char *)NULL);
        _exit(127);
    }
    pthread_mutex_unlock(&spawn_lock);
    close(in[0]);
    close(out[1]);
    if (devnull >= 0)
        close(devnull);
    free(script);
    if (pid < 0) {
        close(in[1]);
        close(out[0]);
        fail(e, "fork: %s", strerror(errno));
        return -1;
    }
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    return 0;
}

/* Waits up to ms for the process to exit; 1 if it did (and is reaped). */
static int wait_exit(pid_t pid, int ms)
{
    long end = ep_now_ms() + ms;
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno == ECHILD))
            return 1;
        if (ep_now_ms() >= end)
            return 0;
        sleep_ms(5);
    }
}

void ep_stop(ep_engine *e, const char *result, const char *reason, int graceful)
{
    if (e->pid > 0) {
        int gone = 0;
        if (graceful) {
            if (e->proto == EP_CECP && result)
                sendf(e, "result %s {%s}", result, reason ? reason : "");
            send_text(e, "quit");
            gone = wait_exit(e->pid, QUIT_MS);
        }
        if (!gone) {
            kill(-e->pid, SIGTERM);
            kill(e->pid, SIGTERM);
            if (!wait_exit(e->pid, 200)) {
                kill(-e->pid, SIGKILL);
                kill(e->pid, SIGKILL);
                waitpid(e->pid, NULL, 0);
            }
        }
        e->pid = -1;
    }
    if (e->to_fd >= 0)
        close(e->to_fd);
    if (e->from_fd >= 0)
        close(e->from_fd);
    e->to_fd = e->from_fd = -1;
}

/* ---------------------------------------------------------------- handshake */

static void list_add(char *list, size_t size, const char *item, size_t len)
{
    size_t used = strlen(list);
    if (used + len + 2 > size)
        return;
    if (used)
        list[used++] = ',';
    memcpy(list + used, item, len);
    list[used + len] = '\0';
}

static int list_has(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = list; *s;) {
        const char *end = strchr(s, ',');
        size_t k = end ? (size_t)(end - s) : strlen(s);
        if (k == n && !strncmp(s, name, n))
            return 1;
        if (!end)
            break;
        s = end + 1;
    }
    return 0;
}

/* "option name NAME type combo default X var A var B" */
static void uci_option(ep_engine *e, const char *line)
{
    const char *name = line + strlen("option name ");
    const char *type = strstr(name, " type ");
    size_t len = type ? (size_t)(type - name) : strlen(name);
    list_add(e->options, sizeof e->options, name, len);
    if (len != strlen("UCI_Variant") || strncmp(name, "UCI_Variant", len) || !type)
        return;
    e->has_variant_option = 1;
    for (const char *v = strstr(type, " var "); v; v = strstr(v, " var ")) {
        v += 5;
        size_t k = strcspn(v, " ");
        list_add(e->variants, sizeof e->variants, v, k);
    }
}

static int uci_handshake(ep_engine *e)
{
    if (send_text(e, "uci"))
        return fail(e, "cannot write to the engine"), -1;
    long deadline = ep_now_ms() + HANDSHAKE_MS;
    char line[4096];
    for (;;) {
        int r = read_line(e, line, sizeof line, deadline);
        if (r == 0)
            return fail(e, "no 'uciok' within %d s (is it a UCI engine?)", HANDSHAKE_MS / 1000), -1;
        if (r < 0)
            return fail_closed(e, "during the UCI handshake"), -1;
        if (starts(line, "id name "))
            snprintf(e->name, sizeof e->name, "%.95s", line + 8);
        else if (starts(line, "option name "))
            uci_option(e, line);
        else if (!strcmp(line, "uciok"))
            return 0;
    }
}

/* Reads the key=value pairs of one feature line and accepts each. Returns
 * the value of done (0 or 1), or -1 if the line has none. */
static int cecp_features(ep_engine *e, const char *s)
{
    int done = -1;
    while (*s) {
        while (*s == ' ')
            s++;
        const char *eq = strchr(s, '=');
        if (!*s || !eq)
            break;
        char key[64], value[4096];
        size_t k = (size_t)(eq - s) < sizeof key - 1 ? (size_t)(eq - s) : sizeof key - 1;
        memcpy(key, s, k);
        key[k] = '\0';
        s = eq + 1;
        const char *end;
        if (*s == '"') {
            s++;
            end = strchr(s, '"');
            if (!end)
                end = s + strlen(s);
        } else {
            end = s + strcspn(s, " ");
        }
        size_t vlen = (size_t)(end - s) < sizeof value - 1 ? (size_t)(end - s) : sizeof value - 1;
        memcpy(value, s, vlen);
        value[vlen] = '\0';
        s = *end == '"' ? end + 1 : end;
        int on = atoi(value);
        if (!strcmp(key, "myname"))
            snprintf(e->name, sizeof e->name, "%.95s", value);
        else if (!strcmp(key, "variants"))
            snprintf(e->variants, sizeof e->variants, "%s", value);
        else if (!strcmp(key, "setboard"))
            e->setboard = on;
        else if (!strcmp(key, "usermove"))
            e->usermove = on;
        else if (!strcmp(key, "san"))
            e->san = on;
        else if (!strcmp(key, "ping"))
            e->ping = on;
        else if (!strcmp(key, "done"))
            done = on;
        sendf(e, "accepted %s", key);
    }
    return done;
}

static int cecp_handshake(ep_engine *e)
{
    if (send_text(e, "xboard") || send_text(e, "protover 2"))
        return fail(e, "cannot write to the engine"), -1;
    long deadline = ep_now_ms() + FEATURE_MS;
    int waiting = 0;
    char line[8192];
    for (;;) {
        int r = read_line(e, line, sizeof line, deadline);
        if (r == 0 && waiting)
            return fail(e, "no 'feature done=1' within %d s", HANDSHAKE_MS / 1000), -1;
        if (r == 0)
            break; /* a protocol 1 engine: no features */
        if (r < 0)
            return fail_closed(e, "during the CECP handshake"), -1;
        if (!starts(line, "feature "))
            continue;
        int done = cecp_features(e, line + 8);
        if (done == 1)
            break;
        if (done == 0) {
            waiting = 1;
            deadline = ep_now_ms() + HANDSHAKE_MS;
        }
    }
    return 0;
}

int ep_start(ep_engine *e, const char *cmd, ep_proto proto, FILE *debug, const char *tag)
{
    memset(e, 0, sizeof *e);
    e->proto = proto;
    e->pid = -1;
    e->to_fd = e->from_fd = -1;
    e->debug = debug;
    snprintf(e->tag, sizeof e->tag, "%s", tag ? tag : "");
    if (spawn(e, cmd))
        return -1;
    int r = proto == EP_UCI ? uci_handshake(e) : cecp_handshake(e);
    if (r) {
        ep_stop(e, NULL, NULL, 0);
        return -1;
    }
    return 0;
}

int ep_has_variant(const ep_engine *e, const char *name)
{
    if (e->proto == EP_CECP && !strcmp(name, "normal"))
        return 1; /* every CECP engine plays normal chess */
    return list_has(e->variants, name);
}

int ep_has_option(const ep_engine *e, const char *name) { return list_has(e->options, name); }

int ep_set_option(ep_engine *e, const char *name, const char *value)
{
    return sendf(e, "setoption name %s value %s", name, value);
}

const char *ep_variant_name(ep_proto proto, const char *ours)
{
    return proto == EP_CECP && !strcmp(ours, "chess") ? "normal" : ours;
}

/* ---------------------------------------------------------------- games */

/* Waits for `want` (readyok, or pong N). */
static int wait_for(ep_engine *e, const char *want)
{
    long deadline = ep_now_ms() + HANDSHAKE_MS;
    char line[4096];
    for (;;) {
        int r = read_line(e, line, sizeof line, deadline);
        if (r == 0)
            return fail(e, "no '%s' within %d s", want, HANDSHAKE_MS / 1000), -1;
        if (r < 0)
            return fail_closed(e, "while getting ready"), -1;
        if (!strcmp(line, want))
            return 0;
    }
}

static int from_variant_start(const tc_position *p)
{
    tc_position *q = tc_position_new(tc_position_variant(p));
    if (!q)
        return 0;
    char fen[800];
    tc_position_fen(q, fen, sizeof fen);
    tc_position_free(q);
    return !strcmp(fen, tc_position_start_fen(p));
}

int ep_new_game(ep_engine *e, const tc_position *p, const ep_limits *lim)
{
    const char *variant = tc_variant_def_of(tc_position_variant(p))->name;
    if (e->proto == EP_UCI) {
        if (e->has_variant_option)
            ep_set_option(e, "UCI_Variant", variant);
        if (send_text(e, "ucinewgame") || send_text(e, "isready"))
            return fail_closed(e, "at the start of the game"), -1;
        return wait_for(e, "readyok");
    }
    send_text(e, "new");
    if (strcmp(variant, "chess"))
        sendf(e, "variant %s", ep_variant_name(EP_CECP, variant));
    send_text(e, "force");
    if (!from_variant_start(p))
        sendf(e, "setboard %s", tc_position_start_fen(p));
    if (lim->tc_base_ms > 0) {
        int secs = (lim->tc_base_ms + 999) / 1000;
        sendf(e, "level 0 %d:%02d %g", secs / 60, secs % 60, lim->tc_inc_ms / 1000.0);
    } else if (lim->movetime_ms > 0) {
        sendf(e, "st %g", lim->movetime_ms / 1000.0);
    }
    send_text(e, "post"); /* thinking lines carry the scores adjudication reads */
    if (send_text(e, "easy"))
        return fail_closed(e, "at the start of the game"), -1;
    e->sent = 0;
    if (!e->ping)
        return 0;
    char pong[32];
    snprintf(pong, sizeof pong, "pong %d", ++e->ping_id);
    sendf(e, "ping %d", e->ping_id);
    return wait_for(e, pong);
}

/* Appends the moves of p's history from ply `from` on, replayed from the
 * start FEN, as the engine wants to read them. */
static char *moves_text(const ep_engine *e, const tc_position *p, int from, const char *prefix,
                        const char *sep)
{
    int n = tc_ply_count(p);
    size_t size = strlen(prefix) + (size_t)n * 40 + 8;
    char *out = malloc(size);
    tc_position *q = tc_position_new(tc_position_variant(p));
    tc_error err;
    if (!out || !q || tc_position_set_fen(q, tc_position_start_fen(p), &err)) {
        free(out);
        tc_position_free(q);
        return NULL;
    }
    size_t used = (size_t)snprintf(out, size, "%s", prefix);
    for (int i = 0; i < n; i++) {
        tc_move m = tc_history_move(p, i);
        if (i >= from) {
            char text[32];
            if (e->san)
                tc_move_to_san(q, m, text);
            else
                tc_move_to_uci(q, m, text);
            used += (size_t)snprintf(out + used, size - used, "%s%s%s", used ? sep : "",
                                     e->usermove ? "usermove " : "", text);
        }
        tc_make_move(q, m);
    }
    tc_position_free(q);
    return out;
}

static ep_reply uci_go(ep_engine *e, const tc_position *p, const ep_limits *lim)
{
    char prefix[900];
    if (from_variant_start(p))
        snprintf(prefix, sizeof prefix, "position startpos");
    else
        snprintf(prefix, sizeof prefix, "position fen %s", tc_position_start_fen(p));
    if (tc_ply_count(p) > 0)
        strcat(prefix, " moves");
    char *pos = moves_text(e, p, 0, prefix, " ");
    int bad = !pos || send_text(e, pos);
    free(pos);
    if (lim->tc_base_ms > 0)
        bad = bad || sendf(e, "go wtime %ld btime %ld winc %d binc %d", lim->clock_ms[0],
                           lim->clock_ms[1], lim->inc_ms[0], lim->inc_ms[1]);
    else if (lim->nodes > 0)
        bad = bad || sendf(e, "go nodes %ld", lim->nodes);
    else
        bad = bad || sendf(e, "go movetime %d", lim->movetime_ms);
    return bad ? EP_DIED : EP_MOVE;
}

static ep_reply cecp_go(ep_engine *e, const tc_position *p, const ep_limits *lim)
{
    /* Lines left from earlier turns (a claim after its own move, say) are
     * about positions already judged. */
    char line[4096];
    while (read_line(e, line, sizeof line, 0) == 1) {
    }
    int bad = 0;
    if (tc_ply_count(p) > e->sent) {
        /* One move per line: CECP has no multi-move command. */
        char *text = moves_text(e, p, e->sent, "", "\n");
        bad = !text || (text[0] && send_text(e, text));
        free(text);
    }
    e->sent = tc_ply_count(p);
    if (lim->tc_base_ms > 0) {
        int side = tc_side_to_move(p);
        long own = lim->clock_ms[side], opp = lim->clock_ms[!side];
        bad = bad || sendf(e, "time %ld", own > 0 ? own / 10 : 0);
        bad = bad || sendf(e, "otim %ld", opp > 0 ? opp / 10 : 0);
    }
    bad = bad || send_text(e, "go");
    return bad ? EP_DIED : EP_MOVE;
}

/* The score of a UCI `info ... score cp N | mate N` line; 1 if it has one
 * (bounds included: the last line before bestmove is what counts). */
static int uci_score(const char *line, int *out)
{
    const char *s = strstr(line, " score ");
    if (!s)
        return 0;
    s += 7;
    char *end;
    if (starts(s, "cp ")) {
        long v = strtol(s + 3, &end, 10);
        if (end == s + 3)
            return 0;
        *out = v > EP_MATE_SCORE / 2 ? EP_MATE_SCORE / 2 : v < -EP_MATE_SCORE / 2 ? -EP_MATE_SCORE / 2 : (int)v;
        return 1;
    }
    if (starts(s, "mate ")) {
        long v = strtol(s + 5, &end, 10);
        if (end == s + 5 || v > 10000 || v < -10000)
            return 0;
        *out = v >= 0 ? EP_MATE_SCORE - (int)v : -EP_MATE_SCORE - (int)v;
        return 1;
    }
    return 0;
}

/* A CECP thinking line: "ply score time nodes pv..."; 1 if it is one. */
static int cecp_score(const char *line, int *out)
{
    char *end;
    const char *s = line + strspn(line, " ");
    strtol(s, &end, 10);
    if (end == s || (*end != ' ' && *end != '.' && *end != '&'))
        return 0;
    s = end + strspn(end, " .&");
    long v = strtol(s, &end, 10);
    if (end == s || *end != ' ')
        return 0;
    *out = v > EP_MATE_SCORE ? EP_MATE_SCORE : v < -EP_MATE_SCORE ? -EP_MATE_SCORE : (int)v;
    return 1;
}

ep_reply ep_go(ep_engine *e, const tc_position *p, const ep_limits *lim, int timeout_ms,
               char *text, size_t size, long *elapsed_ms)
{
    text[0] = '\0';
    e->said[0] = '\0';
    e->has_score = 0;
    *elapsed_ms = 0;
    ep_reply sent = e->proto == EP_UCI ? uci_go(e, p, lim) : cecp_go(e, p, lim);
    long t0 = ep_now_ms(), deadline = t0 + timeout_ms;
    if (sent != EP_MOVE) {
        fail(e, "cannot write to the engine");
        return EP_DIED;
    }
    char line[4096];
    for (;;) {
        int r = read_line(e, line, sizeof line, deadline);
        *elapsed_ms = ep_now_ms() - t0;
        if (r == 0)
            return EP_TIMEOUT;
        if (r < 0) {
            fail_closed(e, "while thinking");
            return EP_DIED;
        }
        if (starts(line, "info string ") || starts(line, "telluser ") || starts(line, "Error"))
            snprintf(e->said, sizeof e->said, "%.255s", line);
        int sc;
        if (e->proto == EP_UCI ? starts(line, "info ") && uci_score(line, &sc) : cecp_score(line, &sc)) {
            e->has_score = 1;
            e->score = sc;
        }
        if (e->proto == EP_UCI) {
            if (starts(line, "bestmove")) {
                const char *m = line + 8;
                m += strspn(m, " ");
                snprintf(text, size, "%.*s", (int)strcspn(m, " "), m);
                return EP_MOVE;
            }
            continue;
        }
        if (starts(line, "move ")) {
            snprintf(text, size, "%s", line + 5);
            e->sent = tc_ply_count(p) + 1; /* its own move is on its board */
            send_text(e, "force");
            return EP_MOVE;
        }
        if (!strcmp(line, "resign") || starts(line, "resign ")) {
            snprintf(text, size, "%s", line);
            return EP_RESIGN;
        }
        if (starts(line, "1-0") || starts(line, "0-1") || starts(line, "1/2-1/2")) {
            snprintf(text, size, "%s", line);
            return EP_CLAIM;
        }
        if (starts(line, "Illegal move")) {
            snprintf(text, size, "%s", line);
            return EP_REJECT;
        }
    }
}
