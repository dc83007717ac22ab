/* mergesort: stable top-down merge sort of (key, id) records, checked for
 * order and stability, plus a bottom-up variant on the same input. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 150000

typedef struct {
    uint32_t key;
    uint32_t id;
} record;

static uint32_t rng_state = 7u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1103515245u + 12345u;
    return (rng_state >> 8) & 0xFFFFFFu;
}

static void merge(record *a, record *tmp, long lo, long mid, long hi) {
    long i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (a[j].key < a[i].key)
            tmp[k++] = a[j++];
        else
            tmp[k++] = a[i++];
    }
    while (i < mid) tmp[k++] = a[i++];
    while (j < hi) tmp[k++] = a[j++];
    memcpy(a + lo, tmp + lo, (size_t)(hi - lo) * sizeof(record));
}

static void sort_top_down(record *a, record *tmp, long lo, long hi) {
    if (hi - lo < 2) return;
    long mid = lo + (hi - lo) / 2;
    sort_top_down(a, tmp, lo, mid);
    sort_top_down(a, tmp, mid, hi);
    if (a[mid - 1].key <= a[mid].key) return; /* already in order */
    merge(a, tmp, lo, mid, hi);
}

static void sort_bottom_up(record *a, record *tmp, long n) {
    for (long width = 1; width < n; width *= 2) {
        for (long lo = 0; lo < n - width; lo += 2 * width) {
            long mid = lo + width;
            long hi = lo + 2 * width;
            if (hi > n) hi = n;
            merge(a, tmp, lo, mid, hi);
        }
    }
}

/* 1 if keys ascend and equal keys keep their original (id) order. */
static int sorted_and_stable(const record *a, long n) {
    for (long i = 1; i < n; i++) {
        if (a[i - 1].key > a[i].key) return 0;
        if (a[i - 1].key == a[i].key && a[i - 1].id > a[i].id) return 0;
    }
    return 1;
}

static uint32_t digest(const record *a, long n) {
    uint32_t h = 0;
    for (long i = 0; i < n; i++) h = (h * 31u) ^ (a[i].key + a[i].id * 2654435761u);
    return h;
}

int main(void) {
    record *a = malloc(sizeof(record) * N);
    record *b = malloc(sizeof(record) * N);
    record *tmp = malloc(sizeof(record) * N);
    if (!a || !b || !tmp) return 1;
    for (long i = 0; i < N; i++) {
        a[i].key = next_rand() % 5000u; /* many equal keys */
        a[i].id = (uint32_t)i;
    }
    memcpy(b, a, sizeof(record) * N);
    sort_top_down(a, tmp, 0, N);
    sort_bottom_up(b, tmp, N);
    int same = memcmp(a, b, sizeof(record) * N) == 0;
    printf("top-down: ok=%d digest=%08x\n", sorted_and_stable(a, N), digest(a, N));
    printf("bottom-up: ok=%d digest=%08x same=%d\n", sorted_and_stable(b, N), digest(b, N), same);
    printf("first=(%u,%u) middle=(%u,%u) last=(%u,%u)\n", a[0].key, a[0].id, a[N / 2].key,
           a[N / 2].id, a[N - 1].key, a[N - 1].id);
    free(a);
    free(b);
    free(tmp);
    return 0;
}
