/* kruskal: minimum spanning forest of a random weighted graph with Kruskal's
 * algorithm (edge sort plus union-find with path halving and union by
 * rank), cross-checked against Prim's algorithm on a dense subgraph. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 80000
#define NE 320000
#define DENSE 400

typedef struct {
    int u, v;
    uint32_t w;
} edge;

static edge edges[NE], tmp_edges[NE];
static int parent[NV];
static unsigned char rank_of[NV];
static uint32_t dense_w[DENSE][DENSE];

static uint32_t rng_state = 1618033u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static int find(int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static int unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return 0;
    if (rank_of[a] < rank_of[b]) {
        int t = a;
        a = b;
        b = t;
    }
    parent[b] = a;
    if (rank_of[a] == rank_of[b]) rank_of[a]++;
    return 1;
}

/* Stable LSD radix sort of edges by weight (weights < 2^24), ties by index. */
static void sort_edges(edge *e, int n) {
    for (int shift = 0; shift < 24; shift += 8) {
        int count[257];
        memset(count, 0, sizeof(count));
        for (int i = 0; i < n; i++) count[((e[i].w >> shift) & 0xFFu) + 1]++;
        for (int d = 0; d < 256; d++) count[d + 1] += count[d];
        for (int i = 0; i < n; i++) tmp_edges[count[(e[i].w >> shift) & 0xFFu]++] = e[i];
        memcpy(e, tmp_edges, sizeof(edge) * (size_t)n);
    }
}

static uint64_t kruskal(edge *e, int ne, int nv, int *used, int *components) {
    for (int v = 0; v < nv; v++) {
        parent[v] = v;
        rank_of[v] = 0;
    }
    sort_edges(e, ne);
    uint64_t total = 0;
    *used = 0;
    for (int i = 0; i < ne && *used < nv - 1; i++)
        if (unite(e[i].u, e[i].v)) {
            total += e[i].w;
            (*used)++;
        }
    *components = nv - *used;
    return total;
}

static uint64_t prim_dense(int n) {
    static uint32_t best[DENSE];
    static unsigned char in_tree[DENSE];
    for (int v = 0; v < n; v++) {
        best[v] = UINT32_MAX;
        in_tree[v] = 0;
    }
    best[0] = 0;
    uint64_t total = 0;
    for (int it = 0; it < n; it++) {
        int u = -1;
        for (int v = 0; v < n; v++)
            if (!in_tree[v] && (u < 0 || best[v] < best[u])) u = v;
        in_tree[u] = 1;
        total += best[u];
        for (int v = 0; v < n; v++)
            if (!in_tree[v] && dense_w[u][v] < best[v]) best[v] = dense_w[u][v];
    }
    return total;
}

int main(void) {
    /* Dense complete graph: Kruskal and Prim must produce the same weight. */
    int ne = 0;
    for (int u = 0; u < DENSE; u++)
        for (int v = u + 1; v < DENSE; v++) {
            uint32_t w = 1u + next_rand() % 100000u;
            dense_w[u][v] = dense_w[v][u] = w;
            if (ne < NE) {
                edge e = {u, v, w};
                edges[ne++] = e;
            }
        }
    int used, comps;
    uint64_t kw = kruskal(edges, ne, DENSE, &used, &comps);
    uint64_t pw = prim_dense(DENSE);
    printf("dense: edges=%d kruskal=%llu prim=%llu agree=%d\n", ne, (unsigned long long)kw,
           (unsigned long long)pw, kw == pw);

    /* Sparse random multigraph: spanning forest. */
    for (int i = 0; i < NE; i++) {
        edges[i].u = (int)(next_rand() % NV);
        edges[i].v = (int)(next_rand() % NV);
        edges[i].w = next_rand() % (1u << 24);
    }
    uint64_t sw = kruskal(edges, NE, NV, &used, &comps);
    uint32_t maxw = 0;
    for (int v = 0; v < NV; v++) {
        parent[v] = v;
        rank_of[v] = 0;
    }
    for (int i = 0, k = 0; i < NE && k < used; i++)
        if (unite(edges[i].u, edges[i].v)) {
            k++;
            if (edges[i].w > maxw) maxw = edges[i].w;
        }
    printf("sparse: forest edges=%d components=%d weight=%llu heaviest=%u\n", used, comps,
           (unsigned long long)sw, maxw);
    return 0;
}
