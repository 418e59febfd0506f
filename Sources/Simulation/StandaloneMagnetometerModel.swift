import Geometry

/// What a magnetometer that is a chip of its own on the breakout (a QMC5883L, an HMC5883L) shares with the
/// others of its kind: a register file, the world it measures (the motion, the sensor's noise and bias) and
/// how its axes sit on the IMU's. The chip models add their registers' meaning.
public class StandaloneMagnetometerModel {
    public var registers: [UInt8]
    public let clock: VirtualClock
    public var motion: MotionScript
    public var sensor: SensorModel
    /// How the chip's axes sit relative to the IMU's (config `magnetometerMount` convention): identity = aligned.
    public var mountOnIMU: Mount = .identity
    /// A host whose bypass must be open for the chip to answer (GY-87: behind an MPU-6050); nil: on the main bus.
    public weak var auxiliaryHost: (any AuxiliaryBusHost)?

    /// `address` seeds the noise, so two chips on one breakout do not draw the same noise.
    init(registerCount: Int, address: UInt8, clock: VirtualClock, motion: MotionScript, sensor: SensorModel) {
        registers = [UInt8](repeating: 0, count: registerCount)
        self.clock = clock
        self.motion = motion
        self.sensor = sensor
        self.sensor.random = SeededRandom(seed: UInt64(address))
    }

    public var isVisible: Bool { auxiliaryHost?.bypassEnabled ?? true }

    /// The field the chip measures at time `t`, in its own axes (µT).
    func fieldInChipAxes(at t: Double) -> Vector3 {
        mountOnIMU.unapply(sensor.magnetometer(motion.state(at: t), at: t))
    }
}
