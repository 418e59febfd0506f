#if canImport(Glibc)
import Glibc
#endif
import Fusion
import Geometry
@testable import Simulation
import Testing
@testable import Runtime

/// The guided calibration fed by the simulated sensors, whose hard and soft iron are known.
@Suite struct CalibrationSessionTests {
    @Test func stillThenTurningRecoversGyroBiasAndIron() throws {
        var sensor = SensorModel()
        sensor.gyroBias = Vector3(0.015, -0.02, 0.008)
        sensor.hardIron = Vector3(-18, 31, 7.5)
        // Symmetric soft iron (only that part is observable from field strength).
        sensor.softIron = (Vector3(1.12, 0.05, 0), Vector3(0.05, 0.93, -0.02), Vector3(0, -0.02, 1.01))
        var session = CalibrationSession()
        let dt = 0.01
        var t = 0.0
        // 6 s still, then a slow tumble through every direction (two incommensurate rotations).
        while session.phase != .complete && t < 300 {
            let moving = max(0, t - 6)
            let attitude = EulerAngles(roll: 0.9 * moving, pitch: 0.45 * sin(0.31 * moving) * 3, yaw: 0.23 * moving).quaternion
            let state = MotionState(attitude: attitude, angularRate: .zero, linearAcceleration: .zero)
            let gyro = moving > 0 ? Vector3(0.9, 0.2, 0.23) : sensor.gyroscope(state)
            session.add(t: t, gyro: gyro, accel: sensor.accelerometer(state), mag: sensor.magnetometer(state, at: t))
            t += dt
        }
        #expect(session.phase == .complete)
        #expect(session.progressText(at: t).contains("%"))
        let (calibration, fit) = try session.result()
        #expect((calibration.gyroBias - sensor.gyroBias).length < 0.001)
        #expect((calibration.magnetometer.hardIron - sensor.hardIron).length / sensor.hardIron.length < 0.01)
        let trueSoft = Matrix3(rows: sensor.softIron.0, sensor.softIron.1, sensor.softIron.2)
        let product = calibration.magnetometer.softIron * trueSoft
        #expect((product * (1 / cbrt(product.determinant)) - .identity).maxAbs < 0.01)
        #expect(fit.coverage >= 0.8)
    }

    @Test func movingDuringTheStillPhaseRestartsIt() {
        var session = CalibrationSession()
        var t = 0.0
        for i in 0..<300 {
            let wobble = i > 150 && i < 200 ? 0.3 : 0.0
            session.add(t: t, gyro: Vector3(wobble, 0, 0), accel: Vector3(0, 0, 9.81), mag: nil)
            t += 0.01
        }
        #expect(session.restartedRest)
        #expect(session.phase == .keepStill)
        #expect(session.progressText(at: t).hasPrefix("moved"))
    }

    @Test func stoppingEarlyWithPoorCoverageIsRefused() {
        var settings = CalibrationSession.Settings()
        settings.measureGyro = false
        var session = CalibrationSession(settings: settings)
        // Only turning about the vertical: a ring of directions.
        for i in 0..<2000 {
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: Double(i) * 0.01)
            session.add(t: Double(i) * 0.01, gyro: .zero, accel: Vector3(0, 0, 9.81), mag: q.inverseRotate(Vector3(0, 20, -45)))
        }
        #expect(session.phase == .turn)
        #expect(throws: EllipsoidFit.Failure.self) { try session.result() }
    }
}
