import LibC
import Fusion
import Geometry
import Tracking
import Formats

/// The raw compass heading of a real recording, computed at the sensor rate by the tracker's own pipeline
/// (no mount: the sensor's +x axis), with the still stretches on which the display jitter is scored.
public struct RecordedHeadings: Sendable {
    /// A time span (s) of the recording.
    public struct Window: Sendable, Equatable {
        public var start: Double
        public var end: Double
    }

    public var name: String
    /// Sample times (s), increasing.
    public var times: [Double]
    /// Raw heading at each sample, with its validity.
    public var headings: [HeadingReading]
    /// Where the sensor is still, minus a lead-in, so the score is jitter and not the end of a movement.
    public var stillWindows: [Window]

    /// Gyro norm (rad/s) below which the sensor counts as still: ~3 °/s, well above the gyro noise of a
    /// resting MEMS sensor and well below any deliberate head movement.
    public static let stillGyroThreshold = 0.05
    /// A still stretch must last this long (s) ...
    public static let minStillDuration = 3.0
    /// ... and is scored from this long (s) after it began, once smoother and filter have caught up.
    public static let stillLeadIn = 2.0

    /// Runs the fusion over `trace` and finds its still stretches.
    public static func compute(trace: Trace, name: String) -> RecordedHeadings {
        var pipeline = Pipeline()
        var times: [Double] = []
        var headings: [HeadingReading] = []
        times.reserveCapacity(trace.records.count)
        headings.reserveCapacity(trace.records.count)
        var windows: [Window] = []
        var stillSince: Double? = nil
        var previousT: Double? = nil
        var previousWindow: Int? = nil

        func closeStill(at end: Double) {
            if let s = stillSince, end - s >= minStillDuration {
                windows.append(Window(start: s + stillLeadIn, end: end))
            }
            stillSince = nil
        }

        for r in trace.records {
            if r.window != previousWindow {
                // Independent recordings inside one file: start the filter afresh.
                if let p = previousT { closeStill(at: p) }
                pipeline.reset()
                previousT = nil
                previousWindow = r.window
            }
            previousT = r.t
            _ = pipeline.processIMU(t: r.t, accel: r.accel, gyro: r.gyro, mag: r.mag)
            times.append(r.t)
            headings.append(pipeline.heading)

            if r.gyro.length < stillGyroThreshold {
                if stillSince == nil { stillSince = r.t }
            } else {
                closeStill(at: r.t)
            }
        }
        if let p = previousT { closeStill(at: p) }
        return RecordedHeadings(name: name, times: times, headings: headings, stillWindows: windows)
    }

    /// Reads every `*.csv` trace in `directory` (sorted by name) that has a magnetometer.
    public static func load(directory: String) throws -> [RecordedHeadings] {
        var result: [RecordedHeadings] = []
        for file in try csvFiles(in: directory) {
            let trace = try TraceFile.read(path: directory + "/" + file)
            guard trace.hasMagnetometer else { continue }
            result.append(compute(trace: trace, name: String(file.dropLast(4))))
        }
        return result
    }

    /// The `*.csv` file names in a directory, sorted.
    static func csvFiles(in directory: String) throws -> [String] {
        guard let dir = opendir(directory) else {
            throw FileError(path: directory,
                            message: "cannot list recordings: \(String(cString: strerror(errno))); pass --data DIR with the imu-trace files (shared/data/attitude)")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasSuffix(".csv") && !name.hasPrefix(".") { names.append(name) }
        }
        return names.sorted()
    }
}
