#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Fusion
import Geometry

/// The filter's `State` value: what is saved is everything the filter needs to carry on, and `reset()` forgets
/// it all while keeping the settings.
@Suite struct AttitudeFilterStateTests {
    let dt = 0.005
    let gravity = Vector3(0, 0, Units.standardGravity)
    let field = Vector3(0, 19, -44)

    /// A head turning about every axis, with a gyro bias and a magnet passing by between 6 s and 9 s, so that the
    /// rest detector, the bias estimate, the heading and the magnetic rejection all hold state.
    func sample(_ k: Int) -> (gyro: Vector3, accel: Vector3, mag: Vector3) {
        let t = Double(k) * dt
        let q = EulerAngles(roll: 0.3 * sin(0.7 * t), pitch: 0.2 * sin(1.1 * t), yaw: 1.5 * sin(0.25 * t)).quaternion
        let next = EulerAngles(roll: 0.3 * sin(0.7 * (t + dt)), pitch: 0.2 * sin(1.1 * (t + dt)),
                               yaw: 1.5 * sin(0.25 * (t + dt))).quaternion
        let d = q.conjugate * next
        let s = d.vector.length
        let rate = s > 0 ? d.vector / s * (2 * atan2(s, d.w) / dt) : .zero
        let magnet = t > 6 && t < 9 ? Vector3(30, 0, 0) : .zero
        return (rate + Vector3(0.01, -0.005, 0.008), next.inverseRotate(gravity), next.inverseRotate(field + magnet))
    }

    @Test func restoredStateContinuesExactlyLikeTheOriginal() {
        var original = AttitudeFilter()
        for k in 0..<1600 { let s = sample(k); original.update(gyro: s.gyro, accel: s.accel, mag: s.mag, dt: dt) }
        let saved = original.state
        #expect(saved.isInitialized && saved.hasHeadingReference)
        #expect(saved.isMagneticallyDisturbed)  // the magnet is there at 8 s

        var restored = AttitudeFilter()
        restored.state = saved
        #expect(restored.state == saved)
        for k in 1600..<3000 {
            let s = sample(k)
            original.update(gyro: s.gyro, accel: s.accel, mag: s.mag, dt: dt)
            restored.update(gyro: s.gyro, accel: s.accel, mag: s.mag, dt: dt)
            let a = original.attitude, b = restored.attitude
            #expect(abs(a.w - b.w) + abs(a.x - b.x) + abs(a.y - b.y) + abs(a.z - b.z) < 1e-12, "sample \(k)")
            if abs(a.w - b.w) >= 1e-12 { break }
        }
        #expect((original.gyroBias - restored.gyroBias).length < 1e-12)
        #expect(original.isMagneticallyDisturbed == restored.isMagneticallyDisturbed)
    }

    @Test func resetForgetsTheStateAndKeepsTheSettings() {
        var settings = AttitudeFilter.Settings()
        settings.magTimeConstant = 5
        var filter = AttitudeFilter(settings: settings)
        for k in 0..<400 { let s = sample(k); filter.update(gyro: s.gyro, accel: s.accel, mag: s.mag, dt: dt) }
        #expect(filter.state != AttitudeFilter.State(settings: settings))
        filter.reset()
        #expect(filter.state == AttitudeFilter.State(settings: settings))
        #expect(!filter.isInitialized)
        #expect(filter.settings == settings)
    }

    @Test func aStateWithAHeadingRotatesTheOutputAboutUp() {
        // Setting the heading offset through the state must turn the next output by that angle about up.
        var filter = AttitudeFilter()
        for k in 0..<200 { let s = sample(0); filter.update(gyro: .zero, accel: s.accel, mag: nil, dt: k == 0 ? 0 : dt) }
        var state = filter.state
        let before = state.attitude
        state.headingOffset = 0.5
        filter.state = state
        filter.update(gyro: .zero, accel: sample(0).accel, mag: nil, dt: dt)
        let turn = filter.attitude * before.conjugate
        #expect(abs(turn.angle - 0.5) < 1e-3)
        #expect(abs(turn.x) < 1e-3 && abs(turn.y) < 1e-3)
    }
}
