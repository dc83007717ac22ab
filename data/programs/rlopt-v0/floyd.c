/* floyd: all-pairs shortest paths with Floyd-Warshall (with successor
 * matrix for path reconstruction) on a random weighted digraph, plus
 * transitive closure with bitsets; reports sums, diameter and a path. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 260
#define INF 0x3FFFFFFF
#define WORDS ((N + 63) / 64)

static int d[N][N], nxt[N][N];
static uint64_t reach[N][WORDS];

static uint32_t rng_state = 9001u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            d[i][j] = i == j ? 0 : INF;
            nxt[i][j] = i == j ? j : -1;
        }
    memset(reach, 0, sizeof(reach));
    long arcs = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            if (i == j || next_rand() % 100u >= 4u) continue;
            int w = 1 + (int)(next_rand() % 500u);
            if (w < d[i][j]) {
                d[i][j] = w;
                nxt[i][j] = j;
            }
            reach[i][j / 64] |= 1ull << (j % 64);
            arcs++;
        }
    for (int i = 0; i < N; i++) reach[i][i / 64] |= 1ull << (i % 64);

    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++) {
            int dik = d[i][k];
            if (dik == INF) continue;
            for (int j = 0; j < N; j++) {
                int alt = dik + d[k][j]; /* both < 2^30, no overflow */
                if (alt < d[i][j]) {
                    d[i][j] = alt;
                    nxt[i][j] = nxt[i][k];
                }
            }
        }

    /* Bitset transitive closure (Warshall). */
    for (int k = 0; k < N; k++)
        for (int i = 0; i < N; i++)
            if (reach[i][k / 64] & (1ull << (k % 64)))
                for (int w = 0; w < WORDS; w++) reach[i][w] |= reach[k][w];

    long reachable = 0, agree = 1;
    uint64_t sum = 0;
    int diam = 0, da = 0, db = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int r = (reach[i][j / 64] >> (j % 64)) & 1u;
            if (r != (d[i][j] < INF)) agree = 0;
            if (d[i][j] >= INF) continue;
            reachable++;
            sum += (uint64_t)d[i][j];
            if (d[i][j] > diam) {
                diam = d[i][j];
                da = i;
                db = j;
            }
        }
    printf("arcs=%ld reachable pairs=%ld closure_agrees=%ld\n", arcs, reachable, agree);
    printf("distance sum=%llu diameter=%d (%d -> %d)\n", (unsigned long long)sum, diam, da, db);
    printf("path:");
    int hops = 0, check = 0;
    for (int u = da; u != db; u = nxt[u][db]) {
        int v = nxt[u][db];
        printf(" %d", u);
        hops++;
        check += d[u][v] < INF ? 0 : 1;
    }
    printf(" %d (hops=%d)\n", db, hops);
    /* Triangle inequality holds for every triple sampled. */
    int violations = 0;
    for (int s = 0; s < 20000; s++) {
        int a = (int)(next_rand() % N), b = (int)(next_rand() % N), c = (int)(next_rand() % N);
        if (d[a][b] < INF && d[b][c] < INF && d[a][c] > d[a][b] + d[b][c]) violations++;
    }
    printf("triangle violations=%d bad_hops=%d\n", violations, check);
    return 0;
}
