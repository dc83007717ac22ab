/* Sums the numbers given as arguments; without any it exits 1, as real
 * programs do when their arguments are missing. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: needs_args N...\n");
    return 1;
  }
  long sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += strtol(argv[i], NULL, 10);
  printf("%ld\n", sum);
  return 0;
}
