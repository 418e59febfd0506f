#define _GNU_SOURCE
#include "CBench.h"
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t ht_reference_loop(int64_t period_ns, int64_t wakeups, int64_t *lateness_ns) {
    int64_t skipped = 0;
    int64_t next = now_ns() + period_ns;
    for (int64_t i = 0; i < wakeups; i++) {
        struct timespec ts = { .tv_sec = next / 1000000000, .tv_nsec = next % 1000000000 };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {}
        int64_t now = now_ns();
        lateness_ns[i] = now - next;
        next += period_ns;
        if (next <= now) {
            int64_t missed = (now - next) / period_ns + 1;
            skipped += missed;
            next += missed * period_ns;
        }
    }
    return skipped;
}

long ht_peak_rss_kib(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return usage.ru_maxrss;
}

/// VmHWM (peak RSS of the process's own address space) from /proc/PID/status, in KiB; -1 if unreadable.
static long vm_hwm_kib(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) { kib = strtol(line + 6, NULL, 10); break; }
    }
    fclose(f);
    return kib;
}

int ht_run_child_measuring_rss(const char *path, char *const argv[], long *peak_rss_kib) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid;
    int r = posix_spawn(&pid, path, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (r != 0) return -r;
    // Not wait4's ru_maxrss: at exec the kernel folds the parent's high-water mark into the child's
    // (exec_mmap), so a large parent inflates it. VmHWM belongs to the child's own address space; it only
    // grows, so the last reading before the exit is the peak (polled every millisecond).
    long peak = -1;
    int status = 0;
    for (;;) {
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid) break;
        if (done < 0 && errno != EINTR) return -errno;
        long hwm = vm_hwm_kib(pid);
        if (hwm > peak) peak = hwm;
        struct timespec pause = { .tv_sec = 0, .tv_nsec = 1000000 };
        nanosleep(&pause, NULL);
    }
    if (peak_rss_kib) *peak_rss_kib = peak;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
