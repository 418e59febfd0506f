import LibC
import Fusion
import SensorCalibration
import Geometry
import Tracking

/// `eval calibration --daily`: the background calibration on real head-worn recordings with no heading truth
/// (ClassyGlass: glasses, raw 20 Hz magnetometer, hundreds of µT of hard iron). Each recording is replayed
/// through `Pipeline` as `run` ships it, with no calibration file (the iron changes between recordings), and
/// judged by physics: once calibrated, the field's strength holds still, and so does its direction in the
/// gyro-and-gravity frame (its dip always, its azimuth over the seconds of a head turn, before gyro drift).
public enum DailyCalibrationEvaluation {
    /// What one recording showed. Counts and deviations start at the first establishment: before it the
    /// heading has no calibration to be judged by.
    public struct Recording: Sendable {
        public var name: String
        public var activity: String
        public var seconds: Double
        /// Seconds from the recording's start to the first establishment (nil: never established; 0 in a
        /// session that was established before this recording).
        public var establishedAt: Double?
        /// Seconds of the recording after the first establishment.
        public var establishedSeconds: Double
        /// Changes of the correction in use after the first establishment: to an established one (a
        /// replacement or refinement), and to a fit that was not established (a stand-in after a forgetting).
        public var replacements = 0
        public var standIns = 0
        /// Of those changes, the ones after which the filter's heading started over (the old correction no
        /// longer explained the field).
        public var headingRestarts = 0
        /// Forgettings after the first establishment, and before it (an unestablished store found stuck).
        public var forgettings = 0
        public var forgettingsLearning = 0
        /// Largest shift (°) of the heading reference at a change after the first establishment: the mean
        /// azimuth change, in the gyro-and-gravity frame, of the last second's samples under the new
        /// correction against the old one. The heading moves by that (at once on a restart, else over seconds).
        public var largestJump: Double?
        /// Once established, per magnetometer sample under the correction in use: |strength / median − 1|,
        /// and |dip − median dip| (°).
        public var strengthDeviations: [Double] = []
        public var dipDeviations: [Double] = []
        /// Per `turnWindow` of the head turning by `minimumTurn` or more under one correction: the RMS (°) of
        /// the field's azimuth in the gyro-and-gravity frame about its mean. A calibration error turns with
        /// the head and swings the azimuth; a right one leaves only noise and the room's gradients.
        public var turningAzimuthRMS: [Double] = []
        public var medianStrength: Double?
        public var medianDip: Double?
        public var refusedSamples = 0
        /// Why a recording never got there: magnetometer samples offered and kept, changes while learning (fits
        /// of part of the sphere standing in), and the fit with the most coverage seen.
        public var observedSamples = 0
        public var keptSamples = 0
        public var changesLearning = 0
        public var widestFit: EllipsoidFit.Figures? = nil
        /// Judgings of a fit on fresh samples: how many, and the candidates' scores (`FieldConsistency`: the
        /// field's RMS spread in the gyro-and-gravity frame over its strength; a candidate must reach 0.16).
        public var judgements = 0
        public var candidateScores: [Double] = []
        public var currentScores: [Double] = []
        /// The filter's gyro bias (°/s) at the end, beside the median gyro over the quiet samples (|ω| < 3 °/s).
        public var finalGyroBias = Vector3.zero
        public var quietGyroMedian = Vector3.zero
    }

    public struct Settings: Sendable {
        public var turnWindow = 2.0
        /// A turn of 30° moves a hard-iron error of 1 µT through 0.5 µT of a 20 µT horizontal field (1.5° of
        /// azimuth); smaller turns show little besides noise.
        public var minimumTurn = 30.0 * Double.pi / 180
        /// Samples (the last second at 20 Hz) over which a change's heading shift is averaged.
        public var jumpSamples = 20
        public init() {}
    }

    /// The activity of a ClassyGlass file name, `cg<study>_u<user>_e<experiment>_<activity>.csv`: what follows
    /// the third underscore; the whole name for any other.
    public static func activity(ofFile path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        if name.hasSuffix(".csv") { name = name.dropLast(4) }
        let parts = name.split(separator: "_", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0].hasPrefix("cg") ? String(parts[3]) : String(name)
    }

    /// The wearer of a ClassyGlass file, `cg<study>_u<user>`; the whole name for any other file (its own session).
    public static func person(ofFile path: String) -> String {
        var name = Substring(path.split(separator: "/").last ?? Substring(path))
        if name.hasSuffix(".csv") { name = name.dropLast(4) }
        let parts = name.split(separator: "_", maxSplits: 3, omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0].hasPrefix("cg") ? parts[0] + "_" + parts[1] : String(name)
    }

    /// The azimuth (°) and dip (°, positive below the horizon) of a field in the gyro-and-gravity frame (z up).
    static func azimuthAndDip(_ v: Vector3) -> (azimuth: Double, dip: Double) {
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        return (atan2(v.y, v.x) * 180 / .pi, atan2(-v.z, horizontal) * 180 / .pi)
    }

    /// One person's recordings, in order, as one trace whose windows are the recordings: `Replay` resets the
    /// pipeline between them and keeps what the background calibration learned, as `run` keeps it across
    /// restarts (its learned calibration file). Times run on, with 2 s between recordings.
    public static func session(_ parts: [Trace]) -> Trace {
        var out = Trace(metadata: parts.first?.metadata ?? [:], records: [])
        var offset = 0.0
        for (k, part) in parts.enumerated() {
            let start = part.records.first?.t ?? 0
            for var r in part.records {
                r.t = r.t - start + offset
                r.window = k
                out.records.append(r)
            }
            offset = (out.records.last?.t ?? offset) + 2
        }
        return out
    }

    /// Replays `trace` (the pipeline's default settings: the background calibration on, no calibration file,
    /// no mount; the learner works in the sensor frame, and every figure here is mount-free). `parts` names
    /// its windows in order (one part for a trace without windows); counts start at the first establishment
    /// in the whole trace, and each part's `establishedAt` is from its own start (0: established on entry).
    public static func evaluate(trace: Trace, parts: [(name: String, activity: String)], settings: Settings = Settings()) -> [Recording] {
        guard !trace.records.isEmpty, !parts.isEmpty else { return [] }
        var recs = parts.map { Recording(name: $0.name, activity: $0.activity, seconds: 0, establishedAt: nil, establishedSeconds: 0) }
        typealias Tail = [(t: Double, azimuth: Double, dip: Double, strength: Double, level: Quaternion, revision: Int)]
        // Once established: per part, per magnetometer sample under the correction in use.
        var tails = [Tail](repeating: [], count: parts.count)
        var recent: [(raw: Vector3, level: Quaternion)] = []
        var part = 0, partStart = trace.records[0].t, window = trace.records[0].window
        var revision = 0, forgettings = 0, refused = 0, observed = 0, kept = 0
        var inUse = MagnetometerCorrection.identity
        var established = false
        var judgement: MagnetometerAutoCalibration.Judgement? = nil
        Replay.run(trace, settings: Pipeline.Settings()) { event, pipeline in
            guard case let .sample(i, t) = event, let learner = pipeline.autoCalibration else { return }
            if trace.records[i].window != window {
                window = trace.records[i].window
                part = Swift.min(part + 1, parts.count - 1)
                partStart = t
                // The reset started a new gyro-and-gravity frame: the last second's samples are in the old one.
                recent.removeAll(keepingCapacity: true)
            }
            recs[part].seconds = t - partStart
            recs[part].finalGyroBias = pipeline.filter.gyroBias * (180 / .pi)
            if established { recs[part].establishedSeconds = t - partStart - (recs[part].establishedAt ?? 0) }
            if learner.forgettings != forgettings {
                if established { recs[part].forgettings += learner.forgettings - forgettings }
                else { recs[part].forgettingsLearning += learner.forgettings - forgettings }
                forgettings = learner.forgettings
            }
            recs[part].refusedSamples += learner.refusedSamples - refused
            recs[part].observedSamples += learner.observedSamples - observed
            recs[part].keptSamples += learner.nextSampleNumber - kept
            (refused, observed, kept) = (learner.refusedSamples, learner.observedSamples, learner.nextSampleNumber)
            if let j = learner.latestJudgement, j != judgement {
                judgement = j
                recs[part].judgements += 1
                recs[part].currentScores.append(j.current)
                if let c = j.candidate { recs[part].candidateScores.append(c) }
            }
            if let f = learner.latestFit, f.coverage > (recs[part].widestFit?.coverage ?? -1) { recs[part].widestFit = f }
            if learner.revision != revision {
                let next = learner.correction
                if established {
                    if learner.isEstablished { recs[part].replacements += 1 } else { recs[part].standIns += 1 }
                    // A restart leaves the filter's heading average empty until its next magnetometer sample.
                    if learner.lastChangeReplacedWrongField && pipeline.filter.state.magSamples == 0 { recs[part].headingRestarts += 1 }
                    let jump = headingShift(recent, from: inUse, to: next)
                    recs[part].largestJump = Swift.max(recs[part].largestJump ?? 0, jump)
                } else {
                    recs[part].changesLearning += 1
                }
                revision = learner.revision
                inUse = next
            }
            // After the change above: the change that establishes a correction is not counted as one after.
            if !established && learner.state == .calibrated { established = true }
            if established && recs[part].establishedAt == nil { recs[part].establishedAt = t - partStart }
            guard let raw = trace.records[i].mag else { return }
            let level = pipeline.filter.levelAttitude
            if recent.count == settings.jumpSamples { recent.removeFirst() }
            recent.append((raw, level))
            guard established else { return }
            let field = level.rotate(inUse.apply(raw))
            let (azimuth, dip) = azimuthAndDip(field)
            tails[part].append((t, azimuth, dip, field.length, level, revision))
        }
        for k in recs.indices { fieldFigures(tails[k], into: &recs[k], settings) }
        var quiet: [[Vector3]] = [[]]
        var w = trace.records[0].window
        for r in trace.records {
            if r.window != w { w = r.window; quiet.append([]) }
            if r.gyro.length < 3 * .pi / 180 { quiet[quiet.count - 1].append(r.gyro * (180 / .pi)) }
        }
        for k in recs.indices where k < quiet.count && !quiet[k].isEmpty {
            recs[k].quietGyroMedian = Vector3(median(quiet[k].map(\.x)), median(quiet[k].map(\.y)), median(quiet[k].map(\.z)))
        }
        return recs
    }

    /// One recording (a trace without windows).
    public static func evaluate(trace: Trace, name: String, activity: String, settings: Settings = Settings()) -> Recording {
        evaluate(trace: trace, parts: [(name, activity)], settings: settings)[0]
    }

    /// The strength, dip and turning figures of one recording's established samples.
    private static func fieldFigures(_ tail: [(t: Double, azimuth: Double, dip: Double, strength: Double, level: Quaternion, revision: Int)],
                                     into rec: inout Recording, _ settings: Settings) {
        guard !tail.isEmpty else { return }
        let strength = median(tail.map(\.strength)), dip = median(tail.map(\.dip))
        rec.medianStrength = strength
        rec.medianDip = dip
        rec.strengthDeviations = tail.map { abs($0.strength / strength - 1) }
        rec.dipDeviations = tail.map { abs($0.dip - dip) }
        // Turning windows, stepped by half a window, each under one correction.
        var start = 0
        while start < tail.count {
            let t0 = tail[start].t
            var end = start
            var turn = 0.0
            while end < tail.count && tail[end].t < t0 + settings.turnWindow && tail[end].revision == tail[start].revision {
                turn = Swift.max(turn, (tail[start].level.conjugate * tail[end].level).angle)
                end += 1
            }
            if end < tail.count && tail[end].t >= t0 + settings.turnWindow && turn >= settings.minimumTurn && end - start >= 5 {
                rec.turningAzimuthRMS.append(circularRMS(tail[start..<end].map(\.azimuth)))
            }
            let step = tail[start...].firstIndex { $0.t >= t0 + settings.turnWindow / 2 } ?? tail.count
            start = Swift.max(step, start + 1)
        }
    }

    /// The mean change (°, absolute) of the azimuth of `samples` under `new` against `old`.
    static func headingShift(_ samples: [(raw: Vector3, level: Quaternion)], from old: MagnetometerCorrection,
                             to new: MagnetometerCorrection) -> Double {
        guard !samples.isEmpty else { return 0 }
        var c = 0.0, s = 0.0
        for x in samples {
            let a = azimuthAndDip(x.level.rotate(old.apply(x.raw))).azimuth
            let b = azimuthAndDip(x.level.rotate(new.apply(x.raw))).azimuth
            let d = (b - a) * .pi / 180
            c += cos(d); s += sin(d)
        }
        return abs(atan2(s, c)) * 180 / .pi
    }

    /// RMS (°) of angles about their circular mean.
    static func circularRMS(_ degrees: [Double]) -> Double {
        var c = 0.0, s = 0.0
        for a in degrees { c += cos(a * .pi / 180); s += sin(a * .pi / 180) }
        let mean = atan2(s, c) * 180 / .pi
        let squares = degrees.map { d -> Double in
            let e = shortestDegrees(from: mean, to: d)
            return e * e
        }
        return (squares.reduce(0, +) / Double(Swift.max(1, squares.count))).squareRoot()
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

    /// The `p` quantile (nearest rank) of `values`; NaN for none.
    public static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let rank = Int((p * Double(sorted.count - 1)).rounded())
        return sorted[Swift.min(sorted.count - 1, Swift.max(0, rank))]
    }
}
