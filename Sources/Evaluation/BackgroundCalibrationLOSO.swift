import LibC
import SensorCalibration
import Geometry
import Tracking
import Simulation
import Formats

/// `eval calibration --background --loso`: a validation of the background calibration's tuned settings that
/// cannot be fitted. For each trial held out, the settings are chosen from a small grid by their score on the
/// other trials only, then the held-out trial is scored with the chosen values, beside today's defaults.
/// Every trial is put under random irons from the start, irons that change part-way, and no iron at all.
public enum BackgroundCalibrationLOSO {
    /// One point of a grid: samples per region, coverage to establish and the fraction to replace (the
    /// `tuned` grid), and the scores that say a correction explains or contradicts the field (`judging`).
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        public var slotsPerCell: Int
        public var coverage: Double
        public var clearlyBetter: Double
        public var explainedScore = MagnetometerAutoCalibration.Settings().explainedScore
        public var contradictedScore = MagnetometerAutoCalibration.Settings().contradictedScore
        public init(slotsPerCell: Int, coverage: Double, clearlyBetter: Double) {
            self.slotsPerCell = slotsPerCell; self.coverage = coverage; self.clearlyBetter = clearlyBetter
        }
        public var settings: MagnetometerAutoCalibration.Settings {
            var s = MagnetometerAutoCalibration.Settings()
            s.slotsPerCell = slotsPerCell
            s.acceptance.minimumCoverage = coverage
            s.clearlyBetter = clearlyBetter
            s.explainedScore = explainedScore
            s.contradictedScore = contradictedScore
            return s
        }
        /// The three tuned settings; the judging scores follow when they are not today's.
        public var description: String {
            let today = MagnetometerAutoCalibration.Settings()
            let ownJudging = explainedScore != today.explainedScore || contradictedScore != today.contradictedScore
            return "\(slotsPerCell)/\(fixed(coverage, 2))/\(fixed(clearlyBetter, 2))"
                + (ownJudging ? " judging \(fixed(explainedScore, 2))/\(fixed(contradictedScore, 2))" : "")
        }
    }

    /// Today's values (`MagnetometerAutoCalibration.Settings`).
    public static var today: Candidate {
        let s = MagnetometerAutoCalibration.Settings()
        return Candidate(slotsPerCell: s.slotsPerCell, coverage: s.acceptance.minimumCoverage, clearlyBetter: s.clearlyBetter)
    }

    /// Which settings a leave-one-out run chooses.
    public enum Grid: String, Sendable, CaseIterable {
        /// Samples per region, coverage to establish, fraction to replace: each at today's value and a step
        /// either side, 27 candidates.
        case tuned
        /// The scores below which a correction explains the field and above which it contradicts it (today
        /// 0.08 and 0.16), each at today's value and a step either side, the others at today's: 9 candidates.
        case judging

        public var candidates: [Candidate] {
            switch self {
            case .tuned:
                return [8, 12, 16].flatMap { n in
                    [0.25, 0.3, 0.4].flatMap { c in [0.5, 0.7, 0.85].map { Candidate(slotsPerCell: n, coverage: c, clearlyBetter: $0) } }
                }
            case .judging:
                return [0.05, 0.08, 0.11].flatMap { explained in
                    [0.12, 0.16, 0.24].map { contradicted in
                        var c = BackgroundCalibrationLOSO.today
                        c.explainedScore = explained
                        c.contradictedScore = contradicted
                        return c
                    }
                }
            }
        }

        /// What a candidate's label names, for the report's first line.
        public var names: String {
            switch self {
            case .tuned: return "samples per region / coverage to establish / fraction to replace"
            case .judging: return "judging: score that explains / score that contradicts the field, the rest today's"
            }
        }
    }

    /// The random irons: hard iron 10–60 µT in a random direction; soft iron with axis gains 0.8–1.25
    /// about randomly rotated axes (symmetric, as any a calibration can see). Reproducible from `seed`.
    public static func randomIrons(count: Int, seed: UInt64) -> [MagnetometerDistortion] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { i in
            var h = Vector3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            h = h / Swift.max(h.length, 1e-9) * (10 + 50 * rng.uniform())
            let q = Quaternion(w: rng.gaussian(), x: rng.gaussian(), y: rng.gaussian(), z: rng.gaussian()).normalized
            let r = Matrix3(rows: q.rotate(Vector3(1, 0, 0)), q.rotate(Vector3(0, 1, 0)), q.rotate(Vector3(0, 0, 1))).transposed
            let gains = Vector3(0.8 + 0.45 * rng.uniform(), 0.8 + 0.45 * rng.uniform(), 0.8 + 0.45 * rng.uniform())
            return MagnetometerDistortion(name: "s\(seed)i\(i + 1)", hardIron: h, softIron: r * Matrix3.diagonal(gains) * r.transposed)
        }
    }

    /// What one run cost against the clean recording with the background calibration off (heading RMSE, °),
    /// and the bound the issue sets it: +2° under an iron, +0.5° with none.
    public struct Run: Sendable {
        public enum Kind: String, Sendable { case none, fromStart = "from start", changed }
        public var kind: Kind
        public var excess: Double
        public var bound: Double { kind == .none ? 0.5 : 2 }
        public var breaks: Bool { !(excess <= bound) }
    }

    /// Every run of one trial under one candidate: the recording as it is (whole trial), each iron from the
    /// start (heading from `times.learnBy`), and each iron replaced by the next at `times.changeAt` (heading
    /// from `times.relearnBy`).
    public static func runs(trace: Trace, irons: [MagnetometerDistortion], candidate: Candidate,
                            reference: (whole: Double, learnBy: Double, relearnBy: Double),
                            times: BackgroundCalibrationEvaluation.Times = .init()) -> [Run] {
        let learner = candidate.settings
        func heading(_ t: Trace, from start: Double) -> Double {
            BackgroundCalibrationEvaluation.replay(t, auto: true, learner: learner).scored(from: start, t).heading
        }
        var out = [Run(kind: .none, excess: heading(trace, from: 0) - reference.whole)]
        for iron in irons {
            out.append(Run(kind: .fromStart, excess: heading(iron.applied(to: trace), from: times.learnBy) - reference.learnBy))
        }
        for (k, iron) in irons.enumerated() {
            let bent = changed(trace, from: iron, to: irons[(k + 1) % irons.count], at: times.changeAt)
            out.append(Run(kind: .changed, excess: heading(bent, from: times.relearnBy) - reference.relearnBy))
        }
        return out
    }

    /// The trace with `iron` on its magnetometer samples before `changeAt` and `next` from then on (an iron
    /// replaced part-way, as when a headset is put on another frame); everything else unchanged.
    public static func changed(_ trace: Trace, from iron: MagnetometerDistortion, to next: MagnetometerDistortion,
                               at changeAt: Double) -> Trace {
        var bent = trace
        for i in bent.records.indices {
            if let m = bent.records[i].mag { bent.records[i].mag = (bent.records[i].t < changeAt ? iron : next).apply(m) }
        }
        return bent
    }

    /// The reference: the clean recording with the background calibration off, scored from each start.
    public static func reference(_ trace: Trace, times: BackgroundCalibrationEvaluation.Times = .init())
        -> (whole: Double, learnBy: Double, relearnBy: Double) {
        let off = BackgroundCalibrationEvaluation.replay(trace, auto: false)
        return (off.scored(from: 0, trace).heading, off.scored(from: times.learnBy, trace).heading,
                off.scored(from: times.relearnBy, trace).heading)
    }

    /// The selection score of runs, lower is better: first the runs that break their bound, then the mean
    /// excess with each run clipped to ±10° (an iron no setting can learn on a trial that barely turns must
    /// not outweigh the rest).
    public static func score(_ runs: [Run]) -> (breaks: Int, meanExcess: Double) {
        let clipped = runs.map { Swift.max(-10, Swift.min(10, $0.excess.isFinite ? $0.excess : 10)) }
        return (runs.filter(\.breaks).count, clipped.reduce(0, +) / Double(Swift.max(1, runs.count)))
    }

    /// The candidate chosen on `runs[candidate][trial]` without `heldOut`; ties go to today's values.
    public static func choose(_ runs: [[[Run]]], candidates: [Candidate], heldOut: Int) -> Int {
        LeaveOneOut.choose(runs, preferred: candidates.firstIndex(of: today) ?? 0, heldOut: heldOut,
                           score: { (trials: [[Run]]) in score(trials.flatMap { $0 }) }, isBetter: isBetter)
    }

    /// Fewer runs beyond their bound, then a smaller mean excess.
    static func isBetter(_ s: (breaks: Int, meanExcess: Double), _ best: (breaks: Int, meanExcess: Double)) -> Bool {
        s.breaks < best.breaks || (s.breaks == best.breaks && s.meanExcess < best.meanExcess - 1e-9)
    }
}
