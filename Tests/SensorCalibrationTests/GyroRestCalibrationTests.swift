#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import SensorCalibration
import Geometry

/// The gyro bias measured at rest (`GyroRestCalibration`), and motion during it refused.
@Suite struct GyroRestCalibrationTests {
    @Test func gyroBiasAtRestAndMotionIsDetected() throws {
        var still = GyroRestCalibration()
        let bias = Vector3(0.01, -0.02, 0.005)
        for i in 0..<500 {
            let wobble = Vector3(sin(Double(i)), cos(Double(i) * 1.3), sin(Double(i) * 0.7)) * 0.001
            still.add(gyro: bias + wobble, accel: Vector3(0, 0, 9.81))
        }
        #expect((try still.bias() - bias).length < 1e-4)
        var moved = GyroRestCalibration()
        for i in 0..<500 { moved.add(gyro: Vector3(0, 0, i < 250 ? 0 : 0.5), accel: Vector3(0, 0, 9.81)) }
        #expect(throws: GyroRestCalibration.Failure.self) { try moved.bias() }
    }
}
