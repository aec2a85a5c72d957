/* The net's inner loops behind one thin layer: each kernel has a scalar
 * twin and SSE2, AVX2 and SIMD128 versions where the build has them
 * (kernels.c), chosen by the `simd` level (NNUE_*). Every version gives the
 * same integers: sums are exact in int32 and int16 sums wrap alike. */
#ifndef TC_NNUE_KERNELS_H
#define TC_NNUE_KERNELS_H

#include <stdint.h>

/* dst[0..H) = src + the rows of add - the rows of sub (H a multiple of 32;
 * dst may be src). */
void nnue_k_update(int simd, int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                   const int16_t *const *sub, int nsub, int H);
/* out[j] = clamp(in[j], 0, 127) for n values (n a multiple of 32). */
void nnue_k_clamp(int simd, const int16_t *in, uint8_t *out, int n);
/* out[i] = bias[i] + sum_j w[i * n + j] * in[j] for nout outputs (n a
 * multiple of 32), int32 sums wrapping. */
void nnue_k_layer(int simd, const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout,
                  int32_t *out);

#endif
