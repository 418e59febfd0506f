import LibC
import Geometry
import Simulation

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
    /// Rotations the neck makes about the head's own axes, after the posture above (the same Z-Y-X form, in
    /// the head frame): a "no" made looking down 30° turns about the head's up axis, which is then tilted 30°
    /// from the vertical, not about the vertical (the failure 2, measured on earbud "no" answers).
    public var neck = Neck()
    public struct Neck: Sendable {
        public var yaw = Axis()
        public var pitch = Axis()
        public var roll = Axis()
        public init() {}
    }
    /// Vertical bob of the head: amplitude (m/s²) and frequency (Hz) of the vertical acceleration, from `bobOnset`.
    public var bobAcceleration = 0.0
    public var bobFrequency = 2.0
    public var bobOnset = 0.0
    /// Time over which the bob grows from nothing (s): it comes from the steps, so it ramps up with them.
    public var bobRampUp = 0.0
    /// Where the sensor sits relative to the point the head turns about (head frame, m): a sensor off the
    /// pivot is accelerated by every rotation (angular acceleration × offset, plus the centripetal part).
    public var sensorOffset = Vector3.zero
    /// Movements of the whole head carried by the body (a boxer's pull-back, slip or weave).
    public var carriages: [Carriage] = []
    public init() {}

    /// The head carried by `offset` (ENU, m) and back: out over `outDuration` from `start`, held, back over
    /// `backDuration`, each leg with the smooth (1 − cos) position profile of a reaching movement.
    public struct Carriage: Sendable {
        public var start: Double
        public var outDuration: Double
        public var hold: Double
        public var backDuration: Double
        public var offset: Vector3
        public init(start: Double, outDuration: Double, hold: Double, backDuration: Double, offset: Vector3) {
            self.start = start; self.outDuration = outDuration; self.hold = hold
            self.backDuration = backDuration; self.offset = offset
        }

        /// Linear acceleration (ENU, m/s²) at `t`: d²/dt² of offset · (1 − cos πu)/2 on each leg.
        func acceleration(at t: Double) -> Vector3 {
            let backStart = start + outDuration + hold
            if t > start && t < start + outDuration {
                let w = Double.pi / outDuration
                return offset * (w * w / 2 * cos(w * (t - start)))
            }
            if t > backStart && t < backStart + backDuration {
                let w = Double.pi / backDuration
                return offset * (-w * w / 2 * cos(w * (t - backStart)))
            }
            return .zero
        }
    }

    /// Attitude head→ENU and angular rate in the head frame (rad/s): the posture, then the neck's rotation.
    func rotation(at t: Double) -> (attitude: Quaternion, gyro: Vector3) {
        let posture = HeadTrajectory.euler(yaw, pitch, roll, at: t)
        let turn = HeadTrajectory.euler(neck.yaw, neck.pitch, neck.roll, at: t)
        // ω of a product of rotations, in the last frame: the first one's rate turned into it, plus its own.
        return (posture.attitude * turn.attitude, turn.attitude.inverseRotate(posture.gyro) + turn.gyro)
    }

    /// Z-Y-X Euler angles: the rotation and its body rate (the standard kinematic relation).
    static func euler(_ yaw: Axis, _ pitch: Axis, _ roll: Axis, at t: Double) -> (attitude: Quaternion, gyro: Vector3) {
        let (psi, dpsi) = yaw.evaluate(t)
        let (theta, dtheta) = pitch.evaluate(t)
        let (phi, dphi) = roll.evaluate(t)
        let attitude = Quaternion(axis: Vector3(0, 0, 1), angle: psi)
            * Quaternion(axis: Vector3(0, 1, 0), angle: theta)
            * Quaternion(axis: Vector3(1, 0, 0), angle: phi)
        let gyro = Vector3(dphi - dpsi * sin(theta),
                           dtheta * cos(phi) + dpsi * cos(theta) * sin(phi),
                           -dtheta * sin(phi) + dpsi * cos(theta) * cos(phi))
        return (attitude, gyro)
    }

    /// Attitude head→ENU, angular rate in the head frame (rad/s), specific force in the head frame (m/s²).
    public func state(at t: Double) -> (attitude: Quaternion, gyro: Vector3, accel: Vector3) {
        let (attitude, gyro) = rotation(at: t)
        let envelope = Oscillation(amplitude: 0, frequency: 0, phase: 0, onset: bobOnset, rampUp: bobRampUp).envelope(t).0
        let bob = envelope * bobAcceleration * sin(2 * Double.pi * bobFrequency * t)
        var carried = Vector3(0, 0, 9.80665 + bob)
        for c in carriages { carried += c.acceleration(at: t) }
        var accel = attitude.inverseRotate(carried)
        if sensorOffset != .zero {
            // A point fixed in the head: ω̇ × r + ω × (ω × r), with ω̇ from a central difference.
            let h = 1e-4
            let spin = (rotation(at: t + h).gyro - rotation(at: t - h).gyro) * (1 / (2 * h))
            accel += spin.cross(sensorOffset) + gyro.cross(gyro.cross(sensorOffset))
        }
        return (attitude, gyro, accel)
    }
}
