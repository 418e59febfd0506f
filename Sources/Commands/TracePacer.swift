import Hardware
import Tracking

/// Paces a recording on the real clock for a stream's clients: each call waits until its moment of trace
/// time, `speed` times faster than real time (0 = no waiting). A gap of more than `Replay.maxGap` is skipped,
/// as Replay's display ticks skip it: pacing from the first sample instead slept through the gap and, for a
/// trace spanning its full time range (±1e10 s), overflowed Nanoseconds (2e19 ns) and trapped.
struct TracePacer {
    let speed: Double
    private let clock = LinuxMonotonicClock()
    private let realStart: Nanoseconds
    private var pacedTraceTime = 0.0
    private var lastTick: Double

    init(firstTraceTime: Double, speed: Double = 1) {
        self.speed = speed
        realStart = clock.now()
        lastTick = firstTraceTime
    }

    mutating func wait(untilTraceTime t: Double) {
        pacedTraceTime += min(max(0, t - lastTick), Replay.maxGap)
        lastTick = t
        guard speed > 0 else { return }
        clock.sleep(until: realStart + Nanoseconds(pacedTraceTime / speed * 1e9))
    }
}
