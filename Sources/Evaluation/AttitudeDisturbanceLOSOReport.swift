import Formats

/// The table and JSON of `eval attitude --loso` (`AttitudeDisturbanceLOSO`).
public enum AttitudeDisturbanceLOSOReport {
    /// Everything measured: trial names and rmse[candidate][trial] (9D total, degrees, the recording as it
    /// is), and with `--seeds` the runs under random irons.
    public struct Measured: Sendable {
        public var trials: [String]
        public var candidates: [AttitudeDisturbanceLOSO.Candidate]
        public var rmse: [[Double]]
        public var irons: Irons?
        public init(trials: [String], candidates: [AttitudeDisturbanceLOSO.Candidate], rmse: [[Double]], irons: Irons? = nil) {
            self.trials = trials; self.candidates = candidates; self.rmse = rmse; self.irons = irons
        }
    }

    /// The iron runs: `runs[candidate][trial]`, the recording as it is first (its total is `rmse`), then each
    /// iron from the start and each iron changed part-way; `perTrial` irons drawn with seed `seed` + trial index.
    public struct Irons: Sendable {
        public var perTrial: Int
        public var seed: UInt64
        public var times: AttitudeDisturbanceLOSO.Times
        public var runs: [[[AttitudeDisturbanceLOSO.Run]]]
        public init(perTrial: Int, seed: UInt64, times: AttitudeDisturbanceLOSO.Times = .init(), runs: [[[AttitudeDisturbanceLOSO.Run]]]) {
            self.perTrial = perTrial; self.seed = seed; self.times = times; self.runs = runs
        }
    }

    /// What the measured table says, worked out once for the table and the JSON.
    struct Findings {
        typealias L = AttitudeDisturbanceLOSO
        var todayIndex: Int
        /// Per held-out trial: the candidate chosen on the others.
        var chosen: [Int]
        /// Per setting: folds whose choice kept today's value.
        var keptToday: [(L.Setting, Int)]
        /// Groups present, and the members of each.
        var groups: [(TrialGroup, [Int])]
        /// With irons: ironMean[candidate][trial], the mean total RMSE of the iron runs (°).
        var ironMean: [[Double]]?
        init(_ m: Measured) {
            todayIndex = m.candidates.firstIndex(of: .today) ?? 0
            if let irons = m.irons {
                chosen = m.trials.indices.map { L.choose(runs: irons.runs, candidates: m.candidates, heldOut: $0) }
                ironMean = irons.runs.map { $0.map(L.ironMean) }
            } else {
                chosen = m.trials.indices.map { L.choose(m.rmse, candidates: m.candidates, heldOut: $0) }
            }
            let chosenCandidates = chosen.map { m.candidates[$0] }
            keptToday = L.Setting.allCases.map { s in (s, chosenCandidates.filter { $0.value(of: s) == s.today }.count) }
            let named = m.trials.map { TrialGroup(trialName: $0) }
            groups = TrialGroup.allCases.compactMap { g in
                let members = named.indices.filter { named[$0] == g }
                return members.isEmpty ? nil : (g, members)
            }
        }
        /// A group's mean of candidate `c` over its trials.
        func mean(_ m: Measured, candidate c: Int, trials: [Int]) -> Double { mean(m.rmse, candidate: c, trials: trials) }
        func mean(_ table: [[Double]], candidate c: Int, trials: [Int]) -> Double {
            trials.map { table[c][$0] }.reduce(0, +) / Double(Swift.max(1, trials.count))
        }
        /// A group's mean of the held-out figures, each trial at its fold's choice.
        func heldOutMean(_ m: Measured, trials: [Int]) -> Double { heldOutMean(m.rmse, trials: trials) }
        func heldOutMean(_ table: [[Double]], trials: [Int]) -> Double {
            trials.map { table[chosen[$0]][$0] }.reduce(0, +) / Double(Swift.max(1, trials.count))
        }
        /// Candidates whose group mean moves by more than the cliff against today's, with the largest move: on
        /// the recordings as they are, and (`underIrons`) on the mean under irons when there are iron runs.
        func cliffs(_ m: Measured) -> [(candidate: Int, group: TrialGroup, change: Double, underIrons: Bool)] {
            let tables = [(m.rmse, false)] + (ironMean.map { [($0, true)] } ?? [])
            return m.candidates.indices.filter { $0 != todayIndex }.flatMap { c in
                tables.flatMap { table, underIrons in
                    groups.compactMap { g, members in
                        let d = mean(table, candidate: c, trials: members) - mean(table, candidate: todayIndex, trials: members)
                        return abs(d) > L.cliff ? (c, g, d, underIrons) : nil
                    }
                }
            }
        }
    }

    /// The table: one column group (chosen, today's, change) for the recordings as they are, and with `--seeds`
    /// a second for the mean under irons; every other line is the same either way.
    public static func table(_ m: Measured) -> String {
        typealias L = AttitudeDisturbanceLOSO
        let f = Findings(m)
        let columns = [m.rmse] + (f.ironMean.map { [$0] } ?? [])
        let width = Swift.max(34, (m.trials.map(\.count).max() ?? 0) + 2)
        var s = m.irons.map { introduction(m, irons: $0) } ?? introduction(m)
        s += settingsLines()
        s += "\n"
        if columns.count > 1 { s += pad("", width) + pad("", 28) + "as recorded              under irons\n" }
        s += pad("held out", width) + pad("chosen", 28)
            + Array(repeating: "chosen  today   change", count: columns.count).joined(separator: "   ") + "\n"
        func figures(_ chosen: Double, _ today: Double) -> String {
            leftPad(fixed(chosen, 2), 6) + leftPad(fixed(today, 2), 7) + leftPad(signed(chosen - today), 9)
        }
        for (t, name) in m.trials.enumerated() {
            let c = f.chosen[t]
            s += pad(name, width) + pad(m.candidates[c].description, 28)
                + columns.map { figures($0[c][t], $0[f.todayIndex][t]) }.joined(separator: "   ") + "\n"
        }
        let rows = f.groups.map { ("mean " + $0.0.rawValue + " (\($0.1.count))", $0.1) } + [("mean, all (\(m.trials.count))", Array(m.trials.indices))]
        for (label, members) in rows {
            s += pad(label, width) + pad("", 28) + columns.map {
                figures(f.heldOutMean($0, trials: members), f.mean($0, candidate: f.todayIndex, trials: members))
            }.joined(separator: "   ") + "\n"
        }
        s += "\nfolds that kept today's value: "
            + f.keptToday.map { "\($0.0.rawValue) \($0.1)/\(m.trials.count)" }.joined(separator: ", ") + "\n"
        s += columns.count > 1
            ? "\nevery candidate on every trial: group means of the 9D total RMSE (°) as recorded, then under irons, change against "
                + "today's; CLIFF where a one-step neighbour moves a group mean, either one, by more than \(fixed(L.cliff, 2))°\n"
            : "\nevery candidate on every trial: group means of the 9D total RMSE (°), change against today's; "
                + "CLIFF where a one-step neighbour moves a group mean by more than \(fixed(L.cliff, 2))°\n"
        let cliffs = f.cliffs(m)
        for (c, candidate) in m.candidates.enumerated() {
            s += "  " + pad(candidate.description, 30)
            for (g, members) in f.groups {
                s += "  " + g.rawValue
                for table in columns {
                    let mean = f.mean(table, candidate: c, trials: members)
                    s += " " + fixed(mean, 2)
                    if c != f.todayIndex { s += " (" + signed(mean - f.mean(table, candidate: f.todayIndex, trials: members)) + ")" }
                }
            }
            if cliffs.contains(where: { $0.candidate == c }) {
                s += "  CLIFF" + (cliffs.contains { $0.candidate == c && !$0.underIrons } ? "" : " under irons")
            }
            s += "\n"
        }
        s += cliffs.isEmpty ? "no setting on a cliff\n"
            : "on a cliff: " + Set(cliffs.compactMap { m.candidates[$0.candidate].changed?.setting.rawValue }).sorted().joined(separator: ", ") + "\n"
        return s
    }

    /// What the table measured, as recorded only.
    static func introduction(_ m: Measured) -> String {
        "attitude filter's magnetic-disturbance settings, leave one trial out: \(m.candidates.count) candidates (today's values, "
            + "and each setting one step either side with the others at today's), 9D with the background calibration on (as run ships it);\n"
            + "for each held-out trial the candidate with the lowest mean 9D total RMSE on the other trials (ties to today's), "
            + "then the held-out trial's total RMSE (°) at the chosen values and at today's\n\n"
    }

    /// What the table measured, as recorded and under random irons (`--seeds N`).
    static func introduction(_ m: Measured, irons: Irons) -> String {
        let n = irons.perTrial
        return "attitude filter's magnetic-disturbance settings, leave one trial out under random irons: \(m.candidates.count) candidates "
            + "(today's values, and each setting one step either side with the others at today's), 9D with the background calibration "
            + "on (as run ships it) and no calibration file;\n"
            + "each trial replayed as recorded (scored whole) and under \(n) random irons (hard 10-60 µT, soft axis gains 0.8-1.25 "
            + "about random axes; seed \(irons.seed) plus the trial's index), each from the start (scored from \(fixed(irons.times.learnBy, 0)) s) "
            + "and each replaced by the next at \(fixed(irons.times.changeAt, 0)) s (scored from \(fixed(irons.times.relearnBy, 0)) s): "
            + "\(2 * n + 1) runs per candidate and trial;\n"
            + "a candidate's score on a trial is the mean 9D total RMSE of its \(2 * n + 1) runs there; for each held-out trial the "
            + "candidate with the lowest mean score on the other trials (ties to today's), then the held-out trial's total RMSE (°) "
            + "as recorded (the figure comparable with VQF) and its mean under the \(2 * n) iron runs, at the chosen values and at today's\n\n"
    }

    /// The settings, their steps and sources.
    static func settingsLines() -> String {
        typealias L = AttitudeDisturbanceLOSO
        var s = "setting                    today    steps tried     source of today's value\n"
        for setting in L.Setting.allCases {
            s += pad(setting.rawValue, 27) + pad(setting.text(setting.today), 9)
                + pad(setting.neighbours.map(setting.text).joined(separator: ", "), 16) + setting.source + "\n"
        }
        return s
    }

    public static func json(_ m: Measured) -> String {
        let f = Findings(m)
        let number = AttitudeReport.number
        return JSONOutput.object { o in
            o.add("metric", .string("9D total RMSE over moving samples with truth, degrees; background calibration on"))
            o.add("cliffDeg", number(AttitudeDisturbanceLOSO.cliff))
            if let irons = m.irons {
                o.add("ironsPerTrial", .integer(irons.perTrial))
                o.add("seed", .integer(irons.seed))
                o.add("learnBySeconds", number(irons.times.learnBy))
                o.add("changeAtSeconds", number(irons.times.changeAt))
                o.add("relearnBySeconds", number(irons.times.relearnBy))
                o.add("score", .string("per trial the mean total RMSE of the recording as it is (scored whole) and every iron run"))
            }
            o.add("settings", .array(AttitudeDisturbanceLOSO.Setting.allCases.map { setting in
                .object(.inline) { r in
                    r.add("name", .string(setting.rawValue))
                    r.add("today", number(setting.today))
                    r.add("steps", .array(.inline, setting.neighbours.map(number)))
                    r.add("source", .string(setting.source))
                    r.add("foldsKeepingToday", .integer(f.keptToday.first { $0.0 == setting }!.1))
                    r.add("cliff", .bool(f.cliffs(m).contains { m.candidates[$0.candidate].changed?.setting == setting }))
                }
            }))
            o.add("heldOut", .array(m.trials.enumerated().map { t, name in
                .object(.inline) { r in
                    r.add("trial", .string(name))
                    r.add("group", .string(TrialGroup(trialName: name).rawValue))
                    r.add("chosen", .string(m.candidates[f.chosen[t]].description))
                    r.add("chosenTotalDeg", number(m.rmse[f.chosen[t]][t]))
                    r.add("todayTotalDeg", number(m.rmse[f.todayIndex][t]))
                    if let im = f.ironMean {
                        r.add("chosenIronMeanDeg", number(im[f.chosen[t]][t]))
                        r.add("todayIronMeanDeg", number(im[f.todayIndex][t]))
                    }
                }
            }))
            o.add("groups", .array(f.groups.map { g, members in
                .object(.inline) { r in
                    r.add("group", .string(g.rawValue))
                    r.add("trials", .integer(members.count))
                    r.add("heldOutChosenMeanDeg", number(f.heldOutMean(m, trials: members)))
                    r.add("todayMeanDeg", number(f.mean(m, candidate: f.todayIndex, trials: members)))
                    if let im = f.ironMean {
                        r.add("heldOutChosenIronMeanDeg", number(f.heldOutMean(im, trials: members)))
                        r.add("todayIronMeanDeg", number(f.mean(im, candidate: f.todayIndex, trials: members)))
                    }
                }
            }))
            o.add("candidates", .array(m.candidates.enumerated().map { c, candidate in
                .object(.inline) { r in
                    r.add("candidate", .string(candidate.description))
                    r.add("totalDeg", .array(.inline, m.rmse[c].map(number)))
                    if let im = f.ironMean { r.add("ironMeanDeg", .array(.inline, im[c].map(number))) }
                }
            }))
        }.text() + "\n"
    }

    static func pad(_ s: String, _ width: Int) -> String { AttitudeReport.pad(s, width) }
    static func leftPad(_ s: String, _ width: Int) -> String { AttitudeReport.leftPad(s, width) }
    /// A change with its sign; one that rounds to zero is "+0.00" (`fixed` never writes "-0.00").
    static func signed(_ v: Double) -> String {
        guard v.isFinite else { return "-" }
        let shown = fixed(v, 2)
        return shown.hasPrefix("-") ? shown : "+" + shown
    }
}
