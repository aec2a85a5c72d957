/* The learned evaluation (NNUE): a net read from a `.tcnn` file
 * (docs/nnue-format.md), an accumulator kept up to date in make/unmake, and
 * the small integer layers on top of it. Not installed; the engine reaches
 * it through topochess_engine.h (tc_engine_load_net...).
 *
 *   nnue_net *n = nnue_net_load(bytes, len, variant, &err);  // validated
 *   nnue_state *s = nnue_state_new(n, 160);
 *   nnue_refresh(s, pos);
 *   nnue_make(s, pos, m); ... nnue_unmake(s, pos);
 *   int cp = nnue_evaluate(s, pos);
 *
 * The net is read only once loaded, so threads share it; each thread owns
 * its nnue_state. Nothing here keeps global state. */
#ifndef TC_NNUE_H
#define TC_NNUE_H

#include "internal.h"

#define NNUE_MAGIC "TCNN"
#define NNUE_VERSION 2
/* Version 1: magic and eight u32 fields; version 2 adds a ninth, flags. */
#define NNUE_HEADER_BYTES_V1 36
#define NNUE_HEADER_BYTES 40
/* flags bit 0: the net's output is added to the hand-written static
 * evaluation (a hybrid, or residual, net); other bits must be 0. */
#define NNUE_FLAG_HYBRID 1u

/// The SIMD kernels one state may run. A build has the scalar path always,
/// SSE2 and AVX2 on x86-64 (AVX2 only where the CPU has it, asked at run
/// time) and SIMD128 in the wasm build. All give the same integers.
enum { NNUE_SCALAR = 0, NNUE_SSE2 = 1, NNUE_AVX2 = 2, NNUE_SIMD128 = 3, NNUE_SIMD_COUNT };

/// A net's integers, as the file holds them (docs/nnue-format.md), in
/// 64-byte aligned blocks: feature transformer per perspective, then two
/// hidden layers and the output. in = 12 * cells features per perspective.
typedef struct nnue_net {
    int W, R, cells, in, H, L1, L2, scale;
    bool hybrid;  /* flags bit 0: the engine adds the hand-written evaluation */
    uint32_t crc; /* the file's checksum: names the net (datagen headers) */
    char name[64];
    int16_t *ft_bias;   /* [2][H] */
    int16_t *ft_weight; /* [2][in][H] */
    int32_t *l1_bias;   /* [L1] */
    int8_t *l1_weight;  /* [L1][2H] */
    int32_t *l2_bias;   /* [L2] */
    int8_t *l2_weight;  /* [L2][L1] */
    int32_t out_bias;
    int8_t *out_weight; /* [L2] */
    void *mem;          /* one block holding every array */
} nnue_net;

/* CRC-32 (IEEE 802.3, zlib's) of len bytes. */
uint32_t nnue_crc32(const void *data, size_t len);

/* Reads and checks a net (magic, version, sizes, exact length, board size
 * against v when v is not NULL, checksum); NULL with err naming the
 * problem. The bytes are copied. */
nnue_net *nnue_net_load(const void *data, size_t len, const tc_variant *v, tc_error *err);
void nnue_net_free(nnue_net *n);

/* A valid net file (heap bytes, version 2 with these flags: 0 a pure net,
 * NNUE_FLAG_HYBRID a hybrid one) of random weights, named "random", for
 * speed measurements and the tests; NULL if memory runs out. The same
 * seed gives the same bytes. */
unsigned char *nnue_random_file(int W, int R, int H, int L1, int L2, uint32_t flags, uint64_t seed, size_t *len);

/* Which of the presets named (those that have a net) applies to v: the
 * preset of v's name if v has its board, else the first with v's board.
 * Its index, or -1. The one rule for the built-in nets and for the nets the
 * browser fetches (wasm/tcw_engine.c). */
int nnue_preset_pick(const tc_variant *v, const char *(*name)(int i, void *ctx), int n, void *ctx);

/* The net built into the binary for v's board (nets/<preset>.tcnn at build
 * time), chosen by nnue_preset_pick. 0 and its bytes if there is one, -1 if
 * not. */
int nnue_builtin_find(const tc_variant *v, const unsigned char **data, size_t *len, const char **preset);

/* SIMD: the best level this build and CPU run; whether one is available;
 * its name ("avx2"). */
int nnue_simd_best(void);
int nnue_simd_available(int level);
const char *nnue_simd_name(int level);

/// What one move changed: up to four cells with the piece before and after
/// (0: empty). Kept so that an accumulator is brought up to date only when
/// an evaluation needs it (many searched nodes are never evaluated).
typedef struct nnue_delta {
    int n;
    int16_t cell[4];
    uint8_t before[4], after[4];
} nnue_delta;

/// One thread's accumulators: a stack with one entry per ply made since the
/// last refresh, each the two perspectives' H int16 values, computed from
/// the entry below and the move's delta when first needed (`done`). Plies
/// beyond the stack (never in a search, whose depth is capped) are counted
/// in `over` and evaluated by a refresh.
typedef struct nnue_state {
    const nnue_net *net;
    int simd;
    int top, cap, over;
    int16_t *acc;       /* [cap][2][H] */
    nnue_delta *delta;  /* [cap]: the move into each entry */
    bool *done;         /* [cap]: the entry's accumulator is computed */
} nnue_state;

/* A state for net with room for `plies` moves; NULL if memory runs out. */
nnue_state *nnue_state_new(const nnue_net *net, int plies);
void nnue_state_free(nnue_state *s);
/* Chooses the kernels (tests compare them); -1 if this build or CPU lacks
 * the level. */
int nnue_state_set_simd(nnue_state *s, int level);

/* Recomputes the accumulator of p from its pieces; the stack restarts. */
void nnue_refresh(nnue_state *s, const tc_position *p);
/* tc_make_move / tc_unmake_move with the accumulator following. */
void nnue_make(nnue_state *s, tc_position *p, tc_move m);
void nnue_unmake(nnue_state *s, tc_position *p);
void nnue_make_null(nnue_state *s, tc_position *p);
void nnue_unmake_null(nnue_state *s, tc_position *p);

/* The net's centipawns for p's side to move, from the accumulator (p must
 * be the position the state follows). For a hybrid net this is only the
 * net's part: the engine adds the hand-written evaluation. */
int nnue_evaluate(nnue_state *s, const tc_position *p);
/* The current accumulator (perspective 0, then 1), brought up to date;
 * for tests. */
const int16_t *nnue_accumulator(nnue_state *s);
/* The same evaluation from scratch with the given kernels (no state). */
int nnue_evaluate_fresh(const nnue_net *net, const tc_position *p, int simd);

#endif
