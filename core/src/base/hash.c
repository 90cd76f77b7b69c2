/* hash.c - stable unsigned integer hashing, salted sub-seeds and FNV-1a 64.
 * All arithmetic is on uint32_t/uint64_t, so wrap-around is defined and the
 * same on every target. */
#include "base/ct_base.h"

uint32_t ct__hash32(uint32_t x)
{
    return ct__mix32(x);
}

/* Chained mixing: each input is folded into an already avalanched state, so
 * (a,b) and (b,a) differ. 0x9e3779b9 is the golden-ratio increment. */
uint32_t ct__hash2(uint32_t a, uint32_t b)
{
    return ct__hash32(ct__hash32(a + 0x9e3779b9u) ^ b);
}

uint32_t ct__hash3(uint32_t a, uint32_t b, uint32_t c)
{
    return ct__hash32(ct__hash2(a, b) ^ (c * 0x85ebca6bu));
}

uint32_t ct__hash4(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    return ct__hash32(ct__hash3(a, b, c) ^ (d * 0xc2b2ae35u));
}

uint32_t ct__subseed(uint32_t seed, uint32_t salt)
{
    return ct__hash2(seed, salt);
}

double ct__unit(uint32_t h)
{
    return (double)h * (1.0 / 4294967296.0);
}

uint64_t ct_fnv1a64(const void *data, size_t len, uint64_t state)
{
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < len; i++) {
        state ^= p[i];
        state *= 0x100000001b3ull;
    }
    return state;
}
