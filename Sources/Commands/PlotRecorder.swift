import Fusion
import Gestures
import Runtime

/// Collects what the pipeline did, for `--plot`. Sampled at the display rate to keep pictures light.
/// (The SVG drawing itself lives in Evaluation; until it lands this writes a CSV-like placeholder error.)
struct PlotRecorder {
    var t: [Double] = []
    var rawHeading: [Double] = []
    var smoothedHeading: [Double] = []
    var roll: [Double] = []
    var pitch: [Double] = []
    var nodRate: [Double] = []
    var shakeRate: [Double] = []
    var leds: [UInt64] = []
    var gestures: [(t: Double, label: String)] = []

    mutating func sample(t: Double, pipeline: Pipeline) {}

    mutating func gesture(t: Double, event: GestureEvent) { gestures.append((t, event.rawValue)) }

    mutating func display(t: Double, leds mask: UInt64, pipeline: Pipeline) {
        let e = EulerAngles(pipeline.attitude)
        self.t.append(t)
        rawHeading.append(pipeline.heading.isValid ? pipeline.heading.degrees : .nan)
        smoothedHeading.append(pipeline.displayed.hasValue ? pipeline.displayed.degrees : .nan)
        roll.append(e.roll * Units.degreesPerRadian)
        pitch.append(e.pitch * Units.degreesPerRadian)
        let up = pipeline.attitude.inverseRotate(Vector3(0, 0, 1))
        shakeRate.append(pipeline.headGyro.dot(up) * Units.degreesPerRadian)
        var left = Vector3(0, 1, 0) - up * up.y
        left = left.normalized
        nodRate.append(pipeline.headGyro.dot(left) * Units.degreesPerRadian)
        leds.append(mask)
    }

    func write(to path: String, title: String, truth: [(label: String, start: Double, end: Double)]) throws {
        throw CommandError("--plot is not available yet in this build", status: 2)
    }
}
