import Formats
import Simulation
import Cohorts

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
/// detector gets right side by side, for gesture windows opening before the gesture and mid-gesture.
public enum GestureCohortWindowsReport {
    /// `mid` and `classicMid`: the gesture kinds' scores with windows opening mid-gesture (distractor windows
    /// do not depend on the opening, so theirs come from `scores` alone).
    public static func table(default scores: [GestureCohortWindows.KindScore],
                             classic: [GestureCohortWindows.KindScore],
                             mid: [GestureCohortWindows.KindScore] = [],
                             classicMid: [GestureCohortWindows.KindScore] = [],
                             description: String) -> String {
        let columns = ["kind", "windows", "right: lead-in", "of fitting", "right: mid-gesture", "of fitting",
                       "classic: lead-in", "classic: mid"]
        var rows: [[String]] = [columns]
        func share(_ s: [GestureCohortWindows.KindScore], _ pick: (CohortKind) -> Bool) -> String {
            let chosen = s.filter { pick($0.kind) }
            let n = chosen.reduce(0) { $0 + $1.windows }
            return n > 0 ? fixed(Double(chosen.reduce(0) { $0 + $1.right }) / Double(n), 3) : "-"
        }
        func find(_ s: [GestureCohortWindows.KindScore], _ kind: CohortKind) -> GestureCohortWindows.KindScore? {
            s.first { $0.kind == kind }
        }
        func accuracy(_ s: GestureCohortWindows.KindScore?) -> String { s?.accuracy.map { fixed($0, 3) } ?? "-" }
        func fitting(_ s: GestureCohortWindows.KindScore?) -> String {
            guard let s, s.kind.isGesture else { return "-" }
            return "\(s.fitting): " + (s.fittingAccuracy.map { fixed($0, 3) } ?? "-")
        }
        for s in scores {
            let m = s.kind.isGesture ? find(mid, s.kind) : nil
            let c = find(classic, s.kind), cm = s.kind.isGesture ? find(classicMid, s.kind) : nil
            rows.append([s.kind.rawValue, "\(s.windows)" + (m.map { " + \($0.windows)" } ?? ""), accuracy(s), fitting(s),
                         accuracy(m), fitting(m), accuracy(c), accuracy(cm)])
        }
        let gesture = { (k: CohortKind) in k.isGesture }, distractor = { (k: CohortKind) in !k.isGesture }
        rows.append(["all gestures", "\(scores.filter { $0.kind.isGesture }.reduce(0) { $0 + $1.windows })",
                     share(scores, gesture), "-", share(mid, gesture), "-", share(classic, gesture), share(classicMid, gesture)])
        rows.append(["all distractors", "\(scores.filter { !$0.kind.isGesture }.reduce(0) { $0 + $1.windows })",
                     share(scores, distractor), "-", "-", "-", share(classic, distractor), "-"])
        var lines = ["gestures: \(description)"] + GestureCohortReport.aligned(rows)
        lines.append("each window replayed from a fresh start (attitude filter and detector); right: a gesture window "
            + "reports its label and not the other, a distractor window reports no nod or shake; lead-in: the gesture "
            + "window opens 0–\(fixed(GestureCohortWindows.maxLead, 1)) s before the gesture; mid-gesture: between the start and the peak "
            + "of a swing of its first cycle, the gesture going on from it at once; of fitting: windows that run on for at least "
            + "\(fixed(GestureCohortWindows.reportRoom, 2)) s after the peak of the completing swing (the second begun in the window), and the "
            + "share of those right; classic: the per-frame recipe on the same windows")
        return lines.joined(separator: "\n")
    }
}
