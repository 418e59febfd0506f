#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Geometry

/// Head motion written as yaw, pitch and roll (Z-Y-X Euler angles, pitch positive nose-down, yaw positive
/// to the left) made of swings and oscillations with closed-form angle and rate, so a synthetic wearer's
/// true attitude and angular rate are known exactly.
public struct HeadTrajectory: Sendable {
    /// One smooth movement of one angle by `delta` over `duration` from `start`: rate = peak·sin(πu), the
    /// bell-shaped speed profile of a head swing, which reverses without stopping when swings follow each other.
    public struct Swing: Sendable {
        public var start: Double
        public var duration: Double
        public var delta: Double
        public var end: Double { start + duration }
        /// Peak rate of the swing (rad/s, signed like `delta`).
        public var peakRate: Double { Double.pi * delta / (2 * duration) }
        public var peakTime: Double { start + duration / 2 }
        public init(start: Double, duration: Double, delta: Double) {
            self.start = start; self.duration = duration; self.delta = delta
        }
    }

    /// An oscillation amplitude·sin(2πft + phase), growing from nothing at `onset` to full amplitude over
    /// `rampUp` seconds (how walking starts from standing).
    public struct Oscillation: Sendable {
        public var amplitude: Double
        public var frequency: Double
        public var phase: Double
        public var onset: Double
        public var rampUp: Double
        public init(amplitude: Double, frequency: Double, phase: Double, onset: Double = -.infinity, rampUp: Double = 0) {
            self.amplitude = amplitude; self.frequency = frequency; self.phase = phase
            self.onset = onset; self.rampUp = rampUp
        }

        /// Envelope (0…1) and its time derivative.
        func envelope(_ t: Double) -> (Double, Double) {
            guard t > onset else { return (0, 0) }
            guard rampUp > 0, t < onset + rampUp else { return (1, 0) }
            let u = (t - onset) / rampUp
            return ((1 - cos(Double.pi * u)) / 2, Double.pi * sin(Double.pi * u) / (2 * rampUp))
        }
    }

    public struct Axis: Sendable {
        public var offset = 0.0
        public var swings: [Swing] = []
        public var oscillations: [Oscillation] = []
        public init() {}

        func evaluate(_ t: Double) -> (angle: Double, rate: Double) {
            var angle = offset, rate = 0.0
            for s in swings where t > s.start {
                if t >= s.end { angle += s.delta; continue }
                let u = (t - s.start) / s.duration
                angle += s.delta * (1 - cos(Double.pi * u)) / 2
                rate += s.peakRate * sin(Double.pi * u)
            }
            for o in oscillations {
                let w = 2 * Double.pi * o.frequency
                let (e, de) = o.envelope(t)
                angle += e * o.amplitude * sin(w * t + o.phase)
                rate += o.amplitude * (e * w * cos(w * t + o.phase) + de * sin(w * t + o.phase))
            }
            return (angle, rate)
        }
    }

    public var yaw = Axis()
    public var pitch = Axis()
    public var roll = Axis()
    /// Vertical bob of the head: amplitude (m/s²) and frequency (Hz) of the vertical acceleration, from `bobOnset`.
    public var bobAcceleration = 0.0
    public var bobFrequency = 2.0
    public var bobOnset = 0.0
    public init() {}

    /// Attitude head→ENU, angular rate in the head frame (rad/s), specific force in the head frame (m/s²).
    public func state(at t: Double) -> (attitude: Quaternion, gyro: Vector3, accel: Vector3) {
        let (psi, dpsi) = yaw.evaluate(t)
        let (theta, dtheta) = pitch.evaluate(t)
        let (phi, dphi) = roll.evaluate(t)
        let attitude = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
            * Quaternion(axis: Vector3(0, 1, 0), angle: theta)
            * Quaternion(axis: Vector3(1, 0, 0), angle: phi)
        // Body rates of Z-Y-X Euler angles (standard kinematic relation).
        let gyro = Vector3(dphi - dpsi * sin(theta),
                           dtheta * cos(phi) + dpsi * cos(theta) * sin(phi),
                           -dtheta * sin(phi) + dpsi * cos(theta) * cos(phi))
        let bob = t > bobOnset ? bobAcceleration * sin(2 * Double.pi * bobFrequency * t) : 0
        return (attitude, gyro, attitude.inverseRotate(Vector3(0, 0, 9.80665 + bob)))
    }
}
