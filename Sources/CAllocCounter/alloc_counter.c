#include "CAllocCounter.h"
#include <features.h>
#include <stddef.h>

#ifdef __GLIBC__
#include <errno.h>

// glibc's allocator under its internal names: forwarding here instead of dlsym(RTLD_NEXT) avoids the
// bootstrap problem (dlsym itself allocates).
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

// initial-exec TLS in the executable: reaching it never allocates (no __tls_get_addr slow path).
static __thread uint64_t thread_count __attribute__((tls_model("initial-exec")));
static uint64_t process_count;

static inline void count_one(void) {
    thread_count++;
    __atomic_fetch_add(&process_count, 1, __ATOMIC_RELAXED);
}

void *malloc(size_t size) { count_one(); return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { count_one(); return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { count_one(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count_one(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count_one();
    void *p = __libc_memalign(alignment, size);
    if (p == NULL && size != 0) return ENOMEM;
    *result = p;
    return 0;
}

uint64_t ht_alloc_thread_count(void) { return thread_count; }
uint64_t ht_alloc_process_count(void) { return __atomic_load_n(&process_count, __ATOMIC_RELAXED); }

int ht_alloc_counting_available(void) {
    // Through a volatile pointer so the compiler cannot pair and delete the malloc/free.
    void *(*volatile allocate)(size_t) = malloc;
    uint64_t before = thread_count;
    void *p = allocate(16);
    free(p);
    return thread_count != before;
}

#else

uint64_t ht_alloc_thread_count(void) { return 0; }
uint64_t ht_alloc_process_count(void) { return 0; }
int ht_alloc_counting_available(void) { return 0; }

#endif
