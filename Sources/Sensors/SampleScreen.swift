import Geometry

/// Per-sample plausibility checks that catch what the bus does not report: frozen data registers, bytes
/// corrupted in transit, all-zero blocks. Works on scaled values; scaling is one-to-one, so "identical
/// values" means "identical raw bytes". No allocation: a few vectors of state.
public struct SampleScreen: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Identical accel+gyro samples in a row that make the data frozen. Sensor noise (tens of LSB on the
        /// accelerometer at ±4 g) makes even two identical 12-byte blocks in a row rare; a chip whose clock runs
        /// slightly slower than the loop hands over the same sample twice now and then, never 20 times
        /// (100 ms at 200 Hz).
        public var imuFrozenAfter = 20
        /// Identical magnetometer samples (each announced as new by the chip's data-ready bit) in a row.
        public var magnetometerFrozenAfter = 10
        /// Magnetometer polls in a row without a new measurement before it counts as stale (0.5 s at 100 Hz).
        public var magnetometerStaleAfter = 50
        /// Accelerometer norm below this (m/s²) is not a measurement: a chip mid-reset reads zeros.
        public var minimumAccel = 0.05 * Units.standardGravity
        /// Largest believable change between consecutive samples. A head moving on its own changes its
        /// acceleration by well under 0.5 g and its rate by well under 2 rad/s in 5 ms; a flipped high bit
        /// changes a reading by 2–4 g or 250–500 °/s at the default ranges.
        public var maxAccelStep = 1.5 * Units.standardGravity
        public var maxGyroStep = 3.5
        /// µT between consecutive magnetometer samples (the earth field is 25–65 µT).
        public var maxFieldStep = 150.0
        public init() {}

        /// Settings for a sample rate: the gyro step allows 700 rad/s² of angular acceleration, so a slower
        /// loop does not reject real motion.
        public init(imuRateHz: Double) {
            self.init()
            maxGyroStep = max(3.5, 700 / max(imuRateHz, 1))
        }
    }

    public let settings: Settings
    private var lastAccel: Vector3? = nil
    private var lastGyro = Vector3.zero
    private var previousAccel = Vector3.zero
    private var previousGyro = Vector3.zero
    private var previousRejected = false
    private var identicalIMU = 0
    private var lastField: Vector3? = nil
    private var previousField = Vector3.zero
    private var previousFieldRejected = false
    private var identicalField = 0
    private var pollsWithoutField = 0

    public init(settings: Settings = Settings()) { self.settings = settings }

    /// Forgets history, after a read failure or a re-initialisation: the next sample is not compared with
    /// one taken before the gap.
    public mutating func forgetIMU() {
        lastAccel = nil
        previousRejected = false
        identicalIMU = 0
    }

    public mutating func forgetMagnetometer() {
        lastField = nil
        previousFieldRejected = false
        identicalField = 0
        pollsWithoutField = 0
    }

    /// Throws when the sample must not reach the filter.
    public mutating func check(_ s: ImuSample) throws(SensorError) {
        guard s.accel.isFinite, s.gyro.isFinite else { throw .implausibleData("non-finite accelerometer or gyroscope value") }
        let repeated = lastAccel != nil && s.accel == previousAccel && s.gyro == previousGyro
        identicalIMU = repeated ? identicalIMU + 1 : 0
        defer { previousAccel = s.accel; previousGyro = s.gyro }
        if identicalIMU + 1 >= settings.imuFrozenAfter {
            throw .frozenData("accelerometer and gyroscope returned identical values \(identicalIMU + 1) times in a row")
        }
        let norm = s.accel.length
        guard norm >= settings.minimumAccel else {
            throw .implausibleData("accelerometer reads \(norm) m/s² (all zero?)")
        }
        guard let last = lastAccel else {
            lastAccel = s.accel; lastGyro = s.gyro; previousRejected = false
            return
        }
        func close(_ a: Vector3, _ g: Vector3) -> Bool {
            (s.accel - a).length <= settings.maxAccelStep && (s.gyro - g).length <= settings.maxGyroStep
        }
        // Accept what is close to the last accepted sample, or what agrees with the previous (rejected) one:
        // two samples in a row at a new level are a real change, not a corrupted byte.
        if close(last, lastGyro) || (previousRejected && close(previousAccel, previousGyro)) {
            lastAccel = s.accel; lastGyro = s.gyro; previousRejected = false
            return
        }
        previousRejected = true
        throw .corruptedSample("accelerometer moved \(rounded((s.accel - last).length)) m/s², gyroscope \(rounded((s.gyro - lastGyro).length)) rad/s in one sample")
    }

    /// Call for every magnetometer poll: nil when no new measurement was ready.
    public mutating func check(_ m: MagSample?) throws(SensorError) {
        guard let m else {
            pollsWithoutField += 1
            if pollsWithoutField >= settings.magnetometerStaleAfter {
                throw .frozenData("the magnetometer has announced no new measurement in \(pollsWithoutField) reads")
            }
            return
        }
        pollsWithoutField = 0
        guard m.field.isFinite else { throw .implausibleData("non-finite magnetometer value") }
        let repeated = lastField != nil && m.field == previousField
        identicalField = repeated ? identicalField + 1 : 0
        defer { previousField = m.field }
        if identicalField + 1 >= settings.magnetometerFrozenAfter {
            throw .frozenData("the magnetometer returned identical values \(identicalField + 1) times in a row")
        }
        guard let last = lastField else { lastField = m.field; return }
        if (m.field - last).length <= settings.maxFieldStep
            || (previousFieldRejected && (m.field - previousField).length <= settings.maxFieldStep) {
            lastField = m.field; previousFieldRejected = false
            return
        }
        previousFieldRejected = true
        throw .corruptedSample("magnetic field moved \(rounded((m.field - last).length)) µT in one sample")
    }

    private func rounded(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
