import Gestures
import Formats
import Simulation
import Cohorts

/// `eval gestures --cohort N --windows S`: the cohort cut into short independent recordings, as earbud
/// datasets are (one-second windows labelled yes, no or nothing, each replayed from a fresh start). It measures
/// what a long recording hides: the attitude filter and the detector starting mid-motion, and a gesture that
/// must be found inside a window that opened just before it.
///
/// Each gesture trial gives one window, opening (`Opening`) either 0–0.4 s before the gesture's first swing (a
/// prompted gesture cut out with a little lead) or mid-gesture, with a swing already under way in the window's
/// first sample (a window cut from a longer recording); it is right when the gesture's label is reported in it
/// and the other label is not. A gesture too slow to complete its second swing inside the window is scored like any other (wrong):
/// that is part of what a window length costs; the windows that leave room for the report are also counted
/// apart, so the table tells the detector's misses from the window's. Each distractor trial gives `windowsPerDistractor` windows at
/// seeded random places after its movement began; they are right when no nod or shake is reported.
public struct GestureCohortWindows: Sendable {
    public struct KindScore: Sendable, Equatable {
        public var kind: CohortKind
        public var windows = 0
        public var right = 0
        /// Gesture windows with room for the report: the completing swing peaks at least `reportRoom`
        /// before the window ends (the detector's latency target), and of those, the ones it got right.
        public var fitting = 0
        public var fittingRight = 0
        public var accuracy: Double? { windows > 0 ? Double(right) / Double(windows) : nil }
        public var fittingAccuracy: Double? { fitting > 0 ? Double(fittingRight) / Double(fitting) : nil }
    }

    /// Where a gesture window opens.
    public enum Opening: String, Sendable, CaseIterable {
        /// 0–`maxLead` s before the gesture's first swing.
        case leadIn = "lead-in"
        /// Between the start and the fastest moment of one of the two swings of the gesture's first cycle
        /// (its down or its up, its out or its back), so that swing is under way in the first sample: a window
        /// cut from a longer recording, or a detector restarted mid-gesture. The second swing is chosen only
        /// in a gesture of several cycles that goes on from it at once (the next cycle's first swing follows
        /// within `reversalWithoutPause`), so the window still holds two swings of the gesture.
        case midGesture = "mid-gesture"
    }
    /// Longest pause between two swings that still makes them one movement (s): 0.1 s, over the cohort's
    /// 0–0.08 s reversals and under its 0.1–0.6 s pauses between the nods of a long "yes".
    public static let reversalWithoutPause = 0.1

    public var evaluation: GestureCohortEvaluation
    /// Window length (s).
    public var seconds: Double
    public var windowsPerDistractor = 4
    public var opening = Opening.leadIn
    /// Longest lead of a gesture window before the gesture's first swing (s).
    public static let maxLead = 0.4
    /// Time after the completing swing's peak that a window must still run for the gesture to fit (s): the
    /// issue's bound on the median report latency, 0.15 s.
    public static let reportRoom = 0.15

    public init(evaluation: GestureCohortEvaluation, seconds: Double) {
        self.evaluation = evaluation
        self.seconds = seconds
    }

    /// Scores every kind's windows (or the kinds given); `progress` is told each kind as it begins.
    public func run(kinds: [CohortKind] = CohortKind.allCases,
                    progress: (CohortKind) -> Void = { _ in }) -> [KindScore] {
        kinds.map { kind in
            progress(kind)
            var s = KindScore(kind: kind)
            for w in 0..<evaluation.cohort.wearers {
                let trial = evaluation.cohort.trial(wearer: w, kind: kind)
                // Its own stream of draws, so the places do not depend on how many kinds are run.
                var r = SeededRandom(seed: evaluation.cohort.seed &* 0x5851_F42D &+ UInt64(w) &* 2_654_435_761
                                         &+ UInt64(CohortKind.allCases.firstIndex(of: kind) ?? 0))
                for start in starts(in: trial, random: &r) { score(trial, from: start, into: &s) }
            }
            return s
        }
    }

    /// Where the windows of a trial open (s).
    func starts(in trial: CohortTrial, random r: inout SeededRandom) -> [Double] {
        if let g = trial.gesture {
            switch opening {
            case .leadIn:
                return [max(0, g.start - r.range(0, GestureCohortWindows.maxLead))]
            case .midGesture:
                let cycles = trial.kind == .nods || trial.kind == .shakes
                let goesOn = cycles && g.swingStarts.count > 2
                    && g.swingStarts[2] - g.swingEnds[1] <= GestureCohortWindows.reversalWithoutPause
                let k = goesOn && r.uniform() < 0.5 ? 1 : 0
                return [r.range(g.swingStarts[k], g.swingPeaks[k])]
            }
        }
        // Windows open once the distractor's movement has begun in every trial.
        let earliest = GestureCohort.latestMovementStart, latest = trial.duration - seconds
        guard latest > earliest else { return [] }
        return (0..<windowsPerDistractor).map { _ in r.range(earliest, latest) }
    }

    func score(_ trial: CohortTrial, from start: Double, into s: inout KindScore) {
        // The swing that completes the gesture as the window sees it: the second one that began in the window.
        let completingPeak = trial.gesture.map { g in
            g.swingStarts.count > 2 && start > g.swingStarts[1] ? g.swingPeaks[2] : g.completingPeak
        }
        let window = trial.slice(from: start, seconds: seconds)
        let events = evaluation.detections(in: window).map(\.event).filter { $0 == .nod || $0 == .shake }
        s.windows += 1
        guard let g = trial.gesture else {
            if events.isEmpty { s.right += 1 }
            return
        }
        let right = events.contains(where: { $0.rawValue == g.label })
            && !events.contains(where: { $0.rawValue != g.label })
        if right { s.right += 1 }
        if (completingPeak ?? g.completingPeak) + GestureCohortWindows.reportRoom <= start + seconds {
            s.fitting += 1
            if right { s.fittingRight += 1 }
        }
    }

    public var description: String {
        "\(fixed(seconds, 2))-s windows of a \(evaluation.description)"
    }
}

extension CohortTrial {
    /// The samples from `start` for `seconds` (times kept as they were), as a recording of its own.
    func slice(from start: Double, seconds: Double) -> CohortTrial {
        let first = t.firstIndex(where: { $0 >= start }) ?? t.count
        let end = t.firstIndex(where: { $0 >= start + seconds }) ?? t.count
        var out = self
        out.t = Array(t[first..<end]); out.accel = Array(accel[first..<end]); out.gyro = Array(gyro[first..<end])
        return out
    }
}
