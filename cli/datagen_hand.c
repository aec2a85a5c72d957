/* `topochess datagen --hand-eval DATA --out SIDE`: the hand-written static
 * evaluation of every record of a data file, for training hybrid nets
 * (docs/nnue-training.md, "The hand-evaluation side file"). Each record's
 * position is rebuilt from its board, side to move and castling rights
 * (the record has no en passant cell; the hand-written evaluation reads
 * neither), and evaluated by an engine without a net, as the engine adds
 * it under a hybrid net. Records are split between threads. */
#include "cli.h"
#include "datagen.h"
#include "topochess_engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#define HE_MAGIC "TCHE"
#define HE_VERSION 1u
#define HE_HEADER 32

/// One thread's share: records [from, to) of the data in memory.
typedef struct {
    const tc_variant *v;
    const dg_header *h;
    const unsigned char *recs;
    uint64_t from, to;
    int16_t *out;
    uint64_t bad;   /* the first record whose FEN was refused, else UINT64_MAX */
    tc_error err;
} he_job;

static void *he_work(void *arg)
{
    he_job *j = arg;
    j->bad = UINT64_MAX;
    tc_engine *e = tc_engine_new(j->v, 1, 1);
    tc_position *p = tc_position_new(j->v);
    if (!e || !p) {
        snprintf(j->err.msg, sizeof j->err.msg, "out of memory");
        j->bad = j->from;
    }
    if (e)
        tc_engine_clear_net(e);
    int cells = (int)(j->h->width * j->h->height);
    char fen[800];
    for (uint64_t i = j->from; e && p && i < j->to; i++) {
        dg_record r;
        dg_record_unpack(j->recs + i * j->h->record_size, cells, &r);
        dg_record_fen(&r, (int)j->h->width, (int)j->h->height, fen, sizeof fen);
        if (tc_position_set_fen(p, fen, &j->err) || tc_engine_set_position(e, p)) {
            j->bad = i;
            break;
        }
        int cp = tc_engine_evaluate(e);
        j->out[i] = (int16_t)(cp > 32767 ? 32767 : cp < -32767 ? -32767 : cp);
    }
    tc_position_free(p);
    tc_engine_free(e);
    return NULL;
}

static void put_le(unsigned char *b, uint64_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (unsigned char)(x >> (8 * i));
}

/* The whole file in memory; NULL with err. */
static unsigned char *slurp(const char *path, size_t *len, tc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "cannot open '%.90s': %s", path, strerror(errno));
        return NULL;
    }
    unsigned char *b = NULL;
    size_t cap = 0, n = 0, got;
    do {
        if (n == cap) {
            cap = cap ? cap * 2 : 1 << 20;
            unsigned char *nb = realloc(b, cap);
            if (!nb) {
                free(b);
                fclose(f);
                snprintf(err->msg, sizeof err->msg, "'%.90s': out of memory", path);
                return NULL;
            }
            b = nb;
        }
        got = fread(b + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        snprintf(err->msg, sizeof err->msg, "cannot read '%.90s'", path);
        return NULL;
    }
    *len = n;
    return b;
}

int dg_hand_eval(const char *data, const char *out, const tc_variant_def *board, int threads, FILE *note,
                 tc_error *err)
{
    size_t len = 0;
    unsigned char *b = slurp(data, &len, err);
    if (!b)
        return -1;
    dg_header h;
    tc_error e;
    if (len < DG_HEADER_SIZE) {
        snprintf(err->msg, sizeof err->msg, "'%.90s' is too short for a datagen file (%zu bytes)", data, len);
        free(b);
        return -1;
    }
    if (dg_header_unpack(b, &h, &e)) {
        snprintf(err->msg, sizeof err->msg, "'%.90s': %.90s", data, e.msg);
        free(b);
        return -1;
    }
    tc_variant_def def;
    if (board)
        def = *board;
    else if (tc_preset_find(h.name, &def, &e)) {
        snprintf(err->msg, sizeof err->msg,
                 "'%.90s' was made on '%.50s', which is not a preset: give its page with --variant-file", data,
                 h.name);
        free(b);
        return -1;
    }
    tc_variant *v = tc_variant_new(&def, &e);
    if (!v || (uint32_t)tc_variant_width(v) != h.width || (uint32_t)tc_variant_height(v) != h.height) {
        if (v)
            snprintf(e.msg, sizeof e.msg, "the data is %ux%u, %s is %dx%d", (unsigned)h.width, (unsigned)h.height,
                     def.name, tc_variant_width(v), tc_variant_height(v));
        snprintf(err->msg, sizeof err->msg, "'%.90s': %.90s", data, e.msg);
        tc_variant_free(v);
        free(b);
        return -1;
    }
    uint64_t records = (len - DG_HEADER_SIZE) / h.record_size, torn = (len - DG_HEADER_SIZE) % h.record_size;
    if (torn && note)
        fprintf(note, "topochess: datagen: '%s' ends in a cut-off record (%llu bytes), left out\n", data,
                (unsigned long long)torn);
    unsigned char *side = malloc(HE_HEADER + 2 * records + 1);
    int16_t *vals = malloc(sizeof *vals * (records + 1));
    he_job jobs[TC_ENGINE_MAX_THREADS];
    pthread_t tid[TC_ENGINE_MAX_THREADS];
    int status = 0;
    if (!side || !vals) {
        snprintf(err->msg, sizeof err->msg, "out of memory for %llu records", (unsigned long long)records);
        status = -1;
    }
    /* small files are not worth a thread */
    if ((uint64_t)threads > records / 1000 + 1)
        threads = (int)(records / 1000 + 1);
    if (threads < 1 || threads > TC_ENGINE_MAX_THREADS)
        threads = 1;
    bool started[TC_ENGINE_MAX_THREADS] = {0};
    for (int k = 0; !status && k < threads; k++)
        jobs[k] = (he_job){v, &h, b + DG_HEADER_SIZE, records * (uint64_t)k / (uint64_t)threads,
                           records * (uint64_t)(k + 1) / (uint64_t)threads, vals, 0, {{0}}};
    for (int k = 0; !status && k < threads - 1; k++)
        started[k] = pthread_create(&tid[k], NULL, he_work, &jobs[k]) == 0;
    for (int k = 0; !status && k < threads; k++)
        if (!started[k])
            he_work(&jobs[k]); /* the last share, and any no thread took */
    for (int k = 0; k < threads; k++)
        if (started[k])
            pthread_join(tid[k], NULL);
    for (int k = 0; !status && k < threads; k++)
        if (jobs[k].bad != UINT64_MAX) {
            snprintf(err->msg, sizeof err->msg, "'%.90s': record %llu: %.90s", data,
                     (unsigned long long)jobs[k].bad, jobs[k].err.msg);
            status = -1;
        }
    if (!status) {
        memcpy(side, HE_MAGIC, 4);
        put_le(side + 4, HE_VERSION, 4);
        put_le(side + 8, len, 8);
        put_le(side + 16, records, 8);
        put_le(side + 24, tc_crc32(b, len), 4);
        put_le(side + 28, 0, 4);
        for (uint64_t i = 0; i < records; i++)
            put_le(side + HE_HEADER + 2 * i, (uint16_t)vals[i], 2);
        FILE *f = fopen(out, "wb");
        size_t n = HE_HEADER + 2 * records;
        bool ok = f && fwrite(side, 1, n, f) == n;
        if (f && fclose(f))
            ok = false;
        if (!ok) {
            snprintf(err->msg, sizeof err->msg, "cannot write '%.90s': %s", out, strerror(errno));
            status = -1;
        }
    }
    free(side);
    free(vals);
    free(b);
    tc_variant_free(v);
    return status;
}
