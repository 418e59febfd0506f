import Geometry
import Sensors

/// What an ideal sensor would read, plus the imperfections of a real one. Produces sensor-frame SI values
/// from the true motion: gravity and linear acceleration for the accelerometer, angular rate plus bias for
/// the gyroscope, the earth field (with optional hard and soft iron) for the magnetometer.
public struct SensorModel: Sendable {
    /// Earth field in ENU, µT: 20 µT north, 45 µT down — a plausible mid-latitude field.
    public var earthField = Vector3(0, 20, -45)
    /// How the chip sits in the head (sensor → head).
    public var mount: Mount = .identity
    public var gyroBias = Vector3(0.01, -0.02, 0.015)
    /// Noise standard deviations: MPU-9250 densities (0.01 °/s/√Hz, 300 µg/√Hz) over a ~90 Hz bandwidth.
    public var gyroNoise = 0.0017
    public var accelNoise = 0.03
    public var magNoise = 0.3
    /// Magnetometer hard iron (µT, sensor frame) and soft iron (rows of a 3×3 matrix).
    public var hardIron = Vector3.zero
    public var softIron = (Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))
    /// Extra field (ENU, µT) from a magnet, as a function of nothing but a window in time.
    public var magneticDisturbance: (start: Double, end: Double, field: Vector3)? = nil
    public var random = SeededRandom(seed: 1)

    public init() {}

    private mutating func noise(_ sigma: Double) -> Vector3 {
        Vector3(random.gaussian(), random.gaussian(), random.gaussian()) * sigma
    }

    public mutating func accelerometer(_ s: MotionState) -> Vector3 {
        let specificForce = s.linearAcceleration + Vector3(0, 0, Units.standardGravity)
        return mount.unapply(s.attitude.inverseRotate(specificForce)) + noise(accelNoise)
    }

    public mutating func gyroscope(_ s: MotionState) -> Vector3 {
        mount.unapply(s.angularRate) + gyroBias + noise(gyroNoise)
    }

    public mutating func magnetometer(_ s: MotionState, at t: Double) -> Vector3 {
        var field = earthField
        if let d = magneticDisturbance, t >= d.start, t < d.end { field += d.field }
        let ideal = mount.unapply(s.attitude.inverseRotate(field))
        let distorted = Vector3(softIron.0.dot(ideal), softIron.1.dot(ideal), softIron.2.dot(ideal)) + hardIron
        return distorted + noise(magNoise)
    }
}
