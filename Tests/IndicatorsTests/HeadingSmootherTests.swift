import Geometry
import Testing
@testable import Indicators

@Suite struct HeadingSmootherTests {
    func valid(_ d: Double) -> HeadingReading { HeadingReading(degrees: d, validity: .valid) }

    @Test(arguments: HeadingSmoother.Kind.allCases)
    func crossesNorthTheShortWay(kind: HeadingSmoother.Kind) {
        var settings = HeadingSmoother.Settings()
        settings.kind = kind
        var s = HeadingSmoother(settings: settings)
        _ = s.step(raw: valid(350), dt: 1 / 60)
        for _ in 0..<120 {
            let out = s.step(raw: valid(10), dt: 1 / 60)
            #expect(out.degrees >= 0 && out.degrees < 360)
            // Never on the long way round: always within the 20° arc through north.
            #expect(abs(shortestDegrees(from: 0, to: out.degrees)) <= 10 + 1e-9)
        }
        #expect(abs(shortestDegrees(from: 10, to: s.output.degrees)) < 0.5)
    }

    @Test func holdsTheLastValueWhileInvalid() {
        var s = HeadingSmoother()
        _ = s.step(raw: valid(42), dt: 1 / 60)
        let held = s.step(raw: HeadingReading(degrees: 200, validity: .magneticDisturbance), dt: 1 / 60)
        #expect(held.degrees == 42 && !held.isLive && held.hasValue)
    }

    @Test func classicMovesTenPercentPerTick() {
        var settings = HeadingSmoother.Settings()
        settings.kind = .classic
        var s = HeadingSmoother(settings: settings)
        _ = s.step(raw: valid(0), dt: 1 / 60)
        #expect(abs(s.step(raw: valid(100), dt: 1 / 60).degrees - 10) < 1e-9)
        #expect(abs(s.step(raw: valid(100), dt: 1 / 60).degrees - 19) < 1e-9)
    }
}

@Suite struct LedPanelTests {
    @Test func northLedHasHysteresis() {
        var p = LedPanel()
        func north(_ d: Double) -> Bool {
            p.mask(at: 0.5, heading: DisplayedHeading(degrees: d, isLive: true, hasValue: true), fault: false)
                & (1 << UInt64(Led.north.rawValue)) != 0
        }
        #expect(!north(30))
        #expect(!north(21))   // inside 22.5 but not past the 19.5 entry edge
        #expect(north(10))
        #expect(north(24))    // stays on until past 25.5
        #expect(!north(26))
        #expect(north(345))
    }

    @Test func gestureLedLastsPointFourSeconds() {
        var p = LedPanel()
        p.show(.nod, at: 1.0)
        let heading = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)
        #expect(p.mask(at: 1.39, heading: heading, fault: false) & 1 == 1)
        #expect(p.mask(at: 1.41, heading: heading, fault: false) & 1 == 0)
    }

    @Test func statusBlinksFastOnFault() {
        var p = LedPanel()
        let heading = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)
        let bit = UInt64(1) << UInt64(Led.status.rawValue)
        var healthyOn = 0, faultOn = 0
        var previous = false, faultEdges = 0
        for i in 0..<600 {  // 10 s at 60 Hz
            let t = Double(i) / 60
            if p.mask(at: t, heading: heading, fault: false) & bit != 0 { healthyOn += 1 }
            let on = p.mask(at: t, heading: heading, fault: true) & bit != 0
            if on { faultOn += 1 }
            if on && !previous { faultEdges += 1 }
            previous = on
        }
        #expect(faultEdges >= 49 && faultEdges <= 51)       // 5 Hz for 10 s
        #expect(healthyOn < faultOn / 3)                     // heartbeat: 10 % duty vs 50 %
    }
}
