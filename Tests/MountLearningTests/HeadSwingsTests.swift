import Foundation
import Geometry
import Testing
@testable import MountLearning

/// `SwingTracker` on analytic rates whose swings are known: where each begins and ends, its axis and angle.
@Suite struct HeadSwingsTests {
    static let degree = Units.radiansPerDegree
    static let activeRate = 0.2

    /// Feeds `rate(t)` at `hz` for `duration` s and returns the swings completed.
    static func swings(hz: Double = 100, duration: Double, rate: (Double) -> Vector3) -> [HeadSwing] {
        var tracker = SwingTracker(activeRate: activeRate)
        var out: [HeadSwing] = []
        let dt = 1 / hz
        for i in 1...Int(duration * hz) {
            let t = Double(i) * dt
            if let s = tracker.add(t: t, dt: dt, rate: rate(t)) { out.append(s) }
        }
        return out
    }

    /// A half-sine of rate about `axis`: `degrees` in `length` s from `from`.
    static func halfSine(_ t: Double, axis: Vector3, from: Double, length: Double, degrees: Double) -> Vector3 {
        guard t >= from && t < from + length else { return .zero }
        let peak = degrees * degree * Double.pi / (2 * length)
        return axis * (peak * sin(Double.pi * (t - from) / length))
    }

    @Test func oneTurnIsOneSwingWithItsAxisAndAngle() throws {
        let axis = Vector3(1, 2, -2).normalized
        let found = Self.swings(duration: 2) { Self.halfSine($0, axis: axis, from: 0.5, length: 0.4, degrees: 20) }
        try #require(found.count == 1)
        let s = found[0]
        #expect(s.axis.dot(axis) > 0.9999)
        // The parts under the threshold at both ends are not in it: at 78 °/s peak, a few tenths of a degree.
        #expect(abs(s.angle / Self.degree - 20) < 0.5, "\(s.angle / Self.degree)°")
        #expect(abs(s.peak - 20 * Self.degree * Double.pi / 0.8) < 0.01)
        #expect(s.start > 0.5 && s.start < 0.53 && s.end > 0.87 && s.end <= 0.91, "\(s.start)…\(s.end)")
    }

    @Test func aReversalWithoutAStopEndsTheSwing() {
        // A fast nod: 2 Hz, ±10°, two cycles; the rate crosses zero without resting, and each half is a swing
        // turning the other way about the same axis.
        let left = Vector3(0, 1, 0)
        let w = 2 * Double.pi * 2
        let found = Self.swings(duration: 2) { t in
            t >= 0.5 && t < 1.5 ? left * (10 * Self.degree * w * sin(w * (t - 0.5))) : .zero
        }
        #expect(found.count == 4, "\(found.count) swings")
        for (i, s) in found.enumerated() {
            #expect(s.axis.dot(left) * (i % 2 == 0 ? 1 : -1) > 0.999)
            #expect(abs(s.angle / Self.degree - 20) < 1.5, "swing \(i): \(s.angle / Self.degree)°")
        }
    }

    @Test func aRateUnderTheThresholdIsNoSwing() {
        let found = Self.swings(duration: 2) { _ in Vector3(0, 0, 0.9 * Self.activeRate) }
        #expect(found.isEmpty)
    }

    @Test func aGapDropsTheSwingInProgress() {
        var tracker = SwingTracker(activeRate: Self.activeRate)
        var found: [HeadSwing] = []
        for i in 1...100 {
            let t = Double(i) / 100
            if i == 40 { tracker.interrupt() }
            if let s = tracker.add(t: t, dt: 0.01, rate: Self.halfSine(t, axis: Vector3(0, 0, 1), from: 0.2, length: 0.4, degrees: 20)) {
                found.append(s)
            }
        }
        // The turn was under way at the gap; what follows it starts a new swing that began mid-turn.
        #expect(found.count == 1)
        #expect(found.first.map { $0.start >= 0.4 } == true)
    }
}
