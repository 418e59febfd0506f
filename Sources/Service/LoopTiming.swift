import LibC
import Hardware
import Formats

/// Where the loop's time goes, stage by stage, plus how late it woke up. Filled by `TrackerLoop` with two
/// clock reads per stage into fixed histograms: cheap enough to stay on in production.
public struct LoopTiming: Sendable {
    /// Loop clock time at wake-up minus the deadline it slept to (ns). On a virtual clock this is 0 unless
    /// the simulated bus time pushed the loop past its deadline.
    public var wakeLateness = TimingHistogram()
    /// Per-stage CPU + bus time on the real monotonic clock (ns).
    public var imuRead = TimingHistogram()
    public var fusionAndGestures = TimingHistogram()
    public var magnetometerRead = TimingHistogram()
    public var display = TimingHistogram()
    public var healthCheck = TimingHistogram()
    /// Everything done in one wake-up, from wake to the next sleep.
    public var tick = TimingHistogram()

    public init() {}

    public var stages: [(name: String, histogram: TimingHistogram)] {
        [("wake lateness", wakeLateness), ("imu read", imuRead), ("fusion+gestures", fusionAndGestures),
         ("magnetometer read", magnetometerRead), ("display+LEDs", display), ("health check", healthCheck),
         ("whole tick", tick)]
    }
}

/// The real monotonic clock for stage timing, whatever clock paces the loop (a virtual clock in simulation
/// does not move while code runs).
public enum StageClock {
    @inline(__always)
    public static func now() -> Nanoseconds {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Nanoseconds(ts.tv_sec) &* 1_000_000_000 &+ Nanoseconds(ts.tv_nsec)
    }
}

extension LoopTiming {
    /// One line per measured stage: "name  p50 / p99 / max µs (n)", for the end-of-run log.
    public var summaryLines: [String] {
        stages.filter { $0.histogram.count > 0 }.map { s in
            let h = s.histogram
            func us(_ ns: Int64) -> String { fixed(Double(ns) / 1000, 1) }
            return "\(s.name): p50 \(us(h.percentile(0.5))) µs, p99 \(us(h.percentile(0.99))) µs, max \(us(h.maximum)) µs (\(h.count))"
        }
    }
}
