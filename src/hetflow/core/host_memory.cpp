#include "hetflow/core/host_memory.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace hetflow::core {

void keep_freed_host_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's largest
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace hetflow::core
