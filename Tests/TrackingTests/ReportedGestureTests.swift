import Foundation
import Testing
import Geometry
import Gestures
@testable import Tracking

/// What `processIMU` returns with a gesture: its details, from the call that found it. The truth is analytic
/// motion: a level head, still for a second, then nodding twice (down 12°, up, down, up; each swing a
/// raised-cosine rate over 0.25 s, back to back), sampled at 200 Hz with the mount given.
@Suite struct ReportedGestureTests {
    static let swing = 0.25
    static let angle = 12 * Units.radiansPerDegree

    /// Pitch rate (rad/s, positive tips the nose down) and pitch (rad) at `t`: swing k starts at 1 + k × 0.25 s.
    static func nodding(_ t: Double) -> (rate: Double, pitch: Double) {
        let k = Int(((t - 1) / swing).rounded(.down))
        guard t >= 1, k < 4 else { return (0, 0) }
        let u = (t - 1 - Double(k) * swing) / swing
        let sense = k % 2 == 0 ? 1.0 : -1.0
        let rate = sense * angle / swing * (1 - cos(2 * Double.pi * u))
        let done = sense * angle * (u - sin(2 * Double.pi * u) / (2 * Double.pi))
        return (rate, (k % 2 == 0 ? 0 : angle) + done)
    }

    @Test func aNodIsReportedWithItsStartCyclesPeakAndBout() throws {
        var settings = Pipeline.Settings()
        settings.mount = .identity
        var pipeline = Pipeline(settings: settings)
        var reports: [(sampleTime: Double, gesture: ReportedGesture, boutAfter: Int)] = []
        for i in 0..<600 {
            let t = Double(i) / 200
            let m = Self.nodding(t)
            let attitude = Quaternion(axis: Vector3(0, 1, 0), angle: m.pitch)
            let accel = attitude.inverseRotate(Vector3(0, 0, Units.standardGravity))
            if let g = pipeline.processIMU(t: t, accel: accel, gyro: Vector3(0, m.rate, 0), mag: nil) {
                reports.append((t, g, pipeline.bouts.id))
            }
        }
        #expect(reports.count == 1)
        let r = try #require(reports.first)
        #expect(r.gesture.event == .nod)
        #expect(r.gesture.t == r.sampleTime, "stamped with the sample that completed it")
        #expect(r.gesture.t > 1.75 && r.gesture.t < 2.0, "reported during the fourth swing: \(r.gesture.t)")
        // The first swing's rate crosses 11 °/s 0.03 s after 1 s; the detector's 10 Hz smoothing delays it.
        let start = try #require(r.gesture.start)
        #expect(start >= 1 && start <= 1.1, "\(start)")
        #expect(r.gesture.count == 2, "four swings are two cycles")
        // A swing's peak rate is 2 × 12° / 0.25 s = 96 °/s; the smoothing takes off a little.
        let peak = try #require(r.gesture.peakRate) * Units.degreesPerRadian
        #expect(peak > 80 && peak <= 96, "\(peak)")
        #expect(r.gesture.bout == 1 && r.boutAfter == 1)
    }

    @Test func aStartAfterTheReportIsNotNamed() {
        // A trace whose time went backwards: the detector's start is later than the sample's time.
        var d = DetectedGesture(event: .shake, start: 5, swings: 2)
        d.peakRate = 3
        let g = ReportedGesture(d, t: 4, bout: 7)
        #expect(g.start == nil && g.count == nil && g.peakRate == nil)
        #expect(g.bout == 7)
        let known = ReportedGesture(d, t: 5.5, bout: 7)
        #expect(known.start == 5 && known.count == 1 && known.peakRate == 3)
    }
}
