import Geometry
import Gestures
import Hardware
import Sensors
import Tracking
import Formats

/// Where IMU samples come from.
public enum ImuReadout: String, Sendable, CaseIterable {
    /// One 14-byte register read per loop deadline, stamped with the deadline (works with any bus, including
    /// i2c-stub, which has no FIFO).
    case polling
    /// The chip samples on its own clock into its FIFO; each wake-up drains it and every sample is stamped
    /// from the sensor's sample period (`FifoSampleClock`), so late wake-ups lose neither samples nor timing.
    /// MPU-6050/6500/9250 family only; the loop falls back to polling for other chips.
    case fifo
}

/// The loop's stages, by their index in the loop's schedule. (A wake-up serves them as health check,
/// magnetometer, IMU, display: a chip is checked before it is read, the field before the sample that uses it.)
public enum LoopStage: Int, CaseIterable, Sendable {
    case imu, magnetometer, display, healthCheck
}

/// What the loop reports to its observer. Plain values: reporting allocates nothing.
public enum LoopEvent {
    case imu(t: Double, sample: ImuSample, mag: Vector3?)
    /// A gesture the sample completed, with its details (`ReportedGesture.t` is the sample's time).
    case gesture(ReportedGesture)
    case display(t: Double, leds: UInt64)
    case fault(t: Double, error: SensorError)
    case reinitialized(t: Double)
}

/// The fixed-rate loop: sleeps to absolute deadlines on one multi-rate schedule and runs, at each, the stages
/// that are due: magnetometer read (100 Hz), IMU read + fusion + gestures (200 Hz), display + LEDs (60 Hz),
/// chip health check (10 Hz). Samples are stamped with their scheduled time, not the wake-up time, so
/// scheduling jitter never reaches the filter. Generic over bus, lines and clock: the same code runs on the
/// board and on the simulated board, with no existential dispatch per sample.
///
/// A sample that cannot be read (bus error, frozen or corrupted data) is reported as a `.fault` event at its
/// scheduled time and never reaches the pipeline. After a fault, the chip's configuration is read back before
/// its next read, so a chip that came back from a power loss is re-initialised at once.
public struct TrackerLoop<Bus: I2CBus, Lines: OutputLines, Clock: MonotonicClock> {
    /// The board's IMU and magnetometer drivers.
    public var driver: SensorBoard<Bus>
    public var lines: Lines
    public var clock: Clock
    public var pipeline: Pipeline
    public let rates: LoopRates
    public private(set) var faults = FaultCounters()
    public private(set) var imuSamples: Int64 = 0
    public private(set) var schedule: MultiRateSchedule
    /// Seconds a fault keeps the status LED in its fault pattern, so even a one-sample glitch is seen.
    public var faultHold = 0.5
    /// Polling (default) or FIFO readout; set before `start`. `start` falls back to polling, saying why in
    /// `readoutNote`, for a chip without a supported FIFO.
    public var readout: ImuReadout = .polling
    public private(set) var readoutNote: String? = nil
    /// At most this many FIFO samples are taken per wake-up; the rest wait (bounds one wake-up's bus time).
    public var maxFIFOSamplesPerWake = 16
    /// Whether a client of the event stream has a question pending: asked after every display tick's observer
    /// (where the stream reads its clients' requests), and the pipeline listens for a single nod or shake while
    /// it is true. A stored closure, called once per display tick: nothing allocates per sample.
    public var questionPending: () -> Bool = { false }
    /// Wake-up lateness and time per stage (LoopTiming.swift).
    public private(set) var timing = LoopTiming()
    /// The FIFO readout (Sensors/FIFOReader.swift) when `readout` is `.fifo`.
    public private(set) var fifoReader: FIFOReader? = nil
    /// The sensor-clock time line of the FIFO readout, and how often the FIFO overflowed and was reset.
    public var fifoClock: FifoSampleClock { fifoReader?.clock ?? FifoSampleClock(period: 1, firstSampleAt: 0) }
    public var fifoOverflows: Int { fifoReader?.overflows ?? 0 }
    /// Real time at the last stage boundary: one clock read ends a stage and starts the next.
    private var stageMark: Nanoseconds = 0
    private var lastFaultTime = -Double.infinity
    private var imuCheckPending = false
    private var magnetometerCheckPending = false
    private var pendingMag: Vector3? = nil
    private var lastDisplay = -Double.infinity
    private var origin: Nanoseconds = 0

    public init(driver: SensorBoard<Bus>, lines: Lines, clock: Clock, pipeline: Pipeline, rates: LoopRates = LoopRates()) {
        self.driver = driver
        self.lines = lines
        self.clock = clock
        self.pipeline = pipeline
        self.rates = rates
        schedule = MultiRateSchedule(periods: [], origin: 0)
    }

    public func faultActive(at t: Double) -> Bool { t - lastFaultTime < faultHold }

    /// Brings the sensors up (blocking set-up waits are fine here, before the loop starts).
    public mutating func start() throws(SensorError) {
        var c = clock
        try driver.initialize(delay: { s in c.sleep(until: c.now() + Nanoseconds(s * 1e9)) })
        if readout == .fifo {
            fifoReader = FIFOReader(imu: driver.imu)
            if fifoReader == nil {
                readout = .polling
                readoutNote = "\(driver.imu.kind.displayName) has no FIFO readout here: polling its data registers instead"
            } else {
                try fifoReader!.start(board: &driver, clock: &clock)
            }
        }
    }

    /// Runs until `duration` seconds have passed (nil: forever) or `shouldStop` returns true.
    public mutating func run(duration: Double?, shouldStop: () -> Bool, observer: (LoopEvent, Pipeline) -> Void) {
        origin = clock.now()
        func period(_ hz: Double) -> Nanoseconds { Nanoseconds((1e9 / hz).rounded()) }
        schedule = MultiRateSchedule(periods: LoopStage.allCases.map { stage in
            switch stage {
            case .imu: return period(rates.imuHz)
            case .magnetometer: return period(driver.hasMagnetometer ? rates.magHz : 1e-3)
            case .display: return period(rates.displayHz)
            case .healthCheck: return period(rates.healthCheckHz)
            }
        }, origin: origin)
        let end = duration.map { origin + Nanoseconds($0 * 1e9) } ?? Nanoseconds.max
        var slept = false  // the first iteration runs at once (deadline = origin): not a wake-up
        while !shouldStop() {
            let deadline = schedule.nextDeadline
            if deadline >= end { break }
            clock.sleep(until: deadline)
            let now = clock.now()
            stageMark = StageClock.now()
            let wake = stageMark
            if slept { timing.wakeLateness.record(now - deadline) }
            slept = true
            let firing = schedule.fire(now: now)
            // A chip just re-initialised (or failing its check) is not read in the same wake-up: its data
            // registers still hold a sample taken with the reset configuration.
            var imuReady = true
            if let t = due(.healthCheck, firing) {
                if !imuCheckPending { imuReady = checkIMU(t: t, observer: observer) }
                if driver.hasMagnetometer && !magnetometerCheckPending { _ = checkMagnetometer(t: t, observer: observer) }
                timing.healthCheck.record(lap())
            }
            if let t = due(.magnetometer, firing), driver.hasMagnetometer {
                readMagnetometer(t: t, observer: observer)
                timing.magnetometerRead.record(lap())
            }
            if let t = due(.imu, firing), imuReady { readIMU(t: t, observer: observer) }
            if let t = due(.display, firing) {
                display(t: t, observer: observer)
                timing.display.record(lap())
            }
            timing.tick.record(stageMark - wake)
        }
        faults.overruns = Int(schedule.stages.reduce(0) { $0 + $1.skipped })
    }

    /// Turns every LED off (on exit).
    public mutating func ledsOff() { try? lines.set(0) }

    private func seconds(_ ns: Nanoseconds) -> Double { Double(ns - origin) * 1e-9 }

    /// The loop time (s) `stage` was due at when it fired in `firing`, else nil.
    private func due(_ stage: LoopStage, _ firing: MultiRateSchedule.Firing) -> Double? {
        firing.fired(stage.rawValue) ? seconds(firing.dueTime(stage.rawValue)) : nil
    }

    /// Real time since the last stage boundary, which moves here.
    private mutating func lap() -> Nanoseconds {
        let now = StageClock.now()
        defer { stageMark = now }
        return now - stageMark
    }

    // MARK: Stages

    private mutating func readIMU(t: Double, observer: (LoopEvent, Pipeline) -> Void) {
        // After a fault, first make sure the chip still holds its configuration (or re-initialise it).
        if imuCheckPending && !checkIMU(t: t, observer: observer) { return }
        if readout == .fifo { drainFIFO(observer: observer); return }
        let sample: ImuSample
        do {
            // Screened by the board: all-zero, non-finite, frozen and corrupted samples throw.
            sample = try driver.readIMU()
        } catch {
            fault(error, t: t, imu: true, observer: observer)
            return
        }
        timing.imuRead.record(lap())
        accept(sample, t: t, observer: observer)
    }

    /// Runs one screened sample through the pipeline (timed as fusion+gestures, observer included).
    private mutating func accept(_ sample: ImuSample, t: Double, observer: (LoopEvent, Pipeline) -> Void) {
        imuSamples += 1
        let mag = pendingMag
        pendingMag = nil
        observer(.imu(t: t, sample: sample, mag: mag), pipeline)
        if let g = pipeline.processIMU(t: t, accel: sample.accel, gyro: sample.gyro, mag: mag) {
            observer(.gesture(g), pipeline)
        }
        timing.fusionAndGestures.record(lap())
    }

    private mutating func readMagnetometer(t: Double, observer: (LoopEvent, Pipeline) -> Void) {
        if (magnetometerCheckPending || driver.magnetometerNeedsInitialize) && !checkMagnetometer(t: t, observer: observer) {
            return
        }
        do {
            if let m = try driver.readMagnetometer() {
                pendingMag = m.field
                if m.overrun { faults.magnetometerOverruns += 1 }  // counted; the field itself is valid
            }
        } catch {
            fault(error, t: t, imu: false, observer: observer)
        }
    }

    private mutating func display(t: Double, observer: (LoopEvent, Pipeline) -> Void) {
        let dt = lastDisplay.isFinite ? t - lastDisplay : 1 / rates.displayHz
        lastDisplay = t
        let mask = pipeline.displayTick(t: t, dt: dt, fault: faultActive(at: t))
        do { try lines.set(mask) } catch { /* an LED write failure must not stop tracking */ }
        observer(.display(t: t, leds: mask), pipeline)
        pipeline.listening = questionPending()
    }

    /// Reads back the IMU's configuration; a chip that lost power is re-initialised without a reset pulse (it
    /// has just been reset), so recovery takes milliseconds, not the 100 ms start-up wait. Returns whether
    /// the IMU may be read now (false: the check failed, or the chip was just re-initialised).
    private mutating func checkIMU(t: Double, observer: (LoopEvent, Pipeline) -> Void) -> Bool {
        imuCheckPending = false
        guard let reinitialized = recheck(imu: true, t: t, observer: observer) else { return false }
        guard reinitialized else { return true }
        faults.chipResets += 1
        lastFaultTime = t
        pipeline.reset()
        observer(.reinitialized(t: t), pipeline)
        fifoReader?.chipWasReset()  // the reset emptied and disabled the FIFO
        return false
    }

    /// The same for the magnetometer (also re-initialises one that lost power with the IMU's package).
    private mutating func checkMagnetometer(t: Double, observer: (LoopEvent, Pipeline) -> Void) -> Bool {
        magnetometerCheckPending = false
        let packageReset = driver.magnetometerNeedsInitialize
        guard let reinitialized = recheck(imu: false, t: t, observer: observer) else { return false }
        guard reinitialized else { return true }
        if !packageReset {  // a reset of the IMU's package was counted with the IMU
            faults.chipResets += 1
            lastFaultTime = t
            observer(.reinitialized(t: t), pipeline)
        }
        return false
    }

    /// The board's health check of the IMU or the magnetometer, its re-initialisation waits capped at 2 ms
    /// (it runs between deadlines). Whether the chip was re-initialised; nil when the check failed (a fault).
    private mutating func recheck(imu: Bool, t: Double, observer: (LoopEvent, Pipeline) -> Void) -> Bool? {
        var c = clock
        do {
            if imu { return try driver.checkIMU(delay: { s in c.sleep(until: c.now() + Nanoseconds(min(s, 0.002) * 1e9)) }) }
            return try driver.checkMagnetometer(delay: { s in c.sleep(until: c.now() + Nanoseconds(min(s, 0.002) * 1e9)) })
        } catch {
            fault(error, t: t, imu: imu, observer: observer)
            return nil
        }
    }

    private mutating func fault(_ error: SensorError, t: Double, imu: Bool, observer: (LoopEvent, Pipeline) -> Void) {
        faults.count(error)
        lastFaultTime = t
        if imu { imuCheckPending = true } else { magnetometerCheckPending = true }
        // An in-package magnetometer that stops answering may mean the IMU was reset (its bypass closed).
        if !imu, case .bus = error, driver.magnetometer?.kind.isInPackage == true { imuCheckPending = true }
        observer(.fault(t: t, error: error), pipeline)
    }

    // MARK: FIFO readout

    /// Drains the FIFO through the reader and runs the waiting samples through the pipeline with their
    /// sensor-clock stamps. `timing.imuRead` gets the bus time of the whole drain.
    private mutating func drainFIFO(observer: (LoopEvent, Pipeline) -> Void) {
        guard fifoReader != nil else { return }
        var busTime: Nanoseconds = 0
        defer { timing.imuRead.record(busTime + lap()) }
        fifoReader!.beginDrain(atMost: maxFIFOSamplesPerWake)
        while let reading = fifoReader!.next(board: &driver, clock: &clock) {
            switch reading {
            case .busDone: busTime += lap()
            case let .sample(sample, at): accept(sample, t: seconds(at), observer: observer)
            case let .fault(error, at): fault(error, t: seconds(at), imu: true, observer: observer)
            }
        }
    }
}
