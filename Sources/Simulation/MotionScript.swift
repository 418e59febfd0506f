import LibC
import Geometry

/// The true state of the head at one instant.
public struct MotionState: Sendable {
    /// Head → ENU.
    public var attitude: Quaternion
    /// Angular rate in the head frame (rad/s).
    public var angularRate: Vector3
    /// Linear acceleration of the head in ENU (m/s², without gravity).
    public var linearAcceleration: Vector3
}

/// A scripted head motion built from segments laid end to end. Attitude is heading (degrees clockwise from
/// north), pitch (degrees, positive = looking down) and roll; angular rate is derived from the attitude
/// numerically, so the gyro truth always matches the orientation truth.
public struct MotionScript: Sendable {
    public enum Segment: Sendable {
        /// Hold still.
        case still(duration: Double)
        /// Turn to a heading over `duration` with a smooth (cosine) speed profile.
        case turn(toHeading: Double, duration: Double)
        /// Pitch to a value over `duration`.
        case pitch(to: Double, duration: Double)
        /// Nod: `cycles` down-up oscillations of `amplitude` degrees at `frequency` Hz.
        case nod(cycles: Int, amplitude: Double, frequency: Double)
        /// Shake: `cycles` left-right oscillations of `amplitude` degrees at `frequency` Hz.
        case shake(cycles: Int, amplitude: Double, frequency: Double)
        /// Walk: vertical bob at step frequency with small pitch sway, for `duration`.
        case walk(duration: Double, stepFrequency: Double)
    }

    /// A gesture the script performs, with its time window, for scoring the detector.
    public struct ScriptedGesture: Sendable, Equatable {
        public var label: String
        public var start: Double
        public var end: Double
    }

    /// A question an app asks while the script runs: pending from `at` (s) until a nod or shake answers it or
    /// `timeout` (s) passes, as an event-stream client's `ask` is. The simulated runs play the app.
    public struct ScriptedQuestion: Sendable, Equatable {
        public var at: Double
        public var timeout: Double
    }

    public private(set) var segments: [(start: Double, segment: Segment, fromHeading: Double, fromPitch: Double)] = []
    public private(set) var questions: [ScriptedQuestion] = []
    public private(set) var duration: Double = 0
    public let initialHeading: Double
    private var heading: Double
    private var pitchDegrees: Double

    public init(initialHeading: Double = 90, initialPitch: Double = 0) {
        self.initialHeading = initialHeading
        heading = initialHeading
        pitchDegrees = initialPitch
    }

    public mutating func append(_ s: Segment) {
        segments.append((duration, s, heading, pitchDegrees))
        switch s {
        case let .still(d): duration += d
        case let .turn(h, d): heading = h; duration += d
        case let .pitch(p, d): pitchDegrees = p; duration += d
        case let .nod(c, _, f), let .shake(c, _, f): duration += Double(c) / f
        case let .walk(d, _): duration += d
        }
    }

    /// An app asks a question now (at the script's current end), to be answered within `timeout` s.
    public mutating func ask(timeout: Double = 5) {
        questions.append(ScriptedQuestion(at: duration, timeout: timeout))
    }

    public var gestures: [ScriptedGesture] {
        segments.compactMap { item in
            switch item.segment {
            case let .nod(c, _, f): return ScriptedGesture(label: "nod", start: item.start, end: item.start + Double(c) / f)
            case let .shake(c, _, f): return ScriptedGesture(label: "shake", start: item.start, end: item.start + Double(c) / f)
            default: return nil
            }
        }
    }

    /// Heading, pitch, roll (degrees) and vertical position (m) at time t.
    func pose(at t: Double) -> (heading: Double, pitch: Double, roll: Double, height: Double) {
        guard let index = segments.lastIndex(where: { $0.start <= t }) else {
            return (initialHeading, segments.first?.fromPitch ?? 0, 0, 0)
        }
        let item = segments[index]
        let u = t - item.start
        var h = item.fromHeading
        var p = item.fromPitch
        var z = 0.0
        switch item.segment {
        case .still: break
        case let .turn(target, d):
            let s = u >= d ? 1 : (1 - cos(Double.pi * u / d)) / 2
            h = item.fromHeading + shortestDegrees(from: item.fromHeading, to: target) * s
        case let .pitch(target, d):
            let s = u >= d ? 1 : (1 - cos(Double.pi * u / d)) / 2
            p = item.fromPitch + (target - item.fromPitch) * s
        case let .nod(c, a, f):
            if u < Double(c) / f { p += a * sin(2 * Double.pi * f * u) }
        case let .shake(c, a, f):
            if u < Double(c) / f { h += a * sin(2 * Double.pi * f * u) }
        case let .walk(d, f):
            if u < d {
                z = 0.03 * sin(2 * Double.pi * f * u)
                p += 2 * sin(2 * Double.pi * f * u + 0.5)
                h += 3 * sin(Double.pi * f * u)
            }
        }
        if index == segments.count - 1, t > duration { return (heading, pitchDegrees, 0, 0) }
        return (h, p, 0, z)
    }

    public static func attitude(heading: Double, pitch: Double, roll: Double) -> Quaternion {
        EulerAngles(roll: roll * Units.radiansPerDegree, pitch: pitch * Units.radiansPerDegree,
                    yaw: (90 - heading) * Units.radiansPerDegree).quaternion
    }

    public func state(at t: Double) -> MotionState {
        let h = 1e-4
        let a = pose(at: t - h / 2), b = pose(at: t), c = pose(at: t + h / 2)
        let qa = MotionScript.attitude(heading: a.heading, pitch: a.pitch, roll: a.roll)
        let qb = MotionScript.attitude(heading: b.heading, pitch: b.pitch, roll: b.roll)
        let qc = MotionScript.attitude(heading: c.heading, pitch: c.pitch, roll: c.roll)
        var relative = qa.conjugate * qc
        if relative.w < 0 { relative = Quaternion(w: -relative.w, x: -relative.x, y: -relative.y, z: -relative.z) }
        let rate = relative.vector * (2 / h)
        let hm = pose(at: t - h), hp = pose(at: t + h)
        let vertical = (hp.height - 2 * b.height + hm.height) / (h * h)
        return MotionState(attitude: qb, angularRate: rate, linearAcceleration: Vector3(0, 0, vertical))
    }

    /// The ~24 s story `headtrack demo` plays: look around, face north, nod (twice), shake (twice), answer an
    /// app's question with a single nod, turn around.
    public static var demoStory: MotionScript {
        var s = MotionScript(initialHeading: 90)
        s.append(.still(duration: 2))
        s.append(.turn(toHeading: 120, duration: 1.5))   // look around, slowly
        s.append(.turn(toHeading: 60, duration: 2))
        s.append(.turn(toHeading: 0, duration: 2))        // face north
        s.append(.still(duration: 2))
        s.append(.nod(cycles: 2, amplitude: 12, frequency: 2))
        s.append(.still(duration: 2))
        s.append(.shake(cycles: 2, amplitude: 15, frequency: 2))
        s.append(.still(duration: 2))
        s.ask()                                           // an app asks a yes/no question
        s.append(.still(duration: 1))
        s.append(.nod(cycles: 1, amplitude: 10, frequency: 2))   // one nod answers it
        s.append(.still(duration: 2))
        s.append(.turn(toHeading: 180, duration: 3))      // turn around
        s.append(.still(duration: 2))
        return s
    }
}
