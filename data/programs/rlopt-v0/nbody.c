/* nbody: gravitational n-body simulation (softened pairwise forces,
 * leapfrog/kick-drift-kick integration) of a deterministic cluster; reports
 * energy drift, momentum and centre of mass with limited precision. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#define NB 96
#define STEPS 500
#define DT 0.001
#define SOFT2 1e-4

typedef struct {
    double x, y, z, vx, vy, vz, ax, ay, az, m;
} body;

static body b[NB];

static uint32_t rng_state = 4711u;

static double uniform(void) {
    rng_state = rng_state * 1664525u + 1013904223u;
    return (double)(rng_state >> 8) / 16777216.0;
}

static void compute_accel(void) {
    for (int i = 0; i < NB; i++) b[i].ax = b[i].ay = b[i].az = 0.0;
    for (int i = 0; i < NB; i++)
        for (int j = i + 1; j < NB; j++) {
            double dx = b[j].x - b[i].x, dy = b[j].y - b[i].y, dz = b[j].z - b[i].z;
            double r2 = dx * dx + dy * dy + dz * dz + SOFT2;
            double inv = 1.0 / (r2 * sqrt(r2));
            double fi = b[j].m * inv, fj = b[i].m * inv;
            b[i].ax += dx * fi;
            b[i].ay += dy * fi;
            b[i].az += dz * fi;
            b[j].ax -= dx * fj;
            b[j].ay -= dy * fj;
            b[j].az -= dz * fj;
        }
}

static double energy(void) {
    double e = 0.0;
    for (int i = 0; i < NB; i++) {
        e += 0.5 * b[i].m * (b[i].vx * b[i].vx + b[i].vy * b[i].vy + b[i].vz * b[i].vz);
        for (int j = i + 1; j < NB; j++) {
            double dx = b[j].x - b[i].x, dy = b[j].y - b[i].y, dz = b[j].z - b[i].z;
            e -= b[i].m * b[j].m / sqrt(dx * dx + dy * dy + dz * dz + SOFT2);
        }
    }
    return e;
}

static void step(void) {
    for (int i = 0; i < NB; i++) {
        b[i].vx += 0.5 * DT * b[i].ax;
        b[i].vy += 0.5 * DT * b[i].ay;
        b[i].vz += 0.5 * DT * b[i].az;
        b[i].x += DT * b[i].vx;
        b[i].y += DT * b[i].vy;
        b[i].z += DT * b[i].vz;
    }
    compute_accel();
    for (int i = 0; i < NB; i++) {
        b[i].vx += 0.5 * DT * b[i].ax;
        b[i].vy += 0.5 * DT * b[i].ay;
        b[i].vz += 0.5 * DT * b[i].az;
    }
}

int main(void) {
    /* Bodies in a unit ball with a gentle rotation about z. */
    for (int i = 0; i < NB; i++) {
        double x, y, z;
        do {
            x = 2.0 * uniform() - 1.0;
            y = 2.0 * uniform() - 1.0;
            z = 2.0 * uniform() - 1.0;
        } while (x * x + y * y + z * z > 1.0);
        b[i].x = x;
        b[i].y = y;
        b[i].z = z;
        b[i].vx = -0.3 * y;
        b[i].vy = 0.3 * x;
        b[i].vz = 0.0;
        b[i].m = (0.5 + uniform()) / NB;
    }
    compute_accel();
    double e0 = energy();
    for (int s = 0; s < STEPS; s++) step();
    double e1 = energy();
    double px = 0, py = 0, pz = 0, mx = 0, my = 0, mz = 0, mt = 0;
    for (int i = 0; i < NB; i++) {
        px += b[i].m * b[i].vx;
        py += b[i].m * b[i].vy;
        pz += b[i].m * b[i].vz;
        mx += b[i].m * b[i].x;
        my += b[i].m * b[i].y;
        mz += b[i].m * b[i].z;
        mt += b[i].m;
    }
    printf("energy before=%.6g after=%.6g rel_drift<1e-3=%d\n", e0, e1,
           fabs((e1 - e0) / e0) < 1e-3);
    printf("momentum=(%.5f, %.5f) |p|=%.5f\n", px, py, sqrt(px * px + py * py + pz * pz));
    printf("centre=(%.5f, %.5f, %.5f) mass=%.6g\n", mx / mt, my / mt, mz / mt, mt);
    printf("body0=(%.5f, %.5f, %.5f)\n", b[0].x, b[0].y, b[0].z);
    return 0;
}
