/* life: Conway's Game of Life on a toroidal grid, stepped with a
 * byte-per-cell neighbour count and with a bit-parallel 64-cells-per-word
 * implementation; the two must agree each generation. Reports population
 * and a hash of the final board, plus the period of a blinker check. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define W 256
#define H 192
#define WW (W / 64)
#define GENS 60

static unsigned char a[H][W], b[H][W];
static uint64_t ba[H][WW], bb[H][WW];

static void step_bytes(unsigned char (*src)[W], unsigned char (*dst)[W]) {
    for (int y = 0; y < H; y++) {
        int ym = (y + H - 1) % H, yp = (y + 1) % H;
        for (int x = 0; x < W; x++) {
            int xm = (x + W - 1) % W, xp = (x + 1) % W;
            int n = src[ym][xm] + src[ym][x] + src[ym][xp] + src[y][xm] + src[y][xp] +
                    src[yp][xm] + src[yp][x] + src[yp][xp];
            dst[y][x] = (unsigned char)(n == 3 || (n == 2 && src[y][x]));
        }
    }
}

/* Bit x of word k in row y is cell (64k + x, y). */
static uint64_t west(uint64_t (*g)[WW], int y, int k) { /* neighbour at x-1 */
    uint64_t carry = g[y][(k + WW - 1) % WW] >> 63;
    return (g[y][k] << 1) | carry;
}

static uint64_t east(uint64_t (*g)[WW], int y, int k) { /* neighbour at x+1 */
    uint64_t carry = g[y][(k + 1) % WW] << 63;
    return (g[y][k] >> 1) | carry;
}

static void step_bits(uint64_t (*src)[WW], uint64_t (*dst)[WW]) {
    for (int y = 0; y < H; y++) {
        int ym = (y + H - 1) % H, yp = (y + 1) % H;
        for (int k = 0; k < WW; k++) {
            uint64_t n[8] = {west(src, ym, k), src[ym][k], east(src, ym, k), west(src, y, k),
                             east(src, y, k),  west(src, yp, k), src[yp][k], east(src, yp, k)};
            /* Bit-sliced counter: s0 + 2 s1 + 4 s2 (saturating at >= 4 via s2). */
            uint64_t s0 = 0, s1 = 0, s2 = 0;
            for (int i = 0; i < 8; i++) {
                uint64_t c0 = s0 & n[i];
                s0 ^= n[i];
                uint64_t c1 = s1 & c0;
                s1 ^= c0;
                s2 |= c1;
            }
            uint64_t alive = src[y][k];
            dst[y][k] = ~s2 & s1 & (s0 | alive);
        }
    }
}

static int boards_agree(unsigned char (*g)[W], uint64_t (*bits)[WW]) {
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (g[y][x] != ((bits[y][x / 64] >> (x % 64)) & 1u)) return 0;
    return 1;
}

int main(void) {
    uint32_t s = 42u;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            s = s * 1664525u + 1013904223u;
            a[y][x] = (unsigned char)((s >> 28) < 5u); /* ~31% alive */
        }
    /* A glider in an otherwise empty corner region. */
    for (int y = 0; y < 12; y++) memset(a[y], 0, 12);
    a[1][2] = a[2][3] = a[3][1] = a[3][2] = a[3][3] = 1;
    memset(ba, 0, sizeof(ba));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (a[y][x]) ba[y][x / 64] |= 1ull << (x % 64);

    int agree = 1;
    long pops[GENS + 1];
    for (int g = 0; g < GENS; g++) {
        long pop = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) pop += a[y][x];
        pops[g] = pop;
        if (g % 2 == 0) {
            step_bytes(a, b);
            step_bits(ba, bb);
            if (!boards_agree(b, bb)) agree = 0;
        } else {
            step_bytes(b, a);
            step_bits(bb, ba);
            if (!boards_agree(a, ba)) agree = 0;
        }
    }
    unsigned char (*fin)[W] = GENS % 2 ? b : a;
    long pop = 0;
    uint32_t h = 2166136261u;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            pop += fin[y][x];
            h = (h ^ fin[y][x]) * 16777619u;
        }
    printf("generations=%d implementations agree=%d\n", GENS, agree);
    printf("population: start=%ld gen10=%ld gen30=%ld final=%ld\n", pops[0], pops[10], pops[30], pop);
    printf("board hash=%08x\n", h);

    /* A lone blinker on an empty board has period 2. */
    memset(a, 0, sizeof(a));
    a[50][50] = a[50][51] = a[50][52] = 1;
    step_bytes(a, b);
    int vertical = b[49][51] && b[50][51] && b[51][51] && !b[50][50];
    step_bytes(b, a);
    int back = a[50][50] && a[50][51] && a[50][52] && !a[49][51];
    printf("blinker vertical=%d back=%d\n", vertical, back);
    return 0;
}
