import Geometry
import Indicators
import Tracking
import Formats

/// Formats the state of the tracker for a terminal (one line redrawn in place) or for plain logs.
struct LiveView {
    static let symbols = ["nod", "shake", "N", "up", "down", "left", "right", "ok"]

    static func ledRow(_ mask: UInt64) -> String {
        var s = ""
        for (i, name) in symbols.enumerated() {
            let on = mask & (1 << UInt64(i)) != 0
            s += on ? "[\(name.uppercased())]" : " \(name) "
        }
        return s
    }

    static func line(t: Double, leds: UInt64, pipeline: Pipeline, lastEvent: String) -> String {
        let e = EulerAngles(pipeline.attitude)
        let d = pipeline.displayed
        let heading = d.hasValue ? "\(pad(fixed(d.degrees, 0), 3))°\(d.isLive ? " " : "?")" : " --° "
        return "t=\(pad(fixed(t, 1), 5))s  \(ledRow(leds))  heading \(heading) pitch \(pad(fixed(e.pitch * Units.degreesPerRadian, 0), 4))° "
            + "roll \(pad(fixed(e.roll * Units.degreesPerRadian, 0), 4))°  \(lastEvent)"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}
