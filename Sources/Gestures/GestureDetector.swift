#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Geometry

/// Something that turns head motion into gesture events, one IMU sample at a time. Both the detector and the
/// classic baseline conform, so a replay or an evaluation can run either (generically, without existentials).
public protocol GestureRecognizer: Sendable {
    /// One sample: time (s), angular rate in the head frame (rad/s; x forward, y left, z up), attitude head→ENU.
    mutating func update(t: Double, gyro: Vector3, attitude: Quaternion) -> GestureEvent?
}

/// Nod, shake and flick detector working on angular rate split by gravity: the vertical part of the rate
/// (about the earth's up axis, from the attitude) and the horizontal part. A shake is an oscillation about
/// the vertical, a nod an oscillation about a horizontal axis; neither needs to know how the board sits on
/// the head, so nod and shake come out right with no mount at all. The mount is needed only to name flicks
/// up/down (which horizontal axis is the head's left-right one).
///
/// A gesture is a run of alternating half-waves (see `HalfWaveTracker` and `Settings`): a nod needs 2, a shake
/// 3. A single turn is one half-wave; swaying is too slow; walking is too weak and rocks about changing axes.
/// The gesture is reported as soon as the half-wave that completes it falls back below the activity
/// threshold, i.e. before its rate crosses zero.
///
/// Pure and allocation-free: value types only, time comes in as an argument, thresholds are rates and
/// durations, so it behaves the same from 26 Hz to 1 kHz.
public struct GestureDetector: GestureRecognizer {
    public let settings: Settings

    private var nod = HalfWaveTracker()
    private var shake = HalfWaveTracker()
    private var smoothedGyro = Vector3.zero
    private var lastTime = -Double.infinity
    private var lastEvent = -Double.infinity
    private var pendingFlick = PendingFlick.none

    /// A flick waiting for its hold time, so that a nod or shake beginning with the same movement can claim it.
    private enum PendingFlick: Sendable {
        case none
        case waiting(event: GestureEvent, due: Double, onShakeAxis: Bool, axis: Vector3)
    }

    public init(settings: Settings = .default) { self.settings = settings }

    /// Forgets all motion history (a new recording window, or a sensor reset).
    public mutating func reset() { self = GestureDetector(settings: settings) }

    public mutating func update(t: Double, gyro: Vector3, attitude: Quaternion) -> GestureEvent? {
        guard gyro.isFinite, t.isFinite, attitude.isFinite else { return nil }
        guard lastTime.isFinite, t >= lastTime else {
            // First sample, or time went backwards (a new recording): start afresh from this sample.
            self = GestureDetector(settings: settings)
            smoothedGyro = gyro
            lastTime = t
            return nil
        }
        guard t > lastTime else { return nil }   // a repeated timestamp carries no motion
        let dt = t - lastTime
        lastTime = t
        let alpha = settings.smoothingTimeConstant > 0 ? 1 - exp(-dt / settings.smoothingTimeConstant) : 1
        smoothedGyro += (gyro - smoothedGyro) * alpha

        // Split the rate by gravity: the vertical part turns the head left/right, the rest tilts it.
        let up = attitude.inverseRotate(Vector3(0, 0, 1))
        let verticalRate = up * smoothedGyro.dot(up)
        let horizontalRate = smoothedGyro - verticalRate

        let nodWave = nod.update(t: t, dt: dt, rate: horizontalRate, other: verticalRate, settings: settings)
        let shakeWave = shake.update(t: t, dt: dt, rate: verticalRate, other: horizontalRate, settings: settings)

        if let w = shakeWave, w.runLength >= settings.shakeHalfWaves, let e = report(.shake, at: t) { return e }
        if let w = nodWave, w.runLength >= settings.nodHalfWaves, let e = report(.nod, at: t) { return e }

        guard settings.flicks else { return nil }
        if let w = shakeWave, let e = flickCandidate(w, onShakeAxis: true, up: up) {
            pendingFlick = .waiting(event: e, due: w.end + settings.flickHold, onShakeAxis: true, axis: w.axis)
        } else if let w = nodWave, let e = flickCandidate(w, onShakeAxis: false, up: up) {
            pendingFlick = .waiting(event: e, due: w.end + settings.flickHold, onShakeAxis: false, axis: w.axis)
        }
        return resolvePendingFlick(at: t)
    }

    // MARK: Reporting

    /// Reports `event` unless the cooldown forbids it; either way the half-wave runs start afresh.
    private mutating func report(_ event: GestureEvent, at t: Double) -> GestureEvent? {
        guard t - lastEvent >= settings.cooldown else { return nil }
        lastEvent = t
        nod.endRun()
        shake.endRun()
        pendingFlick = .none
        return event
    }

    // MARK: Flicks

    /// The flick a finished half-wave would be, if it is quick enough, the first of its run, and its
    /// direction can be named.
    private func flickCandidate(_ w: HalfWave, onShakeAxis: Bool, up: Vector3) -> GestureEvent? {
        guard w.peakRate >= settings.flickRate, w.duration <= settings.maxHalfWaveDuration,
              w.peakRate >= settings.dominance * w.otherChange, w.runLength <= 1 else { return nil }
        let axis = w.axis
        if onShakeAxis {
            // Positive rotation about up is counter-clockwise seen from above: the face turns left.
            return axis.dot(up) > 0 ? .left : .right
        }
        // Up/down needs the head's left axis (from the mount), made horizontal.
        let left = Vector3(0, 1, 0)
        let horizontalLeft = left - up * left.dot(up)
        guard horizontalLeft.length > 0.5 else { return nil }   // head lying on its side: no "up" to name
        let pitch = axis.dot(horizontalLeft.normalized)
        guard abs(pitch) >= cos(Double.pi / 4) else { return nil }  // mostly roll: not up or down
        // Positive rotation about left tips the nose (x forward) down.
        return pitch > 0 ? .down : .up
    }

    private mutating func resolvePendingFlick(at t: Double) -> GestureEvent? {
        guard case let .waiting(event, due, onShakeAxis, axis) = pendingFlick, t >= due else { return nil }
        pendingFlick = .none
        // An opposite swing already done, or under way and brisk enough to be a half-wave: the movement is
        // turning into a nod or shake, so it is not a flick.
        let tracker = onShakeAxis ? shake : nod
        if tracker.runLength >= 2 { return nil }
        if tracker.isActive && tracker.activeAxis.dot(axis) < 0 && tracker.activePeak >= settings.peakRate {
            return nil
        }
        return report(event, at: t)
    }
}
