/* toposort: topological ordering of a random DAG with Kahn's algorithm (a
 * min-heap of ready vertices gives the lexicographically smallest order)
 * and with depth-first search; both are verified, then used for longest
 * paths, path counting modulo 2^32 and cycle detection. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NV 50000
#define NE 250000

static int head_of[NV], next_arc[NE + 1], arc_to[NE + 1], narcs;
static int indeg[NV], order[NV], order2[NV], pos_in[NV];
static int ready[NV], nready;
static unsigned char state[NV];
static int stack_v[NV], stack_k[NV];
static int label[NV]; /* hidden random ranks used to generate the DAG */

static uint32_t rng_state = 2718u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static void add_arc(int u, int v) {
    arc_to[narcs] = v;
    next_arc[narcs] = head_of[u];
    head_of[u] = narcs++;
}

static void push_ready(int v) {
    int i = nready++;
    ready[i] = v;
    while (i > 0 && ready[(i - 1) / 2] > ready[i]) {
        int p = (i - 1) / 2, t = ready[p];
        ready[p] = ready[i];
        ready[i] = t;
        i = p;
    }
}

static int pop_ready(void) {
    int top = ready[0];
    ready[0] = ready[--nready];
    int i = 0;
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < nready && ready[l] < ready[m]) m = l;
        if (l + 1 < nready && ready[l + 1] < ready[m]) m = l + 1;
        if (m == i) break;
        int t = ready[m];
        ready[m] = ready[i];
        ready[i] = t;
        i = m;
    }
    return top;
}

static int kahn(int *out) {
    memset(indeg, 0, sizeof(indeg));
    for (int u = 0; u < NV; u++)
        for (int a = head_of[u]; a >= 0; a = next_arc[a]) indeg[arc_to[a]]++;
    nready = 0;
    for (int v = 0; v < NV; v++)
        if (!indeg[v]) push_ready(v);
    int n = 0;
    while (nready) {
        int u = pop_ready();
        out[n++] = u;
        for (int a = head_of[u]; a >= 0; a = next_arc[a])
            if (--indeg[arc_to[a]] == 0) push_ready(arc_to[a]);
    }
    return n; /* < NV means a cycle exists */
}

/* Iterative DFS; returns 0 if a back edge (cycle) is found. */
static int dfs_order(int *out) {
    memset(state, 0, sizeof(state));
    int n = NV;
    for (int s = 0; s < NV; s++) {
        if (state[s]) continue;
        int sp = 0;
        stack_v[sp] = s;
        stack_k[sp] = head_of[s];
        state[s] = 1;
        while (sp >= 0) {
            int u = stack_v[sp], a = stack_k[sp];
            if (a < 0) {
                state[u] = 2;
                out[--n] = u;
                sp--;
                continue;
            }
            stack_k[sp] = next_arc[a];
            int v = arc_to[a];
            if (state[v] == 1) return 0;
            if (state[v] == 0) {
                state[v] = 1;
                sp++;
                stack_v[sp] = v;
                stack_k[sp] = head_of[v];
            }
        }
    }
    return 1;
}

static int valid(const int *ord) {
    for (int i = 0; i < NV; i++) pos_in[ord[i]] = i;
    for (int u = 0; u < NV; u++)
        for (int a = head_of[u]; a >= 0; a = next_arc[a])
            if (pos_in[u] >= pos_in[arc_to[a]]) return 0;
    return 1;
}

int main(void) {
    /* Random permutation as hidden ranks; arcs go from lower to higher rank. */
    for (int i = 0; i < NV; i++) label[i] = i;
    for (int i = NV - 1; i > 0; i--) {
        int j = (int)(next_rand() % (uint32_t)(i + 1));
        int t = label[i];
        label[i] = label[j];
        label[j] = t;
    }
    static int by_rank[NV];
    for (int v = 0; v < NV; v++) by_rank[label[v]] = v;
    for (int v = 0; v < NV; v++) head_of[v] = -1;
    for (int e = 0; e < NE; e++) {
        int r1 = (int)(next_rand() % NV);
        int span = 1 + (int)(next_rand() % 200u);
        int r2 = r1 + span < NV ? r1 + span : NV - 1;
        if (r1 == r2) continue;
        add_arc(by_rank[r1], by_rank[r2]);
    }
    int n1 = kahn(order);
    int acyclic = dfs_order(order2);
    printf("arcs=%d kahn_count=%d kahn_valid=%d dfs_acyclic=%d dfs_valid=%d\n", narcs, n1,
           n1 == NV && valid(order), acyclic, acyclic && valid(order2));
    printf("kahn first=%d %d %d last=%d\n", order[0], order[1], order[2], order[NV - 1]);

    /* Longest path (in arcs) and number of paths from sources, mod 2^32. */
    static int longest[NV];
    static uint32_t paths[NV];
    for (int v = 0; v < NV; v++) {
        longest[v] = 0;
        paths[v] = 1;
    }
    for (int i = 0; i < NV; i++) {
        int u = order[i];
        for (int a = head_of[u]; a >= 0; a = next_arc[a]) {
            int v = arc_to[a];
            if (longest[u] + 1 > longest[v]) longest[v] = longest[u] + 1;
            paths[v] += paths[u];
        }
    }
    int best = 0;
    uint32_t psum = 0;
    for (int v = 0; v < NV; v++) {
        if (longest[v] > longest[best]) best = v;
        psum += paths[v];
    }
    printf("longest path=%d ending at %d, path count sum mod 2^32=%u\n", longest[best], best, psum);

    /* Adding one arc against the order must create a detectable cycle. */
    add_arc(order[NV - 1], order[0]);
    int n2 = kahn(order);
    printf("after back arc: kahn_count=%d dfs_acyclic=%d\n", n2, dfs_order(order2));
    return 0;
}
