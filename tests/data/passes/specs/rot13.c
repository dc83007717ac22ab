/* Reads stdin, writes its ROT13 to stdout. */
#include <ctype.h>
#include <stdio.h>

int main(void) {
  int ch;
  while ((ch = getchar()) != EOF) {
    if (isalpha(ch)) {
      int base = isupper(ch) ? 'A' : 'a';
      ch = (ch - base + 13) % 26 + base;
    }
    putchar(ch);
  }
  return 0;
}
