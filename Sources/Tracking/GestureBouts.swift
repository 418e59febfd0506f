import Geometry
import Gestures

/// Groups gesture reports into bouts, for apps: a bout is one stretch of nodding (or shaking, or flicking one
/// way) from its first report until the head has stopped moving that way. The detector may report a long bout
/// more than once (its run breaks at a long pause and starts again), so an app that wants one event per "yes"
/// takes the first gesture of each bout id; `ended` tells it the nodding is over.
///
/// The end is measured, not guessed from the reports: after the last report, the bout goes on while the head's
/// rate about the bout's own axes (horizontal for nods and up/down flicks, about the vertical for shakes and
/// left/right flicks, from the attitude, so no mount is needed) keeps reaching `activeRate`, and ends once it
/// has stayed under it for `quietTime`. 30 °/s is the gentlest return swing of the gesture model, and what the
/// shared recordings' truth counts swings from (A_MIN_dps). 0.5 s was measured on ../shared st30_nod1: 22 bouts
/// against its 23 labelled ones (the detector reports 73), where 0.6 s gives 7 and 0.7 s 4: people pause
/// 0.7–0.9 s between bouts, and the rate falls under 30 °/s before and after each pause. Shakes follow each
/// other closer: st30_shake1 gives 30 bouts on 55 labelled (109 reports). Pure and allocation-free: a few
/// scalars, updated on every gesture input.
public struct GestureBouts: Sendable {
    public static let activeRate = 30 * Units.radiansPerDegree
    public static let quietTime = 0.5

    /// The latest bout's id: 1, 2, ... (0 before the first gesture). Ids are never reused while the process runs.
    public private(set) var id = 0
    /// The latest bout's kind, and whether it is still going on.
    public private(set) var kind: GestureEvent = .nod
    public private(set) var active = false
    /// Gestures reported in the latest bout so far.
    public private(set) var gestures = 0
    /// Bouts ended so far, and the latest ended one: a caller notices an end by the count changing.
    public private(set) var ended = 0
    public private(set) var lastEnded = (id: 0, kind: GestureEvent.nod, t: 0.0, gestures: 0)
    /// The last moment the head still moved about the bout's axes.
    private var lastMoving = -Double.infinity

    public init() {}

    /// A gesture reported at `t`: the bout it belongs to (the current one when it is of the same kind and still
    /// going on; else the current one ends here and a new one begins). Returns the bout's id.
    @discardableResult
    public mutating func gesture(_ e: GestureEvent, t: Double) -> Int {
        if active && e == kind {
            gestures += 1
        } else {
            if active { end(at: t) }
            id += 1
            kind = e
            active = true
            gestures = 1
        }
        lastMoving = t
        return id
    }

    /// One gesture input: time (s), the head's bias-corrected rate (rad/s, head frame) and the up direction in
    /// the head frame (unit). Ends the bout once the head has been still about its axes for `quietTime`.
    public mutating func sample(t: Double, gyro: Vector3, up: Vector3) {
        guard active else { return }
        let aboutVertical = gyro.dot(up)
        let rate: Double
        switch kind {
        case .shake, .left, .right: rate = abs(aboutVertical)
        case .nod, .up, .down: rate = (gyro - up * aboutVertical).length
        }
        if rate >= GestureBouts.activeRate {
            lastMoving = t
        } else if t - lastMoving >= GestureBouts.quietTime {
            end(at: t)
        }
    }

    /// The motion history is gone (the pipeline was reset): a bout going on ends where the head last moved.
    public mutating func interrupt() {
        if active { end(at: lastMoving) }
    }

    private mutating func end(at t: Double) {
        active = false
        ended += 1
        lastEnded = (id, kind, t, gestures)
    }
}
