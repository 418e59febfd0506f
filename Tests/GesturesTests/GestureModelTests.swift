#if canImport(Glibc)
import Glibc
#endif
import GestureMetrics
import Fusion
import Geometry
import Tracking
import Sensors
import Testing
@testable import Gestures

/// The rules of the gesture model (see `GestureDetector.Settings`), each on analytic head motion whose truth
/// is the motion itself: gentle single nods, one left-right shakes, and the movements that must not count.
@Suite struct GestureModelTests {
    static let headphone = "-x,z,y"

    func detect(_ motion: HeadMotion, hz: Double = 50, duration: Double, mounted: Bool = true,
                settings: GestureDetector.Settings = .default) throws -> [GestureDetection] {
        let board = try Mount(parsing: Self.headphone)
        var s = Pipeline.Settings()
        s.mount = mounted ? board : nil
        s.gestures = settings
        return GestureReplay.detections(in: motion.trace(hz: hz, duration: duration, board: board), settings: s, listening: true)
    }

    /// A single down-up nod: down 10° at `downPeak`, straight back at `returnPeak` (°/s), starting at 1.5 s.
    func singleNod(downPeak: Double, returnPeak: Double) -> (HeadMotion, returnPeakTime: Double, end: Double) {
        let angle = 10 * degrees
        let down = Double.pi * angle / (2 * downPeak * degrees), back = Double.pi * angle / (2 * returnPeak * degrees)
        var m = HeadMotion()
        m.pitch = [.halfWaves(start: 1.5, count: 1, halfPeriod: down, peakRate: downPeak * degrees),
                   .halfWaves(start: 1.5 + down, count: 1, halfPeriod: back, peakRate: -returnPeak * degrees)]
        return (m, 1.5 + down + back / 2, 1.5 + down + back)
    }

    @Test(arguments: [25.0, 50, 200])
    func aGentleSingleNodIsOneNodReportedDuringItsReturnSwing(hz: Double) throws {
        // The return swing peaks at 32 °/s: the gentle end of natural single nods (30–45 °/s).
        let (m, peak, end) = singleNod(downPeak: 60, returnPeak: 32)
        let found = try detect(m, hz: hz, duration: end + 2)
        #expect(found.map(\.event) == [.nod], "\(hz) Hz: \(found)")
        guard let t = found.first?.t else { return }
        #expect(t > peak && t <= peak + 0.15, "reported at \(t), return swing peaks at \(peak), ends at \(end)")
        #expect(t < end, "before the completing swing is over")
    }

    @Test func theNormalPresetTakesAThirtyDegreePerSecondReturnAndFirmDoesNot() throws {
        let (m, _, end) = singleNod(downPeak: 40, returnPeak: 30)
        #expect(try detect(m, duration: end + 2).map(\.event) == [.nod])
        #expect(try detect(m, duration: end + 2, settings: .init(flicks: false, gestures: .firm)).isEmpty)
    }

    @Test(arguments: [30.0, 100])
    func twoNosWithTheHeadHeldTurnedBetweenThemAreTwoShakes(hz: Double) throws {
        // Left-right-left (three swings, 0.2 s each at 150 °/s), the head held at the turned position for
        // 0.4 s (longer than any reversal of a shake, as long as a glance's fixation), then right-left-right.
        // Two movements, two "no"s; without the hold they would be one shake.
        var m = HeadMotion()
        m.yaw = [.halfWaves(start: 1.5, count: 3, halfPeriod: 0.2, peakRate: 150 * degrees),
                 .halfWaves(start: 2.5, count: 3, halfPeriod: 0.2, peakRate: -150 * degrees)]
        #expect(try detect(m, hz: hz, duration: 4.5).map(\.event) == [.shake, .shake], "\(hz) Hz")
        var joined = HeadMotion()
        joined.yaw = [.halfWaves(start: 1.5, count: 6, halfPeriod: 0.2, peakRate: 150 * degrees)]
        #expect(try detect(joined, hz: hz, duration: 4.5).map(\.event) == [.shake], "\(hz) Hz")
    }

    @Test(arguments: [25.0, 100])
    func oneLeftRightIsAShake(hz: Double) throws {
        // Left 15° and back to the middle, no pause at the turn, 0.25 s per swing (94 °/s).
        var m = HeadMotion()
        m.yaw = [.halfWaves(start: 1.5, count: 2, halfPeriod: 0.25, peakRate: 94 * degrees)]
        #expect(try detect(m, hz: hz, duration: 3.5).map(\.event) == [.shake])
    }

    @Test func aGlanceHeldAtTheSideIsNoShake() throws {
        // Look 40° to the side at 160 °/s, hold 0.5 s while looking, come back: the hold tells it from a shake.
        var m = HeadMotion()
        m.yaw = [.halfWaves(start: 1.5, count: 1, halfPeriod: 0.4, peakRate: 160 * degrees),
                 .halfWaves(start: 2.4, count: 1, halfPeriod: 0.4, peakRate: -160 * degrees)]
        #expect(try detect(m, duration: 4).isEmpty)
    }

    /// Roll 25° toward a shoulder at 80 °/s with 25 % pitch cross-talk, held 0.4 s, back.
    var tilt: HeadMotion {
        var m = HeadMotion()
        let half = Double.pi * 25 * degrees / (2 * 80 * degrees)
        m.roll = [.halfWaves(start: 1.5, count: 1, halfPeriod: half, peakRate: 80 * degrees),
                  .halfWaves(start: 1.9 + half, count: 1, halfPeriod: half, peakRate: -80 * degrees)]
        m.pitch = [.halfWaves(start: 1.5, count: 1, halfPeriod: half, peakRate: 20 * degrees),
                   .halfWaves(start: 1.9 + half, count: 1, halfPeriod: half, peakRate: -20 * degrees)]
        return m
    }

    @Test func withAMountAHeadTiltIsNoGesture() throws {
        #expect(try detect(tilt, duration: 4).isEmpty)
    }

    @Test func withoutAMountAHeadTiltCannotBeToldFromANod() throws {
        // Documented limitation: gravity gives the vertical, not which horizontal axis is left-right.
        var fast = tilt
        let half = 0.2
        fast.roll = [.halfWaves(start: 1.5, count: 2, halfPeriod: half, peakRate: 120 * degrees)]
        fast.pitch = []
        #expect(try detect(fast, duration: 3, mounted: false).map(\.event) == [.nod])
        #expect(try detect(fast, duration: 3, mounted: true).isEmpty)
    }

    @Test func aPullBackIsNoNodWithAMount() throws {
        // A boxer's pull-back: nose up 20° at 250 °/s and straight back. A nod starts nose-down.
        var m = HeadMotion()
        m.pitch = [.halfWaves(start: 1.5, count: 2, halfPeriod: 0.14, peakRate: -250 * degrees)]
        #expect(try detect(m, duration: 3).isEmpty)
    }

    @Test func continuousNoddingIsOneGestureAndOneFlash() throws {
        // Twelve swings of steady nodding (six cycles, 2 Hz): one nod, not one per cycle after the cooldown.
        var m = HeadMotion()
        m.pitch = [.halfWaves(start: 1, count: 12, halfPeriod: 0.25, peakRate: 100 * degrees)]
        #expect(try detect(m, duration: 5).map(\.event) == [.nod])
    }

    @Test func aRunRefusedByTheCooldownStaysUnreported() throws {
        // A shake, then at once a nod: the nod completes within the cooldown and is refused; its later
        // cycles are the same gesture and must not be reported when the cooldown has passed. (With the
        // whole-head rest rule the nod's first two swings are refused for the shake just before them, not for
        // the cooldown, and its two cycles are then an always-on nod; the cooldown is what is tested here.)
        var m = HeadMotion()
        m.yaw = [.halfWaves(start: 1, count: 2, halfPeriod: 0.2, peakRate: 150 * degrees)]
        m.pitch = [.halfWaves(start: 1.45, count: 8, halfPeriod: 0.2, peakRate: 120 * degrees)]
        var s = GestureDetector.Settings.default
        s.singleGestureFromHeadRest = false
        #expect(try detect(m, duration: 4, settings: s).map(\.event) == [.shake])
        #expect(try detect(m, duration: 4).map(\.event) == [.shake, .nod])
    }

    @Test func theEventCarriesItsStartAndTheCyclesSoFar() {
        // Straight into the detector: a level head nodding 3 cycles at 2 Hz from 1 s (left axis = +y).
        var d = GestureDetector(settings: .init(flicks: false), headAxesKnown: true)
        d.listening = true   // reported at its second swing, as a single nod answers a question
        var events: [(Double, DetectedGesture)] = []
        for i in 0..<400 {
            let t = Double(i) / 100
            let u = t - 1
            let rate = u >= 0 && u < 1.5 ? 1.5 * sin(2 * Double.pi * 2 * u) : 0
            if let e = d.detect(t: t, gyro: Vector3(0, rate, 0), attitude: .identity) { events.append((t, e)) }
        }
        #expect(events.count == 1)
        guard let (t, e) = events.first else { return }
        #expect(e.event == .nod)
        #expect(abs(e.start - 1) < 0.05, "start \(e.start)")
        #expect(e.swings == 2 && e.count == 1)
        // Reported during the second swing (0.25…0.5 s after the start), past its peak at 0.375 s.
        #expect(t > 1.375 && t < 1.5, "reported at \(t)")
    }
}
