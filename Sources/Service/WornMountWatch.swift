import LibC
import Geometry
import MountLearning

/// Learning the mount while the headset is worn, from what only a head does: a rhythm of nods turns the head
/// about its left-right axis, chin-down first, and gravity in the rest just before it says which way is up. The running service
/// feeds it every raw sample; it says something only rarely: when the configured mount has disagreed with what
/// the head shows for minutes (a warning, at most once an hour), or, when no mount is configured, once, which
/// mount the head shows. Allocation-free per sample (a `MountLearner` and a few numbers); the text of a finding
/// is made only when there is one.
public struct WornMountWatch: Sendable {
    public struct Settings: Sendable {
        /// Rest disagrees with the configured up beyond this (rad): 60°. A worn head rests between about 45°
        /// down (reading a phone) and 30° up, so gravity at rest is never further from the head's up than that
        /// while sitting or standing; a wrong axis is 90° or 180° off. Lying down also puts gravity 90° off, so
        /// the warning names what it measured and asks, it does not change anything.
        public var upTolerance = 60 * Units.radiansPerDegree
        /// A rhythm of nods disagrees with the configured left beyond this (rad): 45°, half way to the 90° of an
        /// axis swapped with its neighbour; the learner's own spread is 20° (its consistency rule).
        public var leftTolerance = 45 * Units.radiansPerDegree
        /// Disagreement must go on for this long (s), with no agreeing evidence in between: 3 min, so a stretch
        /// of odd postures or of head tilts that happened to look like nods does not count.
        public var disagreeFor = 180.0
        /// … and rest on at least this many pieces of evidence (rests or nod series).
        public var minimumEvidence = 3
        /// At most one warning per this long (s): 1 h.
        public var warnEvery = 3600.0
        /// A rest counts for up when it ended at most this long (s) before a run of nods began: 10 s, the
        /// wearer looking somewhere and then nodding, not a rest long before it in another posture.
        public var restBeforeNods = 10.0
        public var learner = MountLearner.Settings()
        public init() {}
    }

    public enum Axis: String, Sendable, Equatable { case up, left }

    /// What the watch has to say.
    public enum Finding: Sendable, Equatable {
        /// The configured mount's `axis` ("up" or "left") has been off what the head shows by `degrees` (the
        /// largest seen) for `seconds`, over `evidence` rests or nod series; `shown` is the mount the head shows
        /// when the nods and the rests together give one.
        case disagrees(axis: Axis, degrees: Double, seconds: Double, evidence: Int, shown: Mount?)
        /// No mount is configured, and the head shows this one (from `nods` nods and rest).
        case learned(Mount, nods: Int)

        /// The journal line.
        public var text: String {
            switch self {
            case let .disagrees(axis, degrees, seconds, evidence, shown):
                let what = axis == .up ? "gravity at rest" : "the axis of the wearer's nods"
                return "headtrack: warning: the configured mount's \(axis.rawValue) axis has been \(Int(degrees.rounded()))° off \(what) "
                    + "for \(Int((seconds / 60).rounded())) min (\(evidence) times)"
                    + (shown.map { "; the head shows mount \($0.argument)" } ?? "")
                    + ": check the mount (headtrack calibrate --mount learns it)"
            case let .learned(mount, nods):
                return "headtrack: no mount is configured; the head shows mount \(mount.argument) (from \(nods) nods and rest): "
                    + "run 'headtrack calibrate --mount' to measure and keep it"
            }
        }

        /// Whether it is a warning (journal priority) rather than information.
        public var isWarning: Bool { if case .disagrees = self { return true } else { return false } }
    }

    /// Disagreement of one axis over time.
    struct Track: Sendable {
        var since: Double? = nil
        var evidence = 0
        var worst = 0.0
        mutating func agree() { self = Track() }
        mutating func disagree(t: Double, degrees: Double) {
            if since == nil { since = t }
            evidence += 1
            worst = Swift.max(worst, degrees)
        }
    }

    public let settings: Settings
    public let configured: Mount?
    private var learner: MountLearner
    private var seenSeries = 0
    private var up = Track()
    private var left = Track()
    private var lastWarning = -Double.infinity
    private var toldLearned = false
    /// The mount the head showed last (nods from rest with rest before them), for the findings' text.
    public private(set) var shown: Mount? = nil

    public init(configured: Mount?, settings: Settings = Settings()) {
        self.settings = settings
        self.configured = configured
        learner = MountLearner(settings: settings.learner)
        _ = Mount.axisForms.count   // built now, not on the loop thread at the first nods
    }

    /// One raw sample (sensor frame, gyro bias removed when a calibration is known); a finding now and then.
    ///
    /// Evidence comes only with a run of nods, since only a worn headset nods: a headset put down on a table
    /// rests in any direction for as long as it likes, and that says nothing about the head. Each run of
    /// `minimumNods` or more about a horizontal axis is one piece of evidence for left, and the rest that
    /// ended at most `restBeforeNods` before it (the wearer looking ahead, then nodding) one for up.
    public mutating func add(t: Double, gyro: Vector3, accel: Vector3) -> Finding? {
        learner.add(t: t, gyro: gyro, accel: accel)
        guard learner.seriesCompleted != seenSeries else { return nil }
        seenSeries = learner.seriesCompleted
        guard let s = learner.latestSeries, s.cycles >= settings.learner.minimumNods else { return nil }
        let rest = learner.latestStill
        let restBefore = rest.seconds > 0 && rest.end <= s.start + 0.5 && s.start - rest.end <= settings.restBeforeNods
        let g = restBefore ? rest.up : s.meanAccel.normalized
        guard g.isFinite, abs(s.axis.dot(g)) <= sin(settings.learner.horizontalTolerance) else { return nil }
        // A rhythm of nods about a horizontal axis. Its sense is known when it began from rest.
        if s.fromRest && restBefore, let m = Mount(up: g, left: s.axis) {
            let nearest = m.nearestAxisForm
            shown = nearest.angle <= settings.learner.snapTolerance ? nearest.mount : m
        }
        guard let cfg = configured else {
            guard !toldLearned, let m = shown else { return nil }
            toldLearned = true
            return .learned(m, nods: s.cycles)
        }
        if restBefore {
            let off = acos(Swift.min(1, Swift.max(-1, g.dot(cfg.up))))
            if off > settings.upTolerance { up.disagree(t: t, degrees: off * Units.degreesPerRadian) } else { up.agree() }
        }
        let line = acos(Swift.min(1, abs(s.axis.dot(cfg.left))))
        if line > settings.leftTolerance {
            left.disagree(t: t, degrees: line * Units.degreesPerRadian)
        } else if s.fromRest && s.axis.dot(cfg.left) < 0 {
            left.disagree(t: t, degrees: 180 - line * Units.degreesPerRadian)   // began chin-up: forward is backwards
        } else {
            left.agree()
        }
        return check(axis: .left, t: t) ?? check(axis: .up, t: t)
    }

    /// The warning when `axis` has disagreed long enough and the last one is an hour old; its track starts over.
    private mutating func check(axis: Axis, t: Double) -> Finding? {
        let track = axis == .up ? up : left
        guard let since = track.since, t - since >= settings.disagreeFor, track.evidence >= settings.minimumEvidence,
              t - lastWarning >= settings.warnEvery else { return nil }
        lastWarning = t
        if axis == .up { up.agree() } else { left.agree() }
        return .disagrees(axis: axis, degrees: track.worst, seconds: t - since, evidence: track.evidence, shown: shown)
    }

}
