/* matmul: dense matrix multiplication in double (naive ijk, loop-interchanged
 * ikj, and cache-blocked) and in 32-bit integers; results cross-checked. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 160
#define BS 32

static double A[N][N], B[N][N], C1[N][N], C2[N][N], C3[N][N];
static uint32_t IA[N][N], IB[N][N], IC[N][N];

static void mm_ijk(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double s = 0.0;
            for (int k = 0; k < N; k++) s += A[i][k] * B[k][j];
            C1[i][j] = s;
        }
}

static void mm_ikj(void) {
    memset(C2, 0, sizeof(C2));
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            double a = A[i][k];
            for (int j = 0; j < N; j++) C2[i][j] += a * B[k][j];
        }
}

static void mm_blocked(void) {
    memset(C3, 0, sizeof(C3));
    for (int ii = 0; ii < N; ii += BS)
        for (int kk = 0; kk < N; kk += BS)
            for (int jj = 0; jj < N; jj += BS)
                for (int i = ii; i < ii + BS; i++)
                    for (int k = kk; k < kk + BS; k++) {
                        double a = A[i][k];
                        for (int j = jj; j < jj + BS; j++) C3[i][j] += a * B[k][j];
                    }
}

static void mm_int(void) {
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            uint32_t s = 0;
            for (int k = 0; k < N; k++) s += IA[i][k] * IB[k][j];
            IC[i][j] = s;
        }
}

int main(void) {
    uint32_t s = 12345u;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            s = s * 1664525u + 1013904223u;
            /* Small dyadic values keep every product and partial sum exact. */
            A[i][j] = (double)((int)(s >> 24) - 128) / 64.0;
            s = s * 1664525u + 1013904223u;
            B[i][j] = (double)((int)(s >> 24) - 128) / 32.0;
            IA[i][j] = s;
            s = s * 1664525u + 1013904223u;
            IB[i][j] = s;
        }
    mm_ijk();
    mm_ikj();
    mm_blocked();
    mm_int();
    double trace = 0.0, sum = 0.0, maxabs = 0.0;
    int agree = 1;
    for (int i = 0; i < N; i++) {
        trace += C1[i][i];
        for (int j = 0; j < N; j++) {
            sum += C1[i][j];
            double v = C1[i][j] < 0 ? -C1[i][j] : C1[i][j];
            if (v > maxabs) maxabs = v;
            if (C1[i][j] != C2[i][j] || C1[i][j] != C3[i][j]) agree = 0;
        }
    }
    uint32_t h = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) h = (h ^ IC[i][j]) * 16777619u;
    printf("double: trace=%.6g sum=%.6g maxabs=%.6g c[7][11]=%.6g agree=%d\n", trace, sum, maxabs,
           C1[7][11], agree);
    printf("int: c[0][0]=%u c[%d][%d]=%u hash=%08x\n", IC[0][0], N - 1, N - 1, IC[N - 1][N - 1], h);
    return 0;
}
