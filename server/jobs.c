/* Work kept off the daemon's threads: see jobs.h. */
#include "jobs.h"

#include <pthread.h>
#include <stdlib.h>

struct srv_jobs {
    pthread_mutex_t lock;
    pthread_cond_t work, idle;
    srv_job *head, *tail; /* waiting, first in first out */
    srv_job *finished;    /* run, not yet claimed */
    int waiting, reserved, running, max_waiting, stopping, closed, nthreads;
    pthread_t threads[SRV_JOBS_MAX_THREADS];
};

static void *worker(void *arg)
{
    srv_jobs *J = arg;
    pthread_mutex_lock(&J->lock);
    for (;;) {
        while (!J->head && !J->stopping)
            pthread_cond_wait(&J->work, &J->lock);
        if (!J->head)
            break;
        srv_job *j = J->head;
        J->head = j->next;
        if (!J->head)
            J->tail = NULL;
        J->waiting--;
        J->running++;
        pthread_mutex_unlock(&J->lock);
        j->run(j);
        pthread_mutex_lock(&J->lock);
        j->next = J->finished;
        J->finished = j;
        pthread_mutex_unlock(&J->lock);
        j->resume(j); /* after it can be claimed */
        pthread_mutex_lock(&J->lock);
        J->running--;
        pthread_cond_broadcast(&J->idle);
    }
    pthread_mutex_unlock(&J->lock);
    return NULL;
}

srv_jobs *srv_jobs_start(int threads, int max_waiting)
{
    srv_jobs *J = calloc(1, sizeof *J);
    if (!J)
        return NULL;
    pthread_mutex_init(&J->lock, NULL);
    pthread_cond_init(&J->work, NULL);
    pthread_cond_init(&J->idle, NULL);
    J->max_waiting = max_waiting;
    for (int i = 0; i < threads && i < SRV_JOBS_MAX_THREADS; i++)
        if (!pthread_create(&J->threads[J->nthreads], NULL, worker, J))
            J->nthreads++;
    if (!J->nthreads) {
        srv_jobs_stop(J);
        return NULL;
    }
    return J;
}

int srv_jobs_reserve(srv_jobs *J)
{
    pthread_mutex_lock(&J->lock);
    int ok = !J->stopping && !J->closed && J->waiting + J->reserved < J->max_waiting;
    J->reserved += ok;
    pthread_mutex_unlock(&J->lock);
    return ok ? 0 : -1;
}

void srv_jobs_submit(srv_jobs *J, srv_job *j)
{
    pthread_mutex_lock(&J->lock);
    J->reserved--;
    j->next = NULL;
    if (J->tail)
        J->tail->next = j;
    else
        J->head = j;
    J->tail = j;
    J->waiting++;
    pthread_cond_signal(&J->work);
    pthread_mutex_unlock(&J->lock);
}

srv_job *srv_jobs_claim(srv_jobs *J, const void *key)
{
    pthread_mutex_lock(&J->lock);
    srv_job *found = NULL;
    for (srv_job **p = &J->finished; *p; p = &(*p)->next)
        if ((*p)->key == key) {
            found = *p;
            *p = found->next;
            break;
        }
    pthread_mutex_unlock(&J->lock);
    return found;
}

void srv_jobs_close(srv_jobs *J)
{
    if (!J)
        return;
    pthread_mutex_lock(&J->lock);
    J->closed = 1;
    while (J->waiting || J->running)
        pthread_cond_wait(&J->idle, &J->lock);
    pthread_mutex_unlock(&J->lock);
}

void srv_jobs_stop(srv_jobs *J)
{
    if (!J)
        return;
    pthread_mutex_lock(&J->lock);
    J->stopping = 1;
    pthread_cond_broadcast(&J->work);
    pthread_mutex_unlock(&J->lock);
    for (int i = 0; i < J->nthreads; i++)
        pthread_join(J->threads[i], NULL);
    while (J->finished) { /* run but never claimed: their connections closed */
        srv_job *j = J->finished;
        J->finished = j->next;
        j->drop(j);
    }
    pthread_mutex_destroy(&J->lock);
    pthread_cond_destroy(&J->work);
    pthread_cond_destroy(&J->idle);
    free(J);
}
