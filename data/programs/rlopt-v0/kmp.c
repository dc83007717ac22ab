/* kmp: exact string search with Knuth-Morris-Pratt, Boyer-Moore-Horspool
 * and a naive scan over generated text; all three must report the same
 * matches for every pattern. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_LEN 300000
#define NPAT 10
#define MAXPAT 32

static char text[TEXT_LEN + 1];

static void build_failure(const char *p, int m, int *fail) {
    fail[0] = 0;
    int k = 0;
    for (int i = 1; i < m; i++) {
        while (k > 0 && p[i] != p[k]) k = fail[k - 1];
        if (p[i] == p[k]) k++;
        fail[i] = k;
    }
}

static long kmp_count(const char *t, long n, const char *p, int m, long *first) {
    int fail[MAXPAT];
    build_failure(p, m, fail);
    long count = 0;
    int k = 0;
    *first = -1;
    for (long i = 0; i < n; i++) {
        while (k > 0 && t[i] != p[k]) k = fail[k - 1];
        if (t[i] == p[k]) k++;
        if (k == m) {
            if (*first < 0) *first = i - m + 1;
            count++;
            k = fail[k - 1];
        }
    }
    return count;
}

static long horspool_count(const char *t, long n, const char *p, int m) {
    long shift[256];
    for (int c = 0; c < 256; c++) shift[c] = m;
    for (int i = 0; i < m - 1; i++) shift[(unsigned char)p[i]] = m - 1 - i;
    long count = 0, pos = 0;
    while (pos + m <= n) {
        int j = m - 1;
        while (j >= 0 && t[pos + j] == p[j]) j--;
        if (j < 0) count++;
        pos += shift[(unsigned char)t[pos + m - 1]];
    }
    return count;
}

static long naive_count(const char *t, long n, const char *p, int m) {
    long count = 0;
    for (long i = 0; i + m <= n; i++) {
        int j = 0;
        while (j < m && t[i + j] == p[j]) j++;
        if (j == m) count++;
    }
    return count;
}

int main(void) {
    uint32_t s = 555u;
    /* Text over {a,b,c,d} with a bias toward 'a' to create repetitive runs. */
    for (long i = 0; i < TEXT_LEN; i++) {
        s = s * 1664525u + 1013904223u;
        uint32_t r = (s >> 24) % 10u;
        text[i] = r < 4 ? 'a' : r < 7 ? 'b' : r < 9 ? 'c' : 'd';
    }
    text[TEXT_LEN] = '\0';
    const char *fixed[4] = {"abab", "aaaa", "abcdabc", "aabaaab"};
    char pats[NPAT][MAXPAT + 1];
    for (int i = 0; i < NPAT; i++) {
        if (i < 4) {
            strcpy(pats[i], fixed[i]);
        } else {
            /* Patterns copied out of the text so they occur at least once. */
            s = s * 1664525u + 1013904223u;
            long at = (long)((s >> 8) % (TEXT_LEN - MAXPAT));
            int len = 5 + i * 2;
            memcpy(pats[i], text + at, (size_t)len);
            pats[i][len] = '\0';
        }
    }
    int all_agree = 1;
    uint32_t h = 0;
    for (int i = 0; i < NPAT; i++) {
        int m = (int)strlen(pats[i]);
        long first;
        long a = kmp_count(text, TEXT_LEN, pats[i], m, &first);
        long b = horspool_count(text, TEXT_LEN, pats[i], m);
        long c = naive_count(text, TEXT_LEN, pats[i], m);
        if (a != b || a != c) all_agree = 0;
        h = h * 31u + (uint32_t)a;
        printf("%-24s count=%ld first=%ld\n", pats[i], a, first);
    }
    printf("all agree=%d hash=%08x\n", all_agree, h);
    return 0;
}
