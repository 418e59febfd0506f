import CAllocCounter
import Tracking
import Service
import Sensors
import SimulatedRuns
import Simulation

/// Allocations counted over a number of steps (wake-ups or samples) in steady state.
public struct AllocationTally: Sendable {
    public var allocations: Int64 = 0
    public var steps: Int64 = 0
    public var perStep: Double { Double(allocations) / Double(max(1, steps)) }
}

extension TrackerLoop {
    /// Heap allocations on this thread while the loop runs `duration` seconds, and its wake-ups. What one call
    /// of `run` allocates before its first iteration (its schedule) is measured with a zero-length run and
    /// taken off, so only the iterations count.
    mutating func countingAllocations(for duration: Double, observer: (LoopEvent, Pipeline) -> Void) -> AllocationTally {
        let setupStart = ht_alloc_thread_count()
        run(duration: 0, shouldStop: { false }, observer: observer)
        let setup = Int64(ht_alloc_thread_count() - setupStart)
        let iterationsBefore = timing.tick.count
        let start = ht_alloc_thread_count()
        run(duration: duration, shouldStop: { false }, observer: observer)
        return AllocationTally(allocations: Int64(ht_alloc_thread_count() - start) - setup,
                               steps: timing.tick.count - iterationsBefore)
    }
}

/// Heap allocations in steady state, counted by the interposed allocator (CAllocCounter) on this thread.
public struct AllocationCount: Sendable {
    /// False where the counter cannot interpose (musl static builds): the figures are then meaningless.
    public var counterAvailable: Bool
    /// The loop on the simulated board, per wake-up after a warm-up, and the IMU samples it read meanwhile.
    public var loop = AllocationTally()
    public var loopSamples: Int64 = 0
    /// Replay of the recording through the pipeline, per sample after a warm-up.
    public var replay = AllocationTally()
    /// The mount watch `run` feeds every raw sample (learning while worn), over the same recording.
    public var watch = AllocationTally()

    /// Loop: `warmUp` then `measured` seconds of simulated time at full speed (demo story: gestures, north
    /// LED, heartbeat all happen in the window). Replay and mount watch: the recording after its first
    /// `replayWarmUp` (a fraction of its samples).
    public static func measure(trace: BenchTrace, readout: ImuReadout = .polling, imuHz: Double = 200,
                               warmUp: Double = 5, measured: Double = 20,
                               replayWarmUp: Double = 0.1) throws(SensorError) -> AllocationCount {
        var result = AllocationCount(counterAvailable: ht_alloc_counting_available() != 0)

        var options = SimulatedLoopOptions()
        options.config.rates.imuHz = imuHz
        options.readout = readout
        let board = SimulatedLoop.board(options, busTime: true)
        var loop = try SimulatedLoop.make(board: board, clock: board.clock, options: options)
        loop.run(duration: warmUp, shouldStop: { false }, observer: { _, _ in })
        let samplesBefore = loop.imuSamples
        result.loop = loop.countingAllocations(for: measured) { _, _ in }
        result.loopSamples = loop.imuSamples - samplesBefore

        let records = trace.trace.records.count
        let warmUpSamples = Int(Double(records) * replayWarmUp)
        var replayStart: UInt64 = 0
        var replayEnd: UInt64 = 0
        Replay.run(trace.trace, settings: Pipeline.Settings()) { event, _ in
            if case let .sample(index, _) = event {
                if index == warmUpSamples { replayStart = ht_alloc_thread_count() }
                if index == records - 1 { replayEnd = ht_alloc_thread_count() }
            }
        }
        result.replay.allocations = Int64(replayEnd &- replayStart)
        result.replay.steps = Int64(records - 1 - warmUpSamples)

        // Configured with the identity, so every rest and nod series of the recording is judged too.
        var watch = WornMountWatch(configured: .identity)
        var findings = 0
        var watchStart: UInt64 = 0
        for (i, r) in trace.trace.records.enumerated() {
            if i == warmUpSamples { watchStart = ht_alloc_thread_count() }
            if watch.add(t: r.t, gyro: r.gyro, accel: r.accel) != nil { findings += 1 }
        }
        result.watch.allocations = Int64(ht_alloc_thread_count() &- watchStart)
        result.watch.steps = Int64(records - warmUpSamples)
        benchSink += Double(findings)
        return result
    }
}
