import Testing
@testable import Fusion
import Geometry
#if canImport(Glibc)
import Glibc
#endif

/// On the board the magnetometer runs at 100 Hz and the IMU at 200 Hz. The heading's time constant must not
/// depend on that ratio: a field that turns by 20° is followed equally fast with a sample every IMU sample or
/// every other one.
@Suite struct MagnetometerRateTests {
    /// Heading (degrees clockwise from north) of a still, level sensor facing north after the earth field
    /// turned by 20° at t = 20 s, observed `after` seconds later, with a magnetometer sample every `magEvery`
    /// IMU samples at 200 Hz.
    func headingAfterFieldTurn(magEvery: Int, after: Double) -> Double {
        var filter = AttitudeFilter()
        let facingNorth = Quaternion(axis: Vector3(0, 0, 1), angle: .pi / 2)  // body x → north
        let field0 = Vector3(0, 20, -45)
        // The same field turned 20° clockwise seen from above (towards east): same norm and dip.
        let a = 20 * Double.pi / 180
        let field1 = Vector3(20 * sin(a), 20 * cos(a), -45)
        let accel = facingNorth.inverseRotate(Vector3(0, 0, Units.standardGravity))
        let dt = 1.0 / 200
        let total = Int((20 + after) * 200)
        for i in 0..<total {
            let t = Double(i) * dt
            let field = t < 20 ? field0 : field1
            let mag: Vector3? = i % magEvery == 0 ? facingNorth.inverseRotate(field) : nil
            filter.update(gyro: .zero, accel: accel, mag: mag, dt: dt)
        }
        let forward = filter.attitude.rotate(Vector3(1, 0, 0))
        return atan2(forward.x, forward.y) * 180 / .pi
    }

    @Test func headingFollowsAtTheSameSpeedAtHalfTheMagnetometerRate() {
        // With the field turned 20° east, north now reads 20° west of the field: heading heads to −20°.
        let full = headingAfterFieldTurn(magEvery: 1, after: 6)
        let half = headingAfterFieldTurn(magEvery: 2, after: 6)
        #expect(full < -3 && full > -19, "it moves, but not instantly: \(full)")
        #expect(abs(full - half) < 0.1 * abs(full), "full rate \(full)°, half rate \(half)°")
    }
}
