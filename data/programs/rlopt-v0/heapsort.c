/* heapsort: binary max-heap sort of 64-bit keys, plus a k-smallest
 * selection with a bounded max-heap, both checked against each other. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 220000
#define K 100

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_rand(void) {
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static void sift_down(uint64_t *a, long start, long n) {
    long root = start;
    for (;;) {
        long child = 2 * root + 1;
        if (child >= n) return;
        if (child + 1 < n && a[child] < a[child + 1]) child++;
        if (a[root] >= a[child]) return;
        uint64_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static void heap_sort(uint64_t *a, long n) {
    for (long i = n / 2 - 1; i >= 0; i--) sift_down(a, i, n);
    for (long end = n - 1; end > 0; end--) {
        uint64_t t = a[0];
        a[0] = a[end];
        a[end] = t;
        sift_down(a, 0, end);
    }
}

/* Keeps the k smallest values seen so far in a max-heap of size k. */
static void k_smallest(const uint64_t *src, long n, uint64_t *heap, long k) {
    long size = 0;
    for (long i = 0; i < n; i++) {
        uint64_t v = src[i];
        if (size < k) {
            long c = size++;
            heap[c] = v;
            while (c > 0) {
                long p = (c - 1) / 2;
                if (heap[p] >= heap[c]) break;
                uint64_t t = heap[p];
                heap[p] = heap[c];
                heap[c] = t;
                c = p;
            }
        } else if (v < heap[0]) {
            heap[0] = v;
            sift_down(heap, 0, k);
        }
    }
    heap_sort(heap, size);
}

int main(void) {
    uint64_t *a = malloc(sizeof(uint64_t) * N);
    uint64_t *orig = malloc(sizeof(uint64_t) * N);
    uint64_t heap[K];
    if (!a || !orig) return 1;
    for (long i = 0; i < N; i++) orig[i] = a[i] = next_rand() >> 20;
    heap_sort(a, N);
    int sorted = 1;
    for (long i = 1; i < N; i++)
        if (a[i - 1] > a[i]) sorted = 0;
    k_smallest(orig, N, heap, K);
    int agree = 1;
    for (long i = 0; i < K; i++)
        if (heap[i] != a[i]) agree = 0;
    uint64_t h = 1469598103934665603ull;
    for (long i = 0; i < N; i++) {
        h ^= a[i];
        h *= 1099511628211ull;
    }
    printf("sorted=%d k_smallest_agree=%d\n", sorted, agree);
    printf("min=%llu kth=%llu max=%llu\n", (unsigned long long)a[0],
           (unsigned long long)a[K - 1], (unsigned long long)a[N - 1]);
    printf("hash=%016llx\n", (unsigned long long)h);
    free(a);
    free(orig);
    return 0;
}
