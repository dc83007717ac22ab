/* dijkstra: single-source shortest paths on a random weighted digraph with
 * an indexed binary heap supporting decrease-key, checked against
 * Bellman-Ford on a smaller graph; reports distance sums and a path. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 40000
#define NE 200000
#define SMALL_V 800
#define SMALL_E 4000
#define INF UINT64_MAX

typedef struct {
    int to;
    uint32_t w;
} arc;

static int start_of[NV + 1];
static arc arcs[NE];
static uint64_t dist[NV];
static int pred[NV];
static int heap[NV], where[NV]; /* where[v] = heap slot or -1 */
static int heap_n;

static uint32_t rng_state = 77777u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void heap_swap(int a, int b) {
    int t = heap[a];
    heap[a] = heap[b];
    heap[b] = t;
    where[heap[a]] = a;
    where[heap[b]] = b;
}

static void sift_up(int i) {
    while (i > 0) {
        int p = (i - 1) / 2;
        if (dist[heap[p]] <= dist[heap[i]]) break;
        heap_swap(i, p);
        i = p;
    }
}

static void sift_down(int i) {
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < heap_n && dist[heap[l]] < dist[heap[m]]) m = l;
        if (l + 1 < heap_n && dist[heap[l + 1]] < dist[heap[m]]) m = l + 1;
        if (m == i) return;
        heap_swap(i, m);
        i = m;
    }
}

static long dijkstra(int nv, int src) {
    long relaxations = 0;
    for (int v = 0; v < nv; v++) {
        dist[v] = INF;
        pred[v] = -1;
        where[v] = -1;
    }
    heap_n = 0;
    dist[src] = 0;
    heap[heap_n] = src;
    where[src] = heap_n++;
    while (heap_n > 0) {
        int u = heap[0];
        heap_swap(0, --heap_n);
        where[u] = -2; /* settled */
        sift_down(0);
        for (int k = start_of[u]; k < start_of[u + 1]; k++) {
            int v = arcs[k].to;
            uint64_t nd = dist[u] + arcs[k].w;
            if (where[v] == -2 || nd >= dist[v]) continue;
            dist[v] = nd;
            pred[v] = u;
            relaxations++;
            if (where[v] == -1) {
                heap[heap_n] = v;
                where[v] = heap_n++;
            }
            sift_up(where[v]);
        }
    }
    return relaxations;
}

/* Builds a CSR graph with nv vertices and ne random arcs (plus a ring so
 * that every vertex is reachable). */
static void build(int nv, int ne) {
    static int src_of[NE], to_of[NE];
    static uint32_t w_of[NE];
    memset(start_of, 0, sizeof(start_of));
    for (int e = 0; e < ne; e++) {
        if (e < nv) {
            src_of[e] = e;
            to_of[e] = (e + 1) % nv;
            w_of[e] = 1000u + next_rand() % 1000u;
        } else {
            src_of[e] = (int)(next_rand() % (uint32_t)nv);
            to_of[e] = (int)(next_rand() % (uint32_t)nv);
            w_of[e] = 1u + next_rand() % 1000u;
        }
        start_of[src_of[e] + 1]++;
    }
    for (int v = 0; v < nv; v++) start_of[v + 1] += start_of[v];
    static int fill[NV];
    memcpy(fill, start_of, sizeof(int) * (size_t)nv);
    for (int e = 0; e < ne; e++) {
        arc a = {to_of[e], w_of[e]};
        arcs[fill[src_of[e]]++] = a;
    }
}

static uint64_t bf[SMALL_V];

int main(void) {
    /* Small graph: Dijkstra must agree with Bellman-Ford. */
    build(SMALL_V, SMALL_E);
    dijkstra(SMALL_V, 0);
    for (int v = 0; v < SMALL_V; v++) bf[v] = INF;
    bf[0] = 0;
    for (int round = 0; round < SMALL_V; round++) {
        int changed = 0;
        for (int u = 0; u < SMALL_V; u++) {
            if (bf[u] == INF) continue;
            for (int k = start_of[u]; k < start_of[u + 1]; k++)
                if (bf[u] + arcs[k].w < bf[arcs[k].to]) {
                    bf[arcs[k].to] = bf[u] + arcs[k].w;
                    changed = 1;
                }
        }
        if (!changed) break;
    }
    int agree = 1;
    for (int v = 0; v < SMALL_V; v++)
        if (bf[v] != dist[v]) agree = 0;
    printf("small: agrees with bellman-ford=%d dist[last]=%llu\n", agree,
           (unsigned long long)dist[SMALL_V - 1]);

    build(NV, NE);
    for (int s = 0; s < 3; s++) {
        long relax = dijkstra(NV, s * 1000);
        uint64_t total = 0, far = 0;
        int far_v = 0, hops = 0;
        for (int v = 0; v < NV; v++) {
            total += dist[v];
            if (dist[v] > far) {
                far = dist[v];
                far_v = v;
            }
        }
        for (int v = far_v; pred[v] >= 0; v = pred[v]) hops++;
        printf("source %d: distance_sum=%llu farthest=%d at %llu hops=%d relaxations=%ld\n",
               s * 1000, (unsigned long long)total, far_v, (unsigned long long)far, hops, relax);
    }
    return 0;
}
