#ifndef RLOPT_CORE_MEMORY_H
#define RLOPT_CORE_MEMORY_H

namespace rlopt {

/// Keeps freed heap memory in this process. By default glibc serves a large
/// block with mmap, or trims the heap top once enough of it is free, so a
/// loop that allocates and frees the same large buffers pays first-touch
/// page faults on them every time. Measured kernels and the learner's
/// updates both run such loops.
void keepFreedHeapMemory();

} // namespace rlopt

#endif
