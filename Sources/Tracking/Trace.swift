import Geometry

/// One row of an `imu-trace v1` file (see shared data/README.md): raw SI samples in the sensor's own axes.
public struct TraceRecord: Sendable, Equatable {
    public var t: Double
    public var accel: Vector3
    public var gyro: Vector3
    /// nil when the magnetometer cell is empty (not measured).
    public var mag: Vector3?
    /// Ground truth sensor-to-ENU orientation, nil when absent for this row.
    public var truth: Quaternion?
    /// Ground truth "this sample counts for the error" flag, nil when the file has no such column.
    public var moving: Bool?
    /// Independent-recording id: filter state must be reset when it changes.
    public var window: Int?

    public init(t: Double, accel: Vector3, gyro: Vector3, mag: Vector3? = nil, truth: Quaternion? = nil,
                moving: Bool? = nil, window: Int? = nil) {
        self.t = t; self.accel = accel; self.gyro = gyro; self.mag = mag
        self.truth = truth; self.moving = moving; self.window = window
    }
}

/// A recording in memory: metadata (`# key: value` lines of the file) and its rows. `TraceFile` (Formats)
/// reads and writes it; `Replay` runs the pipeline over it.
public struct Trace: Sendable {
    /// Sample rates in metadata above this are ignored (the timestamps decide).
    public static let maxRateHz = 100_000.0
    public var metadata: [String: String]
    public var records: [TraceRecord]
    public init(metadata: [String: String] = [:], records: [TraceRecord] = []) {
        self.metadata = metadata; self.records = records
    }
    /// Nominal rate from the `rate_hz` metadata, else from the timestamps.
    public var rateHz: Double? {
        if let s = metadata["rate_hz"], let r = Double(s), r > 0, r <= Trace.maxRateHz { return r }
        guard records.count > 1, let last = records.last, last.t > records[0].t else { return nil }
        return Double(records.count - 1) / (last.t - records[0].t)
    }
    public var hasMagnetometer: Bool { records.contains { $0.mag != nil } }
}
