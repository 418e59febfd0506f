// Bench-only C, linked into headtrack-lab and never into the daemon: the reference loop the Swift scheduler
// is compared with, and peak-RSS measurement of this process and of a child.
#ifndef HEADTRACK_CBENCH_H
#define HEADTRACK_CBENCH_H

#include <stdint.h>

/// The reference loop: sleeps to absolute deadlines `period_ns` apart on CLOCK_MONOTONIC with
/// clock_nanosleep(TIMER_ABSTIME) (EINTR: same deadline again), and stores in lateness_ns[i] how late
/// wake-up i came. The overrun policy is the Swift scheduler's: a deadline missed by a whole period is
/// skipped and counted, never served in a burst. Returns the number of skipped deadlines.
int64_t ht_reference_loop(int64_t period_ns, int64_t wakeups, int64_t *lateness_ns);

/// Peak resident set size of this process (getrusage ru_maxrss), in KiB.
long ht_peak_rss_kib(void);
/// Runs `path` with `argv` (NULL-terminated), stdout/stderr to /dev/null, waits for it and reports its
/// peak RSS in KiB (its VmHWM, read while it runs). Returns the exit status (0..255), or -errno when it
/// could not be started.
int ht_run_child_measuring_rss(const char *path, char *const argv[], long *peak_rss_kib);

#endif
