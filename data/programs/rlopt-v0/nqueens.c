/* nqueens: counts N-queens solutions with bitmask backtracking, checks the
 * small cases against an array-based solver, and reports the number of
 * solutions that are distinct up to symmetry for small boards. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define MAXN 13

static uint64_t count_bits(int n, uint32_t cols, uint32_t d1, uint32_t d2) {
    uint32_t full = (1u << n) - 1u;
    if (cols == full) return 1;
    uint64_t total = 0;
    uint32_t avail = full & ~(cols | d1 | d2);
    while (avail) {
        uint32_t bit = avail & (0u - avail);
        avail ^= bit;
        total += count_bits(n, cols | bit, ((d1 | bit) << 1) & full, (d2 | bit) >> 1);
    }
    return total;
}

static int queen_col[MAXN];

static int safe(int row, int col) {
    for (int r = 0; r < row; r++) {
        int c = queen_col[r];
        if (c == col || r - c == row - col || r + c == row + col) return 0;
    }
    return 1;
}

/* Array solver; also counts solutions unique up to rotation/reflection by
 * keeping only those that are lexicographically smallest in their orbit. */
static long unique_found;

static int board_key(const int *q, int n, int t) {
    /* Encode the transformed solution as a base-n number (n <= 8 here). */
    int img[MAXN];
    for (int r = 0; r < n; r++) {
        int c = q[r], rr = r, cc = c;
        switch (t) {
        case 0: rr = r; cc = c; break;
        case 1: rr = c; cc = n - 1 - r; break;
        case 2: rr = n - 1 - r; cc = n - 1 - c; break;
        case 3: rr = n - 1 - c; cc = r; break;
        case 4: rr = r; cc = n - 1 - c; break;
        case 5: rr = n - 1 - r; cc = c; break;
        case 6: rr = c; cc = r; break;
        default: rr = n - 1 - c; cc = n - 1 - r; break;
        }
        img[rr] = cc;
    }
    int key = 0;
    for (int r = 0; r < n; r++) key = key * n + img[r];
    return key;
}

static long solve_array(int n, int row) {
    if (row == n) {
        int k0 = board_key(queen_col, n, 0), minimal = 1;
        for (int t = 1; t < 8; t++)
            if (board_key(queen_col, n, t) < k0) minimal = 0;
        unique_found += minimal;
        return 1;
    }
    long total = 0;
    for (int c = 0; c < n; c++)
        if (safe(row, c)) {
            queen_col[row] = c;
            total += solve_array(n, row + 1);
        }
    return total;
}

int main(void) {
    uint64_t sum = 0;
    for (int n = 1; n <= MAXN; n++) {
        uint64_t c = count_bits(n, 0, 0, 0);
        sum += c;
        printf("n=%2d solutions=%llu", n, (unsigned long long)c);
        if (n <= 8) {
            unique_found = 0;
            long a = solve_array(n, 0);
            printf(" array=%ld unique=%ld", a, unique_found);
        }
        printf("\n");
    }
    printf("total=%llu\n", (unsigned long long)sum);
    return 0;
}
