import Geometry
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Gestures

/// Synthetic head motion with known truth: a level head (attitude identity) rotating about one axis.
@Suite struct GestureDetectorTests {
    /// Feeds `rate(t)` (head frame) at `hz` for `duration` seconds; returns the events with their times.
    func detect(hz: Double, duration: Double, rate: (Double) -> Vector3) -> [(Double, GestureEvent)] {
        var d = GestureDetector()
        var out: [(Double, GestureEvent)] = []
        let n = Int(duration * hz)
        for i in 0..<n {
            let t = Double(i) / hz
            if let e = d.update(t: t, gyro: rate(t), attitude: .identity) { out.append((t, e)) }
        }
        return out
    }

    /// Two nods (15° at 2 Hz) about the left axis, starting at 1 s.
    func nod(_ t: Double) -> Vector3 {
        let u = t - 1
        guard u >= 0 && u < 1 else { return .zero }
        let amplitude: Double = 15 * Units.radiansPerDegree
        let omega: Double = 2 * Double.pi * 2
        let rate: Double = amplitude * omega * cos(omega * u)
        return Vector3(0, rate, 0)
    }

    func shake(_ t: Double) -> Vector3 { let n = nod(t); return Vector3(0, 0, n.y) }

    @Test(arguments: [26.0, 100, 200, 1000])
    func nodIsANodAtAnyRate(hz: Double) {
        let events = detect(hz: hz, duration: 3, rate: nod)
        #expect(!events.isEmpty && events.allSatisfy { $0.1 == .nod })
    }

    @Test(arguments: [26.0, 100, 200, 1000])
    func shakeIsAShakeAtAnyRate(hz: Double) {
        let events = detect(hz: hz, duration: 3, rate: shake)
        #expect(!events.isEmpty && events.allSatisfy { $0.1 == .shake })
    }

    @Test func aSlowNinetyDegreeTurnIsNoGesture() {
        // 90° in 2 s with a cosine profile: peak 70 °/s, but one swing lasting 2 s.
        let events = detect(hz: 200, duration: 4) { t in
            guard t >= 1 && t < 3 else { return .zero }
            let peak: Double = Double.pi * Double.pi / 8  // d/dt of (π/2)(1 − cos(πu/2))/2
            return Vector3(0, 0, peak * sin(Double.pi * (t - 1) / 2))
        }
        #expect(events.isEmpty)
    }
}
