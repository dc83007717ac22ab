/* sieve: sieve of Eratosthenes (byte array and odd-only bitset) up to a
 * fixed bound, a segmented sieve for a distant range, prime counting,
 * twin primes, prime gaps and Goldbach checks for small even numbers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LIMIT 2000000u
#define SEG_LO 1000000000u
#define SEG_LEN 200000u

static unsigned char composite[LIMIT + 1];
static uint32_t bits[(LIMIT / 2) / 32 + 1];

static void byte_sieve(void) {
    composite[0] = composite[1] = 1;
    for (uint32_t i = 2; (uint64_t)i * i <= LIMIT; i++)
        if (!composite[i])
            for (uint32_t j = i * i; j <= LIMIT; j += i) composite[j] = 1;
}

/* Bit k represents the odd number 2k+1; a set bit means composite. */
static void bit_sieve(void) {
    memset(bits, 0, sizeof(bits));
    bits[0] |= 1u; /* 1 is not prime */
    for (uint32_t i = 3; (uint64_t)i * i <= LIMIT; i += 2) {
        uint32_t k = i / 2;
        if (bits[k / 32] & (1u << (k % 32))) continue;
        for (uint32_t j = i * i; j <= LIMIT; j += 2 * i) {
            uint32_t m = j / 2;
            bits[m / 32] |= 1u << (m % 32);
        }
    }
}

static int bit_is_prime(uint32_t n) {
    if (n == 2) return 1;
    if (n < 2 || n % 2 == 0) return 0;
    uint32_t k = n / 2;
    return !(bits[k / 32] & (1u << (k % 32)));
}

int main(void) {
    byte_sieve();
    bit_sieve();
    uint32_t count = 0, twins = 0, max_gap = 0, gap_at = 0, last = 0, agree = 1;
    uint64_t sum = 0;
    for (uint32_t n = 2; n <= LIMIT; n++) {
        int p = !composite[n];
        if (p != bit_is_prime(n)) agree = 0;
        if (!p) continue;
        count++;
        sum += n;
        if (last && n - last == 2) twins++;
        if (last && n - last > max_gap) {
            max_gap = n - last;
            gap_at = last;
        }
        last = n;
    }
    printf("primes<=%u: count=%u sum=%llu largest=%u agree=%d\n", LIMIT, count,
           (unsigned long long)sum, last, agree);
    printf("twin pairs=%u max gap=%u after %u\n", twins, max_gap, gap_at);

    /* Goldbach: every even number 4..8000 is a sum of two primes. */
    uint32_t min_reps = 0xFFFFFFFFu, min_at = 0, ok = 1;
    for (uint32_t e = 4; e <= 8000; e += 2) {
        uint32_t reps = 0;
        for (uint32_t p = 2; p <= e / 2; p++)
            if (!composite[p] && !composite[e - p]) reps++;
        if (!reps) ok = 0;
        if (e > 1000 && reps < min_reps) {
            min_reps = reps;
            min_at = e;
        }
    }
    printf("goldbach ok=%u min representations above 1000: %u at %u\n", ok, min_reps, min_at);

    /* Segmented sieve of [SEG_LO, SEG_LO + SEG_LEN) using base primes. */
    static unsigned char seg[SEG_LEN];
    memset(seg, 0, sizeof(seg));
    for (uint32_t p = 2; (uint64_t)p * p < (uint64_t)SEG_LO + SEG_LEN; p++) {
        if (composite[p]) continue;
        uint64_t start = ((uint64_t)SEG_LO + p - 1) / p * p;
        if (start < (uint64_t)p * p) start = (uint64_t)p * p;
        for (uint64_t m = start; m < (uint64_t)SEG_LO + SEG_LEN; m += p) seg[m - SEG_LO] = 1;
    }
    uint32_t segcount = 0, first = 0;
    for (uint32_t i = 0; i < SEG_LEN; i++)
        if (!seg[i]) {
            if (!segcount) first = SEG_LO + i;
            segcount++;
        }
    printf("segment [%u, %u): primes=%u first=%u\n", SEG_LO, SEG_LO + SEG_LEN, segcount, first);
    return 0;
}
