// Counts heap allocations for real, so "nothing allocates per sample" is measured rather than hoped for.
// On glibc this target defines malloc/calloc/realloc/memalign/aligned_alloc/posix_memalign in the
// executable, counts each call (per thread and per process) and forwards to glibc's own allocator
// (__libc_malloc and friends), so behaviour and memory use are unchanged. Elsewhere (musl static builds)
// nothing is interposed and ht_alloc_counting_available() returns 0.
#ifndef HEADTRACK_CALLOCCOUNTER_H
#define HEADTRACK_CALLOCCOUNTER_H

#include <stdint.h>

/// Allocation calls (malloc, calloc, realloc, the aligned variants) made so far by the calling thread.
uint64_t ht_alloc_thread_count(void);
/// Allocation calls made so far by the whole process.
uint64_t ht_alloc_process_count(void);
/// 1 when the interposed allocator is live in this process (checked by allocating once), else 0.
int ht_alloc_counting_available(void);

#endif
