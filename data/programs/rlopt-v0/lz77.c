/* lz77: LZ77-style compressor with a hash-chain match finder over a 32 KiB
 * window, a byte-oriented token format, and the matching decompressor. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 200000
#define WINDOW 32768
#define MIN_MATCH 4
#define MAX_MATCH 258
#define HASH_BITS 14
#define MAX_CHAIN 24

static int32_t head[1 << HASH_BITS];
static int32_t prev_pos[SIZE];

static uint32_t hash4(const unsigned char *p) {
    uint32_t v = (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
                 ((uint32_t)p[3] << 24);
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

static void insert(const unsigned char *in, size_t n, size_t pos) {
    if (pos + MIN_MATCH > n) return;
    uint32_t h = hash4(in + pos);
    prev_pos[pos] = head[h];
    head[h] = (int32_t)pos;
}

/* Token stream: a flag byte precedes each group of 8 tokens (bit = 1 for a
 * match). A literal is one byte; a match is length-MIN_MATCH (1 byte) and
 * distance-1 (2 bytes, little endian). */
static size_t compress(const unsigned char *in, size_t n, unsigned char *out,
                       unsigned long *matches) {
    for (size_t i = 0; i < (1u << HASH_BITS); i++) head[i] = -1;
    size_t pos = 0, o = 0, flag_at = 0;
    int nbits = 8;
    *matches = 0;
    while (pos < n) {
        if (nbits == 8) {
            flag_at = o;
            out[o++] = 0;
            nbits = 0;
        }
        size_t best_len = 0, best_dist = 0;
        if (pos + MIN_MATCH <= n) {
            int32_t cand = head[hash4(in + pos)];
            int chain = MAX_CHAIN;
            size_t limit = n - pos < MAX_MATCH ? n - pos : MAX_MATCH;
            while (cand >= 0 && chain-- > 0 && pos - (size_t)cand <= WINDOW) {
                const unsigned char *a = in + cand, *b = in + pos;
                size_t len = 0;
                while (len < limit && a[len] == b[len]) len++;
                if (len > best_len) {
                    best_len = len;
                    best_dist = pos - (size_t)cand;
                    if (len == limit) break;
                }
                cand = prev_pos[cand];
            }
        }
        if (best_len >= MIN_MATCH) {
            out[flag_at] |= (unsigned char)(1u << nbits);
            out[o++] = (unsigned char)(best_len - MIN_MATCH);
            out[o++] = (unsigned char)((best_dist - 1) & 0xFFu);
            out[o++] = (unsigned char)((best_dist - 1) >> 8);
            for (size_t k = 0; k < best_len; k++) insert(in, n, pos + k);
            pos += best_len;
            (*matches)++;
        } else {
            out[o++] = in[pos];
            insert(in, n, pos);
            pos++;
        }
        nbits++;
    }
    return o;
}

static long decompress(const unsigned char *in, size_t n, unsigned char *out, size_t cap) {
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned flags = in[i++];
        for (int bit = 0; bit < 8 && i < n; bit++) {
            if (flags & (1u << bit)) {
                if (i + 3 > n) return -1;
                size_t len = (size_t)in[i] + MIN_MATCH;
                size_t dist = ((size_t)in[i + 1] | ((size_t)in[i + 2] << 8)) + 1;
                i += 3;
                if (dist > o || o + len > cap) return -1;
                for (size_t k = 0; k < len; k++, o++) out[o] = out[o - dist];
            } else {
                if (o >= cap) return -1;
                out[o++] = in[i++];
            }
        }
    }
    return (long)o;
}

static const char *words[] = {"the",    "quick", "brown",    "fox",   "jumps", "over",
                              "lazy",   "dog",   "compiler", "pass",  "loop",  "vector",
                              "inline", "unroll", "register", "alloc", "phi",   "block"};

int main(void) {
    unsigned char *in = malloc(SIZE);
    unsigned char *out = malloc(SIZE + SIZE / 8 + 16);
    unsigned char *back = malloc(SIZE);
    if (!in || !out || !back) return 1;
    uint32_t s = 4242u;
    for (int kind = 0; kind < 3; kind++) {
        size_t n = 0;
        while (n < SIZE) {
            s = s * 1664525u + 1013904223u;
            if (kind == 0) { /* text made of a small vocabulary */
                const char *w = words[(s >> 16) % (sizeof(words) / sizeof(words[0]))];
                size_t l = strlen(w);
                for (size_t k = 0; k < l && n < SIZE; k++) in[n++] = (unsigned char)w[k];
                if (n < SIZE) in[n++] = (s >> 12) % 11u == 0 ? '\n' : ' ';
            } else if (kind == 1) { /* random bytes: incompressible */
                in[n++] = (unsigned char)(s >> 24);
            } else { /* slowly varying samples */
                in[n] = (unsigned char)((n / 64) % 50 + ((s >> 28) & 1u));
                n++;
            }
        }
        unsigned long matches;
        size_t c = compress(in, SIZE, out, &matches);
        long d = decompress(out, c, back, SIZE);
        int ok = d == (long)SIZE && memcmp(in, back, SIZE) == 0;
        uint32_t h = 2166136261u;
        for (size_t k = 0; k < c; k++) h = (h ^ out[k]) * 16777619u;
        printf("input %d: %d -> %zu bytes, matches=%lu roundtrip=%d hash=%08x\n", kind, SIZE,
               c, matches, ok, h);
    }
    free(in);
    free(out);
    free(back);
    return 0;
}
