import Geometry

/// One swing of the head about some axis, cut out of the sensor-frame angular rate without knowing the mount:
/// it starts when the rate rises above the activity threshold and ends when it falls below half of it or turns
/// against the swing's own direction (a reversal that does not stop, as in a fast nod).
struct HeadSwing: Sendable, Equatable {
    var start: Double
    var end: Double
    /// ∫ω dt over the swing (rad, sensor frame): its axis and angle for a swing about a fixed axis.
    var rotation: Vector3
    /// Highest |ω| (rad/s).
    var peak: Double
    var axis: Vector3 { rotation.normalized }
    var angle: Double { rotation.length }
    var duration: Double { end - start }
}

/// Cuts the angular rate into swings (`HeadSwing`). Pure and allocation-free: a few numbers of state.
///
/// The gesture detector has a segmenter of its own (`HalfWaveTracker` in Gestures), on purpose: it cuts the
/// rate about one head axis, smoothed, ends a swing when the rate along the swing's axis falls (so a turn about
/// another axis ends it), interpolates the crossings and peaks along the axis. This one cuts the whole raw
/// sensor-frame rate (the mount that would split it is what the learner learns), ends a swing only when the
/// whole rate falls or turns against it (a wandering axis stays one swing, which `NodRhythm`'s consistency rule
/// refuses), and stamps sample times. Each side's rules are tuned on its own outputs; docs/architecture.md
/// ("What repeats on purpose") has the four differences and why they were not merged.
struct SwingTracker: Sendable {
    /// A swing starts above this rate (rad/s) and ends below half of it: the gesture detector's 0.2 rad/s
    /// (11 °/s), far above gyro noise and under the slowest swing of a gesture.
    let activeRate: Double
    private var active = false
    private var rotation = Vector3.zero
    private var peak = 0.0
    private var start = 0.0
    /// When the latest swing (of any size) ended.
    private(set) var lastEnd = -Double.infinity
    /// When the swing in progress began (nil: none is).
    var inProgressSince: Double? { active ? start : nil }

    init(activeRate: Double) { self.activeRate = activeRate }

    /// One rate sample (bias removed) held for `dt` up to `t`; returns the swing it completed, if any.
    mutating func add(t: Double, dt: Double, rate: Vector3) -> HeadSwing? {
        let r = rate.length
        var done: HeadSwing? = nil
        if active {
            let reversing = rate.dot(rotation) < 0 && r >= activeRate / 2
            if r < activeRate / 2 || reversing {
                done = HeadSwing(start: start, end: t, rotation: rotation, peak: peak)
                active = false
                lastEnd = t
            } else {
                rotation += rate * dt
                peak = Swift.max(peak, r)
            }
        }
        if !active && r > activeRate {
            active = true
            start = t
            rotation = rate * dt
            peak = r
        }
        return done
    }

    /// Drops the swing in progress (a gap in the samples).
    mutating func interrupt() { active = false }
}
