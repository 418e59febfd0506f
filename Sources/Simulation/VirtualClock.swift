import Hardware

/// Simulated time. `sleep(until:)` jumps straight to the deadline, so a 24 s story runs in milliseconds;
/// with `speed` set, it also waits real time (deadline / speed) so a person can watch.
/// A class because the simulated bus and GPIO read the same time the loop advances.
public final class VirtualClock: MonotonicClock {
    public private(set) var nanoseconds: Nanoseconds
    /// nil: as fast as possible; N: N× real time.
    public var speed: Double?
    private var real = LinuxMonotonicClock()
    private var realStart: Nanoseconds = 0
    private var simulatedStart: Nanoseconds = 0

    public init(start: Nanoseconds = 0, speed: Double? = nil) {
        nanoseconds = start
        self.speed = speed
        realStart = real.now()
        simulatedStart = start
    }

    public var seconds: Double { Double(nanoseconds) * 1e-9 }

    public func now() -> Nanoseconds { nanoseconds }

    public func sleep(until deadline: Nanoseconds) {
        if deadline > nanoseconds { nanoseconds = deadline }
        if let s = speed, s > 0 {
            real.sleep(until: VirtualClock.saturating(realStart, plus: Double(deadline - simulatedStart) / s))
        }
    }

    /// Moves time forward by `seconds` (used by drivers' set-up delays).
    public func advance(seconds: Double) {
        sleep(until: VirtualClock.saturating(nanoseconds, plus: seconds * 1e9))
    }

    /// `base + offset` nanoseconds, clamped to the Int64 range: a tiny speed (1e-15) makes the real offset
    /// astronomically large, and converting it to Int64 used to trap.
    static func saturating(_ base: Nanoseconds, plus offset: Double) -> Nanoseconds {
        guard !offset.isNaN else { return base }
        guard abs(offset) < 9.0e18 else { return offset > 0 ? .max : .min }
        let (sum, overflow) = base.addingReportingOverflow(Nanoseconds(offset))
        return overflow ? (offset > 0 ? .max : .min) : sum
    }
}
