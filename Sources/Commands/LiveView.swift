import Geometry
import Indicators
import Tracking
import Formats
import LibC
import Service

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

    /// The terminal view of `demo`: two lines of at most 78 columns (the one-line `line` is ~110 wide and
    /// wrapped and scrolled an 80-column terminal when redrawn with a carriage return).
    static func screen(t: Double, leds: UInt64, pipeline: Pipeline, lastEvent: String) -> [String] {
        let e = EulerAngles(pipeline.attitude)
        let d = pipeline.displayed
        let heading = d.hasValue ? "\(pad(fixed(d.degrees, 0), 3))°\(d.isLive ? " live" : " held")" : "  --° none"
        return ["LEDs  \(ledRow(leds))  t=\(pad(fixed(t, 1), 5)) s",
                "heading \(heading)   pitch \(pad(fixed(e.pitch * Units.degreesPerRadian, 0), 4))°   "
                    + "roll \(pad(fixed(e.roll * Units.degreesPerRadian, 0), 4))°" + (lastEvent.isEmpty ? "" : "   last: \(lastEvent)")]
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }
}

/// A block of lines redrawn in place in a terminal: back up to its first line, each line cleared and rewritten.
struct InPlaceLines {
    private var drawn = 0

    mutating func draw(_ lines: [String]) {
        var out = drawn > 1 ? "\r\u{1B}[\(drawn - 1)A" : "\r"
        out += lines.map { "\u{1B}[2K" + $0 }.joined(separator: "\n")
        Console.write(STDOUT_FILENO, out)
        drawn = lines.count
    }
}
