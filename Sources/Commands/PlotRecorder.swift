import Evaluation
import Fusion
import Gestures
import Runtime

/// Collects what the pipeline did, for `--plot`, as a `PlotData` sampled at the display rate (keeps pictures
/// light; a gesture half-wave lasts 0.2–0.7 s, so 60 Hz still shows its peak), and draws it with `SVGPlot`.
struct PlotRecorder {
    private(set) var data = PlotData(title: "")

    /// Every IMU sample. Nothing to do: the display tick samples everything the plot shows.
    mutating func sample(t: Double, pipeline: Pipeline) {}

    mutating func gesture(t: Double, event: GestureEvent) {
        data.gestures.append(PlotData.Event(t: t, label: event.rawValue))
    }

    mutating func display(t: Double, leds mask: UInt64, pipeline: Pipeline) {
        let e = EulerAngles(pipeline.attitude)
        // The rates the gesture detector sees: bias removed, about the vertical and the levelled left axis.
        let gyro = pipeline.headGyro - pipeline.filter.gyroBias
        let up = pipeline.attitude.inverseRotate(Vector3(0, 0, 1))
        var left = Vector3(0, 1, 0) - up * up.y
        if left.length < 0.3 { left = Vector3(0, 1, 0) }  // head on its side: keep the body axis, as the detector does
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
            throw CommandError("cannot write the plot: \(error) (is the directory there and writable?)")
        }
    }

    /// The bouts of `NAME.truth.json` beside `NAME.csv` (format in shared/data/README.md), or none. A truth
    /// file that cannot be read is reported and left out: the plot is still worth having.
    static func truthBeside(trace path: String) -> [(label: String, start: Double, end: Double)] {
        let base = path.hasSuffix(".csv") ? String(path.dropLast(4)) : path
        let truthPath = base + ".truth.json"
        guard FileIO.exists(truthPath) else { return [] }
        do {
            let json = try JSONParser.parse(try FileIO.readText(truthPath))
            guard case let .array(events)? = json["events"] else {
                Console.err("headtrack: \(truthPath) has no \"events\" list; plotting without truth bouts")
                return []
            }
            var bouts: [(label: String, start: Double, end: Double)] = []
            for event in events {
                guard case let .string(label)? = event["label"], case let .number(start)? = event["t_start"],
                      case let .number(end)? = event["t_end"] else {
                    Console.err("headtrack: \(truthPath): an event lacks label/t_start/t_end; it is left out of the plot")
                    continue
                }
                bouts.append((label, start, end))
            }
            return bouts
        } catch {
            Console.err("headtrack: cannot read \(truthPath) (\(error)); plotting without truth bouts")
            return []
        }
    }
}
