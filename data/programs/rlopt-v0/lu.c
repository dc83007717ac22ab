/* lu: LU decomposition with partial pivoting in double, used to solve linear
 * systems, compute a log-determinant and invert a matrix; residuals are
 * reported rounded so the output is stable. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N 180

static double A[N][N], LU[N][N], INV[N][N];
static int perm[N];

static uint32_t rng_state = 8675309u;

static double next_unit(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (double)(rng_state >> 8) / 16777216.0 - 0.5;
}

/* Returns the sign of the permutation, or 0 if singular. */
static int lu_decompose(void) {
    int sign = 1;
    for (int i = 0; i < N; i++) {
        perm[i] = i;
        for (int j = 0; j < N; j++) LU[i][j] = A[i][j];
    }
    for (int k = 0; k < N; k++) {
        int p = k;
        double best = fabs(LU[k][k]);
        for (int i = k + 1; i < N; i++)
            if (fabs(LU[i][k]) > best) {
                best = fabs(LU[i][k]);
                p = i;
            }
        if (best == 0.0) return 0;
        if (p != k) {
            for (int j = 0; j < N; j++) {
                double t = LU[k][j];
                LU[k][j] = LU[p][j];
                LU[p][j] = t;
            }
            int t = perm[k];
            perm[k] = perm[p];
            perm[p] = t;
            sign = -sign;
        }
        for (int i = k + 1; i < N; i++) {
            double f = LU[i][k] / LU[k][k];
            LU[i][k] = f;
            for (int j = k + 1; j < N; j++) LU[i][j] -= f * LU[k][j];
        }
    }
    return sign;
}

static void lu_solve(const double *b, double *x) {
    double y[N];
    for (int i = 0; i < N; i++) {
        double s = b[perm[i]];
        for (int j = 0; j < i; j++) s -= LU[i][j] * y[j];
        y[i] = s;
    }
    for (int i = N - 1; i >= 0; i--) {
        double s = y[i];
        for (int j = i + 1; j < N; j++) s -= LU[i][j] * x[j];
        x[i] = s / LU[i][i];
    }
}

int main(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) A[i][j] = next_unit() + (i == j ? 2.0 : 0.0);
    int sign = lu_decompose();
    double logdet = 0.0;
    int negatives = sign < 0;
    for (int i = 0; i < N; i++) {
        logdet += log(fabs(LU[i][i]));
        if (LU[i][i] < 0) negatives ^= 1;
    }
    printf("sign=%d det_sign=%d log|det|=%.6f\n", sign, negatives ? -1 : 1, logdet);

    /* Solve A x = b with known x = (1, 2, ..., N) / N. */
    double b[N], x[N], xt[N];
    for (int i = 0; i < N; i++) xt[i] = (double)(i + 1) / N;
    for (int i = 0; i < N; i++) {
        b[i] = 0.0;
        for (int j = 0; j < N; j++) b[i] += A[i][j] * xt[j];
    }
    lu_solve(b, x);
    double err = 0.0, xsum = 0.0;
    for (int i = 0; i < N; i++) {
        if (fabs(x[i] - xt[i]) > err) err = fabs(x[i] - xt[i]);
        xsum += x[i];
    }
    printf("solve: sum(x)=%.6f max_err<1e-9=%d\n", xsum, err < 1e-9);

    /* Inverse column by column, then check A * INV = I. */
    for (int c = 0; c < N; c++) {
        double e[N], col[N];
        for (int i = 0; i < N; i++) e[i] = i == c ? 1.0 : 0.0;
        lu_solve(e, col);
        for (int i = 0; i < N; i++) INV[i][c] = col[i];
    }
    double resid = 0.0, trace = 0.0;
    for (int i = 0; i < N; i++) {
        trace += INV[i][i];
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++) s += A[i][k] * INV[k][j];
            double r = fabs(s - (i == j ? 1.0 : 0.0));
            if (r > resid) resid = r;
        }
    }
    printf("inverse: trace=%.6f residual<1e-9=%d\n", trace, resid < 1e-9);
    printf("lu[0][0]=%.6f lu[N-1][N-1]=%.6f perm[0]=%d perm[N-1]=%d\n", LU[0][0],
           LU[N - 1][N - 1], perm[0], perm[N - 1]);
    return 0;
}
