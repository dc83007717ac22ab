/* poly: polynomial evaluation (Horner, Estrin, and Clenshaw for a Chebyshev
 * series) in double, plus polynomial multiplication, evaluation and
 * derivative modulo a prime using 64-bit unsigned arithmetic. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define DEG 24
#define NPTS 20000
#define PDEG 700
#define P 1000000007u

static double coef[DEG + 1];

static double horner(const double *c, int deg, double x) {
    double r = c[deg];
    for (int i = deg - 1; i >= 0; i--) r = r * x + c[i];
    return r;
}

/* Estrin's scheme: pairs, then powers x^2, x^4, ... */
static double estrin(const double *c, int deg, double x) {
    double tmp[DEG + 2];
    int n = deg + 1;
    for (int i = 0; i < n; i++) tmp[i] = c[i];
    double p = x;
    while (n > 1) {
        int m = 0;
        for (int i = 0; i < n; i += 2) tmp[m++] = i + 1 < n ? tmp[i] + tmp[i + 1] * p : tmp[i];
        n = m;
        p = p * p;
    }
    return tmp[0];
}

/* Chebyshev series sum_{k} a_k T_k(x) by the Clenshaw recurrence. */
static double clenshaw(const double *a, int n, double x) {
    double b1 = 0.0, b2 = 0.0;
    for (int k = n - 1; k >= 1; k--) {
        double b0 = 2.0 * x * b1 - b2 + a[k];
        b2 = b1;
        b1 = b0;
    }
    return x * b1 - b2 + a[0];
}

static uint64_t mod_eval(const uint64_t *c, int deg, uint64_t x) {
    uint64_t r = c[deg];
    for (int i = deg - 1; i >= 0; i--) r = (r * x + c[i]) % P;
    return r;
}

static uint64_t pa[PDEG + 1], pb[PDEG + 1], prod[2 * PDEG + 1], deriv[2 * PDEG];

int main(void) {
    /* Truncated Taylor series of exp(x) as the test polynomial. */
    double f = 1.0;
    for (int i = 0; i <= DEG; i++) {
        coef[i] = 1.0 / f;
        f *= (double)(i + 1);
    }
    double sh = 0.0, se = 0.0, maxdiff = 0.0, maxerr = 0.0;
    for (int k = 0; k < NPTS; k++) {
        double x = -2.0 + 4.0 * k / (NPTS - 1);
        double a = horner(coef, DEG, x), b = estrin(coef, DEG, x);
        sh += a;
        se += b;
        if (fabs(a - b) / a > maxdiff) maxdiff = fabs(a - b) / a;
        if (fabs(a - exp(x)) / exp(x) > maxerr) maxerr = fabs(a - exp(x)) / exp(x);
    }
    printf("horner sum=%.8g estrin sum=%.8g schemes_agree=%d exp_err<1e-14=%d\n", sh, se,
           maxdiff < 1e-13, maxerr < 1e-14);

    /* T_k series: sum of T_k(x)/2^k has a closed form checkable at x=cos t. */
    double cheb[40];
    for (int k = 0; k < 40; k++) cheb[k] = ldexp(1.0, -k);
    double cs = 0.0, cerr = 0.0;
    for (int k = 0; k < NPTS; k++) {
        double t = 3.0 * k / NPTS, x = cos(t);
        double v = clenshaw(cheb, 40, x);
        double exact = 0.0;
        for (int j = 0; j < 40; j++) exact += cos(j * t) * cheb[j];
        cs += v;
        if (fabs(v - exact) > cerr) cerr = fabs(v - exact);
    }
    printf("clenshaw sum=%.8g agrees_with_cosines=%d\n", cs, cerr < 1e-12);

    /* Modular polynomials: (A*B)(x) == A(x)*B(x) mod P at many points. */
    uint64_t s = 123456789u;
    for (int i = 0; i <= PDEG; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        pa[i] = (s >> 20) % P;
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        pb[i] = (s >> 20) % P;
    }
    for (int i = 0; i <= PDEG; i++)
        for (int j = 0; j <= PDEG; j++) prod[i + j] = (prod[i + j] + pa[i] * pb[j]) % P;
    for (int i = 1; i <= 2 * PDEG; i++) deriv[i - 1] = prod[i] * (uint64_t)i % P;
    int agree = 1;
    uint64_t acc = 0;
    for (uint64_t x = 1; x <= 400; x++) {
        uint64_t lhs = mod_eval(prod, 2 * PDEG, x);
        uint64_t rhs = mod_eval(pa, PDEG, x) * mod_eval(pb, PDEG, x) % P;
        if (lhs != rhs) agree = 0;
        acc = (acc * 31u + lhs + mod_eval(deriv, 2 * PDEG - 1, x)) % P;
    }
    printf("mod-p product agrees=%d prod[%d]=%llu acc=%llu\n", agree, PDEG,
           (unsigned long long)prod[PDEG], (unsigned long long)acc);
    return 0;
}
