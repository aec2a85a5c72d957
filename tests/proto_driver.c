/* The protocol driver of proto_driver.h: pipes, a loop thread, and a pump
 * that writes input and reads output under one watchdog. */
#include "proto_driver.h"

#include "harness.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/// The loop thread's arguments; heap, freed by the thread (it may outlive
/// a failed test).
typedef struct loop_job {
    th_loop_fn loop;
    tc_variant_def def;
    proto_opts opts;
    int has_opts;
    FILE *in, *out;
} loop_job;

static void *loop_main(void *arg)
{
    loop_job *j = arg;
    j->loop(j->in, j->out, &j->def, j->has_opts ? &j->opts : NULL);
    fclose(j->in);
    fclose(j->out); /* the driver reads to this end of output */
    free(j);
    return NULL;
}

/// The driver's side: its ends of the pipes and the output so far.
typedef struct pump {
    int to_loop, from_loop;
    char *buf;
    size_t len, cap, mark; /* mark: output before it is consumed by waits */
    int eof;
} pump;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void take_output(pump *p)
{
    if (p->cap - p->len < 4097) {
        size_t cap = p->cap * 2 + 8192;
        char *b = realloc(p->buf, cap);
        if (!b) {
            p->eof = 1;
            return;
        }
        p->buf = b;
        p->cap = cap;
    }
    ssize_t got = read(p->from_loop, p->buf + p->len, 4096);
    if (got <= 0) {
        if (got == 0 || (errno != EINTR && errno != EAGAIN))
            p->eof = 1;
        return;
    }
    p->len += (size_t)got;
    p->buf[p->len] = '\0';
}

/* Writes n bytes (NULL: none), then waits until `text` shows after the
 * mark (NULL: no wait; "": until the output ends). Output is read all the
 * while, so neither side blocks the other. 0 when done in time. */
static int pump_run(pump *p, const char *data, size_t n, const char *text, double deadline)
{
    size_t sent = 0;
    for (;;) {
        if (sent == n && text && *text) {
            char *hit = p->buf ? strstr(p->buf + p->mark, text) : NULL;
            if (hit) {
                p->mark = (size_t)(hit - p->buf) + strlen(text);
                return 0;
            }
        }
        if (sent == n && (!text || (!*text && p->eof)))
            return 0;
        if (p->eof && sent == n)
            return -1; /* the text can no longer come */
        double left = deadline - now_s();
        if (left <= 0)
            return -1;
        struct pollfd fds[2] = {{p->from_loop, POLLIN, 0}, {p->to_loop, POLLOUT, 0}};
        int nfds = sent < n ? 2 : 1;
        if (p->eof) {
            fds[0].fd = -1;
        }
        int r = poll(fds, (nfds_t)nfds, left > 1 ? 1000 : (int)(left * 1000) + 1);
        if (r < 0 && errno != EINTR)
            return -1;
        if (r <= 0)
            continue;
        if (fds[0].revents)
            take_output(p);
        if (nfds == 2 && fds[1].revents) {
            if (fds[1].revents & (POLLERR | POLLHUP))
                return -1;
            ssize_t w = write(p->to_loop, data + sent, n - sent);
            if (w < 0 && errno != EINTR && errno != EAGAIN)
                return -1;
            if (w > 0)
                sent += (size_t)w;
        }
    }
}

void th_proto_script(th_loop_fn loop, const char *variant, const proto_opts *opts, const char *script,
                     th_proto_run *run)
{
    memset(run, 0, sizeof *run);
    signal(SIGPIPE, SIG_IGN); /* a loop that has quit closes its input */
    loop_job *j = calloc(1, sizeof *j);
    tc_error err;
    int in_pipe[2], out_pipe[2];
    if (!j || tc_preset_find(variant, &j->def, &err) || pipe(in_pipe)) {
        free(j);
        CHECK(0, "driver: cannot start %s", variant);
        return;
    }
    if (pipe(out_pipe)) {
        close(in_pipe[0]);
        close(in_pipe[1]);
        free(j);
        CHECK(0, "driver: no pipe");
        return;
    }
    j->loop = loop;
    if (opts) {
        j->opts = *opts;
        j->has_opts = 1;
    }
    /* `make tsan` runs the loops with several search threads */
    const char *threads = getenv("TC_TEST_THREADS");
    if (threads && atoi(threads) > 0 && (!opts || !opts->threads)) {
        j->opts.threads = atoi(threads);
        j->has_opts = 1;
    }
    j->in = fdopen(in_pipe[0], "r");
    j->out = fdopen(out_pipe[1], "w");
    pthread_t th;
    if (!j->in || !j->out || pthread_create(&th, NULL, loop_main, j)) {
        CHECK(0, "driver: cannot start the loop thread");
        if (j->in)
            fclose(j->in);
        else
            close(in_pipe[0]);
        if (j->out)
            fclose(j->out);
        else
            close(out_pipe[1]);
        close(in_pipe[1]);
        close(out_pipe[0]);
        free(j);
        return;
    }
    pump p = {in_pipe[1], out_pipe[0], NULL, 0, 0, 0, 0};
    run->waits_ok = 1;
    for (const char *s = script; *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) + 1 : strlen(s);
        if (!strncmp(s, "#wait ", 6)) {
            char text[128];
            size_t tn = n - 6 - (nl ? 1 : 0);
            if (tn >= sizeof text)
                tn = sizeof text - 1;
            memcpy(text, s + 6, tn);
            text[tn] = '\0';
            if (pump_run(&p, NULL, 0, text, now_s() + TH_PROTO_WATCHDOG) && run->waits_ok) {
                run->waits_ok = 0;
                snprintf(run->missed, sizeof run->missed, "%s", text);
            }
        } else {
            pump_run(&p, s, n, NULL, now_s() + TH_PROTO_WATCHDOG);
        }
        s += n;
    }
    close(p.to_loop); /* end of input */
    run->ended = pump_run(&p, NULL, 0, "", now_s() + TH_PROTO_WATCHDOG) == 0;
    if (run->ended)
        pthread_join(th, NULL);
    else
        pthread_detach(th); /* hung: left to the end of the process */
    close(p.from_loop);
    run->out = p.buf ? p.buf : calloc(1, 1);
}

char *th_proto_checked(th_loop_fn loop, const char *variant, const char *script)
{
    th_proto_run r;
    th_proto_script(loop, variant, NULL, script, &r);
    CHECK(r.waits_ok, "waited in vain for '%s':\n%.3000s", r.missed, r.out ? r.out : "");
    CHECK(r.ended, "the loop did not end after the input closed:\n%.3000s", r.out ? r.out : "");
    return r.out ? r.out : calloc(1, 1);
}
