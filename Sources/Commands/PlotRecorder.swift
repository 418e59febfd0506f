import Service
import Geometry
import Gestures
import Plots
import Tracking
import Formats

/// Collects what the pipeline did, for `--plot`, as a `PlotData` sampled at the display rate (keeps pictures
/// light; a gesture half-wave lasts 0.2–0.7 s, so 60 Hz still shows its peak), and draws it with `SVGPlot`.
struct PlotRecorder {
    private(set) var data = PlotData(title: "")

    mutating func gesture(t: Double, event: GestureEvent) {
        data.gestures.append(PlotData.Event(t: t, label: event.rawValue))
    }

    mutating func display(t: Double, leds mask: UInt64, pipeline: Pipeline) {
        let e = EulerAngles(pipeline.attitude)
        // Head rates with the bias removed: about the vertical (shake) and the levelled left axis (nod). The
        // detector tracks any horizontal axis; with a mount, the left axis is where nods happen.
        let gyro = pipeline.headGyro - pipeline.filter.gyroBias
        let up = pipeline.attitude.inverseRotate(Vector3(0, 0, 1))
        var left = Vector3(0, 1, 0) - up * up.y
        if left.length < 0.3 { left = Vector3(0, 1, 0) }  // head on its side: keep the body axis
        left = left.normalized
        data.append(t: t,
                    rawHeading: pipeline.heading.isValid ? pipeline.heading.degrees : .nan,
                    smoothedHeading: pipeline.displayed.hasValue ? pipeline.displayed.degrees : .nan,
                    roll: e.roll * Units.degreesPerRadian, pitch: e.pitch * Units.degreesPerRadian,
                    nodRate: gyro.dot(left) * Units.degreesPerRadian,
                    shakeRate: gyro.dot(up) * Units.degreesPerRadian,
                    ledMask: mask)
    }

    func write(to path: String, title: String, truth: [(label: String, start: Double, end: Double)]) throws {
        var d = data
        d.title = title
        d.truthBouts = truth.map { PlotData.Bout(start: $0.start, end: $0.end, label: $0.label) }
        do {
            try SVGPlot.write(d, to: path)
        } catch {
            throw CommandError("cannot write the plot: \(error)")  // the error carries its own hint
        }
    }

    /// The bouts of `NAME.truth.json` beside `NAME.csv`, read by the same reader `eval gestures` uses, or
    /// none. A truth file that cannot be read is reported and left out: the plot is still worth having.
    static func truthBeside(trace path: String) -> [(label: String, start: Double, end: Double)] {
        let truthPath = GestureTruth.path(forTrace: path)
        guard FileIO.exists(truthPath) else { return [] }
        do {
            return try GestureTruth.read(path: truthPath).bouts.map { ($0.label, $0.start, $0.end) }
        } catch {
            Console.err("headtrack: \(error); plotting without truth bouts")
            return []
        }
    }
}
