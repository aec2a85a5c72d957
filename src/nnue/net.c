/* Reading a net file (docs/nnue-format.md): header, exact length, board
 * size, checksum, then the integers into aligned blocks; and finding the
 * net built into the binary for a board. */
#include "nnue.h"
#include "builtin.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

uint32_t nnue_crc32(const void *data, size_t len)
{
    uint32_t table[256]; /* per call: no global state, and cheap beside a net */
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
        table[i] = c;
    }
    const unsigned char *b = data;
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < len; i++)
        crc = (crc >> 8) ^ table[(crc ^ b[i]) & 0xff];
    return ~crc;
}

static void fail(tc_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void fail(tc_error *err, const char *fmt, ...)
{
    if (!err)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

static uint32_t rd32(const unsigned char *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static size_t round64(size_t n) { return (n + 63) & ~(size_t)63; }

/// A checked header: the sizes, and where the name and the tensors lie.
typedef struct {
    uint32_t version, flags, W, R, H, L1, L2, scale, name_len;
    size_t head; /* bytes before the name: 36 in version 1, 40 in 2 */
    size_t cells, in, total; /* total: the length the header implies */
} header;

static int read_header(const unsigned char *b, size_t len, header *h, tc_error *err)
{
    if (len < NNUE_HEADER_BYTES_V1) {
        fail(err, "net file: %zu bytes, too short for the %d-byte header", len, NNUE_HEADER_BYTES_V1);
        return -1;
    }
    if (memcmp(b, NNUE_MAGIC, 4)) {
        fail(err, "net file: bad magic (expected 'TCNN'): not a topochess net");
        return -1;
    }
    h->version = rd32(b + 4);
    if (h->version != 1 && h->version != NNUE_VERSION) {
        fail(err, "net file: version %u, this engine reads versions 1 and %d", h->version, NNUE_VERSION);
        return -1;
    }
    h->head = h->version == 1 ? NNUE_HEADER_BYTES_V1 : NNUE_HEADER_BYTES;
    if (len < h->head) {
        fail(err, "net file: %zu bytes, too short for the %zu-byte header", len, h->head);
        return -1;
    }
    h->flags = h->version == 1 ? 0 : rd32(b + NNUE_HEADER_BYTES_V1);
    if (h->flags & ~NNUE_FLAG_HYBRID) {
        fail(err, "net file: unknown flags %08x (this engine knows only bit 0, hybrid)", h->flags);
        return -1;
    }
    h->W = rd32(b + 8);
    h->R = rd32(b + 12);
    h->H = rd32(b + 16);
    h->L1 = rd32(b + 20);
    h->L2 = rd32(b + 24);
    h->scale = rd32(b + 28);
    h->name_len = rd32(b + 32);
    if (h->W < 1 || h->W > TC_MAX_FILES || h->R < 1 || h->R > TC_MAX_RANKS) {
        fail(err, "net file: board %ux%u is out of range (1..%d files, 1..%d ranks)", h->W, h->R, TC_MAX_FILES,
             TC_MAX_RANKS);
        return -1;
    }
    if (h->H < 32 || h->H > 1024 || h->H % 32) {
        fail(err, "net file: H = %u, expected a multiple of 32 from 32 to 1024", h->H);
        return -1;
    }
    if (h->L1 < 32 || h->L1 > 64 || h->L1 % 32 || h->L2 < 32 || h->L2 > 64 || h->L2 % 32) {
        fail(err, "net file: layers L1 = %u, L2 = %u, expected 32 or 64 each", h->L1, h->L2);
        return -1;
    }
    if (h->scale < 1 || h->scale > 100000) {
        fail(err, "net file: scale %u, expected 1 to 100000 centipawns per output unit", h->scale);
        return -1;
    }
    if (h->name_len > 63) {
        fail(err, "net file: name length %u, at most 63", h->name_len);
        return -1;
    }
    h->cells = (size_t)h->W * h->R;
    h->in = 12 * h->cells;
    h->total = h->head + h->name_len + 2 * 2 * (size_t)h->H + 2 * 2 * h->in * h->H + 4 * (size_t)h->L1 +
               (size_t)h->L1 * 2 * h->H + 4 * (size_t)h->L2 + (size_t)h->L2 * h->L1 + 4 + h->L2 + 4;
    if (len != h->total) {
        fail(err, "net file: %zu bytes, but its header (%ux%u board, H %u, L1 %u, L2 %u) implies %zu", len, h->W,
             h->R, h->H, h->L1, h->L2, h->total);
        return -1;
    }
    return 0;
}

nnue_net *nnue_net_load(const void *data, size_t len, const tc_variant *v, tc_error *err)
{
    const unsigned char *b = data;
    header h;
    if (read_header(b, len, &h, err))
        return NULL;
    if (v && ((int)h.W != v->W || (int)h.R != v->H)) {
        fail(err, "net file: made for a %ux%u board, but %s is %dx%d", h.W, h.R, v->def.name, v->W, v->H);
        return NULL;
    }
    uint32_t want = rd32(b + len - 4), got = nnue_crc32(b, len - 4);
    if (want != got) {
        fail(err, "net file: checksum mismatch (file says %08x, contents give %08x): the file is damaged", want,
             got);
        return NULL;
    }
    nnue_net *n = calloc(1, sizeof *n);
    if (!n) {
        fail(err, "net file: out of memory");
        return NULL;
    }
    n->W = (int)h.W;
    n->R = (int)h.R;
    n->crc = got;
    n->cells = (int)h.cells;
    n->in = (int)h.in;
    n->H = (int)h.H;
    n->L1 = (int)h.L1;
    n->L2 = (int)h.L2;
    n->scale = (int)h.scale;
    n->hybrid = (h.flags & NNUE_FLAG_HYBRID) != 0;
    memcpy(n->name, b + h.head, h.name_len);
    n->name[h.name_len] = '\0';

    size_t H = h.H, sz_ftb = round64(2 * H * 2), sz_ftw = round64(2 * h.in * H * 2), sz_l1b = round64(4 * h.L1),
           sz_l1w = round64(h.L1 * 2 * H), sz_l2b = round64(4 * h.L2), sz_l2w = round64(h.L2 * h.L1),
           sz_ow = round64(h.L2);
    size_t total = sz_ftb + sz_ftw + sz_l1b + sz_l1w + sz_l2b + sz_l2w + sz_ow;
    unsigned char *m = aligned_alloc(64, total);
    if (!m) {
        free(n);
        fail(err, "net file: out of memory for %zu bytes of weights", total);
        return NULL;
    }
    n->mem = m;
    n->ft_bias = (int16_t *)m;
    n->ft_weight = (int16_t *)(m += sz_ftb);
    n->l1_bias = (int32_t *)(m += sz_ftw);
    n->l1_weight = (int8_t *)(m += sz_l1b);
    n->l2_bias = (int32_t *)(m += sz_l1w);
    n->l2_weight = (int8_t *)(m += sz_l2b);
    n->out_weight = (int8_t *)(m + sz_l2w);

    /* little-endian in the file, whatever the host */
    const unsigned char *p = b + h.head + h.name_len;
    for (size_t i = 0; i < 2 * H; i++, p += 2)
        n->ft_bias[i] = (int16_t)(uint16_t)(p[0] | p[1] << 8);
    for (size_t i = 0; i < 2 * h.in * H; i++, p += 2)
        n->ft_weight[i] = (int16_t)(uint16_t)(p[0] | p[1] << 8);
    for (size_t i = 0; i < h.L1; i++, p += 4)
        n->l1_bias[i] = (int32_t)rd32(p);
    for (size_t i = 0; i < h.L1 * 2 * H; i++)
        n->l1_weight[i] = (int8_t)*p++;
    for (size_t i = 0; i < h.L2; i++, p += 4)
        n->l2_bias[i] = (int32_t)rd32(p);
    for (size_t i = 0; i < (size_t)h.L2 * h.L1; i++)
        n->l2_weight[i] = (int8_t)*p++;
    n->out_bias = (int32_t)rd32(p);
    p += 4;
    for (size_t i = 0; i < h.L2; i++)
        n->out_weight[i] = (int8_t)*p++;
    return n;
}

void nnue_net_free(nnue_net *n)
{
    if (!n)
        return;
    free(n->mem);
    free(n);
}

static unsigned char *put_le(unsigned char *p, uint32_t x, int bytes)
{
    for (int i = 0; i < bytes; i++)
        *p++ = (unsigned char)(x >> (8 * i));
    return p;
}

unsigned char *nnue_random_file(int W, int R, int H, int L1, int L2, uint32_t flags, uint64_t seed, size_t *len)
{
    size_t in = 12 * (size_t)W * R, h = (size_t)H;
    *len = NNUE_HEADER_BYTES + 6 + 4 * h + 4 * in * h + 4 * (size_t)L1 + (size_t)L1 * 2 * h + 4 * (size_t)L2 +
           (size_t)L2 * L1 + 4 + (size_t)L2 + 4;
    unsigned char *b = malloc(*len), *p = b;
    if (!b)
        return NULL;
    uint64_t s = seed * 0x9e3779b97f4a7c15u + 1;
#define RND(lo, hi) (s ^= s << 13, s ^= s >> 7, s ^= s << 17, (int)((lo) + (int64_t)(s % (uint64_t)((hi) - (lo) + 1))))
    uint32_t head[9] = {NNUE_VERSION, (uint32_t)W, (uint32_t)R, (uint32_t)H, (uint32_t)L1, (uint32_t)L2, 400, 6, flags};
    memcpy(p, NNUE_MAGIC, 4);
    p += 4;
    for (int i = 0; i < 9; i++)
        p = put_le(p, head[i], 4);
    memcpy(p, "random", 6);
    p += 6;
    for (size_t i = 0; i < 2 * h; i++)
        p = put_le(p, (uint32_t)RND(0, 40), 2);
    for (size_t i = 0; i < 2 * in * h; i++)
        p = put_le(p, (uint32_t)RND(-20, 20), 2);
    for (int i = 0; i < L1; i++)
        p = put_le(p, (uint32_t)RND(-2000, 2000), 4);
    for (size_t i = 0; i < (size_t)L1 * 2 * h; i++)
        *p++ = (unsigned char)RND(-8, 8);
    for (int i = 0; i < L2; i++)
        p = put_le(p, (uint32_t)RND(-2000, 2000), 4);
    for (size_t i = 0; i < (size_t)L2 * L1; i++)
        *p++ = (unsigned char)RND(-20, 20);
    p = put_le(p, (uint32_t)RND(-500, 500), 4);
    for (int i = 0; i < L2; i++)
        *p++ = (unsigned char)RND(-64, 64);
#undef RND
    put_le(p, nnue_crc32(b, *len - 4), 4);
    return b;
}

/* The board a definition's joins make: size, file rule, rank rule, seam. */
static bool same_board(const tc_variant_def *a, const tc_variant_def *b)
{
    return a->width == b->width && a->height == b->height && a->files == b->files && a->ranks == b->ranks &&
           (a->ranks != TC_RANKS_TWIST || a->seam == b->seam);
}

int nnue_preset_pick(const tc_variant *v, const char *(*name)(int i, void *ctx), int n, void *ctx)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            tc_variant_def d;
            tc_error err;
            const char *preset = name(i, ctx);
            if (!preset || tc_preset_find(preset, &d, &err) || !same_board(&d, &v->def))
                continue;
            if (pass == 1 || !strcmp(d.name, v->def.name))
                return i;
        }
    return -1;
}

static const char *builtin_name(int i, void *ctx)
{
    (void)ctx;
    return nnue_builtins[i].preset;
}

int nnue_builtin_find(const tc_variant *v, const unsigned char **data, size_t *len, const char **preset)
{
    int found = nnue_preset_pick(v, builtin_name, nnue_builtin_count, NULL);
    if (found < 0)
        return -1;
    *data = nnue_builtins[found].data;
    *len = nnue_builtins[found].len;
    if (preset)
        *preset = nnue_builtins[found].preset;
    return 0;
}
