/* Test runner: runs every suite (or those named on the command line) and
 * ends with the line "N passed, N failed". */
#include "harness.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;
static int case_open, case_failed;
static char case_name[256];

static void close_case(void)
{
    if (!case_open)
        return;
    if (case_failed)
        failed++;
    else
        passed++;
    case_open = 0;
}

void th_case(const char *fmt, ...)
{
    close_case();
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(case_name, sizeof case_name, fmt, ap);
    va_end(ap);
    case_open = 1;
    case_failed = 0;
}

void th_fail(const char *file, int line, const char *fmt, ...)
{
    if (!case_open)
        th_case("(unnamed)");
    if (case_failed < 5) {
        fprintf(stderr, "FAIL [%s] %s:%d: ", case_name, file, line);
        va_list ap;
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
    }
    case_failed++;
}

const char *th_perft_dir(void)
{
    static const char *shared = "../shared/perft";
    return access(shared, R_OK) == 0 ? shared : "tests/data/perft";
}

int th_sanitize(void) { return getenv("TC_SANITIZE") != NULL; }

tc_variant *th_variant(const char *name)
{
    tc_variant_def def;
    tc_error err;
    tc_variant *v = NULL;
    if (tc_preset_find(name, &def, &err) == 0)
        v = tc_variant_new(&def, &err);
    CHECK(v != NULL, "variant %s: %s", name, err.msg);
    return v;
}

typedef struct {
    const char *name;
    void (*run)(void);
} suite;

#define TH_ENTRY(n) {#n, suite_##n},
static const suite suites[] = {TH_SUITES(TH_ENTRY)};

/* Arguments: suite names to run, or -NAME to leave one out (only -NAMEs:
 * every other suite runs); an unknown name is an error (exit 2). */
int main(int argc, char **argv)
{
    size_t nsuites = sizeof suites / sizeof suites[0];
    int named = 0;
    for (int a = 1; a < argc; a++) {
        const char *name = argv[a][0] == '-' ? argv[a] + 1 : argv[a];
        int known = 0;
        for (size_t i = 0; i < nsuites; i++)
            known |= strcmp(name, suites[i].name) == 0;
        if (!known) {
            fprintf(stderr, "run_tests: unknown suite '%s' (suites: the names of tests/test_*.c)\n", name);
            return 2;
        }
        named |= argv[a][0] != '-';
    }
    for (size_t i = 0; i < nsuites; i++) {
        int wanted = !named;
        for (int a = 1; a < argc; a++) {
            if (argv[a][0] == '-' && strcmp(argv[a] + 1, suites[i].name) == 0)
                wanted = 0;
            else if (strcmp(argv[a], suites[i].name) == 0)
                wanted = 1;
        }
        if (!wanted)
            continue;
        int p0 = passed, f0 = failed;
        clock_t t0 = clock();
        suites[i].run();
        close_case();
        fprintf(stderr, "suite %-13s %5d passed, %d failed (%.1f s)\n", suites[i].name, passed - p0,
                failed - f0, (double)(clock() - t0) / CLOCKS_PER_SEC);
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
