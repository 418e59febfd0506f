import Geometry
/// Everything `headtrack calibrate` learns about one sensor board, applied to raw SI samples before fusion.
/// Stored as versioned JSON by `CalibrationStore` (Runtime).
public struct Calibration: Sendable, Equatable, Codable {
    /// Format version of the stored file; bump when a field's meaning changes.
    public static let currentVersion = 1

    public var version: Int
    /// Gyro zero-rate offset (rad/s, sensor frame), subtracted from every gyro sample.
    public var gyroBias: Vector3
    /// Magnetometer hard and soft iron (sensor frame, µT).
    public var magnetometer: MagnetometerCorrection
    /// Quality of the magnetometer fit when it was made, for `headtrack calibrate --show` and the logs.
    public var magnetometerFit: FitQuality?
    /// When it was made (seconds since 1970, UTC), if the maker knew.
    public var createdUnixTime: Double?

    public struct FitQuality: Sendable, Equatable, Codable {
        public var fieldStrength: Double
        public var relativeResidual: Double
        public var coverage: Double
        public var samples: Int
        public init(fieldStrength: Double, relativeResidual: Double, coverage: Double, samples: Int) {
            self.fieldStrength = fieldStrength; self.relativeResidual = relativeResidual
            self.coverage = coverage; self.samples = samples
        }
    }

    public init(gyroBias: Vector3 = .zero, magnetometer: MagnetometerCorrection = .identity,
                magnetometerFit: FitQuality? = nil, createdUnixTime: Double? = nil) {
        version = Calibration.currentVersion
        self.gyroBias = gyroBias; self.magnetometer = magnetometer
        self.magnetometerFit = magnetometerFit; self.createdUnixTime = createdUnixTime
    }

    /// No correction at all.
    public static let none = Calibration()

    // Forced inline: they run on every sample, and a call out of line copied the whole Calibration (with
    // its fit quality) onto the stack to pass it, a memcpy per magnetometer sample.
    @inlinable @inline(__always) public func correctGyro(_ raw: Vector3) -> Vector3 { raw - gyroBias }
    @inlinable @inline(__always) public func correctMagnetometer(_ raw: Vector3) -> Vector3 { magnetometer.apply(raw) }
}

/// Gyro bias from a still period: the mean gyro reading, accepted only if the sensor really was still.
public struct GyroRestCalibration: Sendable {
    /// Largest gyro standard deviation (rad/s) accepted as "still": MPU-class gyro noise is about 0.1 °/s RMS,
    /// a hand-held or worn sensor trembles by more than 0.5 °/s.
    public var maximumGyroDeviation = 0.5 * Units.radiansPerDegree
    /// Largest accelerometer standard deviation (m/s²) accepted as "still".
    public var maximumAccelDeviation = 0.1

    private var count = 0
    private var gyroMean = Vector3.zero
    private var gyroSquares = Vector3.zero
    private var accelMean = Vector3.zero
    private var accelSquares = Vector3.zero

    public init() {}

    public var samples: Int { count }

    /// Adds one sample (Welford's running mean and variance, stable for long runs).
    public mutating func add(gyro: Vector3, accel: Vector3) {
        count += 1
        let n = Double(count)
        let dg = gyro - gyroMean
        gyroMean += dg / n
        gyroSquares += dg * (gyro - gyroMean)
        let da = accel - accelMean
        accelMean += da / n
        accelSquares += da * (accel - accelMean)
    }

    public var gyroDeviation: Double { count > 1 ? (gyroSquares.sum() / Double(count - 1)).squareRoot() : .infinity }
    public var accelDeviation: Double { count > 1 ? (accelSquares.sum() / Double(count - 1)).squareRoot() : .infinity }
    public var isStill: Bool { gyroDeviation <= maximumGyroDeviation && accelDeviation <= maximumAccelDeviation }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooFewSamples(Int)
        case moved(gyroDegreesPerSecond: Double, accel: Double)
        public var description: String {
            switch self {
            case let .tooFewSamples(n):
                return "only \(n) samples at rest: keep the headset still on a table for the whole countdown"
            case let .moved(g, a):
                return "the headset moved (gyro spread \(Int((g * 100).rounded()) / 100) °/s, accelerometer \(Int((a * 1000).rounded()) / 1000) m/s²): put it down on a table, don't touch it, and try again"
            }
        }
    }

    /// The bias, if the period was long and still enough.
    public func bias(minimumSamples: Int = 100) throws(Failure) -> Vector3 {
        guard count >= minimumSamples else { throw .tooFewSamples(count) }
        guard isStill else { throw .moved(gyroDegreesPerSecond: gyroDeviation * Units.degreesPerRadian, accel: accelDeviation) }
        return gyroMean
    }
}
