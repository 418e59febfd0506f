import Geometry
import Testing
@testable import Gestures

/// The flight rule (`Settings.freeFallForce`, `minFlight`): a running body is airborne between its steps and the
/// head it carries falls freely, which a head held up by a standing or seated body never does. The truth is
/// analytic motion: the same two-cycle shake (four yaw swings of 150 °/s, 0.25 s each, about 24° from the
/// rest), with the head supported throughout, or carried by a runner whose flights we write in ourselves.
@Suite struct RunningFlightTests {
    static let stepPeriod = 1 / 2.8   // a running step rate (2.5–3.2 Hz)

    /// A runner's vertical head acceleration (earth frame, gravity excluded): specific force 0.05 g for
    /// `flight` seconds of every step, and during the stance whatever makes the step's mean specific force 1 g
    /// (the body neither rises nor sinks over a step).
    static func runner(flight: Double) -> (Double) -> Double {
        let g = Units.standardGravity
        return { t in
            let phase = t.truncatingRemainder(dividingBy: stepPeriod)
            return phase < flight ? -0.95 * g : 0.95 * g * flight / (stepPeriod - flight)
        }
    }

    static func shake(vertical: @escaping (Double) -> Double) -> HeadMotion {
        var m = HeadMotion()
        m.yaw = [.halfWaves(start: 1.5, count: 4, halfPeriod: 0.25, peakRate: 150 * degrees)]
        m.verticalAcceleration = vertical
        return m
    }

    /// Fed straight to the detector (always-on, no question pending) with the motion's true attitude: the events
    /// and the last verdict.
    func judged(_ motion: HeadMotion, hz: Double = 100) -> (events: [GestureEvent], verdict: GestureVerdict?) {
        var d = GestureDetector(settings: .default, headAxesKnown: true)
        var events: [GestureEvent] = []
        for i in 0..<Int(4 * hz) {
            let t = Double(i) / hz
            let s = motion.state(at: t)
            if let e = d.update(t: t, gyro: s.gyro, accel: s.accel, attitude: s.attitude) { events.append(e) }
        }
        return (events, d.verdict)
    }

    @Test func aShakeWithTheHeadHeldUpIsAShake() throws {
        let r = judged(RunningFlightTests.shake(vertical: { _ in 0 }))
        #expect(r.events == [.shake])
        let v = try #require(r.verdict)
        #expect(v.passed(.inFlight) && v.value(.inFlight) == 0)
    }

    @Test func theSameShakeWhileTheBodyFliesBetweenStepsIsGait() throws {
        // 0.1 s of flight a step: a jog's flight at the head (the shared running recordings: median 0.06 s,
        // p90 0.14 s below 0.3 g).
        let r = judged(RunningFlightTests.shake(vertical: RunningFlightTests.runner(flight: 0.1)))
        #expect(r.events.isEmpty)
        let v = try #require(r.verdict)
        #expect(v.refusedBy == [.inFlight], "\(v.text)")
        // The flight measured is the one written in, to a sample.
        #expect(abs(v.value(.inFlight) - 0.1) <= 0.011, "\(v.value(.inFlight))")
        #expect(v.text.contains("refused by in flight"))
    }

    @Test func aDipShorterThanAFlightIsNoFlight() {
        // 0.03 s below the free-fall force once a step: a jolt, one or two samples of an earbud, not a flight.
        let r = judged(RunningFlightTests.shake(vertical: RunningFlightTests.runner(flight: 0.03)))
        #expect(r.events == [.shake])
    }

    @Test(arguments: [25.0, 100.0])
    func throughTheWholePipelineAtAnEarbudsRateAndAGlassesRate(hz: Double) throws {
        // Board axes → mount → attitude filter → detector: the filter's tilt and the decimation keep the flight.
        let held = try replayedEvents(RunningFlightTests.shake(vertical: { _ in 0 }), hz: hz, duration: 4, listening: false)
        let running = try replayedEvents(RunningFlightTests.shake(vertical: RunningFlightTests.runner(flight: 0.1)),
                                         hz: hz, duration: 4, listening: false)
        #expect(held == [.shake])
        #expect(running.isEmpty)
    }

    @Test func withoutAnAccelerometerTheRuleIsOff() throws {
        var d = GestureDetector(settings: .default, headAxesKnown: true)
        let motion = RunningFlightTests.shake(vertical: RunningFlightTests.runner(flight: 0.1))
        var events: [GestureEvent] = []
        for i in 0..<400 {
            let t = Double(i) / 100
            let s = motion.state(at: t)
            if let e = d.update(t: t, gyro: s.gyro, attitude: s.attitude) { events.append(e) }
        }
        #expect(events == [.shake])
        #expect(d.verdict.map { !$0.applies(.inFlight) } == true)
    }
}
