#include "rlopt/core/Memory.h"

#include <malloc.h>

namespace rlopt {

void keepFreedHeapMemory() {
  mallopt(M_MMAP_MAX, 0);
  mallopt(M_TRIM_THRESHOLD, -1);
}

} // namespace rlopt
