/* Counts words, lines and letters of the file named by --input and writes
 * the letter histogram to the file named by --histogram. Like most real
 * programs it cannot run without its arguments. */
#include "count.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  const char *input = NULL, *histogram = NULL;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--input") == 0)
      input = argv[i + 1];
    else if (strcmp(argv[i], "--histogram") == 0)
      histogram = argv[i + 1];
  }
  if (!input || !histogram) {
    fprintf(stderr, "usage: wordstat --input FILE --histogram OUT\n");
    return 1;
  }
  FILE *in = fopen(input, "r");
  if (!in)
    return 2;
  struct counts c;
  memset(&c, 0, sizeof c);
  count_stream(in, &c);
  fclose(in);
  FILE *out = fopen(histogram, "w");
  if (!out)
    return 3;
  for (int i = 0; i < 26; ++i)
    fprintf(out, "%c %ld\n", 'a' + i, c.letters[i] * SCALE);
  fclose(out);
  printf("%ld words, %ld lines\n", c.words, c.lines);
  return 0;
}
