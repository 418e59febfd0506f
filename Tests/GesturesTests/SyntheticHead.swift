#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Tracking
import Sensors
import GestureMetrics
import Tracking
import Gestures

/// Head motion written down analytically, so the test knows the truth exactly: yaw, pitch and roll as sums of
/// simple movements with closed-form angle and rate, the true body angular rate from the Euler-rate formula,
/// and the accelerometer's specific force from gravity plus any vertical bob. Nothing here uses the code
/// under test except the value types (Quaternion, Mount, TraceRecord).
struct HeadMotion {
    /// One movement of one Euler angle: angle (rad) and its rate (rad/s) at time t.
    struct Movement {
        var evaluate: (Double) -> (angle: Double, rate: Double)

        /// `count` half-waves of `halfPeriod` seconds each, starting at rest at `start`, peaking at `peakRate`:
        /// rate = peakRate · sin(π u / halfPeriod). Even counts return to the start angle.
        static func halfWaves(start: Double, count: Int, halfPeriod: Double, peakRate: Double) -> Movement {
            let end = start + Double(count) * halfPeriod
            let amplitude = peakRate * halfPeriod / Double.pi
            return Movement { t in
                let u = Swift.min(Swift.max(t - start, 0), end - start)
                let rate = t > start && t < end ? peakRate * sin(Double.pi * u / halfPeriod) : 0
                return (amplitude * (1 - cos(Double.pi * u / halfPeriod)), rate)
            }
        }

        /// A turn by `angle` over `duration` with a cosine speed profile (one smooth swing).
        static func turn(start: Double, duration: Double, angle: Double) -> Movement {
            Movement { t in
                let u = Swift.min(Swift.max(t - start, 0), duration)
                let rate = t > start && t < start + duration ? angle * Double.pi / (2 * duration) * sin(Double.pi * u / duration) : 0
                return (angle * (1 - cos(Double.pi * u / duration)) / 2, rate)
            }
        }

        /// A steady oscillation `amplitude` · sin(2π f t + phase) for all t.
        static func sine(amplitude: Double, frequency: Double, phase: Double = 0) -> Movement {
            Movement { t in
                let w = 2 * Double.pi * frequency
                return (amplitude * sin(w * t + phase), amplitude * w * cos(w * t + phase))
            }
        }

        static func constant(_ angle: Double) -> Movement { Movement { _ in (angle, 0) } }
    }

    var yaw: [Movement] = []
    var pitch: [Movement] = []      // positive = nose down
    var roll: [Movement] = []
    /// Vertical acceleration of the head in the earth frame (m/s², gravity excluded), e.g. walking bob.
    var verticalAcceleration: (Double) -> Double = { _ in 0 }
    /// Horizontal acceleration of the head in the earth frame (m/s², x east, y north), e.g. the trunk carrying it.
    var horizontalAcceleration: (Double) -> (x: Double, y: Double) = { _ in (0, 0) }

    /// The acceleration (m/s²) at `t` of a carriage by `distance` (m) over [`start`, `start` + `duration`] with
    /// the (1 − cos πu)/2 position profile of a reach: d²/dt² of it, zero outside the leg.
    static func carriageLeg(_ t: Double, start: Double, duration: Double, distance: Double) -> Double {
        guard t > start && t < start + duration else { return 0 }
        let w = Double.pi / duration
        return distance * w * w / 2 * cos(w * (t - start))
    }
    /// Where the sensor sits relative to the point the head turns about (head frame, m).
    var sensorOffset = Vector3.zero

    static func sum(_ movements: [Movement], _ t: Double) -> (angle: Double, rate: Double) {
        movements.reduce((0.0, 0.0)) { acc, m in let v = m.evaluate(t); return (acc.0 + v.angle, acc.1 + v.rate) }
    }

    /// Attitude head→ENU, true angular rate in the head frame, specific force in the head frame.
    func state(at t: Double) -> (attitude: Quaternion, gyro: Vector3, accel: Vector3) {
        let (attitude, gyro) = rotation(at: t)
        let carried = horizontalAcceleration(t)
        let specificForce = Vector3(carried.x, carried.y, 9.80665 + verticalAcceleration(t))
        var accel = attitude.inverseRotate(specificForce)
        if sensorOffset != .zero {
            // A point fixed in the head off the pivot: ω̇ × r + ω × (ω × r), ω̇ by a central difference.
            let h = 1e-5
            let spin = (rotation(at: t + h).gyro - rotation(at: t - h).gyro) * (1 / (2 * h))
            accel += spin.cross(sensorOffset) + gyro.cross(gyro.cross(sensorOffset))
        }
        return (attitude, gyro, accel)
    }

    /// Attitude head→ENU and true angular rate in the head frame.
    func rotation(at t: Double) -> (attitude: Quaternion, gyro: Vector3) {
        let (psi, dpsi) = HeadMotion.sum(yaw, t)
        let (theta, dtheta) = HeadMotion.sum(pitch, t)
        let (phi, dphi) = HeadMotion.sum(roll, t)
        // q = Rz(ψ)·Ry(θ)·Rx(φ); body rates of Z-Y-X Euler angles (standard kinematic relation).
        let attitude = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
            * Quaternion(axis: Vector3(0, 1, 0), angle: theta)
            * Quaternion(axis: Vector3(1, 0, 0), angle: phi)
        let gyro = Vector3(dphi - dpsi * sin(theta),
                           dtheta * cos(phi) + dpsi * cos(theta) * sin(phi),
                           -dtheta * sin(phi) + dpsi * cos(theta) * cos(phi))
        return (attitude, gyro)
    }

    /// Samples the motion at `hz` for `duration` seconds into a trace in the sensor's axes, for a board sitting
    /// on the head as `board` says (which sensor axes point forward, left, up). Adds a constant gyro bias and
    /// white noise of an MPU-class gyro/accelerometer (0.01 °/s/√Hz, 300 µg/√Hz) over the Nyquist band.
    /// `from`: the time of the first sample (a recording that begins mid-movement).
    func trace(hz: Double, duration: Double, from start: Double = 0, board: Mount = .identity,
               gyroBias: Vector3 = Vector3(0.004, -0.006, 0.003), seed: UInt64 = 1) -> Trace {
        var random = SplitMix(seed: seed)
        let gyroSigma = 0.01 * Units.radiansPerDegree * (hz / 2).squareRoot()
        let accelSigma = 300e-6 * 9.80665 * (hz / 2).squareRoot()
        var records: [TraceRecord] = []
        let n = Int(duration * hz)
        records.reserveCapacity(n)
        for i in 0..<n {
            let t = start + Double(i) / hz
            let s = state(at: t)
            let gyro = board.unapply(s.gyro) + gyroBias + random.gaussianVector() * gyroSigma
            let accel = board.unapply(s.accel) + random.gaussianVector() * accelSigma
            records.append(TraceRecord(t: t, accel: accel, gyro: gyro))
        }
        return Trace(metadata: ["rate_hz": "\(hz)"], records: records)
    }
}

/// Small deterministic generator (SplitMix64) so the noise is the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    /// Standard normal (Box–Muller).
    mutating func gaussian() -> Double {
        let u = Swift.max(uniform(), 1e-300), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
    mutating func gaussianVector() -> Vector3 { Vector3(gaussian(), gaussian(), gaussian()) }
}

let degrees = Units.radiansPerDegree

/// The events of a motion replayed through the product's path (board axes → mount → attitude filter →
/// detector), the trace beginning at `from`; `mount` nil replays it as a headset configured without one.
/// `listening` (default): as if an app's question were pending, so the single-gesture rules decide: the
/// tests that use this are about those rules (and for a movement that must be no gesture, answer mode is the
/// stricter judge: always-on needs two cycles besides).
func replayedEvents(_ motion: HeadMotion, hz: Double, duration: Double, from start: Double = 0,
                    board: String = "x,y,z", mount: String? = "x,y,z",
                    settings: GestureDetector.Settings = .default, listening: Bool = true) throws -> [GestureEvent] {
    let trace = motion.trace(hz: hz, duration: duration, from: start, board: try Mount(parsing: board))
    var s = Pipeline.Settings()
    s.mount = try mount.map { try Mount(parsing: $0) }
    s.gestures = settings
    return GestureReplay.detections(in: trace, settings: s, listening: listening).map(\.event)
}
