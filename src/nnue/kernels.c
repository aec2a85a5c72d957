/* The kernels of kernels.h: scalar, SSE2 and AVX2 (x86; AVX2 compiled with
 * a target attribute and run only where the CPU has it) and WebAssembly
 * SIMD128 (wasm builds with -msimd128). */
#include "kernels.h"
#include "nnue.h"

#if defined(__x86_64__) || defined(__i386__)
#define NNUE_X86 1
#include <immintrin.h>
#define AVX2_FN __attribute__((target("avx2")))
#endif
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

/* ---------------------------------------------------------------- levels */

int nnue_simd_available(int level)
{
    switch (level) {
    case NNUE_SCALAR:
        return 1;
#ifdef NNUE_X86
#if defined(__SSE2__)
    case NNUE_SSE2:
        return 1;
#endif
    case NNUE_AVX2:
        return __builtin_cpu_supports("avx2") ? 1 : 0;
#endif
#if defined(__wasm_simd128__)
    case NNUE_SIMD128:
        return 1;
#endif
    default:
        return 0;
    }
}

int nnue_simd_best(void)
{
    static const int order[] = {NNUE_AVX2, NNUE_SIMD128, NNUE_SSE2};
    for (int i = 0; i < 3; i++)
        if (nnue_simd_available(order[i]))
            return order[i];
    return NNUE_SCALAR;
}

const char *nnue_simd_name(int level)
{
    static const char *const names[NNUE_SIMD_COUNT] = {"scalar", "sse2", "avx2", "simd128"};
    return level >= 0 && level < NNUE_SIMD_COUNT ? names[level] : "?";
}

/* ---------------------------------------------------------------- scalar */

static void update_scalar(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                          const int16_t *const *sub, int nsub, int H)
{
    for (int j = 0; j < H; j++) {
        int v = src[j];
        for (int k = 0; k < nadd; k++)
            v = (int16_t)(v + add[k][j]); /* wraps as int16 like the vector adds */
        for (int k = 0; k < nsub; k++)
            v = (int16_t)(v - sub[k][j]);
        dst[j] = (int16_t)v;
    }
}

static void clamp_scalar(const int16_t *in, uint8_t *out, int n)
{
    for (int j = 0; j < n; j++)
        out[j] = (uint8_t)(in[j] < 0 ? 0 : in[j] > 127 ? 127 : in[j]);
}

static void layer_scalar(const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout, int32_t *out)
{
    for (int i = 0; i < nout; i++) {
        int32_t s = 0; /* at most 2048 * 127 * 128 in size: exact */
        for (int j = 0; j < n; j++)
            s += (int32_t)in[j] * w[(size_t)i * n + j];
        out[i] = (int32_t)((uint32_t)bias[i] + (uint32_t)s);
    }
}

/* ---------------------------------------------------------------- SSE2 */

#if defined(NNUE_X86) && defined(__SSE2__)
static void update_sse2(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                        const int16_t *const *sub, int nsub, int H)
{
    for (int j = 0; j < H; j += 8) {
        __m128i v = _mm_loadu_si128((const __m128i *)(src + j));
        for (int k = 0; k < nadd; k++)
            v = _mm_add_epi16(v, _mm_loadu_si128((const __m128i *)(add[k] + j)));
        for (int k = 0; k < nsub; k++)
            v = _mm_sub_epi16(v, _mm_loadu_si128((const __m128i *)(sub[k] + j)));
        _mm_storeu_si128((__m128i *)(dst + j), v);
    }
}

static void clamp_sse2(const int16_t *in, uint8_t *out, int n)
{
    const __m128i top = _mm_set1_epi16(127), zero = _mm_setzero_si128();
    for (int j = 0; j < n; j += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(in + j));
        __m128i b = _mm_loadu_si128((const __m128i *)(in + j + 8));
        a = _mm_min_epi16(_mm_max_epi16(a, zero), top);
        b = _mm_min_epi16(_mm_max_epi16(b, zero), top);
        _mm_storeu_si128((__m128i *)(out + j), _mm_packus_epi16(a, b));
    }
}

static int32_t hsum_sse2(__m128i v)
{
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
    return _mm_cvtsi128_si32(v);
}

static void layer_sse2(const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout, int32_t *out)
{
    const __m128i zero = _mm_setzero_si128();
    for (int i = 0; i < nout; i++) {
        const int8_t *row = w + (size_t)i * n;
        __m128i sum = zero;
        for (int j = 0; j < n; j += 16) {
            __m128i a = _mm_loadu_si128((const __m128i *)(in + j));
            __m128i b = _mm_loadu_si128((const __m128i *)(row + j));
            __m128i sign = _mm_cmpgt_epi8(zero, b);
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_unpacklo_epi8(a, zero), _mm_unpacklo_epi8(b, sign)));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_unpackhi_epi8(a, zero), _mm_unpackhi_epi8(b, sign)));
        }
        out[i] = (int32_t)((uint32_t)bias[i] + (uint32_t)hsum_sse2(sum));
    }
}
#endif

/* ---------------------------------------------------------------- AVX2 */

#ifdef NNUE_X86
AVX2_FN static void update_avx2(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                                const int16_t *const *sub, int nsub, int H)
{
    for (int j = 0; j < H; j += 16) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(src + j));
        for (int k = 0; k < nadd; k++)
            v = _mm256_add_epi16(v, _mm256_loadu_si256((const __m256i *)(add[k] + j)));
        for (int k = 0; k < nsub; k++)
            v = _mm256_sub_epi16(v, _mm256_loadu_si256((const __m256i *)(sub[k] + j)));
        _mm256_storeu_si256((__m256i *)(dst + j), v);
    }
}

AVX2_FN static void clamp_avx2(const int16_t *in, uint8_t *out, int n)
{
    const __m256i top = _mm256_set1_epi16(127), zero = _mm256_setzero_si256();
    for (int j = 0; j < n; j += 32) {
        __m256i a = _mm256_loadu_si256((const __m256i *)(in + j));
        __m256i b = _mm256_loadu_si256((const __m256i *)(in + j + 16));
        a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
        b = _mm256_min_epi16(_mm256_max_epi16(b, zero), top);
        /* the pack works within 128-bit lanes: put the quarters back in order */
        __m256i p = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xd8);
        _mm256_storeu_si256((__m256i *)(out + j), p);
    }
}

AVX2_FN static void layer_avx2(const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout,
                               int32_t *out)
{
    const __m256i ones = _mm256_set1_epi16(1);
    for (int i = 0; i < nout; i++) {
        const int8_t *row = w + (size_t)i * n;
        __m256i sum = _mm256_setzero_si256();
        for (int j = 0; j < n; j += 32) {
            __m256i a = _mm256_loadu_si256((const __m256i *)(in + j));
            __m256i b = _mm256_loadu_si256((const __m256i *)(row + j));
            /* pairs of u8 (<= 127) times s8 stay within int16: no saturation */
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_maddubs_epi16(a, b), ones));
        }
        __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
        s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
        out[i] = (int32_t)((uint32_t)bias[i] + (uint32_t)_mm_cvtsi128_si32(s));
    }
}
#endif

/* ---------------------------------------------------------------- SIMD128 */

#if defined(__wasm_simd128__)
static void update_wasm(int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                        const int16_t *const *sub, int nsub, int H)
{
    for (int j = 0; j < H; j += 8) {
        v128_t v = wasm_v128_load(src + j);
        for (int k = 0; k < nadd; k++)
            v = wasm_i16x8_add(v, wasm_v128_load(add[k] + j));
        for (int k = 0; k < nsub; k++)
            v = wasm_i16x8_sub(v, wasm_v128_load(sub[k] + j));
        wasm_v128_store(dst + j, v);
    }
}

static void clamp_wasm(const int16_t *in, uint8_t *out, int n)
{
    const v128_t top = wasm_i16x8_splat(127), zero = wasm_i16x8_splat(0);
    for (int j = 0; j < n; j += 16) {
        v128_t a = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(in + j), zero), top);
        v128_t b = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(in + j + 8), zero), top);
        wasm_v128_store(out + j, wasm_u8x16_narrow_i16x8(a, b));
    }
}

static void layer_wasm(const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout, int32_t *out)
{
    for (int i = 0; i < nout; i++) {
        const int8_t *row = w + (size_t)i * n;
        v128_t sum = wasm_i32x4_splat(0);
        for (int j = 0; j < n; j += 16) {
            v128_t a = wasm_v128_load(in + j), b = wasm_v128_load(row + j);
            sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_low_u8x16(a),
                                                           wasm_i16x8_extend_low_i8x16(b)));
            sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(wasm_u16x8_extend_high_u8x16(a),
                                                           wasm_i16x8_extend_high_i8x16(b)));
        }
        int32_t s = wasm_i32x4_extract_lane(sum, 0) + wasm_i32x4_extract_lane(sum, 1) +
                    wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
        out[i] = (int32_t)((uint32_t)bias[i] + (uint32_t)s);
    }
}
#endif

/* ---------------------------------------------------------------- dispatch */

void nnue_k_update(int simd, int16_t *dst, const int16_t *src, const int16_t *const *add, int nadd,
                   const int16_t *const *sub, int nsub, int H)
{
    switch (simd) {
#ifdef NNUE_X86
    case NNUE_AVX2:
        update_avx2(dst, src, add, nadd, sub, nsub, H);
        return;
#if defined(__SSE2__)
    case NNUE_SSE2:
        update_sse2(dst, src, add, nadd, sub, nsub, H);
        return;
#endif
#endif
#if defined(__wasm_simd128__)
    case NNUE_SIMD128:
        update_wasm(dst, src, add, nadd, sub, nsub, H);
        return;
#endif
    default:
        update_scalar(dst, src, add, nadd, sub, nsub, H);
    }
}

void nnue_k_clamp(int simd, const int16_t *in, uint8_t *out, int n)
{
    switch (simd) {
#ifdef NNUE_X86
    case NNUE_AVX2:
        clamp_avx2(in, out, n);
        return;
#if defined(__SSE2__)
    case NNUE_SSE2:
        clamp_sse2(in, out, n);
        return;
#endif
#endif
#if defined(__wasm_simd128__)
    case NNUE_SIMD128:
        clamp_wasm(in, out, n);
        return;
#endif
    default:
        clamp_scalar(in, out, n);
    }
}

void nnue_k_layer(int simd, const uint8_t *in, int n, const int8_t *w, const int32_t *bias, int nout,
                  int32_t *out)
{
    switch (simd) {
#ifdef NNUE_X86
    case NNUE_AVX2:
        layer_avx2(in, n, w, bias, nout, out);
        return;
#if defined(__SSE2__)
    case NNUE_SSE2:
        layer_sse2(in, n, w, bias, nout, out);
        return;
#endif
#endif
#if defined(__wasm_simd128__)
    case NNUE_SIMD128:
        layer_wasm(in, n, w, bias, nout, out);
        return;
#endif
    default:
        layer_scalar(in, n, w, bias, nout, out);
    }
}
