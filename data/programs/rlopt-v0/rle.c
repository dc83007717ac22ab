/* rle: PackBits-style run-length encoder and decoder applied to generated
 * data with long runs, noisy regions and a bitmap; round trips are verified. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE 800000

static uint32_t rng_state = 2024u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

/* Control byte c: 0..127 -> c+1 literal bytes follow; 129..255 -> the next
 * byte repeats 257-c times (2..128); 128 is unused. */
static size_t rle_encode(const unsigned char *in, size_t n, unsigned char *out) {
    size_t i = 0, o = 0;
    while (i < n) {
        size_t run = 1;
        while (i + run < n && run < 128 && in[i + run] == in[i]) run++;
        if (run >= 2) {
            out[o++] = (unsigned char)(257 - run);
            out[o++] = in[i];
            i += run;
            continue;
        }
        size_t start = i, lit = 0;
        while (i < n && lit < 128) {
            if (i + 1 < n && in[i] == in[i + 1]) break;
            i++;
            lit++;
        }
        out[o++] = (unsigned char)(lit - 1);
        memcpy(out + o, in + start, lit);
        o += lit;
    }
    return o;
}

static size_t rle_decode(const unsigned char *in, size_t n, unsigned char *out, size_t cap) {
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned c = in[i++];
        if (c < 128) {
            size_t lit = c + 1;
            if (i + lit > n || o + lit > cap) return (size_t)-1;
            memcpy(out + o, in + i, lit);
            i += lit;
            o += lit;
        } else if (c > 128) {
            size_t run = 257 - c;
            if (i >= n || o + run > cap) return (size_t)-1;
            memset(out + o, in[i++], run);
            o += run;
        }
    }
    return o;
}

static uint32_t adler32(const unsigned char *p, size_t n) {
    uint32_t a = 1, b = 0;
    for (size_t i = 0; i < n; i++) {
        a = (a + p[i]) % 65521u;
        b = (b + a) % 65521u;
    }
    return (b << 16) | a;
}

static void test(const char *name, const unsigned char *data, size_t n, unsigned char *enc,
                 unsigned char *dec) {
    size_t e = rle_encode(data, n, enc);
    size_t d = rle_decode(enc, e, dec, n);
    int ok = d == n && memcmp(data, dec, n) == 0;
    printf("%-8s in=%zu out=%zu ratio=%.3f roundtrip=%d adler=%08x\n", name, n, e,
           (double)e / (double)n, ok, adler32(enc, e));
}

int main(void) {
    unsigned char *data = malloc(SIZE);
    unsigned char *enc = malloc(SIZE + SIZE / 64 + 16);
    unsigned char *dec = malloc(SIZE);
    if (!data || !enc || !dec) return 1;

    /* Runs of random length over a small alphabet. */
    size_t i = 0;
    while (i < SIZE) {
        size_t len = 1 + next_rand() % 40u;
        unsigned char v = (unsigned char)('A' + next_rand() % 4u);
        for (size_t k = 0; k < len && i < SIZE; k++) data[i++] = v;
    }
    test("runs", data, SIZE, enc, dec);

    /* Mostly noise with occasional runs. */
    for (i = 0; i < SIZE; i++) data[i] = (unsigned char)next_rand();
    for (i = 0; i + 300 < SIZE; i += 1000) memset(data + i, 0, 200 + next_rand() % 100u);
    test("noise", data, SIZE, enc, dec);

    /* A 1-bit-per-byte drawing of filled circles. */
    const int w = 800, h = SIZE / 800;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int inside = 0;
            for (int c = 0; c < 6; c++) {
                int cx = 70 + c * 130, cy = h / 2 + (c % 2 ? 60 : -60), r = 40 + c * 9;
                if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r) inside = 1;
            }
            data[(size_t)y * w + x] = inside ? 255 : 0;
        }
    test("bitmap", data, (size_t)w * h, enc, dec);

    /* Repeated pattern with no runs at all (worst case for RLE). */
    for (i = 0; i < SIZE; i++) data[i] = (unsigned char)(i % 7 + (i / 7) % 3);
    test("pattern", data, SIZE, enc, dec);
    free(data);
    free(enc);
    free(dec);
    return 0;
}
