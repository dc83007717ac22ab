#include "count.h"

#include <ctype.h>

void count_stream(FILE *in, struct counts *c) {
  int ch, inWord = 0;
  while ((ch = fgetc(in)) != EOF) {
    if (ch == '\n')
      c->lines++;
    if (isalpha(ch)) {
      c->letters[tolower(ch) - 'a']++;
      if (!inWord)
        c->words++;
      inWord = 1;
    } else {
      inWord = 0;
    }
  }
}
