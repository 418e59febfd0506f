import Foundation
import Geometry
import Testing
@testable import MountLearning

/// `StillStretches` on a sensor held at a known tilt with a known gyro offset, and on movements that are no rest.
@Suite struct StillStretchesTests {
    static let degree = Units.radiansPerDegree

    /// Gravity 30° from the sensor's z toward its x: what the accelerometer reads at rest (m/s²).
    static let tilted = Vector3(sin(30 * degree), 0, cos(30 * degree)) * Units.standardGravity
    static let offset = Vector3(0.02, -0.01, 0.03)

    /// Feeds `duration` s at `hz`, gyro and accelerometer from closures of t.
    static func run(hz: Double = 100, duration: Double, gyro: (Double) -> Vector3 = { _ in offset },
                    accel: (Double) -> Vector3 = { _ in tilted }) -> StillStretches {
        var still = StillStretches(settings: .init())
        for i in 0..<Int(duration * hz) {
            let t = Double(i) / hz
            still.add(t: t, gyro: gyro(t), accel: accel(t))
        }
        return still
    }

    @Test func aStillSensorGivesUpAndTheGyroOffset() throws {
        let still = Self.run(duration: 3)
        #expect(still.stretches == 1)
        let up = try #require(still.up)
        #expect(up.dot(Self.tilted.normalized) > 0.99999)
        #expect((still.bias - Self.offset).length < 1e-9)
        #expect(still.seconds > 2.5)
    }

    @Test func aPauseShorterThanFourBlocksIsNoRest() {
        // 0.9 s still between movements: three whole blocks of 0.25 s.
        let moving = { (t: Double) in t < 1 || t > 1.9 ? Vector3(0, 0, 0.5 * sin(20 * t)) : Self.offset }
        let still = Self.run(duration: 3, gyro: moving)
        #expect(still.stretches == 0)
        #expect(still.up == nil)
    }

    @Test func aTurningOrBouncingHeadIsNotStill() {
        // Turning: a gyro spread of about 10 °/s.
        let turning = Self.run(duration: 3, gyro: { t in Vector3(0, 0, 0.25 * sin(12 * t)) })
        #expect(turning.stretches == 0)
        // Walking's bounce: ±2 m/s² vertically at 2 Hz, gyro quiet.
        let bouncing = Self.run(duration: 3, accel: { t in Self.tilted + Vector3(0, 0, 2 * sin(4 * Double.pi * t)) })
        #expect(bouncing.stretches == 0)
    }

    @Test func aSensorThatDoesNotReadGravityIsNotAtRest() {
        // In free fall, or a dead accelerometer: still, but 0 m/s².
        let still = Self.run(duration: 3, accel: { _ in .zero })
        #expect(still.stretches == 0)
    }

    @Test func aLargeMeanRateIsNoGyroOffset() {
        // A steady 20 °/s turn holds the spread at zero, but no MPU-class offset is that large: gravity may
        // count (the accelerometer is still), the rate does not count as the gyro's offset.
        let still = Self.run(duration: 3, gyro: { _ in Vector3(0, 0, 20 * Self.degree) })
        #expect(still.bias == .zero)
    }
}
