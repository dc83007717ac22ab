/* wordfreq: generates a text from syllables with a Zipf-like word choice,
 * splits it into lower-cased words, counts them in a chained hash table,
 * sorts by frequency and prints the most common words and statistics. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_SIZE 1200000
#define VOCAB 3000
#define BUCKETS 4096
#define MAXWORD 32

typedef struct entry {
    char word[MAXWORD];
    unsigned count;
    struct entry *next;
} entry;

static entry *buckets[BUCKETS];
static entry pool[VOCAB * 2];
static int pool_used;
static char vocab[VOCAB][MAXWORD];
static char text[TEXT_SIZE + MAXWORD + 2];

static uint32_t rng_state = 1234567u;

static uint32_t next_rand(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static uint32_t hash_word(const char *w) {
    uint32_t h = 5381u;
    while (*w) h = h * 33u + (unsigned char)*w++;
    return h;
}

static entry *count_word(const char *w) {
    uint32_t b = hash_word(w) % BUCKETS;
    for (entry *e = buckets[b]; e; e = e->next)
        if (strcmp(e->word, w) == 0) {
            e->count++;
            return e;
        }
    if (pool_used >= VOCAB * 2) return NULL;
    entry *e = &pool[pool_used++];
    strcpy(e->word, w);
    e->count = 1;
    e->next = buckets[b];
    buckets[b] = e;
    return e;
}

static int by_count_then_word(const void *pa, const void *pb) {
    const entry *a = *(const entry *const *)pa, *b = *(const entry *const *)pb;
    if (a->count != b->count) return a->count < b->count ? 1 : -1;
    return strcmp(a->word, b->word);
}

int main(void) {
    static const char *syll[] = {"ka", "lo", "mi", "ne", "ru", "ta", "vi", "so",
                                 "pe", "du", "an", "or", "el", "ix", "um", "ze"};
    for (int i = 0; i < VOCAB; i++) {
        int n = 1 + (int)(next_rand() % 3u) + (i > 100) + (i > 1000);
        vocab[i][0] = '\0';
        for (int k = 0; k < n; k++) strcat(vocab[i], syll[next_rand() % 16u]);
    }
    /* Zipf-like: pick rank r with probability ~ 1/(r+1) via a cumulative table. */
    static double cum[VOCAB];
    double total = 0.0;
    for (int i = 0; i < VOCAB; i++) {
        total += 1.0 / (i + 1);
        cum[i] = total;
    }
    size_t len = 0;
    long words_written = 0;
    while (len < TEXT_SIZE) {
        double u = (double)next_rand() / 16777216.0 * total;
        int lo = 0, hi = VOCAB - 1;
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (cum[mid] < u) lo = mid + 1;
            else hi = mid;
        }
        const char *w = vocab[lo];
        uint32_t style = next_rand() % 20u;
        for (size_t k = 0; w[k]; k++)
            text[len++] = (char)((style == 0 || (style == 1 && k == 0)) ? toupper((unsigned char)w[k]) : w[k]);
        words_written++;
        uint32_t sep = next_rand() % 12u;
        text[len++] = sep == 0 ? ',' : sep == 1 ? '.' : sep == 2 ? '\n' : ' ';
        if (sep < 2) text[len++] = ' ';
    }
    text[len] = '\0';

    long words = 0, longest = 0;
    char buf[MAXWORD];
    size_t i = 0;
    while (i < len) {
        while (i < len && !isalpha((unsigned char)text[i])) i++;
        int n = 0;
        while (i < len && isalpha((unsigned char)text[i])) {
            if (n < MAXWORD - 1) buf[n++] = (char)tolower((unsigned char)text[i]);
            i++;
        }
        if (n == 0) break;
        buf[n] = '\0';
        if (n > longest) longest = n;
        count_word(buf);
        words++;
    }
    entry **all = malloc(sizeof(entry *) * (size_t)pool_used);
    if (!all) return 1;
    for (int k = 0; k < pool_used; k++) all[k] = &pool[k];
    qsort(all, (size_t)pool_used, sizeof(entry *), by_count_then_word);
    printf("chars=%zu words=%ld (written %ld) distinct=%d longest=%ld\n", len, words,
           words_written, pool_used, longest);
    for (int k = 0; k < 8; k++) printf("%2d. %-12s %u\n", k + 1, all[k]->word, all[k]->count);
    long singletons = 0;
    uint32_t h = 0;
    for (int k = 0; k < pool_used; k++) {
        if (all[k]->count == 1) singletons++;
        h = h * 16777619u ^ (hash_word(all[k]->word) + all[k]->count);
    }
    printf("singletons=%ld table_hash=%08x\n", singletons, h);
    free(all);
    return 0;
}
