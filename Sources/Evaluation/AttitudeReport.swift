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
        JSONOutput.object { o in
            o.add("metric", .string("BROAD RMSE over moving samples with truth, degrees; e = q_est * q_true^-1"))
            o.add("trials", .array(results.map { r in
                .object(.inline) { t in
                    t.add("name", .string(r.name))
                    t.add("group", .string(r.group.rawValue))
                    t.add("mode", .string(r.mode.rawValue))
                    t.add("totalDeg", number(r.rmse.totalDegrees))
                    t.add("headingDeg", number(r.rmse.headingDegrees))
                    t.add("inclinationDeg", number(r.rmse.inclinationDegrees))
                    t.add("samples", .integer(r.rmse.samples))
                    if let offset = r.removedHeadingOffsetDegrees { t.add("removedHeadingOffsetDeg", number(offset)) }
                }
            }))
            o.add("groups", .array(AttitudeMode.allCases.flatMap { mode in
                AttitudeEvaluation.groups(results.filter { $0.mode == mode }).map { g in
                    .object(.inline) { t in
                        t.add("group", .string(g.group.rawValue))
                        t.add("mode", .string(mode.rawValue))
                        t.add("trials", .integer(g.trials))
                        t.add("meanTotalDeg", number(g.meanTotalDegrees))
                        t.add("meanHeadingDeg", number(g.meanHeadingDegrees))
                        t.add("meanInclinationDeg", number(g.meanInclinationDegrees))
                    }
                }
            }))
        }.text() + "\n"
    }

    static func number(_ v: Double) -> JSONOutput { .number(v, digits: 4) }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func leftPad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
