import Hardware

/// Real time (CLOCK_MONOTONIC, absolute sleeps) that also drives a simulated board's clock, so the real loop
/// runs on the simulated board at real speed and its wake-up lateness is the real scheduler's. The
/// simulation clock follows real time since the pacing began; it never goes backwards.
public struct PacedClock: MonotonicClock {
    public let simulation: VirtualClock
    private var real = LinuxMonotonicClock()
    /// Real time minus simulation time.
    private let offset: Nanoseconds

    public init(driving simulation: VirtualClock) {
        self.simulation = simulation
        offset = real.now() - simulation.now()
    }

    public mutating func now() -> Nanoseconds {
        let t = real.now() - offset
        simulation.sleep(until: t)
        return t
    }

    public mutating func sleep(until deadline: Nanoseconds) {
        real.sleep(until: deadline + offset)
        _ = now()
    }
}
