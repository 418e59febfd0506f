import Hardware

/// The FIFO readout of a board's IMU, as the loop uses it: start the FIFO in step with the chip's sample
/// clock, then at each IMU deadline drain what waits, stamping every sample from the sensor's clock
/// (`FifoSampleClock`) and screening it like a polled one. It recovers by itself: an overflow or a broken
/// read resets the FIFO, a chip that was re-initialised or a FIFO that stopped filling starts it again.
///
/// The loop calls it like the polling read, one reading at a time (no closure, no allocation):
///
///     reader.beginDrain(atMost: 16)
///     while let reading = reader.next(board: &board, clock: &clock) { ... }
///
/// Readings come in bus order: `.busDone` after each transaction (the loop times bus work apart from the
/// pipeline), then the samples of that transaction, each `.sample` or a `.fault` (screening, bus error).
public struct FIFOReader: Sendable {
    public enum Reading: Sendable {
        case sample(ImuSample, at: Nanoseconds)
        case fault(SensorError, at: Nanoseconds)
        case busDone
    }

    public let fifo: InvenSenseFIFO
    /// The sensor-clock time line, and how often the FIFO overflowed and was reset.
    public private(set) var clock: FifoSampleClock
    public private(set) var overflows = 0
    private var resetPending = false
    private var restartPending = false
    /// Loop clock time of the last drain that found a sample, to notice a FIFO that stopped filling.
    private var lastSampleSeen: Nanoseconds = 0
    private enum Phase: Sendable { case idle, begin(Int), samples(remaining: Int) }
    private var phase = Phase.idle
    private var batch = FIFOSamples()
    private var index = 0

    /// nil for a chip without a supported FIFO (`IMUDevice.fifo`).
    public init?<Bus: I2CBus>(imu: IMUDevice<Bus>) {
        guard let f = imu.fifo else { return nil }
        fifo = f
        clock = FifoSampleClock(period: f.samplePeriod, firstSampleAt: 0)
    }

    /// Starts the chip's FIFO in step with its sample clock and begins a new sensor-clock time line.
    public mutating func start<Bus: I2CBus, C: MonotonicClock>(board: inout SensorBoard<Bus>, clock c: inout C) throws(SensorError) {
        let f = fifo
        var sleeper = c
        let first = try board.imu.withBus { (bus, address) throws(SensorError) in
            try f.start(bus: &bus, address: address, now: { sleeper.now() }, sleep: { sleeper.sleep(until: $0) })
        }
        clock = FifoSampleClock(period: f.samplePeriod, firstSampleAt: first)
        resetPending = false
        restartPending = false
        lastSampleSeen = c.now()
        board.forgetIMUHistory()
    }

    /// The chip was re-initialised (its reset emptied and disabled the FIFO): start it again at the next drain.
    public mutating func chipWasReset() { restartPending = true }

    /// Begins one drain of at most `maxSamples` samples (the rest wait: it bounds one wake-up's bus time).
    public mutating func beginDrain(atMost maxSamples: Int) { phase = .begin(maxSamples); index = 0; batch.count = 0 }

    /// The next reading of the drain begun by `beginDrain`, nil when it is over.
    public mutating func next<Bus: I2CBus, C: MonotonicClock>(board: inout SensorBoard<Bus>, clock c: inout C) -> Reading? {
        switch phase {
        case .idle:
            return nil
        case let .begin(maxSamples):
            phase = .idle
            return begin(maxSamples, board: &board, clock: &c)
        case let .samples(remaining):
            if index < batch.count {
                let sample = batch[index]
                index += 1
                let t = clock.stampNext()
                do { try board.screenIMU(sample) } catch { return .fault(error, at: t) }
                return .sample(sample, at: t)
            }
            guard remaining > 0 else { phase = .idle; return nil }
            let f = fifo
            do {
                batch = try board.imu.withBus { (bus, address) throws(SensorError) in
                    try f.readSamples(bus: &bus, address: address, frames: remaining)
                }
            } catch {
                // How many bytes left the FIFO is unknown now: realign with a reset on the next wake-up.
                resetPending = true
                phase = .idle
                return .fault(error, at: c.now())
            }
            index = 0
            phase = .samples(remaining: remaining - batch.count)
            return .busDone
        }
    }

    /// Restart or reset when one is pending; else reads the FIFO count, bounds the sensor time line with it and
    /// moves to the samples. Returns a fault, or nil with `phase` saying whether samples follow.
    private mutating func begin<Bus: I2CBus, C: MonotonicClock>(_ maxSamples: Int, board: inout SensorBoard<Bus>,
                                                                clock c: inout C) -> Reading? {
        if restartPending {
            do { try start(board: &board, clock: &c) } catch { return .fault(error, at: c.now()) }
            return nil
        }
        if resetPending { return reset(board: &board, clock: &c) }
        let f = fifo
        let before = c.now()
        let bytes: Int
        do { bytes = try board.imu.withBus { (bus, address) throws(SensorError) in try f.readCount(bus: &bus, address: address) } } catch {
            return .fault(error, at: before)
        }
        let after = c.now()
        if f.countShowsOverflow(bytes) {
            overflows += 1
            return reset(board: &board, clock: &c)
        }
        let available = bytes / InvenSenseFIFO.frameSize
        if available == 0 {
            // A FIFO that stays empty for 20 periods (and at least 100 ms) has stopped: start it again.
            if after - lastSampleSeen > max(20 * f.samplePeriod, 100_000_000) {
                lastSampleSeen = after
                restartPending = true
                return .fault(.frozenData("the IMU's FIFO received no sample in \(20 * f.samplePeriod / 1_000_000) ms"), at: after)
            }
            return nil
        }
        lastSampleSeen = after
        clock.observe(available: available, before: before, after: after)
        phase = .samples(remaining: min(available, maxSamples))
        return next(board: &board, clock: &c)
    }

    /// Empties the FIFO (after an overflow or a broken read) and moves the time line past the lost samples.
    private mutating func reset<Bus: I2CBus, C: MonotonicClock>(board: inout SensorBoard<Bus>, clock c: inout C) -> Reading? {
        let f = fifo
        do { try board.imu.withBus { (bus, address) throws(SensorError) in try f.reset(bus: &bus, address: address) } } catch {
            resetPending = true
            return .fault(error, at: c.now())
        }
        resetPending = false
        clock.restartAfterReset(at: c.now())
        board.forgetIMUHistory()
        return nil
    }
}
