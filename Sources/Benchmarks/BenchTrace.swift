import Geometry
import Tracking
import Formats
import Simulation

/// The recording the stage benchmarks replay: a real one from the shared data set when it is there,
/// otherwise a synthetic one from the demo story (and the report says so).
public struct BenchTrace: Sendable {
    public var trace: Trace
    /// Where the samples came from, for the report.
    public var source: String
    public var isSynthetic: Bool

    /// The default recording: BROAD trial 21 (fast combined rotation and translation, 9-axis, 285.7 Hz),
    /// looked up beside the repository or the binary (`SharedData`).
    public static let defaultRecording = "attitude/21_undisturbed_fast_combined.csv"
    public static var defaultPath: String? { SharedData.locate(defaultRecording) }

    /// Reads `path`, or the default recording when `path` is nil; without either, synthesises one.
    public static func load(path: String?) throws(TraceError) -> BenchTrace {
        if let p = path {
            return BenchTrace(trace: try TraceFile.read(path: p), source: p, isSynthetic: false)
        }
        if let p = defaultPath {
            return BenchTrace(trace: try TraceFile.read(path: p), source: p, isSynthetic: false)
        }
        return synthetic()
    }

    /// The demo story through the simulated sensor (noise, bias, magnetometer) at 285.7 Hz, 60 s.
    public static func synthetic(seconds: Double = 60, rateHz: Double = 2000.0 / 7.0) -> BenchTrace {
        let script = MotionScript.demoStory
        var sensor = SensorModel()
        var records: [TraceRecord] = []
        let n = Int(seconds * rateHz)
        records.reserveCapacity(n)
        for i in 0..<n {
            // Loop the ~24 s story so the whole trace has motion in it.
            let t = Double(i) / rateHz
            let u = t.truncatingRemainder(dividingBy: script.duration)
            let state = script.state(at: u)
            records.append(TraceRecord(t: t, accel: sensor.accelerometer(state), gyro: sensor.gyroscope(state),
                                       mag: sensor.magnetometer(state, at: u)))
        }
        return BenchTrace(trace: Trace(metadata: ["rate_hz": String(rateHz)], records: records),
                          source: "synthetic (demo story, \(Int(seconds)) s at \(Int(rateHz.rounded())) Hz): shared/data/\(defaultRecording) "
                            + "was not found beside the repository or the binary; pass --trace FILE for a real recording",
                          isSynthetic: true)
    }
}
