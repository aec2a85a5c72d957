/* `topochess datagen`: the record and header codings, the writer and
 * reader, real (tiny) self-play runs that must be byte-identical whatever
 * the thread count and however they were interrupted, and option errors. */
#include "datagen.h"
#include "harness.h"
#include "nnue.h"
#include "topochess_engine.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A small run: a few short games of standard chess at a low node budget. */
static void small_config(dg_config *c, const char *out, int threads)
{
    dg_config_init(c);
    c->out = out;
    c->nodes = 300;
    c->games = 4;
    c->threads = threads;
    c->seed = 7;
    c->max_plies = 90;
    c->hash_mb = 1;
}

static int spit(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t w = fwrite(data, 1, len, f);
    return fclose(f) == 0 && w == len ? 0 : -1;
}

static void temp_path(char *buf, size_t n, const char *tag)
{
    snprintf(buf, n, "/tmp/tc_datagen_%ld_%s.bin", (long)getpid(), tag);
    unlink(buf);
}

static void test_record_coding(void)
{
    th_case("datagen: a record survives packing, on boards with odd and even cell counts");
    static const int sizes[][2] = {{8, 8}, {8, 14}, {5, 5}, {16, 16}, {3, 2}};
    uint64_t rng = 12345;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int cells = sizes[k][0] * sizes[k][1];
        CHECK(dg_record_size(cells) == (size_t)(cells + 1) / 2 + 10, "record size of %d cells: %zu", cells,
              dg_record_size(cells));
        for (int trial = 0; trial < 50; trial++) {
            dg_record a, b;
            memset(&a, 0, sizeof a);
            for (int s = 0; s < cells; s++) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                int t = (int)(rng >> 33) % 7, c = (int)(rng >> 40) & 1;
                a.board[s] = (uint8_t)(t ? TC_PIECE(c, t) : 0);
            }
            a.stm = trial & 1;
            a.castling = trial % 16;
            a.result = trial % 3 - 1;
            a.score = (trial * 977) % (2 * DG_SCORE_MAX + 1) - DG_SCORE_MAX;
            a.ply = trial * 1301 % 65536;
            a.game = 0xfedc0000u + (uint32_t)trial;
            uint8_t buf[TC_MAX_CELLS / 2 + 16];
            memset(buf, 0xaa, sizeof buf);
            dg_record_pack(&a, cells, buf);
            CHECK(buf[dg_record_size(cells)] == 0xaa, "%d cells: packing wrote past the record", cells);
            dg_record_unpack(buf, cells, &b);
            CHECK(!memcmp(a.board, b.board, (size_t)cells), "%d cells, trial %d: board differs", cells, trial);
            CHECK(a.stm == b.stm && a.castling == b.castling && a.result == b.result && a.score == b.score &&
                      a.ply == b.ply && a.game == b.game,
                  "%d cells, trial %d: fields differ (score %d/%d, result %d/%d, ply %d/%d)", cells, trial,
                  a.score, b.score, a.result, b.result, a.ply, b.ply);
        }
    }

    th_case("datagen: header coding, and a wrong magic, version or record size refused");
    dg_header h, back;
    memset(&h, 0, sizeof h);
    h.version = DG_VERSION;
    h.width = 8;
    h.height = 14;
    h.record_size = (uint32_t)dg_record_size(112);
    h.seed = 0x0123456789abcdefull;
    h.nodes = 5000;
    h.random_plies = 9;
    h.hash_mb = 16;
    h.max_plies = 400;
    h.scored_by_net = 1;
    h.net_crc = 0xdeadbeefu;
    snprintf(h.name, sizeof h.name, "klein-bottle");
    uint8_t buf[DG_HEADER_SIZE];
    dg_header_pack(&h, buf);
    tc_error err;
    CHECK(dg_header_unpack(buf, &back, &err) == 0, "unpack: %s", err.msg);
    CHECK(!memcmp(&h, &back, sizeof h), "header differs after a round trip");
    buf[0] = 'X';
    CHECK(dg_header_unpack(buf, &back, &err) < 0 && strstr(err.msg, "not a datagen file"), "bad magic: '%s'",
          err.msg);
    dg_header_pack(&h, buf);
    buf[4] = DG_VERSION + 1;
    CHECK(dg_header_unpack(buf, &back, &err) < 0 && strstr(err.msg, "version"), "bad version: '%s'", err.msg);
    dg_header_pack(&h, buf);
    buf[112] = 2;
    CHECK(dg_header_unpack(buf, &back, &err) < 0 && strstr(err.msg, "evaluation 2"), "bad scorer: '%s'", err.msg);

    th_case("datagen: a version 1 header (no scorer field) reads as scored by the hand-written evaluation");
    dg_header_pack(&h, buf);
    buf[4] = 1;
    CHECK(dg_header_unpack(buf, &back, &err) == 0, "version 1 refused: %s", err.msg);
    CHECK(back.version == 1 && back.scored_by_net == 0 && back.net_crc == 0 && back.nodes == h.nodes &&
              !strcmp(back.name, h.name),
          "version 1: version %u, net %u, crc %08x", (unsigned)back.version, (unsigned)back.scored_by_net,
          (unsigned)back.net_crc);
    dg_header_pack(&h, buf);
    buf[16]++;
    CHECK(dg_header_unpack(buf, &back, &err) < 0 && strstr(err.msg, "record size"), "bad record size: '%s'",
          err.msg);
}

static void test_writer_reader(void)
{
    th_case("datagen: the writer and the reader round-trip records of real positions");
    char path[128];
    temp_path(path, sizeof path, "rw");
    tc_variant *v = th_variant("torus");
    tc_position *p = v ? tc_position_new(v) : NULL;
    if (!p)
        return;
    dg_header h;
    memset(&h, 0, sizeof h);
    h.version = DG_VERSION;
    h.width = 8;
    h.height = 14;
    h.record_size = (uint32_t)dg_record_size(112);
    h.nodes = 1;
    snprintf(h.name, sizeof h.name, "torus");
    dg_file df;
    tc_error err;
    CHECK(dg_open_append(&df, path, &h, &err) == 0, "open: %s", err.msg);
    dg_record recs[20];
    tc_movelist *list = malloc(sizeof *list);
    for (int i = 0; i < 20 && list; i++) {
        dg_record_from_position(&recs[i], p);
        recs[i].score = i * 37 - 300;
        recs[i].result = i % 3 - 1;
        recs[i].ply = i;
        recs[i].game = (uint32_t)(i / 7);
        int n = tc_generate_legal(p, list);
        tc_make_move(p, list->moves[(i * 7) % n]);
    }
    CHECK(dg_append(&df, recs, 20, &err) == 0, "append: %s", err.msg);
    dg_close(&df);
    CHECK(dg_open_read(&df, path, &err) == 0, "read: %s", err.msg);
    CHECK(df.records == 20 && df.dropped == 0, "%llu records, %llu bytes dropped",
          (unsigned long long)df.records, (unsigned long long)df.dropped);
    dg_record r;
    int n = 0;
    while (dg_read(&df, &r)) {
        CHECK(n < 20 && !memcmp(r.board, recs[n].board, 112) && r.score == recs[n].score &&
                  r.result == recs[n].result && r.game == recs[n].game && r.stm == recs[n].stm &&
                  r.castling == recs[n].castling,
              "record %d differs", n);
        n++;
    }
    CHECK(n == 20, "read %d records", n);
    dg_close(&df);

    th_case("datagen: the text form is a FEN the library reads back to the same position");
    FILE *txt = tmpfile();
    CHECK(txt && dg_file_to_text(path, txt, &err) == 0, "to text: %s", err.msg);
    char *text = txt ? th_read_stream(txt) : NULL;
    int lines = 0;
    for (char *line = text ? strtok(text, "\n") : NULL; line; line = strtok(NULL, "\n")) {
        if (line[0] == '#')
            continue;
        char *semi = strchr(line, ';');
        CHECK(semi != NULL, "line '%s' has no score", line);
        if (!semi || lines >= 20)
            break;
        *semi = '\0';
        tc_position *q = tc_position_new(v);
        CHECK(q && tc_position_set_fen(q, line, &err) == 0, "line %d: '%s': %s", lines, line, err.msg);
        int same = q != NULL;
        for (int s = 0; q && s < 112; s++)
            same &= tc_piece_at(q, s) == recs[lines].board[s];
        CHECK(same && tc_side_to_move(q) == recs[lines].stm, "line %d: not the position written", lines);
        char want[64];
        snprintf(want, sizeof want, " score %d;", recs[lines].score);
        CHECK(strstr(semi + 1, want) != NULL, "line %d: '%s' lacks '%s'", lines, semi + 1, want);
        tc_position_free(q);
        lines++;
    }
    CHECK(lines == 20, "%d lines of text", lines);
    free(text);
    if (txt)
        fclose(txt);
    free(list);
    tc_position_free(p);
    tc_variant_free(v);
    unlink(path);
}

/* The records of a real run make sense: games in order, one result per
 * game, quiet positions not in check, scores in range. */
static void check_run_file(const char *path, const tc_variant *v)
{
    dg_file df;
    tc_error err;
    CHECK(dg_open_read(&df, path, &err) == 0, "read %s: %s", path, err.msg);
    if (!df.f)
        return;
    CHECK(df.records > 20 && df.dropped == 0, "%llu records, %llu bytes torn", (unsigned long long)df.records,
          (unsigned long long)df.dropped);
    tc_position *p = tc_position_new(v);
    dg_record r;
    uint32_t game = 0;
    int white_result = 9, n = 0, bad = 0;
    while (p && dg_read(&df, &r)) {
        if (n == 0 || r.game != game) {
            CHECK(n == 0 || r.game > game, "record %d: game %u after %u", n, r.game, game);
            game = r.game;
            white_result = 9;
        }
        int wr = r.stm == TC_WHITE ? r.result : -r.result;
        if (white_result == 9)
            white_result = wr;
        bad += wr != white_result || r.score < -DG_SCORE_MAX || r.score > DG_SCORE_MAX || r.game >= 4;
        /* the record is a position the library accepts, not in check */
        FILE *t = tmpfile();
        dg_record_text(&r, 8, 8, t);
        char *line = th_read_stream(t);
        fclose(t);
        char *semi = line ? strchr(line, ';') : NULL;
        if (semi)
            *semi = '\0';
        if (!semi || tc_position_set_fen(p, line, &err) || tc_in_check(p)) {
            CHECK(0, "record %d: '%s' is not a quiet legal position", n, line ? line : "");
            bad++;
        }
        free(line);
        n++;
    }
    CHECK(!bad, "%d records with a wrong result, score or game", bad);
    tc_position_free(p);
    dg_close(&df);
}

static void test_runs(void)
{
    tc_variant *v = th_variant("chess");
    if (!v)
        return;
    char a[128], b[128], c[128];
    temp_path(a, sizeof a, "one");
    temp_path(b, sizeof b, "two");
    temp_path(c, sizeof c, "cut");
    tc_error err;
    dg_config cfg;

    th_case("datagen: a run writes whole games of quiet, scored positions");
    small_config(&cfg, a, 1);
    CHECK(dg_run(&cfg, &err) == 0, "run: %s", err.msg);
    check_run_file(a, v);

    th_case("datagen: the same seed gives the same file, with 1 thread or 3");
    small_config(&cfg, b, 3);
    CHECK(dg_run(&cfg, &err) == 0, "run: %s", err.msg);
    size_t la, lb;
    char *da = th_read_file(a, &la), *db = th_read_file(b, &lb);
    CHECK(da && db && la == lb && !memcmp(da, db, la), "files differ (%zu and %zu bytes)", la, lb);
    free(db);

    th_case("datagen: another seed gives other games");
    small_config(&cfg, b, 1);
    cfg.seed = 8;
    unlink(b);
    CHECK(dg_run(&cfg, &err) == 0, "run: %s", err.msg);
    db = th_read_file(b, &lb);
    CHECK(da && db && (la != lb || memcmp(da + DG_HEADER_SIZE, db + DG_HEADER_SIZE, la - DG_HEADER_SIZE)),
          "seeds 7 and 8 gave the same records");
    free(db);

    th_case("datagen: a file cut anywhere (mid-record, mid-header) is continued to the same bytes");
    size_t rs = dg_record_size(64);
    size_t cuts[] = {la - rs / 2, la - 3 * rs - 5, DG_HEADER_SIZE + rs + 1, DG_HEADER_SIZE, 50, 0};
    for (size_t k = 0; da && k < sizeof cuts / sizeof cuts[0]; k++) {
        if (spit(c, da, cuts[k])) {
            CHECK(0, "cannot write %s", c);
            break;
        }
        small_config(&cfg, c, 2);
        CHECK(dg_run(&cfg, &err) == 0, "cut at %zu: %s", cuts[k], err.msg);
        size_t lc;
        char *dc = th_read_file(c, &lc);
        CHECK(dc && lc == la && !memcmp(dc, da, la), "cut at %zu: continued file differs (%zu bytes, want %zu)",
              cuts[k], lc, la);
        free(dc);
    }

    th_case("datagen: a second run with a higher game count goes on; a reader skips a torn record");
    small_config(&cfg, c, 1);
    cfg.games = 2;
    unlink(c);
    CHECK(dg_run(&cfg, &err) == 0, "2 games: %s", err.msg);
    size_t lc;
    char *dc = th_read_file(c, &lc);
    CHECK(dc && lc < la && !memcmp(dc, da, lc), "2 games are not the start of 4 (%zu, %zu bytes)", lc, la);
    free(dc);
    cfg.games = 4;
    CHECK(dg_run(&cfg, &err) == 0, "4 games: %s", err.msg);
    dc = th_read_file(c, &lc);
    CHECK(dc && lc == la && !memcmp(dc, da, la), "2 then 4 games differ from 4 at once");
    free(dc);
    if (da && spit(c, da, la - 3) == 0) {
        dg_file df;
        CHECK(dg_open_read(&df, c, &err) == 0 && df.records == (la - DG_HEADER_SIZE) / rs - 1 &&
                  df.dropped == rs - 3,
              "torn file: %llu records, %llu bytes dropped", (unsigned long long)df.records,
              (unsigned long long)df.dropped);
        dg_close(&df);
    }

    th_case("datagen: a file is not continued with other settings or another board");
    small_config(&cfg, a, 1);
    cfg.nodes = 301;
    CHECK(dg_run(&cfg, &err) < 0 && strstr(err.msg, "--nodes 300, not 301"), "other nodes: '%s'", err.msg);
    small_config(&cfg, a, 1);
    tc_preset_find("torus", &cfg.def, &err);
    CHECK(dg_run(&cfg, &err) < 0 && strstr(err.msg, "holds chess"), "other board: '%s'", err.msg);
    CHECK(spit(c, "not a data file at all, but long enough to have a header: 0123456789012345678901234567890123456789"
                  "0123456789012345678901234567890123456789012345678901234567890123456789",
               150) == 0,
          "cannot write %s", c);
    small_config(&cfg, c, 1);
    CHECK(dg_run(&cfg, &err) < 0 && strstr(err.msg, "not a datagen file"), "foreign file: '%s'", err.msg);
    CHECK(dg_file_to_text(c, stdout, &err) < 0 && strstr(err.msg, "not a datagen file"), "to text: '%s'",
          err.msg);
    CHECK(dg_file_to_text("/nonexistent/x.bin", stdout, &err) < 0 && strstr(err.msg, "cannot open"),
          "missing file: '%s'", err.msg);

    free(da);
    unlink(a);
    unlink(b);
    unlink(c);
    tc_variant_free(v);
}

/* Parses a command line; the error text (or "" on success). */
static const char *parse(const char *line, dg_config *c, const char **to_text)
{
    static tc_error err;
    static char copy[512];
    char *argv[32];
    int argc = 0;
    snprintf(copy, sizeof copy, "%s", line);
    for (char *t = strtok(copy, " "); t && argc < 32; t = strtok(NULL, " "))
        argv[argc++] = t;
    dg_config_init(c);
    err.msg[0] = '\0';
    int r = dg_parse_args(c, argc, argv, to_text, &err);
    return r < 0 ? err.msg : r > 0 ? "help" : "";
}

static void test_options(void)
{
    th_case("datagen: options are read");
    dg_config c;
    const char *to_text;
    const char *e = parse("--out f.bin --variant klein --nodes 1234 --games 9 --threads 3 --seed=42 "
                          "--random-plies 6 --hash 8 --max-plies 200",
                          &c, &to_text);
    CHECK(!*e, "error '%s'", e);
    CHECK(!strcmp(c.out, "f.bin") && !strcmp(c.def.name, "klein-bottle") && c.nodes == 1234 && c.games == 9 &&
              c.threads == 3 && c.seed == 42 && c.random_plies == 6 && c.hash_mb == 8 && c.max_plies == 200 &&
              !to_text,
          "read: out %s, variant %s, nodes %llu", c.out, c.def.name, (unsigned long long)c.nodes);
    e = parse("--to-text f.bin", &c, &to_text);
    CHECK(!*e && to_text && !strcmp(to_text, "f.bin"), "--to-text: '%s'", e);
    CHECK(!strcmp(parse("--out f --help", &c, &to_text), "help"), "--help");

    th_case("datagen: bad options are refused with a message naming them");
    static const struct {
        const char *line, *want;
    } bad[] = {
        {"", "needs --out FILE"},
        {"--nodes 100", "needs --out FILE"},
        {"--out f --nodes 0", "--nodes takes a number from 1"},
        {"--out f --nodes 12k", "not '12k'"},
        {"--out f --nodes -5", "not '-5'"},
        {"--out f --threads 65", "--threads takes a number from 1 to 64"},
        {"--out f --games 0", "--games takes a number"},
        {"--out f --games 5 --positions 9", "--games or --positions, not both"},
        {"--out f --variant kelin", "did you mean 'klein-bottle'"},
        {"--out f --variant chess --variant-file x.md", "not both"},
        {"--out f --variant-file /nonexistent/page.md", "/nonexistent/page.md"},
        {"--out f --nodse 5", "did you mean '--nodes'"},
        {"--out f --seed", "--seed needs a value"},
        {"--out f --seed=", "--seed needs a value"},
        {"--out f --seed 1 --seed 2", "--seed given twice"},
        {"--out f extra", "takes no arguments (got 'extra')"},
        {"--to-text f --nodes 5", "takes no other option (got --nodes)"},
        {"--out f --random-plies 999", "--random-plies takes a number from 0 to 200"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        e = parse(bad[i].line, &c, &to_text);
        CHECK(strstr(e, bad[i].want) != NULL, "'%s': got '%s', want '%s'", bad[i].line, e, bad[i].want);
    }
}

/* The command itself: exit status and message on standard error. */
static void test_command(void)
{
    const char *bin = getenv("TC_BIN");
    if (!bin || !*bin || strchr(bin, '\'') || access(bin, X_OK))
        bin = access("./topochess", X_OK) == 0 ? "./topochess" : NULL;
    th_case("datagen: the command exits 1 with the message on bad options, 0 on --help");
    if (!bin) {
        fprintf(stderr, "note: no ./topochess and no $TC_BIN: the datagen command checks are skipped\n");
        return;
    }
    static const struct {
        const char *args, *want;
        int status;
    } runs[] = {
        {"datagen --out /tmp/x.bin --nodes 0", "topochess: datagen: --nodes takes a number from 1", 1},
        {"datagen", "datagen needs --out FILE", 1},
        {"datagen --to-text /nonexistent/x.bin", "cannot open '/nonexistent/x.bin'", 1},
        {"datagen --help", "", 0},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "'%s' %s 2>&1 >/dev/null", bin, runs[i].args);
        FILE *p = popen(cmd, "r");
        char out[1024] = "";
        size_t n = p ? fread(out, 1, sizeof out - 1, p) : 0;
        out[n] = '\0';
        int st = p ? pclose(p) : -1;
        int status = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
        CHECK(status == runs[i].status && strstr(out, runs[i].want), "'%s': exit %d, stderr '%s'", runs[i].args,
              status, out);
    }
}

/* The header of the file at path (version, scorer), or a failed check. */
static int header_of(const char *path, dg_header *h)
{
    dg_file df;
    tc_error err;
    int r = dg_open_read(&df, path, &err);
    CHECK(r == 0, "read %s: %s", path, err.msg);
    if (r == 0)
        *h = df.h;
    dg_close(&df);
    return r;
}

/* --eval-file: the net's checksum (the last four bytes of its file) goes
 * into the header, the net changes the games, and a file is continued only
 * by the evaluation that scored it; a version 1 file is continued as such. */
static void test_eval_file(void)
{
    th_case("datagen: --eval-file records the net's checksum in the header");
    char net[128], a[128], b[128];
    snprintf(net, sizeof net, "/tmp/tc_datagen_%ld_net.tcnn", (long)getpid());
    temp_path(a, sizeof a, "neta");
    temp_path(b, sizeof b, "netb");
    size_t len = 0;
    unsigned char *bytes = nnue_random_file(8, 8, 32, 32, 32, 0, 5, &len);
    if (!bytes || spit(net, (const char *)bytes, len)) {
        CHECK(0, "cannot write the net %s", net);
        free(bytes);
        return;
    }
    uint32_t crc = (uint32_t)bytes[len - 4] | (uint32_t)bytes[len - 3] << 8 | (uint32_t)bytes[len - 2] << 16 |
                   (uint32_t)bytes[len - 1] << 24;
    free(bytes);
    dg_config c;
    tc_error err;
    dg_header h;
    small_config(&c, a, 2);
    c.eval_file = net;
    CHECK(dg_run(&c, &err) == 0, "run with the net: %s", err.msg);
    if (header_of(a, &h) == 0)
        CHECK(h.version == DG_VERSION && h.scored_by_net == 1 && h.net_crc == crc,
              "header: version %u, net %u, crc %08x (the file's %08x)", (unsigned)h.version,
              (unsigned)h.scored_by_net, (unsigned)h.net_crc, (unsigned)crc);

    th_case("datagen: without --eval-file the header names the engine's own evaluation");
    tc_variant *v = th_variant_cached("chess");
    tc_engine *e = v ? tc_engine_new(v, 1, 1) : NULL;
    int own_net = e && tc_engine_has_net(e);
    uint32_t own_crc = e ? tc_engine_net_crc(e) : 0;
    tc_engine_free(e);
    small_config(&c, b, 2);
    CHECK(dg_run(&c, &err) == 0, "run without a net: %s", err.msg);
    if (header_of(b, &h) == 0)
        CHECK(h.scored_by_net == (uint32_t)own_net && h.net_crc == own_crc, "header: net %u, crc %08x",
              (unsigned)h.scored_by_net, (unsigned)h.net_crc);
    size_t la, lb;
    char *da = th_read_file(a, &la), *db = th_read_file(b, &lb);
    CHECK(da && db && !(la == lb && !memcmp(da + DG_HEADER_SIZE, db + DG_HEADER_SIZE, la - DG_HEADER_SIZE)),
          "the random net's games equal the default evaluation's");
    free(da);
    free(db);

    th_case("datagen: --to-text names the net");
    FILE *t = tmpfile();
    CHECK(t && dg_file_to_text(a, t, &err) == 0, "to text: %s", err.msg);
    char *text = t ? th_read_stream(t) : NULL, want[64];
    snprintf(want, sizeof want, "scored by net %08x:", (unsigned)crc);
    CHECK(text && strstr(text, want), "first line: %.200s", text ? text : "");
    free(text);
    if (t)
        fclose(t);

    th_case("datagen: a file is continued only by the evaluation that scored it");
    small_config(&c, a, 1);
    c.games = 6;
    if (!own_net)
        CHECK(dg_run(&c, &err) < 0 && strstr(err.msg, "scored by net") && strstr(err.msg, "hand-written"),
              "continued without the net: '%s'", err.msg);
    c.eval_file = "/nonexistent/net.tcnn";
    CHECK(dg_run(&c, &err) < 0 && strstr(err.msg, "--eval-file") && strstr(err.msg, "/nonexistent/net.tcnn"),
          "a missing net: '%s'", err.msg);

    th_case("datagen: a version 1 file is read and continued as version 1");
    char *d1 = th_read_file(b, &lb);
    if (d1 && !own_net) {
        d1[4] = 1; /* what an older binary wrote: version 1, no scorer field */
        memset(d1 + 112, 0, 16);
        spit(b, d1, lb);
        small_config(&c, b, 1);
        c.games = 6;
        CHECK(dg_run(&c, &err) == 0, "continue a version 1 file: %s", err.msg);
        if (header_of(b, &h) == 0)
            CHECK(h.version == 1 && h.scored_by_net == 0, "after: version %u, net %u", (unsigned)h.version,
                  (unsigned)h.scored_by_net);
        dg_file df;
        if (dg_open_read(&df, b, &err) == 0) {
            dg_record r;
            uint32_t last = 0;
            while (dg_read(&df, &r))
                last = r.game;
            CHECK(last == 5, "the last game is %u, not 5", (unsigned)last);
            dg_close(&df);
        }
    }
    free(d1);
    unlink(net);
    unlink(a);
    unlink(b);
}

void suite_datagen(void)
{
    test_eval_file();
    test_command();
    test_record_coding();
    test_writer_reader();
    test_options();
    test_runs();
}
