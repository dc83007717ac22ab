/* jacobi: 2-D five-point Jacobi relaxation of the Laplace equation with
 * fixed boundary values, a 1-D three-point heat stencil, and a Gauss-Seidel
 * red-black sweep for comparison; reports residual norms and probes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define NX 96
#define NY 96
#define ITERS 700
#define N1 4096
#define STEPS1 200

static double u[NY][NX], v[NY][NX], g[NY][NX];
static double h0[N1], h1[N1];

static void set_boundary(double (*a)[NX]) {
    for (int x = 0; x < NX; x++) {
        a[0][x] = 1.0;       /* hot top edge */
        a[NY - 1][x] = 0.0;  /* cold bottom edge */
    }
    for (int y = 0; y < NY; y++) {
        a[y][0] = (double)(NY - 1 - y) / (NY - 1);
        a[y][NX - 1] = (double)(NY - 1 - y) / (NY - 1);
    }
}

static double residual(double (*a)[NX]) {
    double r = 0.0;
    for (int y = 1; y < NY - 1; y++)
        for (int x = 1; x < NX - 1; x++) {
            double d = a[y - 1][x] + a[y + 1][x] + a[y][x - 1] + a[y][x + 1] - 4.0 * a[y][x];
            r += d * d;
        }
    return sqrt(r);
}

static void jacobi(void) {
    for (int it = 0; it < ITERS; it++) {
        for (int y = 1; y < NY - 1; y++)
            for (int x = 1; x < NX - 1; x++)
                v[y][x] = 0.25 * (u[y - 1][x] + u[y + 1][x] + u[y][x - 1] + u[y][x + 1]);
        for (int y = 1; y < NY - 1; y++) memcpy(&u[y][1], &v[y][1], sizeof(double) * (NX - 2));
    }
}

static void red_black(void) {
    for (int it = 0; it < ITERS; it++)
        for (int color = 0; color < 2; color++)
            for (int y = 1; y < NY - 1; y++)
                for (int x = 1 + (y + color) % 2; x < NX - 1; x += 2)
                    g[y][x] = 0.25 * (g[y - 1][x] + g[y + 1][x] + g[y][x - 1] + g[y][x + 1]);
}

int main(void) {
    memset(u, 0, sizeof(u));
    set_boundary(u);
    memcpy(v, u, sizeof(u));
    memcpy(g, u, sizeof(u));
    double r0 = residual(u);
    jacobi();
    red_black();
    double rj = residual(u), rg = residual(g);
    double sum = 0.0;
    for (int y = 0; y < NY; y++)
        for (int x = 0; x < NX; x++) sum += u[y][x];
    printf("jacobi: residual %.6g -> %.6g, sum=%.6g, centre=%.6f\n", r0, rj, sum,
           u[NY / 2][NX / 2]);
    printf("red-black: residual %.6g, centre=%.6f, faster=%d\n", rg, g[NY / 2][NX / 2], rg < rj);

    /* 1-D explicit heat equation with a square pulse. */
    for (int i = 0; i < N1; i++) h0[i] = (i > N1 / 3 && i < N1 / 2) ? 100.0 : 0.0;
    const double k = 0.4;
    for (int s = 0; s < STEPS1; s++) {
        h1[0] = h0[0];
        h1[N1 - 1] = h0[N1 - 1];
        for (int i = 1; i < N1 - 1; i++) h1[i] = h0[i] + k * (h0[i - 1] - 2.0 * h0[i] + h0[i + 1]);
        memcpy(h0, h1, sizeof(h0));
    }
    double total = 0.0, peak = 0.0;
    for (int i = 0; i < N1; i++) {
        total += h0[i];
        if (h0[i] > peak) peak = h0[i];
    }
    printf("heat1d: total=%.6g peak=%.6g edge=%.6g\n", total, peak, h0[N1 / 3 - 5]);
    return 0;
}
