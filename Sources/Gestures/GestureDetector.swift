import Fusion

/// Nod / shake detector working on angular rate in the head's gravity-aligned axes: the shake axis is the
/// vertical (from the attitude), the nod axis is the head's left-right axis made horizontal. Thresholds are
/// angular rates and durations in seconds, so the detector behaves the same at any sample rate.
///
/// A gesture is a run of alternating "half-waves": swings of the rate about one axis that peak above
/// `peakRate`, last at most `maxHalfWaveDuration`, and dominate the other axis. A nod needs
/// `nodHalfWaves` of them, a shake `shakeHalfWaves`. A single turn is one half-wave, so it never counts.
public struct GestureDetector: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Rate (rad/s) above which a swing begins; below it, the swing has ended. ~11 °/s.
        public var activeRate: Double = 0.2
        /// A swing counts only if it peaks above this (rad/s): 30 °/s, the rule used to mark the reference
        /// recordings, well above the 5–10 °/s of slow looking around.
        public var peakRate: Double = 30 * Units.radiansPerDegree
        /// Longest swing (s); a slower movement is a head turn, not part of a gesture.
        public var maxHalfWaveDuration: Double = 0.7
        /// Longest pause (s) between swings of one gesture.
        public var maxGap: Double = 0.7
        /// The gesture axis' peak must exceed the other axis' peak by this factor.
        public var dominance: Double = 1.5
        public var nodHalfWaves = 2
        public var shakeHalfWaves = 3
        /// Minimum time (s) between two reported gestures.
        public var cooldown: Double = 0.5
        public init() {}
        public static let `default` = Settings()
    }

    /// Tracks swings about one axis.
    struct AxisTracker: Sendable {
        var sign = 0
        var start = 0.0
        var peak = 0.0
        var otherPeak = 0.0
        var lastEnd = -Double.infinity
        var lastSign = 0
        var count = 0

        /// Feeds one sample; returns true when a qualifying half-wave just ended.
        mutating func update(t: Double, rate: Double, other: Double, settings: Settings) -> Bool {
            let s = abs(rate) > settings.activeRate ? (rate > 0 ? 1 : -1) : 0
            var completed = false
            if sign != 0 && s != sign {
                // The current swing ended: does it qualify, and does it continue an alternation?
                let duration = t - start
                let qualifies = peak >= settings.peakRate && duration <= settings.maxHalfWaveDuration
                    && peak >= settings.dominance * otherPeak
                if qualifies {
                    if lastSign == -sign && start - lastEnd <= settings.maxGap { count += 1 } else { count = 1 }
                    lastSign = sign
                    lastEnd = t
                    completed = true
                } else {
                    count = 0
                    lastSign = 0
                }
                sign = 0
            }
            if s != 0 && sign == 0 {
                sign = s; start = t; peak = 0; otherPeak = 0
            }
            if sign != 0 {
                peak = max(peak, abs(rate))
                otherPeak = max(otherPeak, abs(other))
            }
            if sign == 0 && t - lastEnd > settings.maxGap && count > 0 { count = 0; lastSign = 0 }
            return completed
        }
    }

    public let settings: Settings
    private var nod = AxisTracker()
    private var shake = AxisTracker()
    private var lastEvent = -Double.infinity

    public init(settings: Settings = .default) { self.settings = settings }

    /// One sample: time (s), gyro in the head frame (rad/s, x forward, y left, z up), attitude head→ENU.
    public mutating func update(t: Double, gyro: Vector3, attitude: Quaternion) -> GestureEvent? {
        guard gyro.isFinite, t.isFinite else { return nil }
        let vertical = attitude.inverseRotate(Vector3(0, 0, 1))
        var leftAxis = Vector3(0, 1, 0) - vertical * vertical.y
        if leftAxis.length < 0.3 { leftAxis = Vector3(0, 1, 0) }  // head rolled onto its side: keep the body axis
        leftAxis = leftAxis.normalized
        let shakeRate = gyro.dot(vertical)
        let nodRate = gyro.dot(leftAxis)
        let nodDone = nod.update(t: t, rate: nodRate, other: shakeRate, settings: settings)
        let shakeDone = shake.update(t: t, rate: shakeRate, other: nodRate, settings: settings)
        guard t - lastEvent >= settings.cooldown else { return nil }
        if shakeDone && shake.count >= settings.shakeHalfWaves {
            lastEvent = t
            shake.count = 0
            nod.count = 0
            return .shake
        }
        if nodDone && nod.count >= settings.nodHalfWaves {
            lastEvent = t
            nod.count = 0
            shake.count = 0
            return .nod
        }
        return nil
    }
}
