#define _GNU_SOURCE
#include "CRealtime.h"
#include <errno.h>
#include <string.h>
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

int ht_rt_set_fifo(int priority) {
    struct sched_param param;
    memset(&param, 0, sizeof param);
    param.sched_priority = priority;
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);
}

int ht_rt_set_normal(void) {
    struct sched_param param;
    memset(&param, 0, sizeof param);
    return pthread_setschedparam(pthread_self(), SCHED_OTHER, &param);
}

int ht_rt_current_policy(int *priority) {
    int policy = 0;
    struct sched_param param;
    memset(&param, 0, sizeof param);
    if (pthread_getschedparam(pthread_self(), &policy, &param) != 0) return -1;
    if (priority) *priority = param.sched_priority;
    return policy;
}

int ht_rt_set_affinity(int cpu) {
    if (cpu < 0 || cpu >= CPU_SETSIZE) return EINVAL;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

int ht_rt_allowed_cpus(void) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) return 1;
    return CPU_COUNT(&set);
}

int ht_rt_lock_memory(void) { return mlockall(MCL_CURRENT | MCL_FUTURE) == 0 ? 0 : errno; }

void ht_rt_prefault_stack(uint32_t bytes) {
    if (bytes > (1u << 20)) bytes = 1u << 20;
    volatile unsigned char *stack = __builtin_alloca(bytes);
    for (uint32_t i = 0; i < bytes; i += 4096) stack[i] = 0;
}

int ht_rt_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0) == 0 ? 0 : errno;
}

long ht_rt_rtprio_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_RTPRIO, &limit) != 0) return 0;
    return limit.rlim_cur == RLIM_INFINITY ? -1 : (long)limit.rlim_cur;
}
