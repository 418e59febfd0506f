import Testing
import Geometry
@testable import Tracking

/// `Pipeline.heading` is computed when read (at the display rate) instead of at every IMU sample: it must
/// still be the heading of the latest sample at any moment, with or without display ticks in between.
@Suite struct PipelineHeadingTests {
    /// 20 µT north, 45 µT down (ENU): a plausible mid-latitude field.
    static let earthField = Vector3(0, 20, -45)

    /// A level head turning about the vertical at `rate` (°/s) from `start` (degrees clockwise from north),
    /// sampled at `hz`: its sensor readings and the true heading of each sample.
    static func turningHead(start: Double, rate: Double, hz: Double, seconds: Double)
        -> [(t: Double, accel: Vector3, gyro: Vector3, mag: Vector3, heading: Double)] {
        (0..<Int(seconds * hz)).map { i in
            let t = Double(i) / hz
            let heading = start + rate * t
            // Facing `heading` clockwise from north is a yaw of 90° − heading counter-clockwise from east.
            let q = Quaternion(axis: Vector3(0, 0, 1), angle: (90 - heading) * Units.radiansPerDegree)
            // Clockwise seen from above is a negative rotation about up (body z = up for a level head).
            let gyro = Vector3(0, 0, -rate * Units.radiansPerDegree)
            return (t, q.inverseRotate(Vector3(0, 0, Units.standardGravity)), gyro, q.inverseRotate(earthField),
                    wrapDegrees360(heading))
        }
    }

    @Test func noHeadingBeforeTheFirstSample() {
        let p = Pipeline()
        #expect(p.heading == HeadingReading(degrees: 0, validity: .noMagnetometer))
    }

    @Test func headingFollowsEverySampleWithoutDisplayTicks() {
        var p = Pipeline()
        var worst = 0.0
        for s in PipelineHeadingTests.turningHead(start: 10, rate: 30, hz: 200, seconds: 4) {
            _ = p.processIMU(t: s.t, accel: s.accel, gyro: s.gyro, mag: s.mag)
            #expect(p.heading.isValid)
            worst = max(worst, abs(shortestDegrees(from: s.heading, to: p.heading.degrees)))
        }
        // The head turns by 0.15° per sample: a heading one sample stale would be off by that much.
        #expect(worst < 0.01)
    }

    @Test func displayTicksSmoothTheHeadingOfTheLatestSample() {
        var p = Pipeline()
        let samples = PipelineHeadingTests.turningHead(start: 200, rate: 0, hz: 200, seconds: 2)
        var nextTick = 0.0
        for s in samples {
            _ = p.processIMU(t: s.t, accel: s.accel, gyro: s.gyro, mag: s.mag)
            while s.t >= nextTick {
                _ = p.displayTick(t: nextTick, dt: 1.0 / 60, fault: false)
                nextTick += 1.0 / 60
            }
        }
        #expect(p.displayed.hasValue && p.displayed.isLive)
        #expect(abs(shortestDegrees(from: 200, to: p.displayed.degrees)) < 0.01)
    }

    @Test func withoutAMagnetometerTheHeadingSaysSo() {
        var p = Pipeline()
        for s in PipelineHeadingTests.turningHead(start: 0, rate: 10, hz: 200, seconds: 0.5) {
            _ = p.processIMU(t: s.t, accel: s.accel, gyro: s.gyro, mag: nil)
        }
        #expect(p.heading.validity == .noMagnetometer)
    }
}
