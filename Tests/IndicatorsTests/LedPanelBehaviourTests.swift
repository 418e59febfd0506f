import Testing
import Geometry
@testable import Indicators

/// LED behaviour against the brief's LED semantics: north sector ±22.5° with hysteresis, gesture LEDs on for
/// 0.4 s, heartbeat 0.1 s per second, fault blink 5 Hz.
@Suite struct LedPanelBehaviourTests {
    func live(_ degrees: Double) -> DisplayedHeading {
        DisplayedHeading(degrees: wrapDegrees360(degrees), isLive: true, hasValue: true)
    }

    func northOn(_ mask: UInt64) -> Bool { mask & (1 << UInt64(Led.north.rawValue)) != 0 }

    @Test func northLedDoesNotFlickerAtTheEdgeOfItsSector() {
        var panel = LedPanel()
        var noise = TestNoise(seed: 3)
        var t = 0.0
        // Facing north first, then the heading dithers around the sector edge (22.5°) by up to ±2°, for 10 s
        // at 60 Hz, on both sides of north.
        for edge in [22.5, -22.5] {
            _ = panel.mask(at: t, heading: live(0), fault: false)
            var changes = 0
            var previous = northOn(panel.mask(at: t, heading: live(edge), fault: false))
            for _ in 0..<600 {
                t += 1.0 / 60
                let now = northOn(panel.mask(at: t, heading: live(edge + 4 * (noise.uniform() - 0.5)), fault: false))
                if now != previous { changes += 1 }
                previous = now
            }
            #expect(changes == 0, "north LED changed \(changes) times at the \(edge)° edge")
        }
    }

    @Test func northLedFollowsTheSectorOnBothSidesOfNorth() {
        var panel = LedPanel()
        // (heading, expected) in order; the hysteresis band is 19.5°–25.5° off north.
        let steps: [(Double, Bool)] = [
            (90, false), (21, false),   // entering: not yet, still in the band
            (19, true), (24, true),     // on, and stays on within the band
            (27, false), (340, false),  // past the band: off; 20° west is still in the band coming from outside
            (341, true), (335, true),   // 19° west: on; 25° west: still on
            (180, false), (359.9, true), (0.1, true),
        ]
        for (i, (heading, expected)) in steps.enumerated() {
            let on = northOn(panel.mask(at: Double(i), heading: live(heading), fault: false))
            #expect(on == expected, "heading \(heading)")
        }
    }

    @Test func northLedIsOffWhileTheHeadingIsNotLive() {
        var panel = LedPanel()
        #expect(northOn(panel.mask(at: 0, heading: live(0), fault: false)))
        let held = DisplayedHeading(degrees: 0, isLive: false, hasValue: true, reason: .magneticDisturbance)
        #expect(!northOn(panel.mask(at: 0.1, heading: held, fault: false)))
        let none = DisplayedHeading(degrees: 0, isLive: false, hasValue: false, reason: .noMagnetometer)
        #expect(!northOn(panel.mask(at: 0.2, heading: none, fault: false)))
    }

    @Test func gestureLedStaysOnFor0_4Seconds() {
        var panel = LedPanel()
        panel.show(.nod, at: 10)
        let bit: UInt64 = 1 << UInt64(Led.nod.rawValue)
        let heading = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)
        #expect(panel.mask(at: 10.0, heading: heading, fault: false) & bit != 0)
        #expect(panel.mask(at: 10.39, heading: heading, fault: false) & bit != 0)
        #expect(panel.mask(at: 10.41, heading: heading, fault: false) & bit == 0)
    }

    @Test func statusLedBeatsOncePerSecondAndBlinksAt5HzOnFault() {
        var panel = LedPanel()
        let bit: UInt64 = 1 << UInt64(Led.status.rawValue)
        let heading = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)
        var healthyOn = 0.0, faultOn = 0.0, faultEdges = 0
        var previous = false
        let dt = 0.001
        for k in 0..<10_000 {
            let t = Double(k) * dt
            if panel.mask(at: t, heading: heading, fault: false) & bit != 0 { healthyOn += dt }
            let f = panel.mask(at: t, heading: heading, fault: true) & bit != 0
            if f { faultOn += dt }
            if f && !previous { faultEdges += 1 }
            previous = f
        }
        #expect(abs(healthyOn - 1.0) < 0.02)   // 10 s × 0.1 s
        #expect(abs(faultOn - 5.0) < 0.02)     // half the time
        #expect(faultEdges == 50)              // 5 Hz for 10 s
    }
}
