/* ct_v2.h - two doubles in one vector for the chunk path's bit-exact SIMD:
 * wasm simd128, SSE2, or a plain struct. Only lane-wise IEEE +, - and *,
 * each exactly rounded per lane, so a lane gives the same bits as the scalar
 * expression in the same order (-ffp-contract=off: no fusing). / and sqrt
 * are correctly rounded by IEEE too, so their lanes match the scalar ones as
 * well. Used by the 4-sample detail noise (noise.c), the two-sample ridge
 * noise (ranges.c), the fine relief (fine_relief.c), the sampler's directions
 * (sample.c) and the mesh's directions and normals (mesh.c). */
#ifndef CT_V2_H
#define CT_V2_H

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
typedef v128_t ct__v2;
#define CT__V2(a, b) wasm_f64x2_make(a, b)
#define CT__V2_ADD wasm_f64x2_add
#define CT__V2_SUB wasm_f64x2_sub
#define CT__V2_MUL wasm_f64x2_mul
#define CT__V2_DIV wasm_f64x2_div
#define CT__V2_SQRT wasm_f64x2_sqrt
#define CT__V2_LOAD(p) wasm_v128_load(p)
#define CT__V2_STORE(p, v) wasm_v128_store(p, v)
/* Lanes of v where d < 0 negated (sign bit flipped, as unary minus does). */
#define CT__V2_NEG_WHERE_NEG(v, d) wasm_v128_xor(v, wasm_v128_and(wasm_f64x2_lt(d, wasm_f64x2_splat(0.0)), \
                                                     wasm_f64x2_splat(-0.0)))
/* 1 if both lanes are > 0 (false for NaN). */
#define CT__V2_BOTH_POS(v) (wasm_i64x2_bitmask(wasm_f64x2_gt(v, wasm_f64x2_splat(0.0))) == 3)
#define CT__V2_LO(v) wasm_f64x2_extract_lane(v, 0)
#define CT__V2_HI(v) wasm_f64x2_extract_lane(v, 1)
#elif defined(__SSE2__)
#include <emmintrin.h>
typedef __m128d ct__v2;
#define CT__V2(a, b) _mm_set_pd(b, a)
#define CT__V2_ADD _mm_add_pd
#define CT__V2_SUB _mm_sub_pd
#define CT__V2_MUL _mm_mul_pd
#define CT__V2_DIV _mm_div_pd
#define CT__V2_SQRT _mm_sqrt_pd
#define CT__V2_LOAD(p) _mm_loadu_pd(p)
#define CT__V2_STORE(p, v) _mm_storeu_pd(p, v)
#define CT__V2_NEG_WHERE_NEG(v, d) _mm_xor_pd(v, _mm_and_pd(_mm_cmplt_pd(d, _mm_setzero_pd()), _mm_set1_pd(-0.0)))
#define CT__V2_BOTH_POS(v) (_mm_movemask_pd(_mm_cmpgt_pd(v, _mm_setzero_pd())) == 3)
#define CT__V2_LO(v) _mm_cvtsd_f64(v)
#define CT__V2_HI(v) _mm_cvtsd_f64(_mm_unpackhi_pd(v, v))
#else
#include <math.h>
typedef struct ct__v2 { double l, h; } ct__v2;
static inline ct__v2 ct__v2_make(double a, double b) { ct__v2 r; r.l = a; r.h = b; return r; }
static inline ct__v2 ct__v2_add(ct__v2 a, ct__v2 b) { return ct__v2_make(a.l + b.l, a.h + b.h); }
static inline ct__v2 ct__v2_sub(ct__v2 a, ct__v2 b) { return ct__v2_make(a.l - b.l, a.h - b.h); }
static inline ct__v2 ct__v2_mul(ct__v2 a, ct__v2 b) { return ct__v2_make(a.l * b.l, a.h * b.h); }
static inline ct__v2 ct__v2_div(ct__v2 a, ct__v2 b) { return ct__v2_make(a.l / b.l, a.h / b.h); }
static inline ct__v2 ct__v2_sqrt(ct__v2 a) { return ct__v2_make(sqrt(a.l), sqrt(a.h)); }
static inline ct__v2 ct__v2_load(const double *p) { return ct__v2_make(p[0], p[1]); }
static inline void ct__v2_store(double *p, ct__v2 v) { p[0] = v.l; p[1] = v.h; }
static inline ct__v2 ct__v2_neg_where_neg(ct__v2 v, ct__v2 d)
{
    return ct__v2_make(d.l < 0.0 ? -v.l : v.l, d.h < 0.0 ? -v.h : v.h);
}
#define CT__V2 ct__v2_make
#define CT__V2_ADD ct__v2_add
#define CT__V2_SUB ct__v2_sub
#define CT__V2_MUL ct__v2_mul
#define CT__V2_DIV ct__v2_div
#define CT__V2_SQRT ct__v2_sqrt
#define CT__V2_LOAD ct__v2_load
#define CT__V2_STORE ct__v2_store
#define CT__V2_NEG_WHERE_NEG ct__v2_neg_where_neg
#define CT__V2_BOTH_POS(v) ((v).l > 0.0 && (v).h > 0.0)
#define CT__V2_LO(v) ((v).l)
#define CT__V2_HI(v) ((v).h)
#endif

#endif
