#ifndef COUNT_H
#define COUNT_H
#include <stdio.h>

struct counts {
  long words, lines, letters[26];
};

void count_stream(FILE *in, struct counts *c);
#endif
