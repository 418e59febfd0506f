import Formats

/// The table of `eval calibration --background --loso` (`BackgroundCalibrationLOSO`).
public enum BackgroundCalibrationLOSOReport {
    /// Everything measured: trial names, the candidates, and runs[candidate][trial].
    public struct Measured: Sendable {
        public var trials: [String]
        public var candidates: [BackgroundCalibrationLOSO.Candidate]
        public var runs: [[[BackgroundCalibrationLOSO.Run]]]
        public var ironsPerTrial: Int
        public var seed: UInt64
        public var grid: BackgroundCalibrationLOSO.Grid
        public init(trials: [String], candidates: [BackgroundCalibrationLOSO.Candidate], runs: [[[BackgroundCalibrationLOSO.Run]]],
                    ironsPerTrial: Int, seed: UInt64, grid: BackgroundCalibrationLOSO.Grid = .tuned) {
            self.trials = trials; self.candidates = candidates; self.runs = runs; self.ironsPerTrial = ironsPerTrial; self.seed = seed
            self.grid = grid
        }
    }

    /// Figures of some runs: iron runs within +2° (from the start, changed), their mean excess, and the
    /// cost with no iron.
    struct Figures {
        var fromStartWithin = 0, fromStart = 0, changedWithin = 0, changed = 0
        var fromStartExcess: [Double] = [], changedExcess: [Double] = [], noneExcess: [Double] = []
        init(_ runs: [BackgroundCalibrationLOSO.Run]) {
            for r in runs {
                switch r.kind {
                case .none: noneExcess.append(r.excess)
                case .fromStart: fromStart += 1; if !r.breaks { fromStartWithin += 1 }; fromStartExcess.append(r.excess)
                case .changed: changed += 1; if !r.breaks { changedWithin += 1 }; changedExcess.append(r.excess)
                }
            }
        }
        var text: String {
            "\(fromStartWithin)/\(fromStart) mean \(signed(mean(fromStartExcess)))°  \(changedWithin)/\(changed) mean \(signed(mean(changedExcess)))°  "
                + "none: worst \(signed(noneExcess.max() ?? .nan))° mean \(signed(mean(noneExcess)))°"
        }
    }

    static func mean(_ v: [Double]) -> Double { v.isEmpty ? .nan : v.reduce(0, +) / Double(v.count) }
    static func signed(_ v: Double) -> String { v.isFinite ? (v >= 0 ? "+" : "") + fixed(v, 2) : "-" }

    public static func table(_ m: Measured) -> String {
        typealias L = BackgroundCalibrationLOSO
        let todayIndex = m.candidates.firstIndex(of: L.today) ?? 0
        var s = "background calibration, leave one trial out: \(m.candidates.count) candidates (\(m.grid.names)), \(m.ironsPerTrial) random irons per trial (seed \(m.seed)): hard 10-60 uT, soft axes 0.8-1.25 rotated;\n"
            + "each iron from the start (heading from 60 s), each replaced by the next at 60 s (heading from 120 s), and no iron (whole trial);\n"
            + "excess = heading RMSE minus the clean recording's with the calibration off. Per held-out trial: iron from start within +2° and mean; "
            + "changed within +2° and mean; no iron\n\n"
        var chosenRuns: [L.Run] = [], todayRuns: [L.Run] = []
        var chosenRotation: [L.Run] = [], todayRotation: [L.Run] = []
        for (t, name) in m.trials.enumerated() {
            let c = L.choose(m.runs, candidates: m.candidates, heldOut: t)
            s += name + "\n"
            s += "  chosen " + m.candidates[c].description + "  " + Figures(m.runs[c][t]).text + "\n"
            s += "  today  " + m.candidates[todayIndex].description + "  " + Figures(m.runs[todayIndex][t]).text + "\n"
            chosenRuns += m.runs[c][t]
            todayRuns += m.runs[todayIndex][t]
            if name.contains("rotation") { chosenRotation += m.runs[c][t]; todayRotation += m.runs[todayIndex][t] }
        }
        s += "\nheld-out, rotation trials   chosen: " + Figures(chosenRotation).text + "\n"
        s += "                            today:  " + Figures(todayRotation).text + "\n"
        s += "held-out, every trial       chosen: " + Figures(chosenRuns).text + "\n"
        s += "                            today:  " + Figures(todayRuns).text + "\n"
        s += "\nevery candidate on every trial (runs beyond their bound: +2° under an iron, +0.5° with none; mean excess, each clipped to ±10°)\n"
        for (c, cand) in m.candidates.enumerated() {
            let sc = L.score(m.runs[c].flatMap { $0 })
            s += "  " + cand.description + (c == todayIndex ? " (today)" : "        ") + "  beyond \(sc.breaks)  mean \(signed(sc.meanExcess))°\n"
        }
        return s
    }
}
