#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
@testable import Plots
import Testing
import Geometry
import Indicators
import Formats
@testable import Evaluation

@Suite struct SVGPlotTests {
    static let awkwardTitle = "replay <st30_nod1.csv> & \"friends\" 'quoted'"

    /// 20 s at 60 Hz of a made-up session whose contents are known exactly.
    static func syntheticData() -> PlotData {
        var d = PlotData(title: awkwardTitle)
        for k in 0..<1200 {
            let t = Double(k) / 60
            let heading = wrapDegrees360(330 + 6 * t)                  // crosses north at t = 5 s
            let invalid = t >= 12 && t < 14                             // head pitched up
            let nod = (t >= 8 && t < 9) ? 80 * sin(2 * Double.pi * 2 * (t - 8)) : 0
            var leds: UInt64 = 0
            if t >= 9 && t < 9.4 { leds |= 1 << UInt64(Led.nod.rawValue) }
            if (t >= 4 && t < 8) || t >= 16 { leds |= 1 << UInt64(Led.north.rawValue) }
            if t.truncatingRemainder(dividingBy: 1) < 0.1 { leds |= 1 << UInt64(Led.status.rawValue) }
            d.append(t: t, rawHeading: invalid ? .nan : heading, smoothedHeading: heading,
                     roll: 5 * sin(t), pitch: invalid ? 75 : -3, nodRate: nod, shakeRate: 2 * cos(t), ledMask: leds)
        }
        d.gestures = [PlotData.Event(t: 9, label: "nod"), PlotData.Event(t: 15, label: "shake")]
        d.truthBouts = [PlotData.Bout(start: 8, end: 9, label: "nod")]
        return d
    }

    @Test func plotIsWellFormedSVGWithEverySeries() throws {
        let data = Self.syntheticData()
        let svg = SVGPlot.render(data)
        let root = try XMLChecker.parse(svg)
        #expect(root.name == "svg")
        #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
        // The title survives escaping exactly.
        #expect(root.children.first { $0.name == "title" }?.text == Self.awkwardTitle)
        for id in [SVGPlot.SeriesID.rawHeading, SVGPlot.SeriesID.smoothedHeading, SVGPlot.SeriesID.roll,
                   SVGPlot.SeriesID.pitch, SVGPlot.SeriesID.nodRate, SVGPlot.SeriesID.shakeRate] {
            let path = root.first(id: id)
            #expect(path?.name == "path", "series \(id) missing")
            #expect((path?.attributes["d"]?.count ?? 0) > 100, "series \(id) is empty")
        }
        // One marker per detection, one bar per truth bout.
        #expect(root.first(id: SVGPlot.SeriesID.gestures)?.children.count == 2)
        #expect(root.first(id: SVGPlot.SeriesID.truthBouts)?.children.count == 1)
        // LED timeline: all eight rows, with the on-stretches that went in.
        let expectedBars: [Led: Int] = [.nod: 1, .shake: 0, .north: 2, .up: 0, .down: 0, .left: 0, .right: 0, .status: 20]
        for led in Led.allCases {
            let group = root.first(id: SVGPlot.SeriesID.led(led))
            #expect(group != nil, "LED row \(led) missing")
            #expect(group?.children.count == expectedBars[led], "LED \(led)")
        }
        // Axis labels with units and a legend are there as text.
        let texts = root.all.filter { $0.name == "text" }.map(\.text)
        for label in ["heading (°)", "angle (°)", "rate (°/s)", "time (s)", "raw", "smoothed (displayed)",
                      "roll", "pitch", "nod axis (pitch rate)", "shake axis (yaw rate)", "detected",
                      "truth bout (labelled)", "heading invalid: display holds"] {
            #expect(texts.contains(label), "missing text '\(label)'")
        }
        // The default detector: swings start at 0.2 rad/s (11.5 °/s) and must peak at the `normal` preset's
        // 26 °/s.
        #expect(texts.contains { $0.hasPrefix("gesture thresholds ±11.5, ±26") })
    }

    /// The heading wraps from 359° to 0°: the line must break there, not draw a stroke across the panel.
    @Test func headingLineBreaksAtNorthInsteadOfCrossingThePanel() throws {
        let root = try XMLChecker.parse(SVGPlot.render(Self.syntheticData()))
        let d = try #require(root.first(id: SVGPlot.SeriesID.rawHeading)?.attributes["d"])
        let points = pathPoints(d)
        #expect(points.contains { $0.move } && points.filter(\.move).count >= 3)  // start, north, invalid stretch
        for (a, b) in zip(points, points.dropFirst()) where !b.move {
            #expect(abs(b.y - a.y) < 50, "stroke from \(a) to \(b)")
        }
    }

    /// A one-sample spike in 100 000 samples must still reach its height after decimation.
    @Test func decimationKeepsPeaks() throws {
        var d = PlotData(title: "spike")
        for k in 0..<100_000 {
            let t = Double(k) / 285.7
            d.append(t: t, rawHeading: 90, smoothedHeading: 90, roll: 0, pitch: 0,
                     nodRate: k == 54_321 ? 250 : 5 * sin(t), shakeRate: 0, ledMask: 0)
        }
        let svg = SVGPlot.render(d)
        #expect(svg.utf8.count < 400_000, "plot is \(svg.utf8.count) bytes")
        let root = try XMLChecker.parse(svg)
        let nod = pathPoints(try #require(root.first(id: SVGPlot.SeriesID.nodRate)?.attributes["d"]))
        #expect(nod.count < 5_000)
        let zero = pathPoints(try #require(root.first(id: SVGPlot.SeriesID.shakeRate)?.attributes["d"]))[0].y
        let top = nod.map(\.y).min()!
        let ordinary = nod.filter { abs($0.x - nod.first { p in p.y == top }!.x) > 20 }.map(\.y).min()!
        // The spike (250 °/s) stands 50 times higher above the zero line than the 5 °/s wave.
        #expect((zero - top) > 40 * (zero - ordinary))
    }

    @Test(arguments: [1200.0, 640])
    func textNeverOverlaps(width: Double) throws {
        var data = Self.syntheticData()
        data.title = String(repeating: "a very long replay title ", count: 12)
        data.gestures += [PlotData.Event(t: 3, label: "left"), PlotData.Event(t: 4, label: "up")]
        let root = try XMLChecker.parse(SVGPlot.render(data, width: width))
        let boxes = root.all.filter { $0.name == "text" }.map(textBox)
        for (i, a) in boxes.enumerated() {
            #expect(a.x0 >= 0 && a.x1 <= width, "text '\(a.text)' leaves the page")
            for b in boxes[(i + 1)...] {
                let overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
                #expect(!overlap, "'\(a.text)' overlaps '\(b.text)'")
            }
        }
    }

    @Test func emptyDataStillGivesAValidPlot() throws {
        let root = try XMLChecker.parse(SVGPlot.render(PlotData(title: "")))
        #expect(root.name == "svg")
    }

    /// A real recording with labelled nod bouts, through a minimal replay.
    @Test(.enabled(if: FileIO.exists(TracePlotting.sharedData + "/gestures/st30_nod1.csv"), "needs ../shared (README: Shared recordings)"))
    func plotOfARealGestureRecording() throws {
        let path = TracePlotting.sharedData + "/gestures/st30_nod1.csv"
        let trace = try TraceFile.read(path: path)
        let bouts = try TracePlotting.truthBouts(path: TracePlotting.sharedData + "/gestures/st30_nod1.truth.json")
        // Worn with sensor X back, Y up, Z left.
        let data = TracePlotting.plot(trace: trace, title: "replay st30_nod1.csv (mount -x,z,y)",
                                      mount: { Vector3(-$0.x, $0.z, $0.y) }, truth: bouts)
        let svg = SVGPlot.render(data)
        try TracePlotting.keep(svg, name: "st30_nod1.svg")
        try TracePlotting.keep(SVGPlot.render(data.window(from: 20, to: 40)), name: "st30_nod1_20-40s.svg")
        let root = try XMLChecker.parse(svg)
        #expect(root.first(id: SVGPlot.SeriesID.truthBouts)?.children.count == bouts.count)
        #expect((root.first(id: SVGPlot.SeriesID.gestures)?.children.count ?? 0) > 0)
        // No magnetometer in this recording: no raw heading is drawn.
        #expect(root.first(id: SVGPlot.SeriesID.rawHeading) == nil)

        // A recording with a magnetometer, only when someone wants to look at it (it takes a while to read).
        let broad = TracePlotting.sharedData + "/attitude/01_undisturbed_slow_rotation_A.csv"
        if getenv("HEADTRACK_PLOT_DIR") != nil, FileIO.exists(broad) {
            let t = try TraceFile.read(path: broad)
            let d = TracePlotting.plot(trace: t, title: "replay 01_undisturbed_slow_rotation_A.csv (BROAD)",
                                       mount: { $0 }, truth: [])
            try TracePlotting.keep(SVGPlot.render(d), name: "broad01.svg")
            try TracePlotting.keep(SVGPlot.render(d.window(from: 95, to: 125)), name: "broad01_95-125s.svg")
        }
    }

    // MARK: Helpers

    struct PathPoint { var x: Double; var y: Double; var move: Bool }

    func pathPoints(_ d: String) -> [PathPoint] {
        var points: [PathPoint] = []
        var command: Character = "M"
        var number = ""
        var pending: [Double] = []
        func flushNumber() {
            if let v = Double(number) { pending.append(v) }
            number = ""
            if pending.count == 2 {
                points.append(PathPoint(x: pending[0], y: pending[1], move: command == "M"))
                pending = []
            }
        }
        for c in d {
            if c == "M" || c == "L" || c == "Z" { flushNumber(); command = c } else if c == " " || c == "," { flushNumber() } else { number.append(c) }
        }
        flushNumber()
        return points
    }

    struct Box { var text: String; var x0, x1, y0, y1: Double }

    /// Bounding box of a text element with the plot's own width estimate (an upper bound for sans-serif).
    func textBox(_ e: XMLElement) -> Box {
        let size = Double(e.attributes["font-size"] ?? "12") ?? 12
        let x = Double(e.attributes["x"] ?? "0") ?? 0
        let y = Double(e.attributes["y"] ?? "0") ?? 0
        let w = SVGWriter.textWidth(e.text, size: size)
        let x0: Double
        switch e.attributes["text-anchor"] ?? "start" {
        case "middle": x0 = x - w / 2
        case "end": x0 = x - w
        default: x0 = x
        }
        if e.attributes["transform"]?.hasPrefix("rotate(-90") == true {
            // Rotated about (x, y): the run goes up the page.
            return Box(text: e.text, x0: x - size, x1: x + 0.25 * size, y0: y - (x0 + w - x), y1: y - (x0 - x))
        }
        return Box(text: e.text, x0: x0, x1: x0 + w, y0: y - size, y1: y + 0.25 * size)
    }
}
