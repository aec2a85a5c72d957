/* Drives a protocol loop as a GUI would: the loop runs in its own thread
 * on two pipes, the script's lines are written to it one by one, and a
 * script line "#wait TEXT" holds the script until the output shows TEXT.
 * Every wait is bounded by a generous watchdog, so a hung loop fails the
 * test instead of hanging the suite; no test depends on how fast anything
 * is. */
#ifndef TC_PROTO_DRIVER_H
#define TC_PROTO_DRIVER_H

#include "protocols.h"

/* The watchdog of each wait and of the loop's end, in seconds. */
#define TH_PROTO_WATCHDOG 120

typedef int (*th_loop_fn)(FILE *in, FILE *out, const tc_variant_def *def, const proto_opts *opts);

/// What a run gave.
typedef struct th_proto_run {
    char *out;      /* everything the loop wrote (heap, NUL-ended) */
    int waits_ok;   /* every #wait was met */
    int ended;      /* the loop returned after the input was closed */
    char missed[128]; /* the first wait text not met, if any */
} th_proto_run;

/* Runs `loop` on preset `variant` (opts may be NULL) with `script`; the
 * input is closed after the last line. $TC_TEST_THREADS, when set, is the
 * loop's number of search threads (unless opts names one). Free run->out with free(). A loop
 * that does not end is left running (its test has failed). */
void th_proto_script(th_loop_fn loop, const char *variant, const proto_opts *opts, const char *script,
                     th_proto_run *run);

/* th_proto_script that fails the case when a wait or the loop's end timed
 * out; the output (heap, never NULL: free it). */
char *th_proto_checked(th_loop_fn loop, const char *variant, const char *script);

#endif
