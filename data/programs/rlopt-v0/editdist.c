/* editdist: Levenshtein distance (two-row dynamic programming), longest
 * common subsequence length with traceback, and a banded distance check,
 * over pairs of generated strings with controlled mutations. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LEN 1200
#define PAIRS 4

static uint32_t rng_state = 31415u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static int min3(int a, int b, int c) {
    int m = a < b ? a : b;
    return m < c ? m : c;
}

static int levenshtein(const char *a, int n, const char *b, int m) {
    int *prev = malloc(sizeof(int) * (size_t)(m + 1));
    int *cur = malloc(sizeof(int) * (size_t)(m + 1));
    if (!prev || !cur) exit(1);
    for (int j = 0; j <= m; j++) prev[j] = j;
    for (int i = 1; i <= n; i++) {
        cur[0] = i;
        for (int j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        }
        int *t = prev;
        prev = cur;
        cur = t;
    }
    int d = prev[m];
    free(prev);
    free(cur);
    return d;
}

/* Distance restricted to a diagonal band of half-width w (exact when the
 * true distance is at most w). */
static int banded(const char *a, int n, const char *b, int m, int w) {
    const int INF = 1 << 28;
    int *prev = malloc(sizeof(int) * (size_t)(m + 1));
    int *cur = malloc(sizeof(int) * (size_t)(m + 1));
    if (!prev || !cur) exit(1);
    for (int j = 0; j <= m; j++) prev[j] = j <= w ? j : INF;
    for (int i = 1; i <= n; i++) {
        for (int j = 0; j <= m; j++) cur[j] = INF;
        if (i <= w) cur[0] = i;
        int lo = i - w > 1 ? i - w : 1, hi = i + w < m ? i + w : m;
        for (int j = lo; j <= hi; j++) {
            int cost = a[i - 1] != b[j - 1];
            cur[j] = min3(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
        }
        int *t = prev;
        prev = cur;
        cur = t;
    }
    int d = prev[m];
    free(prev);
    free(cur);
    return d;
}

static unsigned short L[LEN + 64][LEN + 64];

static int lcs(const char *a, int n, const char *b, int m, char *out) {
    for (int i = 0; i <= n; i++) L[i][0] = 0;
    for (int j = 0; j <= m; j++) L[0][j] = 0;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++)
            L[i][j] = a[i - 1] == b[j - 1] ? (unsigned short)(L[i - 1][j - 1] + 1)
                      : L[i - 1][j] >= L[i][j - 1] ? L[i - 1][j] : L[i][j - 1];
    int k = L[n][m], i = n, j = m;
    out[k] = '\0';
    while (i > 0 && j > 0) {
        if (a[i - 1] == b[j - 1]) {
            out[--k] = a[i - 1];
            i--;
            j--;
        } else if (L[i - 1][j] >= L[i][j - 1]) {
            i--;
        } else {
            j--;
        }
    }
    return L[n][m];
}

int main(void) {
    static char a[LEN + 1], b[LEN + 64], common[LEN + 64];
    for (int p = 0; p < PAIRS; p++) {
        int alphabet = 2 + p * 6;
        for (int i = 0; i < LEN; i++) a[i] = (char)('a' + next_rand() % (uint32_t)alphabet);
        a[LEN] = '\0';
        /* b = a with a number of random edits. */
        int edits = 10 + p * 25, m = 0;
        for (int i = 0; i < LEN; i++) {
            uint32_t r = next_rand() % (uint32_t)LEN;
            if ((int)r < edits / 3 && m < LEN + 60) {
                b[m++] = (char)('a' + next_rand() % (uint32_t)alphabet); /* insertion */
                b[m++] = a[i];
            } else if ((int)r < 2 * edits / 3) {
                /* deletion */
            } else if ((int)r < edits) {
                b[m++] = (char)('a' + next_rand() % (uint32_t)alphabet); /* substitution */
            } else {
                b[m++] = a[i];
            }
        }
        b[m] = '\0';
        int d = levenshtein(a, LEN, b, m);
        int bd = banded(a, LEN, b, m, 120);
        int l = lcs(a, LEN, b, m, common);
        uint32_t h = 0;
        for (int i = 0; i < l; i++) h = h * 31u + (unsigned char)common[i];
        printf("pair %d: alphabet=%d |b|=%d distance=%d banded_agree=%d lcs=%d lcs_hash=%08x\n",
               p, alphabet, m, d, d == bd, l, h);
    }
    printf("kitten/sitting=%d flaw/lawn=%d\n", levenshtein("kitten", 6, "sitting", 7),
           levenshtein("flaw", 4, "lawn", 4));
    return 0;
}
