#if canImport(Glibc)
import Glibc
#endif
import GestureMetrics
import Geometry
import Tracking
import Sensors
import Testing
@testable import Gestures

/// Analytic head motion (see `HeadMotion`) through the product's path: board axes → mount → attitude filter →
/// detector. The truth is the motion itself: which gestures it performs and when their half-waves end.
@Suite struct SyntheticGestureTests {
    static let boards = ["x,y,z", "-x,z,y", "x,-y,-z", "y,-x,z"]   // level, headphone, upside down, turned 90°
    static let rates = [26.0, 100, 200, 1000]

    func detect(_ motion: HeadMotion, hz: Double, duration: Double, board: String = "x,y,z", mount: String? = nil,
                settings: GestureDetector.Settings = .default) throws -> [GestureDetection] {
        let trace = motion.trace(hz: hz, duration: duration, board: try Mount(parsing: board))
        var s = Pipeline.Settings()
        s.mount = try mount.map { try Mount(parsing: $0) }
        s.gestures = settings
        return GestureReplay.detections(in: trace, settings: s, listening: true)
    }

    /// A nod (down-up, 2 half-waves of 0.3 s peaking at 120 °/s: ~23° of travel) at 1.5 s, then a shake
    /// (3 half-waves of 0.3 s at 150 °/s) at 4 s.
    var nodThenShake: HeadMotion {
        var m = HeadMotion()
        m.pitch = [.halfWaves(start: 1.5, count: 2, halfPeriod: 0.3, peakRate: 120 * degrees)]
        m.yaw = [.halfWaves(start: 4, count: 3, halfPeriod: 0.3, peakRate: 150 * degrees)]
        return m
    }
    let nodEnd = 1.5 + 2 * 0.3     // end of the nod's last required half-wave
    let shakeEnd = 4 + 2 * 0.3     // a shake is certain after one left-right (two half-waves)

    @Test(arguments: rates, boards)
    func nodAndShakeAreFoundWithoutAMountAtAnyRateOnAnyBoard(hz: Double, board: String) throws {
        let found = try detect(nodThenShake, hz: hz, duration: 6.5, board: board)
        #expect(found.map(\.event) == [.nod, .shake], "\(hz) Hz, board \(board): \(found)")
        guard found.count == 2 else { return }
        // Reported during the completing half-wave: after its peak, before it ends.
        #expect(found[0].t < nodEnd && found[0].t > nodEnd - 0.15)
        #expect(found[1].t < shakeEnd && found[1].t > shakeEnd - 0.15)
    }

    @Test(arguments: rates)
    func theMountChangesNothingForNodAndShake(hz: Double) throws {
        let without = try detect(nodThenShake, hz: hz, duration: 6.5, board: "-x,z,y")
        let with = try detect(nodThenShake, hz: hz, duration: 6.5, board: "-x,z,y", mount: "-x,z,y")
        #expect(with.map(\.event) == [.nod, .shake], "\(hz) Hz: \(with)")
        #expect(without.map(\.event) == with.map(\.event))
        #expect(zip(without, with).allSatisfy { abs($0.t - $1.t) < 1e-9 })
    }

    @Test func detectionTimeDoesNotDependOnTheSampleRate() throws {
        let times = try Self.rates.map { hz in try detect(nodThenShake, hz: hz, duration: 6.5).map(\.t) }
        for t in times { #expect(t.count == 2) }
        // Every rate within one 26 Hz sample period of the 1 kHz result.
        for t in times where t.count == 2 {
            #expect(abs(t[0] - times[3][0]) < 1 / 26.0 + 0.01)
            #expect(abs(t[1] - times[3][1]) < 1 / 26.0 + 0.01)
        }
    }

    @Test func continuousNoddingIsOneNod() throws {
        // Twelve half-waves of steady nodding: one gesture, one event (the old detector reported every cycle
        // that cleared the cooldown, three here).
        var m = HeadMotion()
        m.pitch = [.halfWaves(start: 1, count: 12, halfPeriod: 0.25, peakRate: 100 * degrees)]
        #expect(try detect(m, hz: 100, duration: 5).map(\.event) == [.nod])
    }

    @Test func aSlowNinetyDegreeTurnIsNoGesture() throws {
        // 90° in 2 s: peaks at 71 °/s, faster than a half-wave needs, but one swing lasting 2 s.
        var m = HeadMotion()
        m.yaw = [.turn(start: 1, duration: 2, angle: 90 * degrees)]
        #expect(try detect(m, hz: 100, duration: 4).isEmpty)
    }

    @Test func lookingAroundIsNoGesture() throws {
        // Left 60°, right 120°, back to the middle: three swings, each too slow to be a half-wave.
        var m = HeadMotion()
        m.yaw = [.turn(start: 1, duration: 1.5, angle: 60 * degrees),
                 .turn(start: 3, duration: 2.5, angle: -120 * degrees),
                 .turn(start: 6, duration: 1.5, angle: 60 * degrees)]
        m.pitch = [.turn(start: 2, duration: 1.5, angle: 20 * degrees), .turn(start: 5, duration: 1.5, angle: -20 * degrees)]
        #expect(try detect(m, hz: 100, duration: 8.5).isEmpty)
    }

    @Test func aQuickGlanceHeldAndBackIsNoShake() throws {
        // Look 40° to the side and back, briskly, with a 0.5 s look at what is there: the hold tells it from
        // a one left-right shake (which reverses at once).
        var m = HeadMotion()
        m.yaw = [.halfWaves(start: 1, count: 1, halfPeriod: 0.4, peakRate: 160 * degrees),
                 .halfWaves(start: 1.9, count: 1, halfPeriod: 0.4, peakRate: -160 * degrees)]
        #expect(try detect(m, hz: 100, duration: 3.5).isEmpty)
    }

    /// Walking: pitch rocks ±2.5° at the 2 Hz step rate (31 °/s peak), roll ±3° and yaw ±4° at the 1 Hz stride
    /// rate, the head bobs ±3 cm vertically at the step rate (±4.7 m/s²) — the size of the walk recording.
    var walking: HeadMotion {
        var m = HeadMotion()
        m.pitch = [.sine(amplitude: 2.5 * degrees, frequency: 2)]
        m.roll = [.sine(amplitude: 3 * degrees, frequency: 1, phase: 0.4)]
        m.yaw = [.sine(amplitude: 4 * degrees, frequency: 1, phase: 1.9)]
        m.verticalAcceleration = { t in
            let w = 2 * Double.pi * 2
            return -0.03 * w * w * sin(w * t + 0.5)
        }
        return m
    }

    @Test(arguments: [26.0, 200])
    func walkingIsNoGesture(hz: Double) throws {
        let found = try detect(walking, hz: hz, duration: 20, board: "-x,z,y")
        #expect(found.isEmpty, "\(found)")
    }

    @Test func walkingWithHeadTurnsIsNoGesture() throws {
        var m = walking
        m.yaw += [.turn(start: 5, duration: 0.8, angle: 60 * degrees), .turn(start: 9, duration: 1.2, angle: -60 * degrees)]
        let found = try detect(m, hz: 100, duration: 14)
        #expect(found.isEmpty, "\(found)")
    }

    @Test(arguments: boards)
    func aNodDuringATurnIsANod(board: String) throws {
        // Turning 90° over 3 s (47 °/s at its fastest) and nodding in the middle of it.
        var m = HeadMotion()
        m.yaw = [.turn(start: 1, duration: 3, angle: 90 * degrees)]
        m.pitch = [.halfWaves(start: 2.2, count: 2, halfPeriod: 0.3, peakRate: 120 * degrees)]
        let found = try detect(m, hz: 100, duration: 5, board: board)
        #expect(found.map(\.event) == [.nod], "board \(board): \(found)")
    }

    @Test func aSwayOfRollAndYawTogetherIsNoGesture() throws {
        // Rocking side to side with roll and yaw in step (a diagonal axis), 1 Hz, ±12°.
        var m = HeadMotion()
        m.roll = [.sine(amplitude: 12 * degrees, frequency: 1)]
        m.yaw = [.sine(amplitude: 12 * degrees, frequency: 1)]
        #expect(try detect(m, hz: 100, duration: 8).isEmpty)
    }

    @Test func stillHeadIsNoGestureEvenWithFlicksOn() throws {
        var settings = GestureDetector.Settings()
        settings.flicks = true
        settings.flickRate = FlickPreset.sensitive.rate
        #expect(try detect(HeadMotion(), hz: 1000, duration: 10, settings: settings).isEmpty)
    }
}
