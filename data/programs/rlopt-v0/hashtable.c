/* hashtable: open-addressing hash table (linear probing, tombstones,
 * resizing) keyed by generated strings hashed with FNV-1a and a
 * murmur-style finalizer; inserts, lookups, deletes and re-inserts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NKEYS 60000
#define KEYLEN 12

typedef struct {
    const char *key; /* NULL = empty */
    uint32_t hash;
    uint32_t value;
    int tombstone;
} slot;

typedef struct {
    slot *slots;
    size_t cap; /* power of two */
    size_t used; /* live + tombstones */
    size_t live;
    unsigned long probes;
} table;

static uint32_t fnv1a(const char *s) {
    uint32_t h = 2166136261u;
    while (*s) {
        h ^= (unsigned char)*s++;
        h *= 16777619u;
    }
    /* murmur3 fmix32 */
    h ^= h >> 16;
    h *= 0x85EBCA6Bu;
    h ^= h >> 13;
    h *= 0xC2B2AE35u;
    h ^= h >> 16;
    return h;
}

static void table_init(table *t, size_t cap) {
    t->slots = calloc(cap, sizeof(slot));
    t->cap = cap;
    t->used = t->live = 0;
    t->probes = 0;
}

static slot *find_slot(table *t, const char *key, uint32_t h, int for_insert) {
    size_t mask = t->cap - 1;
    size_t i = h & mask;
    slot *first_tomb = NULL;
    for (;;) {
        slot *s = &t->slots[i];
        t->probes++;
        if (!s->key) {
            if (for_insert && first_tomb) return first_tomb;
            return for_insert ? s : NULL;
        }
        if (s->tombstone) {
            if (!first_tomb) first_tomb = s;
        } else if (s->hash == h && strcmp(s->key, key) == 0) {
            return s;
        }
        i = (i + 1) & mask;
    }
}

static void table_put(table *t, const char *key, uint32_t value);

static void table_grow(table *t) {
    table n;
    table_init(&n, t->cap * 2);
    for (size_t i = 0; i < t->cap; i++) {
        slot *s = &t->slots[i];
        if (s->key && !s->tombstone) table_put(&n, s->key, s->value);
    }
    n.probes += t->probes;
    free(t->slots);
    *t = n;
}

static void table_put(table *t, const char *key, uint32_t value) {
    if ((t->used + 1) * 4 > t->cap * 3) table_grow(t);
    uint32_t h = fnv1a(key);
    slot *s = find_slot(t, key, h, 1);
    if (s->key && !s->tombstone) {
        s->value = value;
        return;
    }
    if (!s->key) t->used++;
    s->key = key;
    s->hash = h;
    s->value = value;
    s->tombstone = 0;
    t->live++;
}

static int table_get(table *t, const char *key, uint32_t *value) {
    slot *s = find_slot(t, key, fnv1a(key), 0);
    if (!s) return 0;
    *value = s->value;
    return 1;
}

static int table_del(table *t, const char *key) {
    slot *s = find_slot(t, key, fnv1a(key), 0);
    if (!s) return 0;
    s->tombstone = 1;
    t->live--;
    return 1;
}

static char keys[NKEYS][KEYLEN + 1];
static char missing[NKEYS][KEYLEN + 1];

int main(void) {
    uint32_t st = 99991u;
    for (int i = 0; i < NKEYS; i++) {
        for (int j = 0; j < KEYLEN; j++) {
            st = st * 1664525u + 1013904223u;
            keys[i][j] = (char)('a' + (st >> 24) % 26u);
            missing[i][j] = (char)('A' + (st >> 16) % 26u); /* never collides with keys */
        }
        keys[i][KEYLEN] = missing[i][KEYLEN] = '\0';
    }
    table t;
    table_init(&t, 16);
    if (!t.slots) return 1;
    for (int i = 0; i < NKEYS; i++) table_put(&t, keys[i], (uint32_t)i * 7u);
    printf("inserted live=%zu cap=%zu\n", t.live, t.cap);

    uint32_t sum = 0, v;
    int found = 0, absent = 0;
    for (int i = 0; i < NKEYS; i++) {
        if (table_get(&t, keys[i], &v)) {
            found++;
            sum += v;
        }
        if (!table_get(&t, missing[i], &v)) absent++;
    }
    printf("lookup found=%d absent=%d sum=%u\n", found, absent, sum);

    int deleted = 0;
    for (int i = 0; i < NKEYS; i += 3) deleted += table_del(&t, keys[i]);
    found = 0;
    for (int i = 0; i < NKEYS; i++) found += table_get(&t, keys[i], &v);
    printf("deleted=%d remaining_found=%d live=%zu\n", deleted, found, t.live);

    for (int i = 0; i < NKEYS; i += 3) table_put(&t, keys[i], (uint32_t)i);
    uint32_t h = 0;
    for (int i = 0; i < NKEYS; i++)
        if (table_get(&t, keys[i], &v)) h = h * 31u + v;
    printf("reinserted live=%zu cap=%zu value_hash=%08x probes=%lu\n", t.live, t.cap, h,
           t.probes);
    free(t.slots);
    return 0;
}
