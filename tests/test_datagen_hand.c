/* `topochess datagen --hand-eval`: the side file holds, for every record of
 * a data file, the static evaluation the engine reports over UCI for the
 * record's position with the hand-written evaluation (EvalFile <none>);
 * its header names the data file's size, record count and checksum; bad
 * input gets a clear error. Runs the built command (./topochess or
 * $TC_BIN) as a user would. */
#include "harness.h"
#include "nnue.h"
#include "proto_driver.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *binary(void)
{
    const char *bin = getenv("TC_BIN");
    if (!bin || !*bin || strchr(bin, '\'') || access(bin, X_OK))
        bin = access("./topochess", X_OK) == 0 ? "./topochess" : NULL;
    return bin;
}

/* Runs `bin args`, its stdout and stderr into out (heap); the exit status. */
static int run(const char *bin, const char *args, char **out)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' %s 2>&1", bin, args);
    FILE *p = popen(cmd, "r");
    size_t cap = 1 << 16, n = 0, got;
    char *b = malloc(cap);
    while (p && b && (got = fread(b + n, 1, cap - 1 - n, p)) > 0)
        if ((n += got) == cap - 1) {
            char *nb = realloc(b, cap *= 2);
            if (!nb)
                break;
            b = nb;
        }
    if (b)
        b[n] = '\0';
    int st = p ? pclose(p) : -1;
    *out = b;
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = n >= 0 ? malloc((size_t)n + 1) : NULL;
    *len = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    return b;
}

static uint64_t le(const unsigned char *b, int bytes)
{
    uint64_t x = 0;
    for (int i = bytes - 1; i >= 0; i--)
        x = x << 8 | b[i];
    return x;
}

static void test_values(const char *bin, const char *data, const char *side)
{
    char args[512], *out;
    th_case("datagen --hand-eval: the side file's header names the data file; one value per record");
    snprintf(args, sizeof args, "datagen --out %s --nodes 300 --games 3 --seed 7 --max-plies 90 --hash 1", data);
    int st = run(bin, args, &out);
    CHECK(st == 0, "datagen: exit %d: %s", st, out);
    free(out);
    snprintf(args, sizeof args, "datagen --hand-eval %s --out %s --threads 2", data, side);
    st = run(bin, args, &out);
    CHECK(st == 0 && !*out, "--hand-eval: exit %d: %s", st, out);
    free(out);
    size_t dlen = 0, slen = 0;
    unsigned char *d = slurp(data, &dlen), *s = slurp(side, &slen);
    if (!d || !s || slen < 32 || dlen < 128) {
        CHECK(0, "no data (%zu bytes) or side file (%zu bytes)", dlen, slen);
        free(d), free(s);
        return;
    }
    uint64_t records = (dlen - 128) / le(d + 16, 4);
    CHECK(!memcmp(s, "TCHE", 4) && le(s + 4, 4) == 1, "magic or version");
    CHECK(le(s + 8, 8) == dlen && le(s + 16, 8) == records && le(s + 24, 4) == nnue_crc32(d, dlen),
          "header: %llu bytes, %llu records, crc %08llx; the data: %zu bytes, %llu records, crc %08x",
          (unsigned long long)le(s + 8, 8), (unsigned long long)le(s + 16, 8), (unsigned long long)le(s + 24, 4),
          dlen, (unsigned long long)records, nnue_crc32(d, dlen));
    CHECK(slen == 32 + 2 * records && records > 20, "%zu bytes for %llu records", slen, (unsigned long long)records);

    th_case("datagen --hand-eval: each value is UCI's eval with EvalFile <none> for the record's FEN");
    snprintf(args, sizeof args, "datagen --to-text %s", data);
    st = run(bin, args, &out);
    CHECK(st == 0, "--to-text: exit %d", st);
    /* every third record, at most 40: a FEN per line after the comment */
    size_t cap = 1 << 16, n = 0;
    char *script = malloc(cap);
    n += (size_t)snprintf(script, cap, "setoption name EvalFile value <none>\n");
    int asked[64], na = 0;
    char *line = strchr(out, '\n');
    for (int i = 0; line && line[1] && na < 40; i++) {
        char *fen = line + 1, *semi = strchr(fen, ';');
        line = strchr(fen, '\n');
        if (!semi || i % 3)
            continue;
        n += (size_t)snprintf(script + n, cap - n, "position fen %.*s\neval\n", (int)(semi - fen), fen);
        asked[na++] = i;
    }
    snprintf(script + n, cap - n, "quit\n");
    char *uci = th_proto_checked(uci_loop_opts, "chess", script);
    char *at = uci;
    int compared = 0;
    for (int k = 0; k < na && at; k++) {
        at = strstr(at, "info string eval ");
        if (!at)
            break;
        int cp = atoi(at + 17), hand = (int16_t)le(s + 32 + 2 * (size_t)asked[k], 2);
        CHECK(cp == hand, "record %d: UCI says %d, the side file %d", asked[k], cp, hand);
        compared++;
        at++;
    }
    CHECK(compared == na && na >= 7, "compared %d of %d", compared, na);
    free(uci), free(script), free(out), free(d), free(s);
}

static void test_bad_input(const char *bin, const char *data, const char *side)
{
    char args[512], *out;
    th_case("datagen --hand-eval: a missing file, a cut header, a torn record get a clear message");
    snprintf(args, sizeof args, "datagen --hand-eval /nonexistent/x.bin --out %s", side);
    int st = run(bin, args, &out);
    CHECK(st == 1 && strstr(out, "cannot open '/nonexistent/x.bin'"), "exit %d: %s", st, out);
    free(out);
    size_t len;
    unsigned char *d = slurp(data, &len);
    char torn[128];
    snprintf(torn, sizeof torn, "%s.torn", data);
    FILE *f = fopen(torn, "wb");
    CHECK(f && d && fwrite(d, 1, 100, f) == 100, "write %s", torn);
    if (f)
        fclose(f);
    snprintf(args, sizeof args, "datagen --hand-eval %s --out %s", torn, side);
    st = run(bin, args, &out);
    CHECK(st == 1 && strstr(out, "too short for a datagen file"), "cut header: exit %d: %s", st, out);
    free(out);
    /* whole records and 5 bytes of the next one */
    size_t rs = d ? (size_t)le(d + 16, 4) : 0, keep = 128 + 10 * rs + 5;
    f = fopen(torn, "wb");
    CHECK(f && d && len > keep && fwrite(d, 1, keep, f) == keep, "write %s", torn);
    if (f)
        fclose(f);
    st = run(bin, args, &out);
    CHECK(st == 0 && strstr(out, "ends in a cut-off record (5 bytes), left out"), "torn: exit %d: %s", st, out);
    free(out);
    size_t slen;
    unsigned char *s = slurp(side, &slen);
    CHECK(s && slen == 32 + 2 * 10 && le(s + 8, 8) == keep && le(s + 16, 8) == 10, "torn: side file of %zu bytes",
          slen);
    snprintf(args, sizeof args, "datagen --hand-eval %s --out %s --variant chess", data, side);
    st = run(bin, args, &out);
    CHECK(st == 0, "the board may be named: exit %d: %s", st, out);
    free(out);
    snprintf(args, sizeof args, "datagen --hand-eval %s --out %s --variant klein-bottle", data, side);
    st = run(bin, args, &out);
    CHECK(st == 1 && strstr(out, "the data is 8x8"), "a board of another size: exit %d: %s", st, out);
    free(out);
    free(s), free(d);
    unlink(torn);
}

void suite_datagen_hand(void)
{
    const char *bin = binary();
    if (!bin) {
        th_case("datagen --hand-eval");
        fprintf(stderr, "note: no ./topochess and no $TC_BIN: the --hand-eval checks are skipped\n");
        return;
    }
    char data[96], side[96];
    snprintf(data, sizeof data, "/tmp/tc_hand_%ld.bin", (long)getpid());
    snprintf(side, sizeof side, "/tmp/tc_hand_%ld.hand", (long)getpid());
    unlink(data);
    test_values(bin, data, side);
    test_bad_input(bin, data, side);
    unlink(data);
    unlink(side);
}
