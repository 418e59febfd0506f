import Formats

/// Text table and JSON for `eval gestures` results.
public enum GestureReport {
    static let columns = ["file", "bouts", "found", "missed", "false", "confused", "flicks", "events/bout", "false/min",
                          "lat med", "lat p90"]

    public static func table(_ results: [GestureEvaluation.FileResult], description: String) -> String {
        var rows: [[String]] = [columns]
        for r in results { rows.append(row(r.name, r.score)) }
        let total = results.map(\.score).reduce(GestureScore(), +)
        rows.append(row("total", total))
        let widths = columns.indices.map { c in rows.map { $0[c].count }.max() ?? 0 }
        var lines = ["gestures: \(description)"]
        for (i, r) in rows.enumerated() {
            if i == rows.count - 1 { lines.append(String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))) }
            lines.append(r.indices.map { c in
                c == 0 ? r[c] + String(repeating: " ", count: widths[c] - r[c].count)
                       : String(repeating: " ", count: widths[c] - r[c].count) + r[c]
            }.joined(separator: "  "))
        }
        var summary = "recall " + (total.recall.map { fixed($0 * 100, 1) + " %" } ?? "-")
            + " (\(total.hits)/\(total.bouts)), confusions \(total.confusions)"
        if total.quietDuration > 0 {
            summary += ", false nod/shake on recordings without gestures: \(total.quietFalseDetections) in "
                + "\(fixed(total.quietDuration / 60, 1)) min"
        }
        lines.append(summary)
        lines.append("latency: from bout start to the first detection inside the bout's window (s); events/bout: "
            + "nod/shake events inside found bouts' windows per found bout (LED flashes per gesture)")
        return lines.joined(separator: "\n")
    }

    static func row(_ name: String, _ s: GestureScore) -> [String] {
        [name, "\(s.bouts)", "\(s.hits)", "\(s.misses)", "\(s.falseDetections)", "\(s.confusions)", "\(s.flicks)",
         s.eventsPerBout.map { fixed($0, 2) } ?? "-",
         s.quietFalsePerMinute.map { fixed($0, 2) } ?? "-",
         s.medianLatency.map { fixed($0, 2) } ?? "-", s.p90Latency.map { fixed($0, 2) } ?? "-"]
    }

    public static func json(_ results: [GestureEvaluation.FileResult], evaluation: GestureEvaluation) -> String {
        let total = results.map(\.score).reduce(GestureScore(), +)
        var s = "{\n"
        s += "  \"detector\": \(string(evaluation.recognizer.detector.rawValue)),\n"
        s += "  \"mount\": \(evaluation.mount.map { string($0.description) } ?? "null"),\n"
        s += "  \"flicks\": \(evaluation.recognizer.detector == .default && evaluation.recognizer.settings.flicks),\n"
        s += "  \"files\": [\n"
        s += results.map { r in
            "    {\"file\": \(string(r.path)), " + fields(r.score) + ", \"detections\": ["
                + r.detections.map { "{\"t\": \(fixed($0.t, 4)), \"event\": \(string($0.event.rawValue))}" }.joined(separator: ", ")
                + "]}"
        }.joined(separator: ",\n")
        s += "\n  ],\n"
        s += "  \"total\": {" + fields(total) + "}\n"
        s += "}"
        return s
    }

    static func fields(_ s: GestureScore) -> String {
        func number(_ v: Double?, _ digits: Int) -> String { v.map { fixed($0, digits) } ?? "null" }
        return "\"bouts\": \(s.bouts), \"hits\": \(s.hits), \"misses\": \(s.misses), "
            + "\"false_detections\": \(s.falseDetections), \"confusions\": \(s.confusions), \"flicks\": \(s.flicks), "
            + "\"duration_s\": \(fixed(s.duration, 2)), \"quiet_duration_s\": \(fixed(s.quietDuration, 2)), "
            + "\"quiet_false_detections\": \(s.quietFalseDetections), "
            + "\"quiet_false_per_min\": \(number(s.quietFalsePerMinute, 3)), "
            + "\"recall\": \(number(s.recall, 4)), "
            + "\"latency_median_s\": \(number(s.medianLatency, 3)), \"latency_p90_s\": \(number(s.p90Latency, 3))"
    }

    /// A JSON string literal.
    static func string(_ text: String) -> String { JSONValue.quoted(text) }
}
