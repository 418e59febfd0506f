import Runtime
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
        let widths = columns.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        var lines = ["gestures: \(description)"]
        for r in rows {
            lines.append(r.indices.map { c in
                c == 0 ? r[c] + String(repeating: " ", count: widths[c] - r[c].count)
                       : String(repeating: " ", count: widths[c] - r[c].count) + r[c]
            }.joined(separator: "  "))
        }
        lines.append("recall: gesture found in [start − 0.3 s, end + 1 s]; flashes: nod/shake events in that window per "
            + "found gesture; false/min: events outside it (all events for a distractor); latency: first hit "
            + "minus the peak of the completing (second) swing, s")
        return lines.joined(separator: "\n")
    }
}
