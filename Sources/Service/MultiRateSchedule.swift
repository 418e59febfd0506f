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

    /// What one wake-up fired: which stages (by index), and the deadline each was due at. Held inline, so
    /// firing allocates nothing.
    public struct Firing: Sendable {
        public fileprivate(set) var mask: UInt32 = 0
        private var due: (Nanoseconds, Nanoseconds, Nanoseconds, Nanoseconds) = (0, 0, 0, 0)

        public func fired(_ stage: Int) -> Bool { mask & (1 << UInt32(stage)) != 0 }

        /// The deadline stage `stage` was due at (meaningful when it fired).
        public func dueTime(_ stage: Int) -> Nanoseconds {
            switch stage {
            case 0: return due.0
            case 1: return due.1
            case 2: return due.2
            default: return due.3
            }
        }

        fileprivate mutating func record(_ stage: Int, due time: Nanoseconds) {
            mask |= 1 << UInt32(stage)
            switch stage {
            case 0: due.0 = time
            case 1: due.1 = time
            case 2: due.2 = time
            default: due.3 = time
            }
        }
    }

    /// The most stages one schedule holds (what `Firing` keeps inline).
    public static let maxStages = 4

    public private(set) var stages: [Stage]

    /// `periods` in nanoseconds, at most `maxStages`; all stages start at `origin`.
    public init(periods: [Nanoseconds], origin: Nanoseconds) {
        precondition(periods.count <= MultiRateSchedule.maxStages, "MultiRateSchedule holds at most \(MultiRateSchedule.maxStages) stages")
        stages = periods.map { Stage(period: $0, next: origin) }
    }

    /// The earliest pending deadline.
    public var nextDeadline: Nanoseconds {
        var m = Nanoseconds.max
        for s in stages where s.next < m { m = s.next }
        return m
    }

    /// Marks every stage whose deadline is ≤ `now` as fired, with the deadline it was due at. Late stages skip
    /// whole missed periods.
    public mutating func fire(now: Nanoseconds) -> Firing {
        var firing = Firing()
        for i in stages.indices where stages[i].next <= now {
            let due = stages[i].next
            firing.record(i, due: due)
            stages[i].fired += 1
            var next = due + stages[i].period
            if next <= now {
                let missed = (now - next) / stages[i].period + 1
                stages[i].skipped += missed
                next += missed * stages[i].period
            }
            stages[i].next = next
        }
        return firing
    }
}
