/* fft: iterative radix-2 complex FFT (bit reversal, precomputed twiddles),
 * inverse transform round trip, Parseval check and FFT-based convolution of
 * integer sequences compared with direct convolution. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define LOGN 15
#define N (1 << LOGN)
#define CONV 3000

typedef struct {
    double re, im;
} cplx;

static cplx tw[N / 2];

static void init_twiddles(void) {
    const double pi = 3.14159265358979323846;
    for (int k = 0; k < N / 2; k++) {
        tw[k].re = cos(2.0 * pi * k / N);
        tw[k].im = -sin(2.0 * pi * k / N);
    }
}

static void fft(cplx *a, int n, int inverse) {
    for (int i = 1, j = 0; i < n; i++) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) {
            cplx t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
    for (int len = 2; len <= n; len <<= 1) {
        int step = N / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; k++) {
                cplx w = tw[k * step];
                if (inverse) w.im = -w.im;
                cplx u = a[i + k], v = a[i + k + len / 2];
                cplx t = {v.re * w.re - v.im * w.im, v.re * w.im + v.im * w.re};
                a[i + k].re = u.re + t.re;
                a[i + k].im = u.im + t.im;
                a[i + k + len / 2].re = u.re - t.re;
                a[i + k + len / 2].im = u.im - t.im;
            }
    }
    if (inverse)
        for (int i = 0; i < n; i++) {
            a[i].re /= n;
            a[i].im /= n;
        }
}

static cplx sig[N], orig[N], ca[N], cb[N];

int main(void) {
    init_twiddles();
    uint32_t s = 1u;
    const double pi = 3.14159265358979323846;
    for (int i = 0; i < N; i++) {
        s = s * 1664525u + 1013904223u;
        double noise = ((double)(s >> 8) / 16777216.0 - 0.5) * 0.1;
        sig[i].re = sin(2.0 * pi * 50.0 * i / N) + 0.5 * cos(2.0 * pi * 1234.0 * i / N) + noise;
        sig[i].im = 0.0;
        orig[i] = sig[i];
    }
    double energy_t = 0.0;
    for (int i = 0; i < N; i++) energy_t += sig[i].re * sig[i].re + sig[i].im * sig[i].im;
    fft(sig, N, 0);
    double energy_f = 0.0;
    int peak1 = 0, peak2 = 0;
    double m1 = -1.0, m2 = -1.0;
    for (int i = 0; i < N / 2; i++) {
        double m = sig[i].re * sig[i].re + sig[i].im * sig[i].im;
        if (m > m1) {
            m2 = m1;
            peak2 = peak1;
            m1 = m;
            peak1 = i;
        } else if (m > m2) {
            m2 = m;
            peak2 = i;
        }
    }
    for (int i = 0; i < N; i++) energy_f += sig[i].re * sig[i].re + sig[i].im * sig[i].im;
    printf("peaks at bins %d and %d, |X|=%.4f and %.4f\n", peak1, peak2, sqrt(m1), sqrt(m2));
    printf("parseval: rel diff<1e-9=%d energy=%.6g\n",
           fabs(energy_f / N - energy_t) / energy_t < 1e-9, energy_t);
    fft(sig, N, 1);
    double maxerr = 0.0;
    for (int i = 0; i < N; i++) {
        double e = fabs(sig[i].re - orig[i].re) + fabs(sig[i].im - orig[i].im);
        if (e > maxerr) maxerr = e;
    }
    printf("roundtrip max err<1e-12=%d\n", maxerr < 1e-12);

    /* Integer convolution via FFT, rounded, versus direct O(n^2). */
    static long xa[CONV], xb[CONV], direct[2 * CONV];
    for (int i = 0; i < CONV; i++) {
        s = s * 1664525u + 1013904223u;
        xa[i] = (long)(s >> 24) % 100;
        s = s * 1664525u + 1013904223u;
        xb[i] = (long)(s >> 24) % 100;
    }
    for (int i = 0; i < N; i++) ca[i].re = ca[i].im = cb[i].re = cb[i].im = 0.0;
    for (int i = 0; i < CONV; i++) {
        ca[i].re = (double)xa[i];
        cb[i].re = (double)xb[i];
    }
    fft(ca, N, 0);
    fft(cb, N, 0);
    for (int i = 0; i < N; i++) {
        cplx p = {ca[i].re * cb[i].re - ca[i].im * cb[i].im,
                  ca[i].re * cb[i].im + ca[i].im * cb[i].re};
        ca[i] = p;
    }
    fft(ca, N, 1);
    for (int i = 0; i < CONV; i++)
        for (int j = 0; j < CONV; j++) direct[i + j] += xa[i] * xb[j];
    int agree = 1;
    uint32_t h = 0;
    for (int i = 0; i < 2 * CONV - 1; i++) {
        long v = lround(ca[i].re);
        if (v != direct[i]) agree = 0;
        h = h * 31u + (uint32_t)v;
    }
    printf("convolution agree=%d hash=%08x mid=%ld\n", agree, h, direct[CONV - 1]);
    return 0;
}
