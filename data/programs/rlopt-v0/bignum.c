/* bignum: arbitrary-precision unsigned integers in base 10^9 limbs with
 * addition, small-factor multiplication, schoolbook multiplication and
 * division by a small divisor; computes a large factorial, a Fibonacci
 * number and a power of two and checks identities between them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BASE 1000000000u
#define MAXL 4000

typedef struct {
    int n; /* number of limbs, little endian; n == 0 is zero */
    uint32_t d[MAXL];
} big;

static void big_set(big *a, uint32_t v) {
    a->n = 0;
    while (v) {
        a->d[a->n++] = v % BASE;
        v /= BASE;
    }
}

static void big_mul_small(big *a, uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t t = (uint64_t)a->d[i] * m + carry;
        a->d[i] = (uint32_t)(t % BASE);
        carry = t / BASE;
    }
    while (carry) {
        a->d[a->n++] = (uint32_t)(carry % BASE);
        carry /= BASE;
    }
}

static void big_add(big *r, const big *a, const big *b) {
    int n = a->n > b->n ? a->n : b->n;
    uint32_t carry = 0;
    for (int i = 0; i < n; i++) {
        uint32_t t = carry + (i < a->n ? a->d[i] : 0u) + (i < b->n ? b->d[i] : 0u);
        carry = t >= BASE;
        r->d[i] = t - (carry ? BASE : 0u);
    }
    r->n = n;
    if (carry) r->d[r->n++] = 1;
}

static void big_mul(big *r, const big *a, const big *b) {
    static uint64_t acc[2 * MAXL];
    int n = a->n + b->n;
    memset(acc, 0, sizeof(uint64_t) * (size_t)n);
    for (int i = 0; i < a->n; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < b->n; j++) {
            uint64_t t = acc[i + j] + (uint64_t)a->d[i] * b->d[j] + carry;
            acc[i + j] = t % BASE;
            carry = t / BASE;
        }
        int k = i + b->n;
        while (carry) {
            uint64_t t = acc[k] + carry;
            acc[k++] = t % BASE;
            carry = t / BASE;
        }
    }
    while (n > 0 && acc[n - 1] == 0) n--;
    for (int i = 0; i < n; i++) r->d[i] = (uint32_t)acc[i];
    r->n = n;
}

/* Divides in place, returns the remainder. */
static uint32_t big_div_small(big *a, uint32_t m) {
    uint64_t rem = 0;
    for (int i = a->n - 1; i >= 0; i--) {
        uint64_t cur = a->d[i] + rem * BASE;
        a->d[i] = (uint32_t)(cur / m);
        rem = cur % m;
    }
    while (a->n > 0 && a->d[a->n - 1] == 0) a->n--;
    return (uint32_t)rem;
}

static int big_cmp(const big *a, const big *b) {
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
    return 0;
}

static int digits(const big *a) {
    if (a->n == 0) return 1;
    int top = 0;
    for (uint32_t v = a->d[a->n - 1]; v; v /= 10) top++;
    return (a->n - 1) * 9 + top;
}

static uint32_t digit_sum(const big *a) {
    uint32_t s = 0;
    for (int i = 0; i < a->n; i++)
        for (uint32_t v = a->d[i]; v; v /= 10) s += v % 10;
    return s;
}

static void describe(const char *name, const big *a) {
    char lead[32];
    if (a->n > 1)
        snprintf(lead, sizeof lead, "%u%09u", a->d[a->n - 1], a->d[a->n - 2]);
    else
        snprintf(lead, sizeof lead, "%u", a->n ? a->d[0] : 0u);
    printf("%s: digits=%d digit_sum=%u leading=%.6s trailing=%09u\n", name, digits(a),
           digit_sum(a), lead, a->n ? a->d[0] : 0u);
}

static big f, g, h, t1, t2, p2;

int main(void) {
    /* 2500! */
    big_set(&f, 1);
    for (uint32_t i = 2; i <= 2500; i++) big_mul_small(&f, i);
    describe("2500!", &f);
    /* Trailing zeros of 2500! by repeated division by 10. */
    h = f;
    int zeros = 0;
    while (big_div_small(&h, 10) == 0) zeros++;
    printf("2500! trailing zeros=%d (expect 624)\n", zeros);
    /* Dividing out every factor again leaves exactly 1. */
    h = f;
    for (uint32_t i = 2500; i >= 2; i--) big_div_small(&h, i);
    printf("2500!/(2500*...*2) == 1: %d\n", h.n == 1 && h.d[0] == 1);

    /* Fibonacci F(12000) by iteration, and F(2n) = F(n) * (2 F(n+1) - F(n)). */
    big_set(&g, 0);
    big_set(&h, 1);
    for (int i = 0; i < 6000; i++) {
        big_add(&t1, &g, &h);
        g = h;
        h = t1;
    }
    /* g = F(6000), h = F(6001), so F(12000) = g * (2h - g). */
    big_add(&t1, &h, &h);
    /* t1 - g: subtract in place (t1 >= g). */
    {
        int borrow = 0;
        for (int i = 0; i < t1.n; i++) {
            int64_t v = (int64_t)t1.d[i] - (i < g.n ? g.d[i] : 0) - borrow;
            borrow = v < 0;
            t1.d[i] = (uint32_t)(v + (borrow ? BASE : 0));
        }
        while (t1.n > 0 && t1.d[t1.n - 1] == 0) t1.n--;
    }
    big_mul(&t2, &g, &t1);
    big_set(&g, 0);
    big_set(&h, 1);
    for (int i = 0; i < 12000; i++) {
        big_add(&t1, &g, &h);
        g = h;
        h = t1;
    }
    describe("F(12000)", &g);
    printf("doubling identity holds=%d\n", big_cmp(&g, &t2) == 0);

    /* 2^16000 by squaring, compared with repeated doubling. */
    big_set(&p2, 2);
    for (int i = 0; i < 4; i++) { /* 2^16 */
        big_mul(&t1, &p2, &p2);
        p2 = t1;
    }
    big_set(&t2, 1);
    for (int i = 0; i < 16000 / 16; i++) {
        big_mul(&t1, &t2, &p2);
        t2 = t1;
    }
    big_set(&h, 1);
    for (int i = 0; i < 16000; i++) big_mul_small(&h, 2);
    describe("2^16000", &t2);
    printf("squaring agrees with doubling=%d\n", big_cmp(&t2, &h) == 0);
    return 0;
}
