/* bfs: breadth-first search over a random sparse graph stored in CSR form
 * and over a grid maze; reports reachability, eccentricity, distance
 * histograms, connected components and a shortest maze path length. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 100000
#define NE 260000
#define GW 400
#define GH 300

static int edge_src[NE], edge_dst[NE];
static int row_start[NV + 1], adj[2 * NE];
static int dist[NV], queue[NV], comp[NV];
static unsigned char grid[GH][GW];
static int gdist[GH * GW], gqueue[GH * GW];

static uint32_t rng_state = 100003u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void build_csr(void) {
    memset(row_start, 0, sizeof(row_start));
    for (int e = 0; e < NE; e++) {
        row_start[edge_src[e] + 1]++;
        row_start[edge_dst[e] + 1]++;
    }
    for (int v = 0; v < NV; v++) row_start[v + 1] += row_start[v];
    static int fill[NV];
    memcpy(fill, row_start, sizeof(int) * NV);
    for (int e = 0; e < NE; e++) {
        adj[fill[edge_src[e]]++] = edge_dst[e];
        adj[fill[edge_dst[e]]++] = edge_src[e];
    }
}

static int bfs(int src, int *maxd) {
    for (int v = 0; v < NV; v++) dist[v] = -1;
    int head = 0, tail = 0;
    dist[src] = 0;
    queue[tail++] = src;
    *maxd = 0;
    while (head < tail) {
        int u = queue[head++];
        for (int k = row_start[u]; k < row_start[u + 1]; k++) {
            int w = adj[k];
            if (dist[w] < 0) {
                dist[w] = dist[u] + 1;
                if (dist[w] > *maxd) *maxd = dist[w];
                queue[tail++] = w;
            }
        }
    }
    return tail;
}

static int grid_bfs(int sx, int sy, int tx, int ty, int *visited) {
    for (int i = 0; i < GW * GH; i++) gdist[i] = -1;
    int head = 0, tail = 0;
    gdist[sy * GW + sx] = 0;
    gqueue[tail++] = sy * GW + sx;
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    while (head < tail) {
        int c = gqueue[head++], x = c % GW, y = c / GW;
        for (int d = 0; d < 4; d++) {
            int nx = x + dx[d], ny = y + dy[d];
            if (nx < 0 || ny < 0 || nx >= GW || ny >= GH || grid[ny][nx]) continue;
            int n = ny * GW + nx;
            if (gdist[n] >= 0) continue;
            gdist[n] = gdist[c] + 1;
            gqueue[tail++] = n;
        }
    }
    *visited = tail;
    return gdist[ty * GW + tx];
}

int main(void) {
    for (int e = 0; e < NE; e++) {
        edge_src[e] = (int)(next_rand() % NV);
        edge_dst[e] = (int)(next_rand() % NV);
    }
    build_csr();
    int maxd;
    int reached = bfs(0, &maxd);
    long hist[64] = {0};
    long dsum = 0;
    for (int v = 0; v < NV; v++)
        if (dist[v] >= 0) {
            hist[dist[v] < 63 ? dist[v] : 63]++;
            dsum += dist[v];
        }
    printf("graph: reached=%d eccentricity=%d distance_sum=%ld\n", reached, maxd, dsum);
    printf("histogram:");
    for (int d = 0; d <= maxd && d < 64; d++) printf(" %ld", hist[d]);
    printf("\n");
    for (int src = 1; src < 4; src++) {
        int ecc;
        int r = bfs(src * 25000, &ecc);
        printf("from %d: reached=%d eccentricity=%d\n", src * 25000, r, ecc);
    }

    /* Connected components by repeated BFS. */
    for (int v = 0; v < NV; v++) comp[v] = -1;
    int ncomp = 0, largest = 0, isolated = 0;
    for (int s = 0; s < NV; s++) {
        if (comp[s] >= 0) continue;
        int head = 0, tail = 0;
        comp[s] = ncomp;
        queue[tail++] = s;
        while (head < tail) {
            int u = queue[head++];
            for (int k = row_start[u]; k < row_start[u + 1]; k++)
                if (comp[adj[k]] < 0) {
                    comp[adj[k]] = ncomp;
                    queue[tail++] = adj[k];
                }
        }
        if (tail > largest) largest = tail;
        if (tail == 1) isolated++;
        ncomp++;
    }
    printf("components=%d largest=%d isolated=%d\n", ncomp, largest, isolated);

    /* Maze: random walls (30%), border corridors kept open. */
    for (int y = 0; y < GH; y++)
        for (int x = 0; x < GW; x++)
            grid[y][x] = (unsigned char)(next_rand() % 100u < 30u);
    for (int x = 0; x < GW; x++) grid[0][x] = grid[GH - 1][x] = 0;
    for (int y = 0; y < GH; y++) grid[y][0] = 0;
    int visited;
    int len = grid_bfs(0, 0, GW - 1, GH - 1, &visited);
    int len2 = grid_bfs(GW / 2, GH / 2, 0, 0, &visited);
    printf("maze: corner-to-corner=%d centre-to-corner=%d visited=%d\n", len, len2, visited);
    return 0;
}
