import Formats
import Simulation

/// Text table for `eval gestures --cohort`.
public enum GestureCohortReport {
    static let columns = ["kind", "trials", "recall", "flashes/gesture", "confused", "false/min", "lat med", "lat p90"]

    public static func table(_ scores: [GestureCohortEvaluation.KindScore], description: String) -> String {
        var rows: [[String]] = [columns]
        for s in scores {
            rows.append([s.kind.rawValue, "\(s.trials)",
                         s.recall.map { fixed($0, 3) } ?? "-",
                         s.flashesPerGesture.map { fixed($0, 2) } ?? "-",
                         s.kind.isGesture ? "\(s.confusions)" : "-",
                         s.falsePerMinute.map { fixed($0, 2) } ?? "-",
                         s.medianLatency.map { fixed($0, 3) } ?? "-",
                         s.p90Latency.map { fixed($0, 3) } ?? "-"])
        }
        var lines = ["gestures: \(description)"] + aligned(rows)
        lines.append("recall: gesture found in [start − 0.3 s, end + 1 s]; flashes: nod/shake events in that window per "
            + "found gesture; false/min: events outside it (all events for a distractor); latency: first hit "
            + "minus the peak of the completing (second) swing, s")
        return lines.joined(separator: "\n")
    }

    /// The rows as text columns: the first left-aligned, the others right-aligned, two spaces apart.
    static func aligned(_ rows: [[String]]) -> [String] {
        let count = rows.map(\.count).max() ?? 0
        let widths = (0..<count).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
        return rows.map { r in
            r.indices.map { c in
                let pad = String(repeating: " ", count: widths[c] - r[c].count)
                return c == 0 ? r[c] + pad : pad + r[c]
            }.joined(separator: "  ")
        }
    }
}

/// Text table for `eval gestures --cohort N --windows S`: one row per kind, the share of windows each
/// detector gets right side by side.
public enum GestureCohortWindowsReport {
    public static func table(default scores: [GestureCohortWindows.KindScore],
                             classic: [GestureCohortWindows.KindScore], description: String) -> String {
        let columns = ["kind", "windows", "right", "classic", "fitting", "right of fitting"]
        var rows: [[String]] = [columns]
        func total(_ s: [GestureCohortWindows.KindScore], _ pick: (CohortKind) -> Bool) -> String {
            let chosen = s.filter { pick($0.kind) }
            let n = chosen.reduce(0) { $0 + $1.windows }
            return n > 0 ? fixed(Double(chosen.reduce(0) { $0 + $1.right }) / Double(n), 3) : "-"
        }
        for (s, c) in zip(scores, classic) {
            rows.append([s.kind.rawValue, "\(s.windows)", s.accuracy.map { fixed($0, 3) } ?? "-",
                         c.accuracy.map { fixed($0, 3) } ?? "-", s.kind.isGesture ? "\(s.fitting)" : "-",
                         s.fittingAccuracy.map { fixed($0, 3) } ?? "-"])
        }
        for (name, pick) in [("all gestures", { (k: CohortKind) in k.isGesture }),
                             ("all distractors", { (k: CohortKind) in !k.isGesture })] {
            let n = scores.filter { pick($0.kind) }.reduce(0) { $0 + $1.windows }
            rows.append([name, "\(n)", total(scores, pick), total(classic, pick), "-", "-"])
        }
        var lines = ["gestures: \(description)"] + GestureCohortReport.aligned(rows)
        lines.append("each window replayed from a fresh start (attitude filter and detector); right: a gesture window "
            + "reports its label and not the other, a distractor window reports no nod or shake; classic: the "
            + "per-frame recipe on the same windows; fitting: gesture windows that run on for at least "
            + "\(fixed(GestureCohortWindows.reportRoom, 2)) s after the peak of the gesture's completing (second) swing, and the share of "
            + "those the detector gets right")
        return lines.joined(separator: "\n")
    }
}
