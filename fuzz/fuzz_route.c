/* libFuzzer target: any request target (and method) given to the web
 * server's router must give a response with a status from its set, never
 * a crash, a leak or a read outside the input. The site is the presets'
 * pages in variants/ (run from the repository's root, as fuzz/ci.sh does). */
#include "route.h"
#include "site.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static srv_site *site; /* read-only once loaded */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    tc_error err;
    site = srv_site_load("variants", "variants", &err);
    if (!site)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const methods[] = {"GET", "HEAD", "POST", "OPTIONS"};
    const char *method = methods[size ? data[0] & 3 : 0];
    size_t n = size ? size - 1 : 0;
    char *target = malloc(n + 1);
    if (!target)
        return 0;
    if (n)
        memcpy(target, data + 1, n);
    target[n] = '\0';
    srv_request rq = {method, target, size > 1 && (data[0] & 4) ? "*" : NULL, size > 1 && (data[0] & 8) ? "gzip" : NULL};
    srv_response r;
    srv_route(site, &rq, &r);
    int st = r.status;
    if (st != 200 && st != 304 && st != 400 && st != 404 && st != 405 && st != 414)
        abort();
    if (r.fd < 0 && r.len && !r.body)
        abort();
    srv_response_release(&r);
    free(target);
    return 0;
}
