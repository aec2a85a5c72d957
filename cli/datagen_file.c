/* The datagen file: a 128-byte header, then fixed-size records (the layout
 * is in docs/nnue.md). Fixed sizes let a reader find a record cut off by a
 * kill (the file's length is not a whole number of records) and let numpy
 * read the file as one array. */
#include "datagen.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- bytes */

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
    put16(p, v);
    put16(p + 2, v >> 16);
}

static void put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
}

static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

/* ---------------------------------------------------------------- records */

size_t dg_record_size(int cells) { return (size_t)(cells + 1) / 2 + 10; }

void dg_record_pack(const dg_record *r, int cells, uint8_t *out)
{
    size_t nb = (size_t)(cells + 1) / 2;
    memset(out, 0, nb);
    for (int s = 0; s < cells; s++)
        out[s / 2] |= (uint8_t)((r->board[s] & 15) << (s % 2 * 4));
    uint8_t *t = out + nb;
    t[0] = (uint8_t)((r->stm & 1) | (r->castling & 15) << 1);
    t[1] = (uint8_t)(int8_t)r->result;
    put16(t + 2, (uint16_t)(int16_t)r->score);
    put16(t + 4, (uint16_t)r->ply);
    put32(t + 6, r->game);
}

void dg_record_unpack(const uint8_t *in, int cells, dg_record *r)
{
    size_t nb = (size_t)(cells + 1) / 2;
    memset(r->board, 0, sizeof r->board);
    for (int s = 0; s < cells; s++)
        r->board[s] = (uint8_t)(in[s / 2] >> (s % 2 * 4) & 15);
    const uint8_t *t = in + nb;
    r->stm = t[0] & 1;
    r->castling = t[0] >> 1 & 15;
    r->result = (int8_t)t[1];
    r->score = (int16_t)get16(t + 2);
    r->ply = (int)get16(t + 4);
    r->game = get32(t + 6);
}

void dg_record_from_position(dg_record *r, const tc_position *p)
{
    int cells = tc_variant_cells(tc_position_variant(p));
    memset(r->board, 0, sizeof r->board);
    for (int s = 0; s < cells; s++)
        r->board[s] = (uint8_t)tc_piece_at(p, s);
    r->stm = tc_side_to_move(p);
    r->castling = tc_castling(p);
}

/* ---------------------------------------------------------------- header */

void dg_header_pack(const dg_header *h, uint8_t out[DG_HEADER_SIZE])
{
    memset(out, 0, DG_HEADER_SIZE);
    memcpy(out, DG_MAGIC, 4);
    put32(out + 4, h->version);
    put32(out + 8, h->width);
    put32(out + 12, h->height);
    put32(out + 16, h->record_size);
    put32(out + 20, h->random_plies);
    put64(out + 24, h->seed);
    put64(out + 32, h->nodes);
    put32(out + 40, h->hash_mb);
    put32(out + 44, h->max_plies);
    size_t n = strnlen(h->name, sizeof h->name - 1);
    memcpy(out + 48, h->name, n);
    put32(out + 112, h->scored_by_net);
    put32(out + 116, h->net_crc);
}

int dg_header_unpack(const uint8_t in[DG_HEADER_SIZE], dg_header *h, tc_error *err)
{
    memset(h, 0, sizeof *h);
    if (memcmp(in, DG_MAGIC, 4)) {
        snprintf(err->msg, sizeof err->msg, "not a datagen file (it does not start with '%s')", DG_MAGIC);
        return -1;
    }
    h->version = get32(in + 4);
    if (h->version < 1 || h->version > DG_VERSION) {
        snprintf(err->msg, sizeof err->msg, "datagen file version %u, this program reads versions 1 to %u",
                 (unsigned)h->version, DG_VERSION);
        return -1;
    }
    h->width = get32(in + 8);
    h->height = get32(in + 12);
    h->record_size = get32(in + 16);
    h->random_plies = get32(in + 20);
    h->seed = get64(in + 24);
    h->nodes = get64(in + 32);
    h->hash_mb = get32(in + 40);
    h->max_plies = get32(in + 44);
    memcpy(h->name, in + 48, 63);
    h->name[63] = '\0';
    if (h->version >= 2) {
        h->scored_by_net = get32(in + 112);
        h->net_crc = get32(in + 116);
    }
    if (h->scored_by_net > 1) {
        snprintf(err->msg, sizeof err->msg, "datagen file header: evaluation %u is not 0 (hand-written) or 1 (a net)",
                 (unsigned)h->scored_by_net);
        return -1;
    }
    if (h->width < 2 || h->width > TC_MAX_FILES || h->height < 2 || h->height > TC_MAX_RANKS) {
        snprintf(err->msg, sizeof err->msg, "datagen file header: board %ux%u is not 2..%d by 2..%d",
                 (unsigned)h->width, (unsigned)h->height, TC_MAX_FILES, TC_MAX_RANKS);
        return -1;
    }
    if (h->record_size != dg_record_size((int)(h->width * h->height))) {
        snprintf(err->msg, sizeof err->msg, "datagen file header: record size %u, a %ux%u board needs %zu",
                 (unsigned)h->record_size, (unsigned)h->width, (unsigned)h->height,
                 dg_record_size((int)(h->width * h->height)));
        return -1;
    }
    return 0;
}

void dg_scorer_text(const dg_header *h, char *buf, size_t n)
{
    if (h->scored_by_net)
        snprintf(buf, n, "net %08x", (unsigned)h->net_crc);
    else
        snprintf(buf, n, "the hand-written evaluation");
}

/* ---------------------------------------------------------------- files */

static int fail_errno(tc_error *err, const char *what, const char *path)
{
    snprintf(err->msg, sizeof err->msg, "%s '%s': %s", what, path, strerror(errno));
    return -1;
}

/* Reads the header of an open file of `size` bytes. */
static int read_header(dg_file *df, const char *path, tc_error *err)
{
    uint8_t buf[DG_HEADER_SIZE];
    if (fseek(df->f, 0, SEEK_SET) || fread(buf, 1, sizeof buf, df->f) != sizeof buf) {
        snprintf(err->msg, sizeof err->msg, "'%s': cannot read the header", path);
        return -1;
    }
    tc_error e;
    if (dg_header_unpack(buf, &df->h, &e)) {
        snprintf(err->msg, sizeof err->msg, "'%.80s': %.160s", path, e.msg);
        return -1;
    }
    df->cells = (int)(df->h.width * df->h.height);
    return 0;
}

static int file_size(FILE *f, uint64_t *size)
{
    struct stat st;
    if (fstat(fileno(f), &st))
        return -1;
    *size = (uint64_t)st.st_size;
    return 0;
}

/* The game index of record i. */
static int record_game(dg_file *df, uint64_t i, uint32_t *game)
{
    uint8_t buf[TC_MAX_CELLS / 2 + 16];
    long off = (long)(DG_HEADER_SIZE + i * df->h.record_size);
    if (fseek(df->f, off, SEEK_SET) || fread(buf, 1, df->h.record_size, df->f) != df->h.record_size)
        return -1;
    *game = get32(buf + df->h.record_size - 4);
    return 0;
}

/* Names the first setting in which two headers differ, or returns 0. */
static int header_mismatch(const dg_header *have, const dg_header *want, char *msg, size_t n)
{
    if (strcmp(have->name, want->name) || have->width != want->width || have->height != want->height)
        snprintf(msg, n, "it holds %s (%ux%u), not %s (%ux%u)", have->name, (unsigned)have->width,
                 (unsigned)have->height, want->name, (unsigned)want->width, (unsigned)want->height);
    else if (have->seed != want->seed)
        snprintf(msg, n, "it was made with --seed %llu, not %llu", (unsigned long long)have->seed,
                 (unsigned long long)want->seed);
    else if (have->nodes != want->nodes)
        snprintf(msg, n, "it was made with --nodes %llu, not %llu", (unsigned long long)have->nodes,
                 (unsigned long long)want->nodes);
    else if (have->random_plies != want->random_plies)
        snprintf(msg, n, "it was made with --random-plies %u, not %u", (unsigned)have->random_plies,
                 (unsigned)want->random_plies);
    else if (have->hash_mb != want->hash_mb)
        snprintf(msg, n, "it was made with --hash %u, not %u", (unsigned)have->hash_mb, (unsigned)want->hash_mb);
    else if (have->max_plies != want->max_plies)
        snprintf(msg, n, "it was made with --max-plies %u, not %u", (unsigned)have->max_plies,
                 (unsigned)want->max_plies);
    else if (have->scored_by_net != want->scored_by_net || have->net_crc != want->net_crc) {
        char a[40], b[40];
        dg_scorer_text(have, a, sizeof a);
        dg_scorer_text(want, b, sizeof b);
        snprintf(msg, n, "it was scored by %s, not %s", a, b);
    } else
        return 0;
    return 1;
}

int dg_open_append(dg_file *df, const char *path, const dg_header *want, tc_error *err)
{
    memset(df, 0, sizeof *df);
    df->f = fopen(path, "r+b");
    if (!df->f && errno == ENOENT)
        df->f = fopen(path, "w+b");
    if (!df->f)
        return fail_errno(err, "cannot open", path);
    uint64_t size;
    if (file_size(df->f, &size)) {
        fail_errno(err, "cannot read the size of", path);
        goto fail;
    }
    if (size < DG_HEADER_SIZE) {
        /* new, or killed before its header was whole */
        uint8_t buf[DG_HEADER_SIZE];
        dg_header_pack(want, buf);
        if (ftruncate(fileno(df->f), 0) || fseek(df->f, 0, SEEK_SET) || fwrite(buf, 1, sizeof buf, df->f) != sizeof buf ||
            fflush(df->f)) {
            fail_errno(err, "cannot write the header of", path);
            goto fail;
        }
        df->h = *want;
        df->cells = (int)(want->width * want->height);
        df->dropped = size;
        return 0;
    }
    if (read_header(df, path, err))
        goto fail;
    char why[200];
    if (header_mismatch(&df->h, want, why, sizeof why)) {
        snprintf(err->msg, sizeof err->msg, "'%s' cannot be continued: %s", path, why);
        goto fail;
    }
    uint64_t whole = (size - DG_HEADER_SIZE) / df->h.record_size;
    uint64_t keep = whole;
    uint32_t last = 0;
    if (whole > 0) {
        /* the last game may be cut short: it is played again */
        if (record_game(df, whole - 1, &last))
            goto read_fail;
        while (keep > 0) {
            uint32_t g;
            if (record_game(df, keep - 1, &g))
                goto read_fail;
            if (g != last)
                break;
            keep--;
        }
    }
    uint64_t new_size = DG_HEADER_SIZE + keep * df->h.record_size;
    if (new_size != size && ftruncate(fileno(df->f), (off_t)new_size)) {
        fail_errno(err, "cannot cut the unfinished tail of", path);
        goto fail;
    }
    if (fseek(df->f, 0, SEEK_END))
        goto read_fail;
    df->records = keep;
    df->next_game = whole > 0 ? last : 0;
    df->dropped = size - new_size;
    return 0;
read_fail:
    snprintf(err->msg, sizeof err->msg, "'%s': cannot read its records", path);
fail:
    fclose(df->f);
    df->f = NULL;
    return -1;
}

int dg_open_read(dg_file *df, const char *path, tc_error *err)
{
    memset(df, 0, sizeof *df);
    df->f = fopen(path, "rb");
    if (!df->f)
        return fail_errno(err, "cannot open", path);
    uint64_t size = 0;
    if (file_size(df->f, &size) || size < DG_HEADER_SIZE) {
        snprintf(err->msg, sizeof err->msg, "'%s' is too short for a datagen file (%llu bytes)", path,
                 (unsigned long long)size);
        fclose(df->f);
        df->f = NULL;
        return -1;
    }
    if (read_header(df, path, err)) {
        fclose(df->f);
        df->f = NULL;
        return -1;
    }
    df->records = (size - DG_HEADER_SIZE) / df->h.record_size;
    df->dropped = (size - DG_HEADER_SIZE) % df->h.record_size;
    return 0;
}

int dg_read(dg_file *df, dg_record *r)
{
    uint8_t buf[TC_MAX_CELLS / 2 + 16];
    if (df->read >= df->records)
        return 0;
    if (fread(buf, 1, df->h.record_size, df->f) != df->h.record_size)
        return 0;
    df->read++;
    dg_record_unpack(buf, df->cells, r);
    return 1;
}

int dg_append(dg_file *df, const dg_record *r, int n, tc_error *err)
{
    uint8_t buf[TC_MAX_CELLS / 2 + 16];
    for (int i = 0; i < n; i++) {
        dg_record_pack(&r[i], df->cells, buf);
        if (fwrite(buf, 1, df->h.record_size, df->f) != df->h.record_size) {
            snprintf(err->msg, sizeof err->msg, "cannot write a record: %s", strerror(errno));
            return -1;
        }
    }
    if (fflush(df->f)) {
        snprintf(err->msg, sizeof err->msg, "cannot write records: %s", strerror(errno));
        return -1;
    }
    df->records += (uint64_t)n;
    return 0;
}

void dg_close(dg_file *df)
{
    if (df->f)
        fclose(df->f);
    df->f = NULL;
}

/* ---------------------------------------------------------------- text */

int dg_record_fen(const dg_record *r, int width, int height, char *buf, size_t n)
{
    static const char letters[] = " PNBRQK";
    size_t k = 0;
#define PUT(...) (k += (size_t)snprintf(buf + (k < n ? k : n), k < n ? n - k : 0, __VA_ARGS__))
    for (int y = height - 1; y >= 0; y--) {
        int empty = 0;
        for (int x = 0; x < width; x++) {
            int pc = r->board[y * width + x];
            int t = TC_TYPE(pc);
            if (!pc || t < TC_PAWN || t > TC_KING) {
                empty++;
                continue;
            }
            if (empty)
                PUT("%d", empty);
            empty = 0;
            char c = letters[t];
            PUT("%c", TC_COLOUR(pc) == TC_WHITE ? c : c + ('a' - 'A'));
        }
        if (empty)
            PUT("%d", empty);
        if (y)
            PUT("/");
    }
    char castle[5];
    int m = 0;
    if (r->castling & 1)
        castle[m++] = 'K';
    if (r->castling & 2)
        castle[m++] = 'Q';
    if (r->castling & 4)
        castle[m++] = 'k';
    if (r->castling & 8)
        castle[m++] = 'q';
    if (!m)
        castle[m++] = '-';
    castle[m] = '\0';
    PUT(" %c %s - 0 %d", r->stm == TC_WHITE ? 'w' : 'b', castle, r->ply / 2 + 1);
#undef PUT
    return (int)k;
}

void dg_record_text(const dg_record *r, int width, int height, FILE *out)
{
    char fen[800];
    dg_record_fen(r, width, height, fen, sizeof fen);
    int white_result = r->stm == TC_WHITE ? r->result : -r->result;
    fprintf(out, "%s; score %d; result %s; ply %d; game %u\n", fen, r->score,
            white_result > 0 ? "1-0" : white_result < 0 ? "0-1" : "1/2-1/2", r->ply, (unsigned)r->game);
}

int dg_file_to_text(const char *path, FILE *out, tc_error *err)
{
    dg_file df;
    if (dg_open_read(&df, path, err))
        return -1;
    char scorer[40];
    dg_scorer_text(&df.h, scorer, sizeof scorer);
    fprintf(out,
            "# %s %ux%u, nodes %llu, seed %llu, random plies %u, hash %u MiB, max plies %u, scored by %s: %llu "
            "positions\n",
            df.h.name, (unsigned)df.h.width, (unsigned)df.h.height, (unsigned long long)df.h.nodes,
            (unsigned long long)df.h.seed, (unsigned)df.h.random_plies, (unsigned)df.h.hash_mb,
            (unsigned)df.h.max_plies, scorer, (unsigned long long)df.records);
    if (df.dropped)
        fprintf(stderr, "topochess: datagen: '%s' ends in a cut-off record (%llu bytes), left out\n", path,
                (unsigned long long)df.dropped);
    dg_record r;
    while (dg_read(&df, &r))
        dg_record_text(&r, (int)df.h.width, (int)df.h.height, out);
    dg_close(&df);
    return 0;
}
