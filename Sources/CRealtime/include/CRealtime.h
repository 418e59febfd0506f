// Real-time helpers for the tracker loop (the daemon links these; the bench-only C is in CBench).
// Kept in C because the CPU-set macros and sched_setaffinity are not visible to Swift through Glibc.
#ifndef HEADTRACK_CREALTIME_H
#define HEADTRACK_CREALTIME_H

#include <stdint.h>

/// SCHED_FIFO at `priority` (1..99) for the calling thread only. Returns 0 or an errno value.
int ht_rt_set_fifo(int priority);
/// Back to SCHED_OTHER for the calling thread. Returns 0 or an errno value.
int ht_rt_set_normal(void);
/// The calling thread's policy (SCHED_OTHER = 0, SCHED_FIFO = 1, ...) and priority.
int ht_rt_current_policy(int *priority);
/// Pins the calling thread to one CPU. Returns 0 or an errno value.
int ht_rt_set_affinity(int cpu);
/// Number of CPUs this process may run on.
int ht_rt_allowed_cpus(void);
/// mlockall(MCL_CURRENT | MCL_FUTURE). Returns 0 or an errno value.
int ht_rt_lock_memory(void);
/// Touches `bytes` of stack so later deep calls do not page-fault on the loop thread.
void ht_rt_prefault_stack(uint32_t bytes);
/// Timer slack of the calling thread (prctl PR_SET_TIMERSLACK). Returns 0 or an errno value.
int ht_rt_set_timer_slack(unsigned long nanoseconds);
/// The RLIMIT_RTPRIO soft limit (-1 = unlimited).
long ht_rt_rtprio_limit(void);

#endif
