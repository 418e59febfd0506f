import Geometry
import Hardware
import Simulation
@testable import Sensors

/// Shared set-up for the driver tests: a breakout with noise-free sensors so readings can be compared with
/// the motion script's truth to within one LSB.
enum ChipTest {
    static let gravity = 9.80665
    /// Earth field of SensorModel in ENU (µT), written out here as the test's own truth.
    static let earthField = Vector3(0, 20, -45)

    static func script() -> MotionScript {
        var s = MotionScript(initialHeading: 30)
        s.append(.still(duration: 1))
        s.append(.turn(toHeading: 120, duration: 2))
        s.append(.still(duration: 5))
        return s
    }

    static func quietSensor() -> SensorModel {
        var s = SensorModel()
        s.gyroNoise = 0; s.accelNoise = 0; s.magNoise = 0
        s.gyroBias = .zero
        return s
    }

    static func breakout(_ imu: SimulatedIMUPart?, _ mag: SimulatedMagnetometerPart? = nil, address: UInt8 = 0x68,
                         sensor: SensorModel = quietSensor()) -> SimulatedBreakout {
        SimulatedBreakout(imu: imu, magnetometer: mag, motion: script(), sensor: sensor, imuAddress: address)
    }

    /// Writes to one address as [register, value] pairs, in order.
    static func writes(_ bus: SimulatedI2CBus, to address: UInt8) -> [[UInt8]] {
        bus.writes.filter { $0.address == address }.map { [$0.register, $0.value] }
    }

    /// Truth in the IMU chip frame (identity mount) at `t`.
    static func truth(_ s: MotionScript, at t: Double) -> (accel: Vector3, gyro: Vector3, field: Vector3) {
        let st = s.state(at: t)
        return (st.attitude.inverseRotate(Vector3(0, 0, gravity) + st.linearAcceleration), st.angularRate,
                st.attitude.inverseRotate(earthField))
    }

    static func readBytes(_ bus: SimulatedI2CBus, _ address: UInt8, _ register: UInt8, _ count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBufferPointer { try bus.readRegisters(address: address, register: register, into: $0) }
        return out
    }
}
