import Fusion
import SensorCalibration
import Geometry
import Tracking
import Formats

/// `eval calibration --background`: the background calibration (`MagnetometerAutoCalibration`) on recordings
/// with no calibration file, through the same `Replay` and `Pipeline` as `replay` and `run`. Per trial: the
/// recording as it is with the background calibration off and on (what it costs where nothing is wrong);
/// each known distortion from the start (heading from `learnBy` on); and each distortion appearing at
/// `changeAt` (heading from `relearnBy` on). The reference is always the clean recording with it off.
public enum BackgroundCalibrationEvaluation {
    public struct Times: Sendable {
        /// The iron from the start must be learned by then: heading is scored from here on.
        public var learnBy = 60.0
        /// When the iron of the mid-trial case appears, and by when it must be learned.
        public var changeAt = 60.0
        public var relearnBy = 120.0
        public init() {}
    }

    /// One replay: its heading RMSE from a time on, and what the learner did.
    public struct Run: Sendable {
        public var heading: Double
        public var total: Double
        /// Trace times at which the correction changed, and whether it was established then.
        public var switches: [(t: Double, established: Bool)]
        public var finalState: MagnetometerAutoCalibration.State?
        public var finalQuality: Calibration.FitQuality?
        public var refused: Int
        public var forgettings: Int
    }

    public struct Row: Sendable {
        public var trial: String
        /// "none": the recording as it is; else the distortion's name.
        public var distortion: String
        /// nil: from the start; else the time the distortion appears.
        public var appearsAt: Double?
        /// Scored from this time on (0 for the clean rows: the whole trial, as BROAD scores it).
        public var from: Double
        /// Clean recording, background calibration off: the reference.
        public var reference: Run
        /// This case with the background calibration on.
        public var learned: Run
        /// This case with it off (the negative control; equal to the reference for "none").
        public var uncalibrated: Run
    }

    public static func rows(trace: Trace, name: String, distortions: [MagnetometerDistortion], times: Times = Times()) -> [Row] {
        var rows: [Row] = []
        let clean = (off: replay(trace, auto: false), on: replay(trace, auto: true))
        rows.append(Row(trial: name, distortion: "none", appearsAt: nil, from: 0, reference: clean.off.scored(from: 0, trace),
                        learned: clean.on.scored(from: 0, trace), uncalibrated: clean.off.scored(from: 0, trace)))
        for d in distortions {
            let bent = d.applied(to: trace)
            rows.append(Row(trial: name, distortion: d.name, appearsAt: nil, from: times.learnBy,
                            reference: clean.off.scored(from: times.learnBy, trace),
                            learned: replay(bent, auto: true).scored(from: times.learnBy, bent),
                            uncalibrated: replay(bent, auto: false).scored(from: times.learnBy, bent)))
        }
        for d in distortions {
            let bent = d.applied(to: trace, from: times.changeAt)
            rows.append(Row(trial: name, distortion: d.name, appearsAt: times.changeAt, from: times.relearnBy,
                            reference: clean.off.scored(from: times.relearnBy, trace),
                            learned: replay(bent, auto: true).scored(from: times.relearnBy, bent),
                            uncalibrated: replay(bent, auto: false).scored(from: times.relearnBy, bent)))
        }
        return rows
    }

    /// The attitudes of one replay and the learner's history.
    struct Replayed {
        var estimates: [Quaternion]
        var switches: [(t: Double, established: Bool)]
        var finalState: MagnetometerAutoCalibration.State? = nil
        var finalQuality: Calibration.FitQuality? = nil
        var refused = 0
        var forgettings = 0

        func scored(from start: Double, _ trace: Trace) -> Run {
            let (estimated, truths) = AttitudeEvaluation.scored(estimates, of: trace, from: start)
            let rmse = AttitudeScoring.rmse(estimates: estimated, truths: truths, removeHeadingOffset: false)
            return Run(heading: rmse.headingDegrees, total: rmse.totalDegrees, switches: switches,
                       finalState: finalState, finalQuality: finalQuality, refused: refused, forgettings: forgettings)
        }
    }

    /// The trace through the product's pipeline as `replay` runs it (no calibration file, no mount); `learner`
    /// replaces the background calibration's settings (the leave-one-out validation's candidates).
    static func replay(_ trace: Trace, auto: Bool, learner: MagnetometerAutoCalibration.Settings? = nil) -> Replayed {
        var settings = Pipeline.Settings()
        if let l = learner { settings.autoCalibration = l }
        if !auto { settings.autoCalibration = nil }
        var out = Replayed(estimates: [], switches: [])
        out.estimates.reserveCapacity(trace.records.count)
        var revision = 0
        Replay.run(trace, settings: settings) { event, pipeline in
            guard case let .sample(r, t) = event else { return }
            out.estimates.append(pipeline.sensorAttitude)
            // Read in place: a copy of the learner kept across samples would make each of its next changes copy
            // its sample store.
            guard let revisionNow = pipeline.autoCalibration?.revision else { return }
            if revisionNow != revision {
                revision = revisionNow
                out.switches.append((t, pipeline.autoCalibration!.isEstablished))
            }
            if r == trace.records.count - 1 {
                out.finalState = pipeline.autoCalibration?.state
                out.finalQuality = pipeline.autoCalibration?.quality
                out.refused = pipeline.autoCalibration?.refusedSamples ?? 0
                out.forgettings = pipeline.autoCalibration?.forgettings ?? 0
            }
        }
        return out
    }

    public static func table(_ rows: [Row], times: Times = Times()) -> String {
        let width = Swift.max(24, rows.map(\.trial.count).max() ?? 0)
        var s = "background calibration, no calibration file; heading RMSE (°) against the clean recording with it off\n"
        s += pad("trial", width) + "  case              from   clean    off     on     Δ  switches (s, * = established)\n"
        for r in rows {
            let label = r.distortion == "none" ? "as recorded" : r.appearsAt.map { "\(r.distortion) at \(fixed($0, 0)) s" } ?? "\(r.distortion) from 0 s"
            s += pad(r.trial, width) + "  " + pad(label, 16) + leftPad(fixed(r.from, 0), 6)
            s += leftPad(fixed(r.reference.heading, 2), 8) + leftPad(fixed(r.uncalibrated.heading, 2), 7)
            s += leftPad(fixed(r.learned.heading, 2), 7) + leftPad(fixed(r.learned.heading - r.reference.heading, 2), 6)
            let shown = r.learned.switches.prefix(6).map { fixed($0.t, 1) + ($0.established ? "*" : "") }
            s += "  " + (shown.isEmpty ? "-" : shown.joined(separator: " ")) + (r.learned.switches.count > 6 ? " …(\(r.learned.switches.count))" : "") + "\n"
        }
        s += summary(rows, times: times)
        return s
    }

    /// The issue's targets, each with its figures.
    public static func summary(_ rows: [Row], times: Times = Times()) -> String {
        var s = ""
        func line(_ what: String, _ deltas: [Double], mean meanLimit: Double, worst worstLimit: Double) {
            guard let worst = deltas.max() else { return }
            let mean = deltas.reduce(0, +) / Double(deltas.count)
            let met = mean <= meanLimit && worst <= worstLimit
            s += "\(what): \(deltas.count) runs, Δ mean \(fixed(mean, 2))°, worst \(fixed(worst, 2))° "
                + "(target ≤ \(fixed(meanLimit, 1)) mean, ≤ \(fixed(worstLimit, 1)) each: \(met ? "met" : "not met"))\n"
        }
        let rotation = rows.filter { $0.trial.contains("rotation") }
        line("iron from the start, rotation trials, heading from \(fixed(times.learnBy, 0)) s",
             rotation.filter { $0.distortion != "none" && $0.appearsAt == nil }.map { $0.learned.heading - $0.reference.heading },
             mean: 0.5, worst: 2)
        line("iron appearing at \(fixed(times.changeAt, 0)) s, rotation trials, heading from \(fixed(times.relearnBy, 0)) s",
             rotation.filter { $0.appearsAt != nil }.map { $0.learned.heading - $0.reference.heading }, mean: 0.5, worst: 2)
        line("no iron added, every undisturbed and disturbed trial, whole trial",
             rows.filter { $0.distortion == "none" && TrialGroup(trialName: $0.trial) != .other }
                 .map { $0.learned.heading - $0.reference.heading }, mean: 0.1, worst: 0.5)
        return s
    }

    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    private static func leftPad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
}
