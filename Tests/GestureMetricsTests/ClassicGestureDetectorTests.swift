import GestureMetrics
import Geometry
import Testing
@testable import Gestures

/// The classic recipe, checked against its own statement: per-frame Δpitch or Δyaw above 0.04 rad, 0.5 s
/// cooldown, up/down reported as nod and left/right as shake. Fed exact attitudes (no filter in between).
@Suite struct ClassicGestureDetectorTests {
    /// Attitude of a head turning at constant rates (rad/s) about pitch and yaw, sampled at `hz`.
    func run(_ detector: ClassicGestureDetector = ClassicGestureDetector(), hz: Double, duration: Double,
             pitchRate: Double = 0, yawRate: Double = 0, startYaw: Double = 0) -> [(t: Double, event: GestureEvent)] {
        var d = detector
        var out: [(Double, GestureEvent)] = []
        for i in 0..<Int(duration * hz) {
            let t = Double(i) / hz
            let q = EulerAngles(roll: 0, pitch: pitchRate * t, yaw: startYaw + yawRate * t).quaternion
            if let e = d.update(t: t, gyro: .zero, attitude: q) { out.append((t, e)) }
        }
        return out
    }

    @Test func theThresholdIsPerFrameSoItsHeadSpeedDependsOnTheRate() {
        // 1.5 rad/s is 0.058 rad per frame at 26 Hz (above 0.04) but 0.015 at 100 Hz (below).
        #expect(run(hz: 26, duration: 0.3, pitchRate: 1.5).map(\.event) == [.nod])
        #expect(run(hz: 100, duration: 0.3, pitchRate: 1.5).isEmpty)
    }

    @Test func upAndDownAreNodsLeftAndRightAreShakes() {
        #expect(run(hz: 60, duration: 0.2, pitchRate: -3).map(\.event) == [.nod])
        #expect(run(hz: 60, duration: 0.2, yawRate: 3).map(\.event) == [.shake])
        var settings = ClassicGestureDetector.Settings()
        settings.reportsDirections = true
        let raw = ClassicGestureDetector(settings: settings)
        #expect(run(raw, hz: 60, duration: 0.2, pitchRate: 3).map(\.event) == [.down])    // pitch + is nose down
        #expect(run(raw, hz: 60, duration: 0.2, pitchRate: -3).map(\.event) == [.up])
        #expect(run(raw, hz: 60, duration: 0.2, yawRate: 3).map(\.event) == [.left])     // yaw + is counter-clockwise
        #expect(run(raw, hz: 60, duration: 0.2, yawRate: -3).map(\.event) == [.right])
    }

    @Test func aSingleFastTurnIsAShakeToTheRecipe() {
        // 90° in half a second: the weakness the issue describes.
        #expect(run(hz: 60, duration: 0.5, yawRate: Double.pi).map(\.event) == [.shake])
    }

    @Test func eventsAreAtLeastTheCooldownApart() {
        let events = run(hz: 60, duration: 3, pitchRate: 3)
        #expect(events.count >= 5)
        for (a, b) in zip(events, events.dropFirst()) {
            #expect(b.t - a.t >= 0.5 && b.t - a.t < 0.5 + 1.5 / 60)
        }
    }

    @Test func yawWrappingAroundIsNoMotion() {
        // Slow turn through ±180°: the Euler yaw jumps by 2π there, the head does not.
        #expect(run(hz: 60, duration: 1, yawRate: 0.5, startYaw: Double.pi - 0.25).isEmpty)
    }
}
