import CBench
import Hardware
import Service
import Sensors
import SimulatedRuns
import Simulation

/// Wake-up lateness at one rate, three loops side by side in the same thread, taking turns of 50 ms (the
/// order rotating each round) so all see the same background load. 50 ms holds several display ticks, so
/// each turn of the whole loop has its full mix of stages (its first, immediate iteration is not counted).
/// - the C reference (`ht_reference_loop`: clock_nanosleep TIMER_ABSTIME, nothing else);
/// - the Swift scheduler in the same shape (`MultiRateSchedule` + `LinuxMonotonicClock`, nothing else);
/// - the whole loop (`TrackerLoop` on the simulated board paced by CLOCK_MONOTONIC), which also does a
///   wake-up's work (simulated chip, pipeline, LEDs) and wakes for the 60 Hz display stage too.
public struct LatenessComparison: Sendable {
    public struct Side: Sendable {
        public var wakeUps: Int64 = 0
        public var p50: Int64 = 0
        public var p99: Int64 = 0
        public var p999: Int64 = 0
        public var max: Int64 = 0
        public var skipped: Int64 = 0

        init(_ h: TimingHistogram, skipped: Int64) {
            wakeUps = h.count
            p50 = h.percentile(0.5)
            p99 = h.percentile(0.99)
            p999 = h.percentile(0.999)
            max = h.maximum
            self.skipped = skipped
        }
    }

    public var rateHz: Double
    public var c: Side
    public var scheduler: Side
    public var loop: Side
    /// Swift scheduler p99 / C p99: the like-for-like comparison.
    public var ratioP99: Double { Double(scheduler.p99) / Double(Swift.max(1, c.p99)) }
    /// Whole loop p99 / C p99.
    public var loopRatioP99: Double { Double(loop.p99) / Double(Swift.max(1, c.p99)) }
    /// The noise floor of this run: p99 of the C loop's odd turns over that of its even turns. Two halves of
    /// the same code differ by this much; a Swift/C ratio inside the same spread is no difference.
    public var cSplitHalfRatioP99: Double

    /// `seconds` of each loop at `rateHz`, in turns of `turnSeconds`.
    public static func measure(rateHz: Double, seconds: Double, turnSeconds: Double = 0.05) throws(SensorError) -> LatenessComparison {
        let chunks = Swift.max(1, Int((seconds / turnSeconds).rounded()))
        var options = SimulatedLoopOptions()
        options.config.rates.imuHz = rateHz
        let board = SimulatedLoop.board(options, busTime: false)
        var trackerLoop = try SimulatedLoop.make(board: board, clock: PacedClock(driving: board.clock), options: options)
        let period = Int64((1e9 / rateHz).rounded())
        let wakeUpsPerChunk = Swift.max(1, Int64(seconds * rateHz) / Int64(chunks))
        var buffer = [Int64](repeating: 0, count: Int(wakeUpsPerChunk))
        var cHistogram = TimingHistogram()
        var cHalves = (TimingHistogram(), TimingHistogram())
        var schedulerHistogram = TimingHistogram()
        var cSkipped: Int64 = 0, schedulerSkipped: Int64 = 0, loopSkipped: Int64 = 0
        for round in 0..<chunks {
            for turn in 0..<3 {
                switch (round + turn) % 3 {
                case 0:
                    buffer.withUnsafeMutableBufferPointer { b in
                        cSkipped += ht_reference_loop(period, wakeUpsPerChunk, b.baseAddress)
                        cHistogram.record(UnsafeBufferPointer(b))
                        if round % 2 == 0 { cHalves.0.record(UnsafeBufferPointer(b)) } else { cHalves.1.record(UnsafeBufferPointer(b)) }
                    }
                case 1:
                    schedulerSkipped += schedulerChunk(period: period, wakeUps: wakeUpsPerChunk, into: &schedulerHistogram)
                default:
                    trackerLoop.run(duration: Double(wakeUpsPerChunk) / rateHz, shouldStop: { false }, observer: { _, _ in })
                    loopSkipped += Int64(trackerLoop.faults.overruns)
                }
            }
        }
        return LatenessComparison(rateHz: rateHz, c: Side(cHistogram, skipped: cSkipped),
                                  scheduler: Side(schedulerHistogram, skipped: schedulerSkipped),
                                  loop: Side(trackerLoop.timing.wakeLateness, skipped: loopSkipped),
                                  cSplitHalfRatioP99: Double(cHalves.1.percentile(0.99)) / Double(Swift.max(1, cHalves.0.percentile(0.99))))
    }

    /// The C reference loop's shape in Swift, with the production scheduler and clock.
    static func schedulerChunk(period: Nanoseconds, wakeUps: Int64, into histogram: inout TimingHistogram) -> Int64 {
        let clock = LinuxMonotonicClock()
        var schedule = MultiRateSchedule(periods: [period], origin: clock.now() + period)
        for _ in 0..<wakeUps {
            let deadline = schedule.nextDeadline
            clock.sleep(until: deadline)
            let now = clock.now()
            histogram.record(now - deadline)
            _ = schedule.fire(now: now)
        }
        return schedule.stages[0].skipped
    }
}
