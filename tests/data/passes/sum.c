#include <stdio.h>

static int weightedSum(int n) {
  int total = 0;
  for (int i = 1; i <= n; ++i)
    total += i * 3;
  return total;
}

int main(void) {
  printf("%d\n", weightedSum(100));
  return 0;
}
