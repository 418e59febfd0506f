import Hardware
import Formats

/// One absolute-deadline schedule for several stages with their own periods (IMU, magnetometer, display).
/// Deadlines advance by whole periods from a fixed origin, so they never drift. When the loop wakes too late
/// to serve a deadline before the next one is due, the missed periods are skipped and counted (never served
/// in a burst: a burst would feed stale, bunched samples into the filter).
public struct MultiRateSchedule: Sendable {
    public struct Stage: Sendable {
        public let period: Nanoseconds
        public fileprivate(set) var next: Nanoseconds
        public fileprivate(set) var fired: Int64 = 0
        public fileprivate(set) var skipped: Int64 = 0
    }

    public private(set) var stages: [Stage]

    /// `periods` in nanoseconds; all stages start at `origin`.
    public init(periods: [Nanoseconds], origin: Nanoseconds) {
        stages = periods.map { Stage(period: $0, next: origin) }
    }

    /// The earliest pending deadline.
    public var nextDeadline: Nanoseconds {
        var m = Nanoseconds.max
        for s in stages where s.next < m { m = s.next }
        return m
    }

    /// Marks every stage whose deadline is ≤ `now` as fired (bit i of the result = stage i) and returns the
    /// deadline each fired stage was due at via `dueTimes`. Late stages skip whole missed periods.
    public mutating func fire(now: Nanoseconds, dueTimes: inout (Nanoseconds, Nanoseconds, Nanoseconds, Nanoseconds)) -> UInt32 {
        var mask: UInt32 = 0
        for i in stages.indices where stages[i].next <= now {
            let due = stages[i].next
            switch i {
            case 0: dueTimes.0 = due
            case 1: dueTimes.1 = due
            case 2: dueTimes.2 = due
            default: dueTimes.3 = due
            }
            mask |= 1 << UInt32(i)
            stages[i].fired += 1
            var next = due + stages[i].period
            if next <= now {
                let missed = (now - next) / stages[i].period + 1
                stages[i].skipped += missed
                next += missed * stages[i].period
            }
            stages[i].next = next
        }
        return mask
    }
}
