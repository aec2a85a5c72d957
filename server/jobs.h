/* Work kept off the daemon's threads: a few worker threads and a bounded
 * queue, first in first out. A request whose answer costs a password
 * hash (login, sign-up: tens of milliseconds of CPU and 19 MiB each) is
 * suspended, run here, and resumed; the daemon's threads meanwhile serve
 * every other client (issue 29: 16 login loops had slowed every read
 * tenfold). When the daemon calls the request's handler again, it claims
 * the finished job by its key (the connection) and sends the answer.
 *
 * Limits: SRV_JOBS_MAX_THREADS workers; a job beyond max_waiting queued
 * is refused (the caller answers 503 without suspending anything).
 *
 * Calls pthreads only. */
#ifndef SRV_JOBS_H
#define SRV_JOBS_H

#define SRV_JOBS_MAX_THREADS 8

typedef struct srv_jobs srv_jobs;

/// One job, inside the caller's own record.
typedef struct srv_job {
    const void *key;                  /* what srv_jobs_claim finds it by */
    void (*run)(struct srv_job *j);   /* on a worker */
    void (*resume)(struct srv_job *j); /* on the worker, once it can be claimed */
    void (*drop)(struct srv_job *j);  /* frees a job never claimed (at stop) */
    struct srv_job *next;
} srv_job;

srv_jobs *srv_jobs_start(int threads, int max_waiting);
/* A place in the queue: 0, or -1 when it is full or closed. Then the
 * caller suspends its connection and submits (so that the job's resume
 * never comes before the suspension). */
int srv_jobs_reserve(srv_jobs *J);
/* Queues j in the place reserved. */
void srv_jobs_submit(srv_jobs *J, srv_job *j);
/* The finished job of key, taken off the list, or NULL. */
srv_job *srv_jobs_claim(srv_jobs *J, const void *key);
/* Refuses new jobs and waits until none waits or runs (before the daemon
 * stops: a suspended connection would abort it). */
void srv_jobs_close(srv_jobs *J);
/* Stops the workers after the queued jobs and drops the unclaimed. */
void srv_jobs_stop(srv_jobs *J);

#endif
