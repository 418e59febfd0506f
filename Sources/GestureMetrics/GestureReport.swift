import Formats
import Geometry

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
        let activities = byActivity(results)
        if activities.count > 1 || (activities.count == 1 && results.count > 1) {
            lines.append("false nod/shake per hour on recordings without gestures, by activity:")
            let width = activities.map(\.activity.count).max() ?? 0
            for a in activities {
                lines.append("  " + a.activity + String(repeating: " ", count: width - a.activity.count)
                    + "  " + pad(fixed(a.perHour, 1), 6) + " /h  (\(a.falseDetections) in \(fixed(a.minutes, 1)) min, \(a.files) files)")
            }
        }
        lines.append("latency: from bout start to the first detection inside the bout's window (s); events/bout: "
            + "nod/shake events inside found bouts' windows per found bout (LED flashes per gesture)")
        return lines.joined(separator: "\n")
    }

    /// False nods and shakes per hour on the recordings without gestures, grouped by activity, most first.
    public struct ActivityRate: Sendable, Equatable {
        public var activity: String
        public var files: Int
        public var minutes: Double
        public var falseDetections: Int
        public var perHour: Double { minutes > 0 ? Double(falseDetections) / (minutes / 60) : 0 }
    }

    public static func byActivity(_ results: [GestureEvaluation.FileResult]) -> [ActivityRate] {
        var rates: [String: ActivityRate] = [:]
        for r in results where r.score.bouts == 0 && r.score.quietDuration > 0 {
            var a = rates[r.activity] ?? ActivityRate(activity: r.activity, files: 0, minutes: 0, falseDetections: 0)
            a.files += 1
            a.minutes += r.score.quietDuration / 60
            a.falseDetections += r.score.quietFalseDetections
            rates[r.activity] = a
        }
        return rates.values.sorted { ($0.perHour, $1.activity) > ($1.perHour, $0.activity) }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: Swift.max(0, width - text.count)) + text
    }

    static func row(_ name: String, _ s: GestureScore) -> [String] {
        [name, "\(s.bouts)", "\(s.hits)", "\(s.misses)", "\(s.falseDetections)", "\(s.confusions)", "\(s.flicks)",
         s.eventsPerBout.map { fixed($0, 2) } ?? "-",
         s.quietFalsePerMinute.map { fixed($0, 2) } ?? "-",
         s.medianLatency.map { fixed($0, 2) } ?? "-", s.p90Latency.map { fixed($0, 2) } ?? "-"]
    }

    public static func json(_ results: [GestureEvaluation.FileResult], evaluation: GestureEvaluation) -> String {
        let total = results.map(\.score).reduce(GestureScore(), +)
        let recognizer = evaluation.recognizer
        return JSONOutput.object { o in
            o.add("detector", .string(recognizer.detector.rawValue))
            o.add("mount", .string(evaluation.mount?.argument))
            o.add("flicks", .bool(recognizer.detector == .default && recognizer.settings.flicks))
            o.add("mode", .string(recognizer.listening ? "answer" : recognizer.settings.singleGesturesAlways ? "always-on-single" : "always-on"))
            o.add("activities", .array(.inline, byActivity(results).map { a in
                .object { row in
                    row.add("activity", .string(a.activity))
                    row.add("files", .integer(a.files))
                    row.add("minutes", .number(a.minutes, digits: 2))
                    row.add("false_detections", .integer(a.falseDetections))
                    row.add("false_per_hour", .number(a.perHour, digits: 2))
                }
            }))
            o.add("files", .array(results.map { r in
                .object(.inline) { row in
                    row.add("file", .string(r.path))
                    fields(r.score, into: &row)
                    row.add("detections", .array(r.detections.map { d in
                        .object { e in
                            e.add("t", .number(d.t, digits: 4))
                            e.add("event", .string(d.event.rawValue))
                            e.add("swings", .integer(d.swings))
                            e.add("peak_dps", .number(d.peakRate * Units.degreesPerRadian, digits: 1))
                            e.add("angle_deg", .number(d.largestAngle * Units.degreesPerRadian, digits: 1))
                        }
                    }))
                }
            }))
            o.add("total", .object(.inline) { fields(total, into: &$0) })
        }.text()
    }

    static func fields(_ s: GestureScore, into o: inout JSONObjectWriter) {
        o.add("bouts", .integer(s.bouts))
        o.add("hits", .integer(s.hits))
        o.add("misses", .integer(s.misses))
        o.add("false_detections", .integer(s.falseDetections))
        o.add("confusions", .integer(s.confusions))
        o.add("flicks", .integer(s.flicks))
        o.add("duration_s", .number(s.duration, digits: 2))
        o.add("quiet_duration_s", .number(s.quietDuration, digits: 2))
        o.add("quiet_false_detections", .integer(s.quietFalseDetections))
        o.add("quiet_false_per_min", .number(s.quietFalsePerMinute, digits: 3))
        o.add("recall", .number(s.recall, digits: 4))
        o.add("latency_median_s", .number(s.medianLatency, digits: 3))
        o.add("latency_p90_s", .number(s.p90Latency, digits: 3))
    }
}
