/* sha256: SHA-256 message digest (full padding and block schedule),
 * checked on standard test vectors, then iterated over a generated
 * message and used to drive a hash chain. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSG_SIZE 400000
#define CHAIN 10000

typedef struct {
    uint32_t h[8];
    unsigned char block[64];
    size_t fill;
    uint64_t total;
} sha256_ctx;

static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u,
    0x923f82a4u, 0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u,
    0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u,
    0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u,
    0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u,
    0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au,
    0x5b9cca4fu, 0x682e6ff3u, 0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u,
    0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

static uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t *h, const unsigned char *p) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = ((uint32_t)p[4 * i] << 24) | ((uint32_t)p[4 * i + 1] << 16) |
               ((uint32_t)p[4 * i + 2] << 8) | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
        uint32_t ch = (e & f) ^ (~e & g);
        uint32_t t1 = hh + S1 + ch + K[i] + w[i];
        uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
        uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = S0 + maj;
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
    h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

static void sha256_init(sha256_ctx *c) {
    static const uint32_t iv[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                   0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
    memcpy(c->h, iv, sizeof(iv));
    c->fill = 0;
    c->total = 0;
}

static void sha256_update(sha256_ctx *c, const unsigned char *p, size_t n) {
    c->total += n;
    while (n > 0) {
        size_t take = 64 - c->fill;
        if (take > n) take = n;
        memcpy(c->block + c->fill, p, take);
        c->fill += take;
        p += take;
        n -= take;
        if (c->fill == 64) {
            compress(c->h, c->block);
            c->fill = 0;
        }
    }
}

static void sha256_final(sha256_ctx *c, unsigned char out[32]) {
    uint64_t bits = c->total * 8u;
    unsigned char pad = 0x80;
    sha256_update(c, &pad, 1);
    unsigned char zero = 0;
    while (c->fill != 56) sha256_update(c, &zero, 1);
    unsigned char len[8];
    for (int i = 0; i < 8; i++) len[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, len, 8);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(c->h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
        out[4 * i + 3] = (unsigned char)c->h[i];
    }
}

static void digest(const void *p, size_t n, unsigned char out[32]) {
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, p, n);
    sha256_final(&c, out);
}

static void print_hex(const char *label, const unsigned char *d) {
    printf("%s ", label);
    for (int i = 0; i < 32; i++) printf("%02x", d[i]);
    printf("\n");
}

int main(void) {
    unsigned char d[32];
    digest("", 0, d);
    print_hex("empty", d);
    digest("abc", 3, d);
    print_hex("abc  ", d);
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    digest(two, strlen(two), d);
    print_hex("448b ", d);

    unsigned char *msg = malloc(MSG_SIZE);
    if (!msg) return 1;
    uint32_t s = 31337u;
    for (size_t i = 0; i < MSG_SIZE; i++) {
        s = s * 22695477u + 1u;
        msg[i] = (unsigned char)(s >> 16);
    }
    /* Streaming in odd-sized pieces must equal the one-shot digest. */
    unsigned char d1[32], d2[32];
    digest(msg, MSG_SIZE, d1);
    sha256_ctx c;
    sha256_init(&c);
    for (size_t off = 0, step = 1; off < MSG_SIZE; step = step % 97 + 13) {
        size_t len = step < MSG_SIZE - off ? step : MSG_SIZE - off;
        sha256_update(&c, msg + off, len);
        off += len;
    }
    sha256_final(&c, d2);
    print_hex("msg  ", d1);
    printf("streaming match=%d\n", memcmp(d1, d2, 32) == 0);

    /* Hash chain: d_{i+1} = sha256(d_i || i). */
    unsigned char buf[36];
    memcpy(buf, d1, 32);
    for (uint32_t i = 0; i < CHAIN; i++) {
        buf[32] = (unsigned char)(i >> 24);
        buf[33] = (unsigned char)(i >> 16);
        buf[34] = (unsigned char)(i >> 8);
        buf[35] = (unsigned char)i;
        digest(buf, sizeof(buf), buf);
    }
    print_hex("chain", buf);
    free(msg);
    return 0;
}
