#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Simulation
@testable import Cohorts

/// The synthetic wearer's accelerometer against the definition of specific force: the second derivative of
/// the sensor's position (the head's rotation applied to the sensor offset, plus the head carried by the
/// body), minus gravity, in the head frame, computed here by finite differences of positions only.
@Suite struct HeadTrajectoryTests {
    func trajectory() -> HeadTrajectory {
        var m = HeadTrajectory()
        m.pitch.swings = [.init(start: 0.2, duration: 0.2, delta: 0.3), .init(start: 0.4, duration: 0.25, delta: -0.3)]
        m.yaw.swings = [.init(start: 0.3, duration: 0.3, delta: 0.5)]
        m.roll.oscillations = [.init(amplitude: 0.1, frequency: 2, phase: 0.4)]
        m.neck.yaw.swings = [.init(start: 0.35, duration: 0.15, delta: 0.2), .init(start: 0.5, duration: 0.15, delta: -0.2)]
        m.neck.pitch.oscillations = [.init(amplitude: 0.05, frequency: 3, phase: 1)]
        m.sensorOffset = Vector3(0.02, 0.07, 0.05)
        m.carriages = [.init(start: 0.25, outDuration: 0.2, hold: 0.1, backDuration: 0.3, offset: Vector3(-0.15, 0.05, 0))]
        return m
    }

    /// Position of the sensor in ENU (m) at `t`: the carried head plus the rotated offset.
    func position(_ m: HeadTrajectory, _ t: Double) -> Vector3 {
        var p = m.rotation(at: t).attitude.rotate(m.sensorOffset)
        for c in m.carriages {
            let back = c.start + c.outDuration + c.hold
            var s = 0.0
            if t > c.start { s = t >= c.start + c.outDuration ? 1 : (1 - cos(Double.pi * (t - c.start) / c.outDuration)) / 2 }
            if t > back { s = t >= back + c.backDuration ? 0 : 1 - (1 - cos(Double.pi * (t - back) / c.backDuration)) / 2 }
            p += c.offset * s
        }
        return p
    }

    @Test func specificForceIsTheSecondDerivativeOfTheSensorsPositionMinusGravity() {
        let m = trajectory()
        let h = 1e-3
        var worst = 0.0
        for i in 1..<90 {
            let t = Double(i) / 100 + 0.0037     // off the legs' joints, where the acceleration steps
            let a = (position(m, t + h) - 2 * position(m, t) + position(m, t - h)) * (1 / (h * h))
            let expected = m.state(at: t).attitude.inverseRotate(a + Vector3(0, 0, 9.80665))
            worst = max(worst, (m.state(at: t).accel - expected).length)
        }
        #expect(worst < 0.02, "largest difference \(worst) m/s²")
    }

    /// The gyro against the attitude it integrates to: ω = 2·vec(q(t−h)⁻¹ q(t+h)) / 2h in the head frame, with
    /// the posture and the neck both moving.
    @Test func theRateIsTheAttitudesOwnDerivative() {
        let m = trajectory()
        let h = 1e-5
        var worst = 0.0
        for i in 1..<90 {
            let t = Double(i) / 100 + 0.0037
            let step = m.rotation(at: t - h).attitude.conjugate * m.rotation(at: t + h).attitude
            let rate = step.vector * (2 / (2 * h) * (step.w < 0 ? -1 : 1))
            worst = max(worst, (m.rotation(at: t).gyro - rate).length)
        }
        #expect(worst < 1e-6, "largest difference \(worst) rad/s")
    }

    /// A "no" made looking down turns about the head's up axis: in the head frame the rate is all yaw, and in
    /// the world its axis is tilted from the vertical by the head's pitch (30° here).
    @Test func theNeckTurnsTheHeadAboutItsOwnAxes() {
        var m = HeadTrajectory()
        m.pitch.offset = 30 * Double.pi / 180
        m.neck.yaw.swings = [.init(start: 0, duration: 0.2, delta: 0.3)]
        let s = m.rotation(at: 0.1)
        #expect(abs(s.gyro.x) < 1e-12 && abs(s.gyro.y) < 1e-12 && s.gyro.z > 1)
        let axis = s.attitude.rotate(s.gyro).normalized
        #expect(abs(acos(axis.z) - 30 * Double.pi / 180) < 1e-9)
        // The same swing written as a world yaw turns about the vertical.
        var world = HeadTrajectory()
        world.pitch.offset = 30 * Double.pi / 180
        world.yaw.swings = m.neck.yaw.swings
        let w = world.rotation(at: 0.1)
        #expect(abs(w.attitude.rotate(w.gyro).normalized.z - 1) < 1e-12)
    }

    @Test func withoutOffsetOrCarriageTheSensorFeelsOnlyGravity() {
        var m = trajectory()
        m.sensorOffset = .zero
        m.carriages = []
        let s = m.state(at: 0.45)
        #expect((s.accel - s.attitude.inverseRotate(Vector3(0, 0, 9.80665))).length < 1e-12)
    }
}
