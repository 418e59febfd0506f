import Geometry
import SensorCalibration
import MountLearning
import Tracking
import Formats

/// What `replay --learn-mount` and `calibrate --mount` say about a learned mount: the one line with the mount
/// as `--mount` takes it, and how it was measured.
enum LearnedMountReport {
    /// Runs the learner over a recording's raw samples (gyro bias from `calibration` removed, as `run` does).
    static func learn(_ trace: Trace, calibration: Calibration) -> MountLearner {
        var learner = MountLearner()
        for r in trace.records { learner.add(t: r.t, gyro: calibration.correctGyro(r.gyro), accel: r.accel) }
        return learner
    }

    static func line(_ l: MountLearner.Learned) -> String { "learned mount: \(l.mount.argument)" }

    /// How it was measured, in one line.
    static func details(_ l: MountLearner.Learned) -> String {
        let degrees = { (r: Double) in fixed(r * Units.degreesPerRadian, 1) + "°" }
        var parts = ["from \(l.nods) nods in a row (their axis \(degrees(l.offHorizontal)) from horizontal)"]
        switch l.upSource {
        case let .still(seconds): parts.append("up from gravity over \(fixed(seconds, 1)) s of stillness")
        case .meanOverNods: parts.append("up from the mean gravity over the nods (it never holds still)")
        }
        switch l.senseSource {
        case .firstSwingFromRest: parts.append("forward from the first, chin-down swing of a nod begun from rest")
        case .statedMount: parts.append("forward from the trace's frame line, since no nod in it begins from rest")
        }
        if l.mount == l.nearestAxisForm {
            parts.append("measured \(degrees(l.offAxisForm)) from \(l.nearestAxisForm.argument)"
                         + (l.offAxisForm > 0.05 ? " (measured: \(l.measured.argument))" : ""))
        } else {
            parts.append("\(degrees(l.offAxisForm)) from the nearest axis form \(l.nearestAxisForm.argument)")
        }
        return parts.joined(separator: "; ")
    }
}
