import LibC
import Geometry

/// A run of head swings that alternate about one axis without a hold: what nodding is, and what a tilt toward
/// a shoulder (out, held, back, and the next one seconds later) is not.
struct SwingSeries: Sendable, Equatable {
    var start: Double
    var end: Double
    var swings: Int
    /// The axis (unit, sensor frame) turning the way the first swing did.
    var axis: Vector3
    /// The largest angle between a swing's axis and the series' axis (rad).
    var spread: Double
    /// Whether the head was at rest (no swing at all for `restBefore`) before the first swing, so the first
    /// swing is how the movement began.
    var fromRest: Bool
    /// Mean specific force over the series' span, first swing to last (sensor frame, m/s²).
    var meanAccel: Vector3
    /// Cycles (there and back) in the series.
    var cycles: Int { swings / 2 }
}

/// Builds `SwingSeries` from the swings of `SwingTracker`, keeping the few with the most cycles.
struct NodRhythm: Sendable {
    struct Settings: Sendable, Equatable {
        /// A swing that counts peaks at least this fast (rad/s): 26 °/s, the detector's `normal` swing rate,
        /// under the gentlest swing of a nod in the gesture model (30 °/s).
        var swingRate = HeadGestureFacts.swingRate
        /// … and turns at least this far (rad): 3°, the detector's smallest swing (the ±1.5° of talking stay under it).
        var minimumAngle = HeadGestureFacts.minSwingAngle
        /// … and lasts at most this long (s): the detector's 0.7 s; a slower movement is a turn, not a nod.
        var longestSwing = HeadGestureFacts.maxSwingDuration
        /// … and turns at most this far (rad): 91°, the detector's widest gesture swing.
        var largestAngle = HeadGestureFacts.maxSwingAngle
        /// Longest pause between two swings of one series (s): 0.7 s, the detector's longest gap inside one
        /// gesture: people pause 0.1–0.6 s between the nods of a long "yes", and the rate spends up to 0.08 s
        /// more under the threshold around the reversal (a 30 °/s swing). A tilt held at the shoulder longer,
        /// or the next tilt 1–3 s later, starts a new series.
        var longestPause = HeadGestureFacts.maxGap
        /// Consecutive swings alternate when their axes are within this of opposite (rad): the detector's 45°.
        var alternation = HeadGestureFacts.alternationTolerance
        /// Every swing's axis lies within this of the series' axis (rad): 20°, above a nod's cross-talk (roll
        /// ±15 %, yaw ±10 % of the pitch in the model: ≤ 10°), under the 30°+ by which gait's pitch, roll and
        /// yaw at two different rates turn the axis of one swing.
        var consistency = 20 * Units.radiansPerDegree
        /// The head is at rest before a series when no swing at all happened for this long (s): 0.7 s, the
        /// detector's longest gap inside one gesture.
        var restBefore = HeadGestureFacts.maxGap
    }

    let settings: Settings
    /// The series with the most cycles so far (at most `kept`), in no order; the open series is not among them.
    private(set) var kept: [SwingSeries] = []
    static let kept = 8
    private(set) var completed = 0
    private(set) var latest: SwingSeries? = nil
    private var open: SwingSeries? = nil
    private var alignedSum = Vector3.zero
    private var lastAxis = Vector3.zero
    private var accelSum = Vector3.zero
    private var accelCount = 0.0
    /// End of the latest swing of any size (counts for "at rest before").
    private var anySwingEnd = -Double.infinity

    init(settings: Settings) {
        self.settings = settings
        kept.reserveCapacity(NodRhythm.kept)
    }

    /// The series being built, if it is one (two swings or more).
    var current: SwingSeries? { open.flatMap { $0.swings >= 2 ? $0 : nil } }

    /// Every series worth looking at: the kept ones and the one in progress.
    var all: [SwingSeries] { kept + (current.map { [$0] } ?? []) }

    /// The specific force while a swing is in progress, for the series' mean.
    mutating func addAccel(_ a: Vector3) {
        guard open != nil else { return }
        accelSum += a
        accelCount += 1
    }

    mutating func add(_ s: HeadSwing) {
        defer { anySwingEnd = s.end }
        let counts = s.peak >= settings.swingRate && s.angle >= settings.minimumAngle
        guard counts else { return }      // a wobble: neither continues nor ends a series (its pause does)
        guard s.duration <= settings.longestSwing && s.angle <= settings.largestAngle else { close(); return }
        let axis = s.axis
        if var series = open, s.start - series.end <= settings.longestPause, axis.dot(lastAxis) <= -cos(settings.alternation) {
            let sign = series.swings % 2 == 0 ? 1.0 : -1.0
            let mean = alignedSum.normalized
            let off = acos(Swift.min(1, abs(axis.dot(mean))))
            if off <= settings.consistency {
                alignedSum += axis * sign
                series.swings += 1
                series.end = s.end
                series.axis = alignedSum.normalized
                series.spread = Swift.max(series.spread, off)
                series.meanAccel = accelCount > 0 ? accelSum / accelCount : .zero
                lastAxis = axis
                open = series
                return
            }
        }
        close()
        open = SwingSeries(start: s.start, end: s.end, swings: 1, axis: axis, spread: 0,
                           fromRest: s.start - anySwingEnd >= settings.restBefore, meanAccel: .zero)
        alignedSum = axis
        lastAxis = axis
        accelSum = .zero
        accelCount = 0
    }

    /// Ends the series in progress (a gap in the samples, or a movement that is no nod).
    mutating func close() {
        defer { open = nil }
        guard let series = open, series.swings >= 2 else { return }
        completed += 1
        latest = series
        if kept.count < NodRhythm.kept { kept.append(series); return }
        // Replace the one with the fewest cycles (the earliest among equals), if this one has more.
        var weakest = 0
        for i in kept.indices where kept[i].cycles < kept[weakest].cycles { weakest = i }
        if series.cycles > kept[weakest].cycles { kept[weakest] = series }
    }

    /// Closes the series in progress when its pause has run out (so `latest` is up to date without a new swing),
    /// unless a swing that began within the pause (`swingSince`) is still going on.
    mutating func tick(t: Double, swingSince: Double?) {
        guard let series = open, t - series.end > settings.longestPause else { return }
        if let start = swingSince, start - series.end <= settings.longestPause { return }
        close()
    }
}
