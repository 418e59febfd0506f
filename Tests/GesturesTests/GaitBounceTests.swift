#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
@testable import Gestures

/// The gait rule (`Settings.leverArm`): a nod is a rotation about the neck, so the head's vertical
/// acceleration stays within what that rotation explains; gait bounces the head by heel strikes. The truth is
/// the analytic motion: the same down-up pitch rotation, standing still or with a walker's vertical bounce.
@Suite struct GaitBounceTests {
    /// One down-up nod (12° each way, 0.25 s a swing, from 1.5 s) at 100 Hz, with a vertical head acceleration
    /// of `bounce` m/s² at 1.9 Hz (walking's step rate) throughout; nil accel feeds the detector without it.
    func nods(bounce: Double, withAccel: Bool = true) -> [GestureEvent] {
        var d = GestureDetector(settings: GestureDetector.Settings(), headAxesKnown: true)
        d.listening = true   // a single nod: the rules of answer mode
        let angle = 12 * Units.radiansPerDegree, half = 0.25
        var found: [GestureEvent] = []
        for i in 0..<400 {
            let t = Double(i) / 100
            var pitch = 0.0, rate = 0.0
            if t > 1.5 && t < 1.5 + 2 * half {
                // Down and back: θ = angle·(1 − cos(2πu))/2 over the two swings.
                let u = (t - 1.5) / (2 * half)
                pitch = angle * (1 - cos(2 * Double.pi * u)) / 2
                rate = angle * Double.pi / (2 * half) * sin(2 * Double.pi * u)
            }
            let attitude = Quaternion(axis: Vector3(0, 1, 0), angle: pitch)
            let vertical = Units.standardGravity + bounce * sin(2 * Double.pi * 1.9 * t)
            let accel = attitude.inverseRotate(Vector3(0, 0, vertical))
            let gyro = Vector3(0, rate, 0)
            let e = withAccel ? d.update(t: t, gyro: gyro, accel: accel, attitude: attitude)
                              : d.update(t: t, gyro: gyro, attitude: attitude)
            if let e { found.append(e) }
        }
        return found
    }

    @Test func aNodStandingStillIsANod() {
        #expect(nods(bounce: 0) == [.nod])
    }

    @Test func theSamePitchRockingWithAWalkersHeelStrikesIsNoNod() {
        // ±2.5 m/s²: the middle of walking's vertical head acceleration (±2–3 m/s²). This 12° nod's own
        // angular acceleration explains at most 2·0.07 m·(π/0.5 s)²·12° ≈ 1.2 m/s² of range, plus the floor.
        #expect(nods(bounce: 2.5).isEmpty)
    }

    @Test func withoutAnAccelerometerTheRuleIsOff() {
        #expect(nods(bounce: 2.5, withAccel: false) == [.nod])
    }
}
