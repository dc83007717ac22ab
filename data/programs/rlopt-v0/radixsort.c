/* radixsort: LSD radix sort (8-bit digits) of 32-bit keys and MSD radix
 * sort of short byte strings, with a counting-sort cross-check. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 300000
#define NSTR 40000
#define SLEN 8

static uint32_t rng_state = 0xC0FFEEu;

static uint32_t next_rand(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}

static void lsd_radix_sort(uint32_t *a, uint32_t *tmp, long n) {
    for (int shift = 0; shift < 32; shift += 8) {
        long count[257];
        memset(count, 0, sizeof(count));
        for (long i = 0; i < n; i++) count[((a[i] >> shift) & 0xFFu) + 1]++;
        for (int d = 0; d < 256; d++) count[d + 1] += count[d];
        for (long i = 0; i < n; i++) tmp[count[(a[i] >> shift) & 0xFFu]++] = a[i];
        memcpy(a, tmp, (size_t)n * sizeof(uint32_t));
    }
}

static unsigned char strings[NSTR][SLEN];
static int order[NSTR];
static int order_tmp[NSTR];

/* MSD radix sort of string indices on character position `pos`. */
static void msd_sort(int lo, int hi, int pos) {
    if (hi - lo < 2 || pos >= SLEN) return;
    int count[257];
    memset(count, 0, sizeof(count));
    for (int i = lo; i < hi; i++) count[strings[order[i]][pos] + 1]++;
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    int start[256];
    for (int d = 0; d < 256; d++) start[d] = count[d];
    for (int i = lo; i < hi; i++) order_tmp[lo + count[strings[order[i]][pos]]++] = order[i];
    memcpy(order + lo, order_tmp + lo, (size_t)(hi - lo) * sizeof(int));
    for (int d = 0; d < 256; d++) {
        int b = lo + start[d];
        int e = lo + count[d];
        if (e - b > 1) msd_sort(b, e, pos + 1);
    }
}

int main(void) {
    uint32_t *a = malloc(sizeof(uint32_t) * N);
    uint32_t *tmp = malloc(sizeof(uint32_t) * N);
    uint32_t *small = malloc(sizeof(uint32_t) * N);
    if (!a || !tmp || !small) return 1;
    for (long i = 0; i < N; i++) a[i] = next_rand();
    lsd_radix_sort(a, tmp, N);
    int ok = 1;
    for (long i = 1; i < N; i++)
        if (a[i - 1] > a[i]) ok = 0;
    uint32_t h = 0;
    for (long i = 0; i < N; i++) h = h * 2654435761u + a[i];
    printf("lsd: sorted=%d min=%u max=%u hash=%08x\n", ok, a[0], a[N - 1], h);

    /* Small keys: radix sort must agree with a counting sort. */
    static long hist[65536];
    for (long i = 0; i < N; i++) {
        small[i] = next_rand() & 0xFFFFu;
        hist[small[i]]++;
    }
    lsd_radix_sort(small, tmp, N);
    long k = 0;
    int agree = 1;
    for (long v = 0; v < 65536; v++)
        for (long c = 0; c < hist[v]; c++)
            if (small[k++] != (uint32_t)v) agree = 0;
    printf("counting cross-check: agree=%d\n", agree);

    for (int i = 0; i < NSTR; i++) {
        for (int j = 0; j < SLEN; j++) strings[i][j] = (unsigned char)('a' + next_rand() % 6u);
        order[i] = i;
    }
    msd_sort(0, NSTR, 0);
    int sok = 1;
    long dups = 0;
    for (int i = 1; i < NSTR; i++) {
        int c = memcmp(strings[order[i - 1]], strings[order[i]], SLEN);
        if (c > 0) sok = 0;
        if (c == 0) dups++;
    }
    printf("msd: sorted=%d duplicates=%ld first=%.8s last=%.8s\n", sok, dups,
           (const char *)strings[order[0]], (const char *)strings[order[NSTR - 1]]);
    free(a);
    free(tmp);
    free(small);
    return 0;
}
