import Geometry
import Formats

/// Text table and JSON for attitude evaluation results, without Foundation.
public enum AttitudeReport {
    public static func table(_ results: [AttitudeTrialResult]) -> String {
        let nameWidth = Swift.max(24, results.map(\.name.count).max() ?? 0)
        var s = ""
        let modes = Set(results.map(\.mode))
        if modes.contains(.sixD) {
            s += "6D: one constant heading offset per trial (circular mean of the heading error) is removed before scoring.\n"
        }
        s += pad("trial", nameWidth) + "  mode  group        total°  heading°  inclin°  samples\n"
        for r in results {
            s += pad(r.name, nameWidth) + "  " + pad(r.mode.rawValue, 4) + "  " + pad(r.group.rawValue, 11)
            s += leftPad(fixed(r.rmse.totalDegrees, 2), 8) + leftPad(fixed(r.rmse.headingDegrees, 2), 10)
            s += leftPad(fixed(r.rmse.inclinationDegrees, 2), 9) + leftPad(String(r.rmse.samples), 9) + "\n"
        }
        for mode in AttitudeMode.allCases where modes.contains(mode) {
            for g in AttitudeEvaluation.groups(results.filter { $0.mode == mode }) {
                s += pad("mean " + g.group.rawValue + " (\(g.trials))", nameWidth) + "  " + pad(mode.rawValue, 4)
                s += "  " + pad(g.group.rawValue, 11)
                s += leftPad(fixed(g.meanTotalDegrees, 2), 8) + leftPad(fixed(g.meanHeadingDegrees, 2), 10)
                s += leftPad(fixed(g.meanInclinationDegrees, 2), 9) + "\n"
            }
        }
        return s
    }

    public static func json(_ results: [AttitudeTrialResult]) -> String {
        var s = "{\n  \"metric\": \"BROAD RMSE over moving samples with truth, degrees; e = q_est * q_true^-1\",\n"
        s += "  \"trials\": [\n"
        s += results.map { r in
            var t = "    {\"name\": \(quoted(r.name)), \"group\": \"\(r.group.rawValue)\", \"mode\": \"\(r.mode.rawValue)\""
            t += ", \"totalDeg\": \(number(r.rmse.totalDegrees)), \"headingDeg\": \(number(r.rmse.headingDegrees))"
            t += ", \"inclinationDeg\": \(number(r.rmse.inclinationDegrees)), \"samples\": \(r.rmse.samples)"
            if let o = r.removedHeadingOffsetDegrees { t += ", \"removedHeadingOffsetDeg\": \(number(o))" }
            return t + "}"
        }.joined(separator: ",\n")
        s += "\n  ],\n  \"groups\": [\n"
        var groupLines: [String] = []
        for mode in AttitudeMode.allCases {
            for g in AttitudeEvaluation.groups(results.filter { $0.mode == mode }) {
                groupLines.append("    {\"group\": \"\(g.group.rawValue)\", \"mode\": \"\(mode.rawValue)\", \"trials\": \(g.trials)"
                    + ", \"meanTotalDeg\": \(number(g.meanTotalDegrees)), \"meanHeadingDeg\": \(number(g.meanHeadingDegrees))"
                    + ", \"meanInclinationDeg\": \(number(g.meanInclinationDegrees))}")
            }
        }
        s += groupLines.joined(separator: ",\n") + "\n  ]\n}\n"
        return s
    }

    static func number(_ v: Double) -> String { v.isFinite ? fixed(v, 4) : "null" }

    static func quoted(_ text: String) -> String { JSONValue.quoted(text) }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func leftPad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
