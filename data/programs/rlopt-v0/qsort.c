/* qsort: in-place quicksort (median-of-three pivot, Hoare partition,
 * insertion sort for short ranges) of pseudo-random 32-bit keys. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200000
#define ROUNDS 2
#define CUTOFF 12

static uint32_t rng_state = 0x2545F491u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state ^ (rng_state >> 16);
}

static void swap_u32(uint32_t *a, uint32_t *b) {
    uint32_t t = *a;
    *a = *b;
    *b = t;
}

static void insertion_sort(uint32_t *a, long lo, long hi) {
    for (long i = lo + 1; i <= hi; i++) {
        uint32_t v = a[i];
        long j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void quicksort(uint32_t *a, long lo, long hi) {
    while (hi - lo > CUTOFF) {
        long mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo]) swap_u32(&a[mid], &a[lo]);
        if (a[hi] < a[lo]) swap_u32(&a[hi], &a[lo]);
        if (a[hi] < a[mid]) swap_u32(&a[hi], &a[mid]);
        uint32_t pivot = a[mid];
        long i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) {
                swap_u32(&a[i], &a[j]);
                i++;
                j--;
            }
        }
        /* Recurse into the smaller part, loop on the larger one. */
        if (j - lo < hi - i) {
            quicksort(a, lo, j);
            lo = i;
        } else {
            quicksort(a, i, hi);
            hi = j;
        }
    }
    insertion_sort(a, lo, hi);
}

static int is_sorted(const uint32_t *a, long n) {
    for (long i = 1; i < n; i++)
        if (a[i - 1] > a[i]) return 0;
    return 1;
}

static uint32_t checksum(const uint32_t *a, long n) {
    uint32_t h = 2166136261u;
    for (long i = 0; i < n; i++) {
        h ^= a[i];
        h *= 16777619u;
    }
    return h;
}

int main(void) {
    uint32_t *a = malloc(sizeof(uint32_t) * N);
    if (!a) return 1;
    for (int r = 0; r < ROUNDS; r++) {
        /* Round 0: uniform keys; round 1: keys with many duplicates. */
        for (long i = 0; i < N; i++)
            a[i] = (r == 0) ? next_rand() : next_rand() % 1000u;
        uint32_t before = 0;
        for (long i = 0; i < N; i++) before += a[i];
        quicksort(a, 0, N - 1);
        uint32_t after = 0;
        for (long i = 0; i < N; i++) after += a[i];
        printf("round %d: sorted=%d sum_kept=%d min=%u median=%u max=%u hash=%08x\n",
               r, is_sorted(a, N), before == after, a[0], a[N / 2], a[N - 1],
               checksum(a, N));
    }
    free(a);
    return 0;
}
