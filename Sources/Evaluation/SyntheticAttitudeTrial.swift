import LibC
import Fusion
import SensorCalibration
import Geometry
import Tracking
import Formats

/// Head motions with known truth, turned into IMU samples by a simple sensor model, for checking the attitude
/// filter where real recordings cannot: exact truth, chosen disturbances, reproducible noise (seeded).
///
/// The truth is analytic (sums of sines for the Euler angles and the head position); the gyro sample k is the
/// mean rate over (t_k−1, t_k], the interval that ends at the accelerometer and magnetometer sample, so exact
/// integration of a noise-free gyro reproduces the truth.
public struct SyntheticAttitudeTrial: Sendable {
    public enum Motion: String, Sendable, CaseIterable {
        /// Head held still, tilted, for the whole trial.
        case still
        /// Looking around slowly: ±60° yaw, ±20° pitch, peak rates about 40 °/s.
        case slowTurns
        /// Quick glances and nods: ±90° yaw and ±35° pitch, peak rates about 300 °/s.
        case fastTurns
        /// Walking: step bounce (±2.5 m/s² vertical at 2 Hz), sway and surge, while looking around.
        case walking
        /// Slow turns with a magnet brought near (a 60 µT field fixed in the room) and taken away again.
        case magnetPassing
        /// Slow turns while the gyro bias drifts by 0.6 °/s (warming up) and the head never rests.
        case biasDrift
    }

    public struct SensorModel: Sendable {
        /// Sample rates (Hz). MPU-9250 + AK8963 as configured by headtrack: 200 Hz IMU, 100 Hz magnetometer.
        public var imuRateHz = 200.0
        public var magRateHz = 100.0
        /// White noise, standard deviation per sample: MPU-9250 datasheet densities (0.01 °/s/√Hz gyro,
        /// 300 µg/√Hz accelerometer) over a 100 Hz bandwidth; AK8963 about 0.4 µT.
        public var gyroNoise = 0.1 * Units.radiansPerDegree
        public var accelNoise = 0.03
        public var magNoise = 0.4
        /// Constant gyro bias (rad/s): about 1 °/s per axis, typical of an uncalibrated MPU-9250.
        public var gyroBias = Vector3(0.8, -1.1, 0.6) * Units.radiansPerDegree
        /// Earth field (ENU, µT): mid-latitude, 66° dip.
        public var earthField = Vector3(0, 19, -44)
        /// Calibration residual left after a good fit: 2 % soft-iron scale error on x and 1 µT hard iron.
        public var softIronResidual = Vector3(1.02, 1.0, 0.99)
        public var hardIronResidual = Vector3(0.6, -0.8, 0.5)
        /// Timestamp jitter (s, uniform ±) and fraction of samples dropped (lost on the bus).
        public var timeJitter = 0.0
        public var dropFraction = 0.0
        public init() {}
    }

    public var motion: Motion
    public var duration: Double
    public var sensor: SensorModel
    public var seed: UInt64

    public init(motion: Motion, duration: Double = 120, sensor: SensorModel = SensorModel(), seed: UInt64 = 1) {
        self.motion = motion; self.duration = duration; self.sensor = sensor; self.seed = seed
    }

    // MARK: Truth

    /// True orientation (body to ENU) at time t.
    public func truth(at t: Double) -> Quaternion {
        let a = angles(at: t)
        return EulerAngles(roll: a.roll, pitch: a.pitch, yaw: a.yaw).quaternion
    }

    private func angles(at t: Double) -> EulerAngles {
        let d = Units.radiansPerDegree
        switch motion {
        case .still:
            return EulerAngles(roll: 8 * d, pitch: -12 * d, yaw: 30 * d)
        case .slowTurns, .magnetPassing, .biasDrift:
            return EulerAngles(roll: 8 * d * sin(2 * .pi * 0.07 * t + 1),
                               pitch: 20 * d * sin(2 * .pi * 0.13 * t),
                               yaw: 30 * d + 60 * d * sin(2 * .pi * 0.1 * t))
        case .fastTurns:
            // Bursts: the envelope switches the fast components on and off every few seconds.
            let burst = 0.5 - 0.5 * cos(2 * .pi * 0.1 * t)
            return EulerAngles(roll: 10 * d * sin(2 * .pi * 0.3 * t),
                               pitch: 35 * d * burst * sin(2 * .pi * 1.2 * t) + 10 * d * sin(2 * .pi * 0.05 * t),
                               yaw: -40 * d + 90 * d * burst * sin(2 * .pi * 0.5 * t) + 20 * d * sin(2 * .pi * 0.03 * t))
        case .walking:
            return EulerAngles(roll: 4 * d * sin(2 * .pi * 1.0 * t),
                               pitch: 5 * d * sin(2 * .pi * 2.0 * t + 0.3) + 10 * d * sin(2 * .pi * 0.1 * t),
                               yaw: 45 * d * sin(2 * .pi * 0.08 * t) + 3 * d * sin(2 * .pi * 1.0 * t))
        }
    }

    /// Linear acceleration of the head (ENU, m/s²), not counting gravity.
    public func linearAcceleration(at t: Double) -> Vector3 {
        switch motion {
        case .walking:
            // Bounce at step frequency, sway at stride frequency, surge at step frequency.
            return Vector3(0.6 * sin(2 * .pi * 1.0 * t),
                           1.2 * sin(2 * .pi * 2.0 * t + 0.5),
                           2.5 * sin(2 * .pi * 2.0 * t))
        case .fastTurns:
            // The head pivots on the neck: centripetal and tangential accelerations of about 1 m/s².
            return Vector3(0.8 * sin(2 * .pi * 0.5 * t), 0.8 * sin(2 * .pi * 1.2 * t), 0.3 * sin(2 * .pi * 1.2 * t))
        default:
            return .zero
        }
    }

    /// Magnetic disturbance (ENU, µT) added to the earth field.
    public func disturbance(at t: Double) -> Vector3 {
        guard motion == .magnetPassing else { return .zero }
        // Brought near between 30 s and 34 s, held until 60 s, taken away by 64 s (smooth ramps).
        let ramp = smoothStep((t - 30) / 4) * (1 - smoothStep((t - 60) / 4))
        return Vector3(45, -20, 25) * ramp
    }

    public func gyroBias(at t: Double) -> Vector3 {
        guard motion == .biasDrift else { return sensor.gyroBias }
        // Warm-up drift: exponential approach, 0.6 °/s total on z and 0.3 °/s on x, time constant 60 s.
        let drift = 1 - exp(-t / 60)
        return sensor.gyroBias + Vector3(0.3, 0, 0.6) * Units.radiansPerDegree * drift
    }

    /// Whether the trial starts with a still period (lets rest detection find the bias).
    public var startsStill: Bool { motion != .biasDrift }

    // MARK: Samples

    /// The trial as a trace with truth on every sample, all samples `moving` (scored).
    public func trace() -> Trace {
        var random = SplitMix(seed: seed)
        let dt = 1 / sensor.imuRateHz
        let magEvery = Swift.max(1, Int((sensor.imuRateHz / sensor.magRateHz).rounded()))
        let count = Int(duration * sensor.imuRateHz)
        // A still start of 2 s where applicable: time is shifted so the motion starts at t = 2.
        let stillStart = startsStill ? 2.0 : 0.0
        var trace = Trace(metadata: ["rate_hz": String(sensor.imuRateHz), "source": "synthetic \(motion.rawValue)"])
        trace.records.reserveCapacity(count)
        for k in 0..<count {
            let tNominal = Double(k) * dt
            let motionTime = Swift.max(0, tNominal - stillStart)
            let previousTime = Swift.max(0, tNominal - dt - stillStart)
            let q = truth(at: motionTime)
            let qPrevious = truth(at: previousTime)
            let delta = qPrevious.conjugate * q
            let rate = rotationVector(delta) / dt
            let gravityPlusMotion = Vector3(0, 0, Units.standardGravity) + linearAcceleration(at: motionTime)
            let accel = q.inverseRotate(gravityPlusMotion)
            let field = q.inverseRotate(sensor.earthField + disturbance(at: motionTime))
            let measuredField = field * sensor.softIronResidual + sensor.hardIronResidual

            let gyro = rate + gyroBias(at: tNominal) + random.gaussianVector() * sensor.gyroNoise
            let accelMeasured = accel + random.gaussianVector() * sensor.accelNoise
            let mag: Vector3? = k % magEvery == 0 ? measuredField + random.gaussianVector() * sensor.magNoise : nil
            let jitter = sensor.timeJitter > 0 ? (random.uniform() * 2 - 1) * sensor.timeJitter : 0
            if sensor.dropFraction > 0 && random.uniform() < sensor.dropFraction { continue }
            trace.records.append(TraceRecord(t: tNominal + jitter, accel: accelMeasured, gyro: gyro, mag: mag,
                                             truth: q, moving: true))
        }
        return trace
    }

    private func rotationVector(_ q: Quaternion) -> Vector3 {
        let p = q.w < 0 ? Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) : q
        let s = p.vector.length
        guard s > 1e-15 else { return p.vector * 2 }
        return p.vector / s * (2 * atan2(s, p.w))
    }

    private func smoothStep(_ x: Double) -> Double {
        let c = Swift.min(1, Swift.max(0, x))
        return c * c * (3 - 2 * c)
    }
}

/// Small seeded generator (SplitMix64) so synthetic trials are the same on every machine.
struct SplitMix: Sendable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func uniform() -> Double { Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0) }

    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u1 = Swift.max(uniform(), 1e-300), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }

    mutating func gaussianVector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
}
