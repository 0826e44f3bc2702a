// SPDX-License-Identifier: MIT
#include "allocator_tuning.h"

#include <cstdlib> // defines __GLIBC__ on glibc
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace rankscope {

void tuneAllocator()
{
#if defined(__GLIBC__)
    // Address space only: untouched pages of the padding cost no memory. Setting any of these also
    // fixes glibc's otherwise adaptive mmap threshold, so that is set too: blocks under 32 MiB (an
    // event vector doubling) come from the heap instead of an mmap/munmap pair each.
    mallopt(M_TOP_PAD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

} // namespace rankscope
