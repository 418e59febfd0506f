import Formats

/// The per-activity table and JSON of `eval calibration --daily` (`DailyCalibrationEvaluation`).
public enum DailyCalibrationReport {
    /// One activity's recordings together (or all of them: activity "all").
    public struct Group: Sendable {
        public var activity: String
        public var files: Int
        public var minutes: Double
        /// Recordings established at some point (on entry, in a session, included).
        public var established: Int
        /// Seconds from the recording's start to the first establishment: median and largest, over the
        /// recordings that got there.
        public var medianTimeToEstablished: Double?
        public var longestTimeToEstablished: Double?
        /// Hours from the first establishment to the recordings' ends: the denominator of the rates below.
        public var establishedHours: Double
        public var replacements: Int
        public var standIns: Int
        public var headingRestarts: Int
        public var forgettings: Int
        /// Forgettings of a store never established (not in the rate).
        public var forgettingsLearning: Int
        /// Pooled over the recordings' established samples: median and 90th percentile of |strength/median − 1|
        /// (%), 90th percentile of |dip − median| (°).
        public var strengthMedianPercent: Double
        public var strengthP90Percent: Double
        public var dipP90Degrees: Double
        /// Windows of the head turning, and the median and 90th percentile of their azimuth RMS (°).
        public var turningWindows: Int
        public var turningMedianDegrees: Double
        public var turningP90Degrees: Double
        public var largestJump: Double?
        /// Why it is or is not established: samples kept per minute, judgings, plausible fits among them and
        /// their median score (0.16 needed), and the median coverage and residual of each recording's widest fit.
        public var keptPerMinute: Double
        public var judgements: Int
        public var candidates: Int
        /// Changes of the correction before any was established (fits of part of the sphere standing in).
        public var changesLearning: Int
        public var candidateMedian: Double
        public var widestCoverageMedian: Double
        public var widestResidualMedian: Double

        public var replacementsPerHour: Double { rate(replacements) }
        public var standInsPerHour: Double { rate(standIns) }
        public var forgettingsPerHour: Double { rate(forgettings) }
        private func rate(_ n: Int) -> Double { establishedHours > 0 ? Double(n) / establishedHours : .nan }
    }

    public static func groups(_ recordings: [DailyCalibrationEvaluation.Recording]) -> [Group] {
        var order: [String] = []
        for r in recordings where !order.contains(r.activity) { order.append(r.activity) }
        return order.map { a in group(a, recordings.filter { $0.activity == a }) } + [group("all", recordings)]
    }

    static func group(_ activity: String, _ rs: [DailyCalibrationEvaluation.Recording]) -> Group {
        typealias E = DailyCalibrationEvaluation
        // Time to established only where it happened during the recording (a session may enter established).
        let times = rs.compactMap(\.establishedAt).filter { $0 > 0 }
        let strength = rs.flatMap(\.strengthDeviations), dip = rs.flatMap(\.dipDeviations)
        let turning = rs.flatMap(\.turningAzimuthRMS)
        return Group(activity: activity, files: rs.count, minutes: rs.map(\.seconds).reduce(0, +) / 60,
                     established: rs.filter { $0.establishedAt != nil }.count,
                     medianTimeToEstablished: times.isEmpty ? nil : E.percentile(times, 0.5),
                     longestTimeToEstablished: times.max(),
                     establishedHours: rs.map(\.establishedSeconds).reduce(0, +) / 3600,
                     replacements: rs.map(\.replacements).reduce(0, +), standIns: rs.map(\.standIns).reduce(0, +),
                     headingRestarts: rs.map(\.headingRestarts).reduce(0, +),
                     forgettings: rs.map(\.forgettings).reduce(0, +),
                     forgettingsLearning: rs.map(\.forgettingsLearning).reduce(0, +),
                     strengthMedianPercent: E.percentile(strength, 0.5) * 100,
                     strengthP90Percent: E.percentile(strength, 0.9) * 100,
                     dipP90Degrees: E.percentile(dip, 0.9),
                     turningWindows: turning.count,
                     turningMedianDegrees: E.percentile(turning, 0.5), turningP90Degrees: E.percentile(turning, 0.9),
                     largestJump: rs.compactMap(\.largestJump).max(),
                     keptPerMinute: Double(rs.map(\.keptSamples).reduce(0, +)) / Swift.max(1e-9, rs.map(\.seconds).reduce(0, +) / 60),
                     judgements: rs.map(\.judgements).reduce(0, +), candidates: rs.map(\.candidateScores.count).reduce(0, +),
                     changesLearning: rs.map(\.changesLearning).reduce(0, +),
                     candidateMedian: E.percentile(rs.flatMap(\.candidateScores), 0.5),
                     widestCoverageMedian: E.percentile(rs.compactMap { $0.widestFit?.coverage }, 0.5),
                     widestResidualMedian: E.percentile(rs.compactMap { $0.widestFit?.relativeResidual }, 0.5))
    }

    /// Per wearer: seconds of wear until the first establishment (nil: never).
    public static func sessionTimes(_ recordings: [DailyCalibrationEvaluation.Recording], person: (String) -> String)
        -> [(person: String, minutes: Double, established: Double?)] {
        var order: [String] = []
        for r in recordings where !order.contains(person(r.name)) { order.append(person(r.name)) }
        return order.map { p in
            let rs = recordings.filter { person($0.name) == p }
            var before = 0.0, at: Double? = nil
            for r in rs {
                if let e = r.establishedAt { at = before + e; break }
                before += r.seconds
            }
            return (p, rs.map(\.seconds).reduce(0, +) / 60, at)
        }
    }

    public static func table(_ recordings: [DailyCalibrationEvaluation.Recording], sessions: Bool) -> String {
        var s = "background calibration on daily recordings (replayed as 'run' ships it, no calibration file at the start)\n"
        s += sessions ? "each wearer's recordings in order as one session: what was learned carries over, as 'run' keeps it\n"
            : "each recording from nothing learned\n"
        s += "counts and field figures from each recording's first establishment on; rates per established hour\n"
        s += pad("activity", 16) + " files    min  est.  to est. s   est. h  repl/h stand/h forget/h restarts"
            + "  |B| dev % p50/p90  dip p90 °  turning az RMS ° p50/p90 (windows)  jump °\n"
        for g in groups(recordings) {
            s += pad(g.activity, 16) + left("\(g.files)", 6) + left(fixed(g.minutes, 1), 7)
            s += left("\(g.established)", 6)
            s += left(g.medianTimeToEstablished.map { fixed($0, 0) + "/" + fixed(g.longestTimeToEstablished!, 0) } ?? "-", 11)
            s += left(fixed(g.establishedHours, 2), 9)
            s += left(number(g.replacementsPerHour, 1), 8) + left(number(g.standInsPerHour, 1), 8)
            s += left(number(g.forgettingsPerHour, 1), 9) + left("\(g.headingRestarts)", 9)
            s += left(number(g.strengthMedianPercent, 1) + "/" + number(g.strengthP90Percent, 1), 19)
            s += left(number(g.dipP90Degrees, 1), 11)
            s += left(number(g.turningMedianDegrees, 1) + "/" + number(g.turningP90Degrees, 1) + " (\(g.turningWindows))", 36)
            s += left(g.largestJump.map { fixed($0, 1) } ?? "-", 8) + "\n"
        }
        s += """
            est.: recordings established / to est.: median/longest seconds from the start / repl: changes to an
            established correction / stand: to a fit not established (after a forgetting) / restarts: changes
            that restarted the heading / |B| dev: |strength/median - 1| per sample / dip: |dip - median| /
            turning az RMS: field azimuth in the gyro-and-gravity frame over 2 s windows turning >= 30° /
            jump: largest heading-reference shift at a change after establishment

            what the learner saw (establishing takes a fit with coverage >= 0.3, residual <= 5 %, judged <= 0.16); forgettings
            of a store never established per recorded hour, and changes of the correction before one was established

            """
        s += pad("activity", 16) + " kept/min  judgings  plausible fits  their median score  widest fit: coverage  residual %"
            + "  forgettings/h  changes\n"
        for g in groups(recordings) {
            s += pad(g.activity, 16) + left(fixed(g.keptPerMinute, 0), 9) + left("\(g.judgements)", 10)
            s += left("\(g.candidates)", 16) + left(number(g.candidateMedian, 2), 19)
            s += left(number(g.widestCoverageMedian, 2), 22) + left(number(g.widestResidualMedian * 100, 1), 11)
            s += left(number(Double(g.forgettingsLearning) / (g.minutes / 60), 1), 15) + left("\(g.changesLearning)", 9) + "\n"
        }
        guard sessions else { return s }
        let times = sessionTimes(recordings, person: DailyCalibrationEvaluation.person(ofFile:))
        s += "\nper wearer: minutes worn, and seconds of wear until first established\n"
        for t in times {
            s += pad(t.person, 12) + left(fixed(t.minutes, 1), 7) + left(t.established.map { fixed($0, 0) } ?? "never", 8) + "\n"
        }
        return s
    }

    public static func json(_ recordings: [DailyCalibrationEvaluation.Recording]) -> String {
        func percentile(_ values: [Double], _ p: Double) -> Double { DailyCalibrationEvaluation.percentile(values, p) }
        return JSONOutput.object { o in
            o.add("recordings", .array(recordings.map { r in
                .object(.inline) { t in
                    t.add("name", .string(r.name))
                    t.add("activity", .string(r.activity))
                    t.add("seconds", json(r.seconds))
                    t.add("establishedAtS", json(r.establishedAt))
                    t.add("replacements", .integer(r.replacements))
                    t.add("standIns", .integer(r.standIns))
                    t.add("headingRestarts", .integer(r.headingRestarts))
                    t.add("forgettings", .integer(r.forgettings))
                    t.add("forgettingsLearning", .integer(r.forgettingsLearning))
                    t.add("largestJumpDeg", json(r.largestJump))
                    t.add("medianStrengthUT", json(r.medianStrength))
                    t.add("medianDipDeg", json(r.medianDip))
                    t.add("strengthP90Percent", json(percentile(r.strengthDeviations, 0.9) * 100))
                    t.add("dipP90Deg", json(percentile(r.dipDeviations, 0.9)))
                    t.add("turningWindows", .integer(r.turningAzimuthRMS.count))
                    t.add("turningMedianDeg", json(percentile(r.turningAzimuthRMS, 0.5)))
                    t.add("observedSamples", .integer(r.observedSamples))
                    t.add("keptSamples", .integer(r.keptSamples))
                    t.add("changesLearning", .integer(r.changesLearning))
                    t.add("judgements", .integer(r.judgements))
                    t.add("finalGyroBiasDegS", .array(.inline, [json(r.finalGyroBias.x), json(r.finalGyroBias.y), json(r.finalGyroBias.z)]))
                    t.add("quietGyroMedianDegS", .array(.inline, [json(r.quietGyroMedian.x), json(r.quietGyroMedian.y), json(r.quietGyroMedian.z)]))
                    t.add("candidateScores", .array(.inline, r.candidateScores.map { .number($0, digits: 3) }))
                    t.add("currentScoreMedian", json(percentile(r.currentScores, 0.5)))
                    if let f = r.widestFit {
                        t.add("widestFit", .object { w in
                            w.add("coverage", json(f.coverage))
                            w.add("spread", json(f.spread))
                            w.add("fieldStrengthUT", json(f.fieldStrength))
                            w.add("relativeResidual", json(f.relativeResidual))
                            w.add("inlierFraction", json(f.inlierFraction))
                            w.add("samples", .integer(f.samples))
                        })
                    }
                    t.add("refusedSamples", .integer(r.refusedSamples))
                }
            }))
            o.add("activities", .array(groups(recordings).map { g in
                .object(.inline) { t in
                    t.add("activity", .string(g.activity))
                    t.add("files", .integer(g.files))
                    t.add("minutes", json(g.minutes))
                    t.add("established", .integer(g.established))
                    t.add("medianTimeToEstablishedS", json(g.medianTimeToEstablished))
                    t.add("longestTimeToEstablishedS", json(g.longestTimeToEstablished))
                    t.add("establishedHours", json(g.establishedHours))
                    t.add("replacementsPerHour", json(g.replacementsPerHour))
                    t.add("standInsPerHour", json(g.standInsPerHour))
                    t.add("forgettingsPerHour", json(g.forgettingsPerHour))
                    t.add("headingRestarts", .integer(g.headingRestarts))
                    t.add("forgettingsLearning", .integer(g.forgettingsLearning))
                    t.add("strengthMedianPercent", json(g.strengthMedianPercent))
                    t.add("strengthP90Percent", json(g.strengthP90Percent))
                    t.add("dipP90Deg", json(g.dipP90Degrees))
                    t.add("turningWindows", .integer(g.turningWindows))
                    t.add("turningMedianDeg", json(g.turningMedianDegrees))
                    t.add("turningP90Deg", json(g.turningP90Degrees))
                    t.add("keptPerMinute", json(g.keptPerMinute))
                    t.add("judgements", .integer(g.judgements))
                    t.add("plausibleFits", .integer(g.candidates))
                    t.add("plausibleFitScoreMedian", json(g.candidateMedian))
                    t.add("widestFitCoverageMedian", json(g.widestCoverageMedian))
                    t.add("widestFitResidualMedian", json(g.widestResidualMedian))
                    t.add("largestJumpDeg", json(g.largestJump))
                }
            }))
        }.text() + "\n"
    }

    private static func json(_ v: Double?) -> JSONOutput { .number(v, digits: 4) }
    private static func number(_ v: Double, _ d: Int) -> String { v.isFinite ? fixed(v, d) : "-" }
    private static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }
    private static func left(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }
}
