import LibC

/// Time in nanoseconds on a monotonic clock.
public typealias Nanoseconds = Int64

/// A monotonic clock that can sleep until an absolute deadline. The loop keeps time with absolute deadlines
/// so scheduling hiccups never accumulate into drift.
public protocol MonotonicClock {
    mutating func now() -> Nanoseconds
    /// Sleeps until `deadline` (absolute). Returns at once if the deadline has passed.
    mutating func sleep(until deadline: Nanoseconds)
}

/// CLOCK_MONOTONIC with clock_nanosleep(TIMER_ABSTIME). An absolute sleep interrupted by a signal is simply
/// restarted with the same deadline (it is never restarted by the kernel, whatever SA_RESTART says).
public struct LinuxMonotonicClock: MonotonicClock {
    public init() {}

    public func now() -> Nanoseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Nanoseconds(ts.tv_sec) * 1_000_000_000 + Nanoseconds(ts.tv_nsec)
    }

    public func sleep(until deadline: Nanoseconds) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
