/* huffman: Huffman code lengths from symbol frequencies (binary min-heap),
 * length limiting, canonical code assignment, bit-level encoding and
 * table-free decoding, verified by round trip. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 300000
#define NSYM 256
#define MAX_LEN 15

typedef struct {
    uint32_t weight;
    int node;
} heap_item;

static heap_item heap[NSYM];
static int heap_size;

static int item_less(heap_item a, heap_item b) {
    return a.weight < b.weight || (a.weight == b.weight && a.node < b.node);
}

static void heap_push(heap_item it) {
    int c = heap_size++;
    heap[c] = it;
    while (c > 0) {
        int p = (c - 1) / 2;
        if (!item_less(heap[c], heap[p])) break;
        heap_item t = heap[c];
        heap[c] = heap[p];
        heap[p] = t;
        c = p;
    }
}

static heap_item heap_pop(void) {
    heap_item top = heap[0];
    heap[0] = heap[--heap_size];
    int r = 0;
    for (;;) {
        int l = 2 * r + 1, m = r;
        if (l < heap_size && item_less(heap[l], heap[m])) m = l;
        if (l + 1 < heap_size && item_less(heap[l + 1], heap[m])) m = l + 1;
        if (m == r) break;
        heap_item t = heap[r];
        heap[r] = heap[m];
        heap[m] = t;
        r = m;
    }
    return top;
}

/* Nodes 0..NSYM-1 are leaves; internal nodes follow. */
static int parent[2 * NSYM];

static void code_lengths(const uint32_t *freq, int *len) {
    heap_size = 0;
    int next = NSYM, used = 0;
    for (int s = 0; s < NSYM; s++) {
        len[s] = 0;
        if (freq[s]) {
            heap_item it = {freq[s], s};
            heap_push(it);
            used++;
        }
    }
    if (used == 1) {
        len[heap[0].node] = 1;
        return;
    }
    while (heap_size > 1) {
        heap_item a = heap_pop(), b = heap_pop();
        parent[a.node] = parent[b.node] = next;
        heap_item it = {a.weight + b.weight, next};
        heap_push(it);
        next++;
    }
    int root = next - 1;
    for (int s = 0; s < NSYM; s++) {
        if (!freq[s]) continue;
        int d = 0;
        for (int n = s; n != root; n = parent[n]) d++;
        len[s] = d;
    }
}

/* Clamp lengths to MAX_LEN and repair the Kraft inequality. */
static void limit_lengths(int *len) {
    long kraft = 0;
    const long one = 1L << MAX_LEN;
    for (int s = 0; s < NSYM; s++)
        if (len[s] > MAX_LEN) len[s] = MAX_LEN;
    for (int s = 0; s < NSYM; s++)
        if (len[s]) kraft += one >> len[s];
    while (kraft > one) {
        int best = -1;
        for (int s = 0; s < NSYM; s++)
            if (len[s] && len[s] < MAX_LEN && (best < 0 || len[s] > len[best])) best = s;
        kraft -= (one >> len[best]) - (one >> (len[best] + 1));
        len[best]++;
    }
}

static void canonical_codes(const int *len, uint32_t *code) {
    int count[MAX_LEN + 2] = {0};
    uint32_t next_code[MAX_LEN + 2] = {0};
    for (int s = 0; s < NSYM; s++) count[len[s]]++;
    count[0] = 0;
    uint32_t c = 0;
    for (int l = 1; l <= MAX_LEN; l++) {
        c = (c + (uint32_t)count[l - 1]) << 1;
        next_code[l] = c;
    }
    for (int s = 0; s < NSYM; s++)
        if (len[s]) code[s] = next_code[len[s]]++;
}

typedef struct {
    unsigned char *buf;
    size_t pos; /* in bits */
} bitstream;

static void put_bits(bitstream *bs, uint32_t v, int n) {
    for (int i = n - 1; i >= 0; i--) {
        if ((v >> i) & 1u) bs->buf[bs->pos >> 3] |= (unsigned char)(0x80u >> (bs->pos & 7));
        bs->pos++;
    }
}

static int get_bit(const bitstream *bs, size_t pos) {
    return (bs->buf[pos >> 3] >> (7 - (pos & 7))) & 1;
}

/* Canonical decoding using per-length first codes and symbol ordering. */
static int decode(const bitstream *bs, size_t nsyms, const int *len, unsigned char *out) {
    int count[MAX_LEN + 1] = {0}, offset[MAX_LEN + 2];
    int sorted[NSYM], ns = 0;
    for (int s = 0; s < NSYM; s++) count[len[s]]++;
    count[0] = 0;
    offset[1] = 0;
    for (int l = 1; l <= MAX_LEN; l++) offset[l + 1] = offset[l] + count[l];
    for (int l = 1; l <= MAX_LEN; l++)
        for (int s = 0; s < NSYM; s++)
            if (len[s] == l) sorted[ns++] = s;
    size_t pos = 0;
    for (size_t k = 0; k < nsyms; k++) {
        int code = 0, first = 0, index = 0, l;
        for (l = 1; l <= MAX_LEN; l++) {
            code |= get_bit(bs, pos++);
            int cnt = count[l];
            if (code - cnt < first) {
                out[k] = (unsigned char)sorted[index + (code - first)];
                break;
            }
            index += cnt;
            first = (first + cnt) << 1;
            code <<= 1;
        }
        if (l > MAX_LEN) return 0;
    }
    return 1;
}

static void run(const char *name, const unsigned char *data, size_t n) {
    uint32_t freq[NSYM] = {0}, code[NSYM] = {0};
    int len[NSYM];
    for (size_t i = 0; i < n; i++) freq[data[i]]++;
    code_lengths(freq, len);
    int maxlen = 0;
    for (int s = 0; s < NSYM; s++)
        if (len[s] > maxlen) maxlen = len[s];
    limit_lengths(len);
    int limited = 0;
    for (int s = 0; s < NSYM; s++)
        if (len[s] > limited) limited = len[s];
    canonical_codes(len, code);
    bitstream bs;
    bs.buf = calloc(n * MAX_LEN / 8 + 8, 1);
    bs.pos = 0;
    if (!bs.buf) return;
    for (size_t i = 0; i < n; i++) put_bits(&bs, code[data[i]], len[data[i]]);
    unsigned char *back = malloc(n);
    int ok = back && decode(&bs, n, len, back) && memcmp(back, data, n) == 0;
    uint32_t h = 0;
    for (int s = 0; s < NSYM; s++) h = h * 131u + (uint32_t)len[s];
    printf("%-7s bytes=%zu bits=%zu (%.4f bits/sym) maxlen=%d->%d lenhash=%08x ok=%d\n", name, n,
           bs.pos, (double)bs.pos / (double)n, maxlen, limited, h,
           ok);
    free(bs.buf);
    free(back);
}

int main(void) {
    unsigned char *data = malloc(SIZE);
    if (!data) return 1;
    uint32_t s = 77u;
    /* Skewed (geometric-like) distribution over 64 symbols. */
    for (size_t i = 0; i < SIZE; i++) {
        s = s * 1664525u + 1013904223u;
        uint32_t r = s >> 8, sym = 0;
        while ((r & 1u) && sym < 63) {
            sym++;
            r >>= 1;
        }
        data[i] = (unsigned char)('0' + sym);
    }
    run("skewed", data, SIZE);
    /* Fibonacci-like frequencies force long codes and exercise the limiter. */
    size_t n = 0;
    uint32_t fa = 1, fb = 1;
    for (int sym = 0; sym < 24 && n < SIZE; sym++) {
        for (uint32_t k = 0; k < fa && n < SIZE; k++) data[n++] = (unsigned char)sym;
        uint32_t t = fa + fb;
        fa = fb;
        fb = t;
    }
    run("fib", data, n);
    /* Uniform bytes. */
    for (size_t i = 0; i < SIZE; i++) {
        s = s * 1664525u + 1013904223u;
        data[i] = (unsigned char)(s >> 24);
    }
    run("uniform", data, SIZE);
    free(data);
    return 0;
}
