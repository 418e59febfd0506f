import Geometry
import Sensors

/// A complete simulated headset: an MPU-9250 with its AK8963 on a simulated bus, LEDs on recording GPIO
/// lines, all on one virtual clock and driven by one motion script.
public final class SimulatedBoard {
    public let clock: VirtualClock
    public let bus: SimulatedI2CBus
    public let imu: InvenSenseModel
    public let magnetometer: AK8963Model
    public let leds: RecordingOutputLines
    public var motion: MotionScript { imu.motion }

    public init(motion: MotionScript, sensor: SensorModel = SensorModel(), imuAddress: UInt8 = 0x68,
                whoAmI: UInt8 = 0x71, ledCount: Int = 8, speed: Double? = nil) {
        clock = VirtualClock(speed: speed)
        bus = SimulatedI2CBus(clock: clock)
        imu = InvenSenseModel(part: .mpu6500Family(whoAmI: whoAmI), clock: clock, motion: motion, sensor: sensor)
        magnetometer = AK8963Model(clock: clock, host: imu)
        leds = RecordingOutputLines(count: ledCount, clock: clock)
        bus.attach(imu, at: imuAddress)
        bus.attach(magnetometer, at: 0x0C)
    }
}
