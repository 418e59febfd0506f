import Fusion
import Geometry
import Tracking
import Formats

/// `eval attitude --loso`: a validation of the attitude filter's magnetic-disturbance settings that cannot be
/// fitted. Each setting is tried at today's value and a step either side, the others at today's (a star, not
/// every combination: 15 candidates, each run once per trial, or also under random irons with `--seeds`:
/// see the extension below). For each trial held out, the candidate with the lowest mean 9D total RMSE on
/// the other trials is chosen, and the held-out trial is scored with it, beside today's values.
public enum AttitudeDisturbanceLOSO {
    /// One disturbance setting of `AttitudeFilter.Settings`: the steps tried and where today's value comes from.
    public enum Setting: String, Sendable, CaseIterable {
        case normTolerance = "norm tolerance"
        case dipTolerance = "dip tolerance"
        case referenceTimeConstant = "reference time constant"
        case newFieldTime = "new field time"
        case newFieldMinRate = "new field min rate"
        case recoveryFactor = "recovery factor"
        case maxRecoveryTime = "max recovery time"

        /// Today's value, in the unit shown (degrees, not radians, for the dip and the rate).
        public var today: Double {
            let s = AttitudeFilter.Settings.default
            switch self {
            case .normTolerance: return s.magNormTolerance
            case .dipTolerance: return s.magDipTolerance * Units.degreesPerRadian
            case .referenceTimeConstant: return s.magReferenceTimeConstant
            case .newFieldTime: return s.magNewFieldTime
            case .newFieldMinRate: return s.magNewFieldMinRate * Units.degreesPerRadian
            case .recoveryFactor: return s.magRecoveryFactor
            case .maxRecoveryTime: return s.magMaxRecoveryTime
            }
        }

        /// A step either side of today's: ±50 % for the two tolerances (a fraction and an angle), halved and
        /// doubled for the times, the rate and the factor (scales, where a step is a ratio). 20 s and 20 °/s are
        /// VQF's `magNewTime` and `magNewMinGyr`, so its defaults are on the grid where ours differ.
        public var neighbours: [Double] {
            switch self {
            case .normTolerance, .dipTolerance: return [today * 0.5, today * 1.5]
            default: return [today * 0.5, today * 2]
            }
        }

        public var unit: String {
            switch self {
            case .normTolerance, .recoveryFactor: return ""
            case .dipTolerance: return "°"
            case .newFieldMinRate: return "°/s"
            default: return " s"
            }
        }

        /// Where today's value comes from. VQF's defaults (Laidig & Seel 2023; `VQFParams` in vqf.cpp 2.x):
        /// magNormTh 0.1, magDipTh 10°, magRefTau 20 s, magNewTime 20 s, magNewFirstTime 5 s, magNewMinGyr
        /// 20 °/s, magRejectionFactor 2, magMaxRejectionTime 60 s.
        public var source: String {
            switch self {
            case .normTolerance: return "VQF magNormTh 0.1"
            case .dipTolerance: return "VQF magDipTh 10°"
            case .referenceTimeConstant: return "VQF magRefTau 20 s"
            case .newFieldTime: return "ours, VQF magNewTime 20 s: above a 24 s magnet pass (synthetic magnetPassing)"
            case .newFieldMinRate: return "ours, VQF magNewMinGyr 20 °/s: slow deliberate head motion"
            case .recoveryFactor: return "VQF magRejectionFactor 2"
            case .maxRecoveryTime: return "VQF magMaxRejectionTime 60 s"
            }
        }

        /// `settings` with this setting at `value` (in the unit shown).
        public func applied(_ value: Double, to settings: AttitudeFilter.Settings) -> AttitudeFilter.Settings {
            var s = settings
            switch self {
            case .normTolerance: s.magNormTolerance = value
            case .dipTolerance: s.magDipTolerance = value * Units.radiansPerDegree
            case .referenceTimeConstant: s.magReferenceTimeConstant = value
            case .newFieldTime: s.magNewFieldTime = value
            case .newFieldMinRate: s.magNewFieldMinRate = value * Units.radiansPerDegree
            case .recoveryFactor: s.magRecoveryFactor = value
            case .maxRecoveryTime: s.magMaxRecoveryTime = value
            }
            return s
        }

        /// `value` with its unit, in as few decimals as it needs (at most three: 0.15, not 0.15000000000000002).
        public func text(_ value: Double) -> String {
            var shown = fixed(value, 3)
            while shown.hasSuffix("0") { shown.removeLast() }
            if shown.hasSuffix(".") { shown.removeLast() }
            return shown + unit
        }
    }

    /// Today's values (`changed == nil`) or one setting moved to a neighbour.
    public struct Candidate: Sendable, Equatable, CustomStringConvertible {
        public var changed: (setting: Setting, value: Double)?
        public init(_ setting: Setting? = nil, _ value: Double = 0) { changed = setting.map { ($0, value) } }
        public static let today = Candidate()
        public static func == (a: Candidate, b: Candidate) -> Bool {
            a.changed?.setting == b.changed?.setting && a.changed?.value == b.changed?.value
        }
        public var settings: AttitudeFilter.Settings {
            guard let c = changed else { return .default }
            return c.setting.applied(c.value, to: .default)
        }
        /// The value of `setting` in this candidate.
        public func value(of setting: Setting) -> Double {
            changed?.setting == setting ? changed!.value : setting.today
        }
        public var description: String {
            guard let c = changed else { return "today" }
            return "\(c.setting.rawValue) \(c.setting.text(c.value))"
        }
    }

    /// Today's values first, then each setting at each neighbour.
    public static let grid: [Candidate] = [.today] + Setting.allCases.flatMap { s in s.neighbours.map { Candidate(s, $0) } }

    /// The candidate chosen for `heldOut` from `rmse[candidate][trial]` (9D total, degrees): the lowest mean
    /// on the other trials; ties (within 1e-9°) go to today's values.
    public static func choose(_ rmse: [[Double]], candidates: [Candidate], heldOut: Int) -> Int {
        LeaveOneOut.choose(rmse, preferred: candidates.firstIndex(of: .today) ?? 0, heldOut: heldOut,
                           score: { $0.reduce(0, +) / Double(Swift.max(1, $0.count)) },
                           isBetter: { $0 < $1 - 1e-9 })
    }

    /// A one-step neighbour that moves a group's mean 9D total RMSE by more than this (degrees) against today's
    /// values marks the setting as sitting on a cliff: a quarter of a degree is about 10 % of the undisturbed
    /// mean and more than the undisturbed margin over VQF (2.70° against 2.84°).
    public static let cliff = 0.25
}

/// `eval attitude --loso --seeds N`: the same choice, with every trial also replayed under random irons on
/// the raw magnetometer (`BackgroundCalibrationLOSO.randomIrons`), the background calibration on as `run` ships
/// it and no calibration file, as the calibration's own leave-one-out puts them: each iron from the start
/// (scored from `Times.learnBy`), each replaced by the next at `Times.changeAt` (scored from `Times.relearnBy`).
extension AttitudeDisturbanceLOSO {
    public typealias Times = BackgroundCalibrationEvaluation.Times
    public typealias Kind = BackgroundCalibrationLOSO.Run.Kind

    /// One version of a trial every candidate runs on: the recording as it is or under an iron, and the time
    /// from which it is scored.
    public struct Variant: Sendable {
        public var kind: Kind
        public var iron: String
        public var trace: Trace
        public var scoredFrom: Double
    }

    /// One candidate's 9D total RMSE (°) on one variant.
    public struct Run: Sendable, Equatable {
        public var kind: Kind
        public var iron: String
        public var totalDeg: Double
        public init(kind: Kind, iron: String = "", totalDeg: Double) {
            self.kind = kind; self.iron = iron; self.totalDeg = totalDeg
        }
    }

    /// The recording as it is (scored whole), each iron from the start, and each iron replaced by the next
    /// one at `times.changeAt` (the last by the first), the iron on the raw magnetometer samples only.
    public static func variants(_ trace: Trace, irons: [MagnetometerDistortion], times: Times = .init()) -> [Variant] {
        var out = [Variant(kind: .none, iron: "", trace: trace, scoredFrom: -.infinity)]
        for iron in irons {
            out.append(Variant(kind: .fromStart, iron: iron.name, trace: iron.applied(to: trace), scoredFrom: times.learnBy))
        }
        for (k, iron) in irons.enumerated() {
            let next = irons[(k + 1) % irons.count]
            out.append(Variant(kind: .changed, iron: iron.name + ">" + next.name,
                               trace: BackgroundCalibrationLOSO.changed(trace, from: iron, to: next, at: times.changeAt),
                               scoredFrom: times.relearnBy))
        }
        return out
    }

    /// `candidate` on `variant`: the product's pipeline with the background calibration on and no calibration
    /// file, 9D total RMSE over the moving samples with truth from `variant.scoredFrom` on (NaN if none).
    public static func run(_ variant: Variant, candidate: Candidate) -> Run {
        var settings = candidate.settings
        settings.useMagnetometer = true
        let all = AttitudeEvaluation.estimates(for: variant.trace, settings: settings, autoCalibration: true)
        let (estimated, truths) = AttitudeEvaluation.scored(all, of: variant.trace, from: variant.scoredFrom)
        let total = estimated.isEmpty ? .nan
            : AttitudeScoring.rmse(estimates: estimated, truths: truths, removeHeadingOffset: false).totalDegrees
        return Run(kind: variant.kind, iron: variant.iron, totalDeg: total)
    }

    /// A candidate's score on a trial: the plain mean of its runs there (as recorded, and every iron run).
    public static func trialScore(_ runs: [Run]) -> Double {
        runs.map(\.totalDeg).reduce(0, +) / Double(Swift.max(1, runs.count))
    }

    /// The mean of the runs under an iron (from the start and changed), NaN when there are none.
    public static func ironMean(_ runs: [Run]) -> Double {
        let irons = runs.filter { $0.kind != .none }
        return irons.isEmpty ? .nan : trialScore(irons)
    }

    /// The candidate chosen for `heldOut` from `runs[candidate][trial]`: each trial scored by `trialScore`,
    /// then `choose` on those (lowest mean on the other trials, ties to today's).
    public static func choose(runs: [[[Run]]], candidates: [Candidate], heldOut: Int) -> Int {
        choose(runs.map { $0.map(trialScore) }, candidates: candidates, heldOut: heldOut)
    }
}
