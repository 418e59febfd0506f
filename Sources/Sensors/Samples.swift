import Geometry

/// One accelerometer + gyroscope reading in SI units (m/s², rad/s, °C), in whatever frame the producer says.
public struct ImuSample: Sendable, Equatable {
    public var accel: Vector3
    public var gyro: Vector3
    public var temperature: Double
    public init(accel: Vector3, gyro: Vector3, temperature: Double = .nan) {
        self.accel = accel; self.gyro = gyro; self.temperature = temperature
    }
}

/// One magnetometer reading in µT.
public struct MagSample: Sendable, Equatable {
    public var field: Vector3
    /// The chip reported a data overrun (AK ST1.DOR, QMC STATUS.DOR): at least one measurement was skipped
    /// because it was not read in time. The field itself is valid (the latest measurement).
    public var overrun: Bool
    public init(field: Vector3, overrun: Bool = false) { self.field = field; self.overrun = overrun }
}
