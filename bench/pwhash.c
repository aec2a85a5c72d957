/* Login cost: milliseconds per Argon2id hash and per verification at the
 * hub's parameters (server/accounts.h), on one thread and with
 * SRV_HASHES_AT_ONCE threads at once. Built and run by bench/accounts.sh.
 *   pwhash [N]   (N hashes per figure, default 20) */
#include "accounts.h"

#include <pthread.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int n_each;
static char stored[crypto_pwhash_STRBYTES];

static void *verify_loop(void *arg)
{
    (void)arg;
    for (int i = 0; i < n_each; i++)
        if (crypto_pwhash_str_verify(stored, "klein bottle", 12))
            fprintf(stderr, "pwhash: a verification failed\n");
    return NULL;
}

int main(int argc, char **argv)
{
    n_each = argc > 1 ? atoi(argv[1]) : 20;
    if (n_each < 1 || sodium_init() < 0)
        return 1;
    printf("Argon2id, libsodium %s: %u KiB, %d passes, 1 lane; %d runs per figure\n", sodium_version_string(),
           SRV_PWHASH_MEMLIMIT / 1024, SRV_PWHASH_OPSLIMIT, n_each);
    double t = now();
    for (int i = 0; i < n_each; i++)
        if (crypto_pwhash_str_alg(stored, "klein bottle", 12, SRV_PWHASH_OPSLIMIT, SRV_PWHASH_MEMLIMIT,
                                  crypto_pwhash_ALG_ARGON2ID13))
            return 1;
    printf("hash (sign-up), one thread:  %8.1f ms\n", (now() - t) * 1000 / n_each);
    t = now();
    verify_loop(NULL);
    printf("verify (login), one thread:  %8.1f ms\n", (now() - t) * 1000 / n_each);
    pthread_t th[SRV_HASHES_AT_ONCE];
    t = now();
    for (int i = 0; i < SRV_HASHES_AT_ONCE; i++)
        pthread_create(&th[i], NULL, verify_loop, NULL);
    for (int i = 0; i < SRV_HASHES_AT_ONCE; i++)
        pthread_join(th[i], NULL);
    double el = now() - t;
    printf("verify, %d threads at once:  %8.1f ms each, %.1f logins/s\n", SRV_HASHES_AT_ONCE,
           el * 1000 / n_each, SRV_HASHES_AT_ONCE * n_each / el);
    return 0;
}
