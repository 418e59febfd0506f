import Indicators
import Formats

/// Draws a `PlotData` as one SVG: stacked panels on a shared time axis (heading, roll/pitch, head-axis rates
/// with the gesture thresholds, gestures with truth bouts, LED timeline), each with a title, a legend in its
/// own header row (so it never covers data or other text), axis labels with units, and one time axis at the
/// bottom. Plain SVG 1.1: any browser or `rsvg-convert` shows it.
public enum SVGPlot {
    /// Every series and group carries one of these ids, so tools and tests can find them.
    public enum SeriesID {
        public static let rawHeading = "raw-heading"
        public static let smoothedHeading = "smoothed-heading"
        public static let roll = "roll"
        public static let pitch = "pitch"
        public static let nodRate = "nod-rate"
        public static let shakeRate = "shake-rate"
        public static let gestures = "gestures"
        public static let truthBouts = "truth-bouts"
        public static let leds = "leds"
        public static func led(_ led: Led) -> String { "led-" + led.name }
    }

    public static func write(_ data: PlotData, to path: String, width: Double = 1200) throws(FileError) {
        try FileIO.writeAtomically(path, Array(render(data, width: width).utf8))
    }

    public static func render(_ data: PlotData, width: Double = 1200) -> String {
        var layout = Layout(width: width, data: data)
        return layout.render()
    }

    // MARK: Colours (Okabe–Ito, readable for the common colour-vision deficiencies)
    static let grey = "#8c8c8c"
    static let blue = "#0072B2"
    static let sky = "#56B4E9"
    static let vermillion = "#D55E00"
    static let orange = "#E69F00"
    static let green = "#009E73"
    static let purple = "#CC79A7"
    static let olive = "#999933"
    static let dark = "#333333"

    static func colour(gesture label: String) -> String {
        switch label {
        case "nod": return vermillion
        case "shake": return sky
        case "up": return green
        case "down": return purple
        case "left": return orange
        case "right": return olive
        default: return dark
        }
    }

    static func colour(led: Led) -> String {
        switch led {
        case .nod: return vermillion
        case .shake: return sky
        case .north: return blue
        case .up: return green
        case .down: return purple
        case .left: return orange
        case .right: return olive
        case .status: return dark
        }
    }
}

/// A legend entry: what its swatch looks like and its text.
private enum Swatch {
    case line(String, width: Double, dash: String?)
    case box(String, opacity: Double)
    case diamond(String)
}

/// The page layout; draws top to bottom.
private struct Layout {
    let width: Double
    let data: PlotData
    var svg: SVGWriter
    let left = 92.0
    let right: Double
    var cursor = 0.0
    var time: PlotAxis
    let timeTicks: [Double]
    var panelNumber = 0
    let count: Int

    static let headerLine = 18.0
    static let panelGap = 16.0

    init(width: Double, data: PlotData) {
        self.width = width
        self.data = data
        right = width - 24
        count = data.count
        var t0 = data.time.first ?? 0
        var t1 = data.time.last ?? 1
        if !(t1 > t0) { t0 = t0.isFinite ? t0 : 0; t1 = t0 + 1 }
        time = PlotAxis(low: t0, high: t1, pixelLow: 92, pixelHigh: width - 24)
        timeTicks = time.ticks(minSpacing: 70)
        svg = SVGWriter()
    }

    mutating func render() -> String {
        // Title and subtitle.
        svg.label(fit(data.title, size: 16, room: right - left), x: left, y: 24, size: 16, bold: true)
        func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        let span = "time \(fixed(time.low, 1))–\(fixed(time.high, 1)) s · \(counted(count, "display frame")) · "
            + counted(data.gestures.count, "gesture") + " detected"
            + (data.truthBouts.isEmpty ? "" : " · " + counted(data.truthBouts.count, "truth bout"))
        svg.label(span, x: left, y: 42, size: 11, fill: "#555555")
        cursor = 52

        headingPanel()
        attitudePanel()
        ratePanel()
        gesturePanel()
        ledPanel()
        timeAxis()

        // The page height is known only now.
        return SVGWriter.document(width: width, height: cursor, title: data.title, body: svg.text)
    }

    // MARK: Panel frame

    /// Draws the header (title + legend, wrapped onto more lines when needed), returns the plot area's top.
    mutating func header(_ title: String, legend: [(Swatch, String)]) -> Double {
        var lineTop = cursor
        svg.label(title, x: left, y: lineTop + 13, bold: true)
        var x = left + SVGWriter.textWidth(title) + 24
        for (swatch, text) in legend {
            let entryWidth = 26 + SVGWriter.textWidth(text, size: 11) + 16
            if x + entryWidth > right && x > left + 30 {
                lineTop += Layout.headerLine
                x = left + 24
            }
            let midY = lineTop + 9
            switch swatch {
            case let .line(colour, w, dash):
                svg.line(x1: x, y1: midY, x2: x + 20, y2: midY, stroke: colour, width: w, dash: dash)
            case let .box(colour, opacity):
                svg.rect(x: x, y: midY - 5, width: 20, height: 10, fill: colour, opacity: opacity)
            case let .diamond(colour):
                svg.path(diamond(x: x + 10, y: midY, r: 5), stroke: colour, width: 1, fill: colour)
            }
            svg.label(text, x: x + 26, y: midY + 4, size: 11)
            x += entryWidth
        }
        return lineTop + Layout.headerLine + 4
    }

    /// Frame, clip path and vertical time grid of a panel; returns the clip id.
    mutating func frame(top: Double, bottom: Double, yLabel: String?) -> String {
        panelNumber += 1
        let clip = "panel\(panelNumber)"
        svg.raw("<defs><clipPath id=\"\(clip)\"><rect x=\"\(svg.n(left))\" y=\"\(svg.n(top))\" width=\"\(svg.n(right - left))\" height=\"\(svg.n(bottom - top))\"/></clipPath></defs>\n")
        for t in timeTicks {
            let x = time.pixel(t)
            svg.line(x1: x, y1: top, x2: x, y2: bottom, stroke: "#e8e8e8")
        }
        if let yLabel {
            svg.label(fit(yLabel, size: 12, room: bottom - top), x: 22, y: (top + bottom) / 2, anchor: .middle, rotate: true)
        }
        return clip
    }

    mutating func border(top: Double, bottom: Double) {
        svg.rect(x: left, y: top, width: right - left, height: bottom - top, fill: "none", stroke: "#888888")
        cursor = bottom + Layout.panelGap
    }

    /// Horizontal grid lines and labels on the value axis.
    mutating func valueTicks(_ axis: PlotAxis, values: [Double], labels: [String]? = nil, grid: Bool = true) {
        let step = values.count > 1 ? values[1] - values[0] : 1
        for (i, v) in values.enumerated() {
            let y = axis.pixel(v)
            if grid { svg.line(x1: left, y1: y, x2: right, y2: y, stroke: v == 0 ? "#c8c8c8" : "#eeeeee") }
            svg.line(x1: left - 4, y1: y, x2: left, y2: y, stroke: "#888888")
            svg.label(labels?[i] ?? PlotAxis.label(v, step: step), x: left - 7, y: y + 4, anchor: .end, size: 11)
        }
    }

    // MARK: Panels

    mutating func headingPanel() {
        let invalid = timeSpans(time: data.time, count: count, mergeGap: pixelTime(1)) { i in
            !PlotData.value(data.rawHeading, i).isFinite
        }
        var legend: [(Swatch, String)] = [
            (.line(SVGPlot.grey, width: 1, dash: nil), "raw"),
            (.line(SVGPlot.blue, width: 2, dash: nil), "smoothed (displayed)"),
        ]
        if !invalid.isEmpty { legend.append((.box("#e9a3a3", opacity: 0.45), "heading invalid: display holds")) }
        let top = header("Heading", legend: legend)
        let bottom = top + 170
        let clip = frame(top: top, bottom: bottom, yLabel: "heading (°)")
        // A little room beyond 0 and 360 so a heading at north is not hidden under the frame.
        let axis = PlotAxis(low: -8, high: 368, pixelLow: bottom, pixelHigh: top)
        valueTicks(axis, values: [0, 90, 180, 270, 360], labels: ["0 N", "90 E", "180 S", "270 W", "360 N"])
        for (a, b) in invalid {
            let x0 = Swift.max(left, time.pixel(a)), x1 = Swift.min(right, time.pixel(b))
            svg.rect(x: x0, y: top, width: Swift.max(1, x1 - x0), height: bottom - top, fill: "#e9a3a3", opacity: 0.45)
        }
        if count > 0 && !data.rawHeading.contains(where: { $0.isFinite }) {
            svg.label("no valid heading in this recording (no magnetometer, or never trusted)",
                      x: (left + right) / 2, y: (top + bottom) / 2 + 4, anchor: .middle, fill: "#7a2e2e")
        }
        svg.path(DecimatedPath.build(time: data.time, values: data.rawHeading, x: time, y: axis, circular: true),
                 stroke: SVGPlot.grey, width: 1, clip: clip, id: SVGPlot.SeriesID.rawHeading)
        svg.path(DecimatedPath.build(time: data.time, values: data.smoothedHeading, x: time, y: axis, circular: true),
                 stroke: SVGPlot.blue, width: 2, clip: clip, id: SVGPlot.SeriesID.smoothedHeading)
        border(top: top, bottom: bottom)
    }

    mutating func attitudePanel() {
        let top = header("Roll and pitch", legend: [
            (.line(SVGPlot.orange, width: 1.5, dash: nil), "roll"),
            (.line(SVGPlot.green, width: 1.5, dash: nil), "pitch"),
        ])
        let bottom = top + 120
        let clip = frame(top: top, bottom: bottom, yLabel: "angle (°)")
        let m = PlotAxis.symmetricRange([data.roll, data.pitch], atLeast: 10)
        let axis = PlotAxis(low: -m, high: m, pixelLow: bottom, pixelHigh: top)
        valueTicks(axis, values: axis.ticks(minSpacing: 24))
        // Roll lives on ±180°: a jump across it breaks the line like the heading's wrap at north.
        svg.path(DecimatedPath.build(time: data.time, values: data.roll, x: time, y: axis, circular: true),
                 stroke: SVGPlot.orange, width: 1.5, clip: clip, id: SVGPlot.SeriesID.roll)
        svg.path(DecimatedPath.build(time: data.time, values: data.pitch, x: time, y: axis),
                 stroke: SVGPlot.green, width: 1.5, clip: clip, id: SVGPlot.SeriesID.pitch)
        border(top: top, bottom: bottom)
    }

    mutating func ratePanel() {
        let thresholds = data.rateThresholds.filter { $0.isFinite && $0 > 0 }.sorted()
        var legend: [(Swatch, String)] = [
            (.line(SVGPlot.vermillion, width: 1.2, dash: nil), "nod axis (pitch rate)"),
            (.line(SVGPlot.sky, width: 1.2, dash: nil), "shake axis (yaw rate)"),
        ]
        if !thresholds.isEmpty {
            let text = thresholds.map { "±" + PlotAxis.shortLabel($0) }.joined(separator: ", ")
            legend.append((.line(SVGPlot.dark, width: 1, dash: "5 3"), "gesture thresholds \(text) °/s"))
        }
        let top = header("Angular rate about the head axes", legend: legend)
        let bottom = top + 150
        let clip = frame(top: top, bottom: bottom, yLabel: "rate (°/s)")
        let m = PlotAxis.symmetricRange([data.nodRate, data.shakeRate], atLeast: 1.25 * (thresholds.last ?? 20))
        let axis = PlotAxis(low: -m, high: m, pixelLow: bottom, pixelHigh: top)
        valueTicks(axis, values: axis.ticks(minSpacing: 24))
        for v in thresholds {
            for s in [v, -v] {
                svg.line(x1: left, y1: axis.pixel(s), x2: right, y2: axis.pixel(s), stroke: SVGPlot.dark, dash: "5 3")
            }
        }
        svg.path(DecimatedPath.build(time: data.time, values: data.nodRate, x: time, y: axis),
                 stroke: SVGPlot.vermillion, width: 1.2, clip: clip, id: SVGPlot.SeriesID.nodRate)
        svg.path(DecimatedPath.build(time: data.time, values: data.shakeRate, x: time, y: axis),
                 stroke: SVGPlot.sky, width: 1.2, clip: clip, id: SVGPlot.SeriesID.shakeRate)
        border(top: top, bottom: bottom)
    }

    mutating func gesturePanel() {
        var rows = ["nod", "shake"]
        for label in ["up", "down", "left", "right"]
        where data.gestures.contains(where: { $0.label == label }) || data.truthBouts.contains(where: { $0.label == label }) {
            rows.append(label)
        }
        for e in data.gestures where !rows.contains(e.label) { rows.append(e.label) }
        for b in data.truthBouts where !rows.contains(b.label) { rows.append(b.label) }

        var legend: [(Swatch, String)] = [(.diamond(SVGPlot.dark), "detected")]
        legend.append(data.truthBouts.isEmpty ? (.box("#ffffff", opacity: 0), "no truth bouts given")
                                              : (.box(SVGPlot.grey, opacity: 0.35), "truth bout (labelled)"))
        let top = header("Gestures", legend: legend)
        let rowHeight = 22.0
        let bottom = top + rowHeight * Double(rows.count)
        let clip = frame(top: top, bottom: bottom, yLabel: nil)
        func centre(_ row: Int) -> Double { top + rowHeight * (Double(row) + 0.5) }
        for (i, label) in rows.enumerated() {
            let y = centre(i)
            svg.line(x1: left, y1: y, x2: right, y2: y, stroke: "#eeeeee")
            svg.label(label, x: left - 7, y: y + 4, anchor: .end, size: 11)
        }
        svg.open("g", [("id", SVGPlot.SeriesID.truthBouts), ("clip-path", "url(#\(clip))")])
        for bout in data.truthBouts {
            guard let row = rows.firstIndex(of: bout.label) else { continue }
            let x0 = time.pixel(bout.start), x1 = time.pixel(bout.end)
            svg.rect(x: x0, y: centre(row) - 8, width: Swift.max(1, x1 - x0), height: 16,
                     fill: SVGPlot.colour(gesture: bout.label), opacity: 0.3)
        }
        svg.close("g")
        svg.open("g", [("id", SVGPlot.SeriesID.gestures), ("clip-path", "url(#\(clip))")])
        for e in data.gestures {
            guard let row = rows.firstIndex(of: e.label) else { continue }
            let c = SVGPlot.colour(gesture: e.label)
            svg.path(diamond(x: time.pixel(e.t), y: centre(row), r: 5), stroke: SVGPlot.dark, width: 0.8, fill: c)
        }
        svg.close("g")
        border(top: top, bottom: bottom)
    }

    mutating func ledPanel() {
        let top = header("LEDs", legend: [(.box(SVGPlot.dark, opacity: 1), "bar = LED on")])
        let rowHeight = 16.0
        let leds = Led.allCases
        let bottom = top + rowHeight * Double(leds.count)
        let clip = frame(top: top, bottom: bottom, yLabel: nil)
        svg.open("g", [("id", SVGPlot.SeriesID.leds), ("clip-path", "url(#\(clip))")])
        for (row, led) in leds.enumerated() {
            let y = top + rowHeight * Double(row)
            let bit = UInt8(1) << UInt8(led.rawValue)
            let spans = timeSpans(time: data.time, count: Swift.min(count, data.leds.count), mergeGap: pixelTime(0.5)) { i in
                data.leds[i] & bit != 0
            }
            svg.open("g", [("id", SVGPlot.SeriesID.led(led))])
            for (a, b) in spans {
                let x0 = time.pixel(a), x1 = time.pixel(b)
                svg.rect(x: x0, y: y + 3, width: Swift.max(1, x1 - x0), height: rowHeight - 6, fill: SVGPlot.colour(led: led))
            }
            svg.close("g")
        }
        svg.close("g")
        for (row, led) in leds.enumerated() {
            svg.label(led.name, x: left - 7, y: top + rowHeight * (Double(row) + 0.5) + 4, anchor: .end, size: 11)
        }
        border(top: top, bottom: bottom)
    }

    mutating func timeAxis() {
        let axisY = cursor - Layout.panelGap
        let step = timeTicks.count > 1 ? timeTicks[1] - timeTicks[0] : 1
        for t in timeTicks {
            let x = time.pixel(t)
            svg.line(x1: x, y1: axisY, x2: x, y2: axisY + 4, stroke: "#888888")
            svg.label(PlotAxis.label(t, step: step), x: x, y: axisY + 17, anchor: .middle, size: 11)
        }
        svg.label("time (s)", x: (left + right) / 2, y: axisY + 36, anchor: .middle)
        cursor = axisY + 48
    }

    // MARK: Helpers

    /// The time (s) that `pixels` pixels span.
    func pixelTime(_ pixels: Double) -> Double { (time.high - time.low) / (right - left) * pixels }

    func diamond(x: Double, y: Double, r: Double) -> String {
        "M\(fixed(x, 1)) \(fixed(y - r, 1))L\(fixed(x + r, 1)) \(fixed(y, 1))L\(fixed(x, 1)) \(fixed(y + r, 1))L\(fixed(x - r, 1)) \(fixed(y, 1))Z"
    }

    /// `s`, cut with an ellipsis if it would not fit in `room` pixels.
    func fit(_ s: String, size: Double, room: Double) -> String {
        guard SVGWriter.textWidth(s, size: size) > room else { return s }
        let keep = Swift.max(1, Int(room / (size * 0.62)) - 1)
        return String(s.unicodeScalars.prefix(keep).map(Character.init)) + "…"
    }
}
