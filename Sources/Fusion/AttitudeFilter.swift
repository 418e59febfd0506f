#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Attitude estimator: gyroscope integration corrected towards gravity (accelerometer) and towards magnetic
/// north (magnetometer, heading only). Complementary-filter class (Mahony-style), with gyro bias learned at rest.
///
/// Pure: time comes in as `dt`, no clock reads, no allocation. Settings (parameters) are kept apart from the
/// state, as VQF does, so a filter can be reset without losing its configuration.
public struct AttitudeFilter: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Time constant (s) of the pull towards the accelerometer's gravity direction. Long enough that head
        /// accelerations of a fraction of a second barely tilt the estimate, short enough to cancel gyro drift.
        public var accelTimeConstant: Double = 3.0
        /// Time constant (s) of the heading pull towards the magnetometer. Longer than the accelerometer's
        /// because indoor fields wander more than gravity does.
        public var magTimeConstant: Double = 9.0
        /// Accelerometer samples further than this from 1 g (m/s²) are not gravity and are ignored.
        public var accelRejection: Double = 1.5
        /// Rest: gyro norm below this (rad/s), sustained for `restTime`.
        public var restGyroThreshold: Double = 0.05
        /// Rest: accelerometer norm within this of 1 g (m/s²).
        public var restAccelThreshold: Double = 0.4
        /// How long the sensor must be still before its gyro reading is taken as bias (s).
        public var restTime: Double = 1.0
        /// Time constant (s) of the bias average while at rest.
        public var biasTimeConstant: Double = 3.0
        /// A field whose norm differs from the learned reference by more than this fraction is a disturbance.
        public var magNormTolerance: Double = 0.15
        /// A field whose dip angle differs from the learned reference by more than this (rad) is a disturbance.
        public var magDipTolerance: Double = 10 * Units.radiansPerDegree
        /// Use the magnetometer at all (9D) or not (6D).
        public var useMagnetometer: Bool = true

        public init() {}
        public static let `default` = Settings()
    }

    public let settings: Settings

    // MARK: State
    public private(set) var attitude: Quaternion = .identity
    public private(set) var isInitialized = false
    public private(set) var gyroBias: Vector3 = .zero
    public private(set) var isAtRest = false
    public private(set) var isMagneticallyDisturbed = false
    public private(set) var hasHeadingReference = false
    private var restDuration = 0.0
    private var magNormReference = 0.0
    private var magDipReference = 0.0
    private var lastAccel: Vector3 = .zero

    public init(settings: Settings = .default) {
        self.settings = settings
    }

    public mutating func reset() {
        self = AttitudeFilter(settings: settings)
    }

    /// One IMU sample. `mag` is nil when no new magnetometer sample arrived with this one (or there is none).
    /// Non-finite inputs are ignored, so a corrupt sample cannot poison the state.
    public mutating func update(gyro rawGyro: Vector3, accel: Vector3, mag: Vector3?, dt rawDt: Double) {
        guard rawGyro.isFinite, accel.isFinite, rawDt.isFinite else { return }
        let magSample = (settings.useMagnetometer && (mag?.isFinite ?? false) && (mag!.length > 0)) ? mag : nil
        // A dropped sample gives a long dt; integrate at most 100 ms of it so a stall cannot spin the estimate.
        let dt = Swift.min(Swift.max(rawDt, 0), 0.1)

        if !isInitialized {
            guard accel.length > 0.5 * Units.standardGravity else { return }
            initialize(accel: accel, mag: magSample)
            return
        }

        updateRestDetection(gyro: rawGyro, accel: accel, dt: dt)
        let gyro = rawGyro - gyroBias
        var correction = Vector3.zero

        let accelNorm = accel.length
        if abs(accelNorm - Units.standardGravity) < settings.accelRejection {
            let measuredUp = accel / accelNorm
            let estimatedUp = attitude.inverseRotate(Vector3(0, 0, 1))
            correction += measuredUp.cross(estimatedUp) / settings.accelTimeConstant
        }

        attitude = (attitude * Quaternion(rotationVector: (gyro + correction) * dt)).normalized

        if let m = magSample { correctHeading(mag: m, dt: dt) }
        lastAccel = accel
    }

    // MARK: Parts

    private mutating func initialize(accel: Vector3, mag: Vector3?) {
        if let m = mag, let q = AttitudeFilter.attitudeFrom(accel: accel, mag: m) {
            attitude = q
            learnMagReference(m)
        } else {
            // Without a field: level from gravity, heading arbitrary (yaw 0).
            let up = accel.normalized
            let east0 = Vector3(0, 1, 0).cross(up)
            let east = east0.length > 0.1 ? east0.normalized : up.cross(Vector3(1, 0, 0)).normalized
            let north = up.cross(east).normalized
            attitude = Quaternion(rotationRows: east, north, up)
        }
        isInitialized = true
    }

    /// Orientation from one accelerometer and one magnetometer sample (TRIAD); nil when they are parallel.
    public static func attitudeFrom(accel: Vector3, mag: Vector3) -> Quaternion? {
        let up = accel.normalized
        let east = mag.cross(up)
        guard east.length > 1e-6 * mag.length else { return nil }
        let e = east.normalized
        let n = up.cross(e).normalized
        return Quaternion(rotationRows: e, n, up)
    }

    private mutating func updateRestDetection(gyro: Vector3, accel: Vector3, dt: Double) {
        let still = (gyro - gyroBias).length < settings.restGyroThreshold
            && abs(accel.length - Units.standardGravity) < settings.restAccelThreshold
            && (accel - lastAccel).length < settings.restAccelThreshold
        restDuration = still ? restDuration + dt : 0
        isAtRest = restDuration >= settings.restTime
        if isAtRest {
            gyroBias += (gyro - gyroBias) * Swift.min(1, dt / settings.biasTimeConstant)
        }
    }

    private mutating func learnMagReference(_ m: Vector3) {
        magNormReference = m.length
        magDipReference = dipAngle(of: m)
        hasHeadingReference = true
    }

    private func dipAngle(of m: Vector3) -> Double {
        let earth = attitude.rotate(m)
        return atan2(-earth.z, (earth.x * earth.x + earth.y * earth.y).squareRoot())
    }

    private mutating func correctHeading(mag m: Vector3, dt: Double) {
        if !hasHeadingReference { learnMagReference(m) }
        let normOff = abs(m.length - magNormReference) > settings.magNormTolerance * magNormReference
        let dipOff = abs(dipAngle(of: m) - magDipReference) > settings.magDipTolerance
        isMagneticallyDisturbed = normOff || dipOff
        if isMagneticallyDisturbed { return }
        let earth = attitude.rotate(m)
        let horizontal = (earth.x * earth.x + earth.y * earth.y).squareRoot()
        guard horizontal > 1e-6 else { return }
        // Angle of the measured field east of north; the estimate's yaw is off by minus that much.
        let error = atan2(earth.x, earth.y)
        let gain = Swift.min(1, dt / settings.magTimeConstant)
        attitude = (Quaternion(axis: Vector3(0, 0, 1), angle: error * gain) * attitude).normalized
    }
}
