// rlopt: thin front end; the command table is in Commands.cpp and each
// command lives in its own file.
#include "Commands.h"

int main(int argc, char **argv) {
  return rlopt::tool::runCommandLine(argc, argv);
}
