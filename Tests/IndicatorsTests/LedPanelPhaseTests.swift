import Testing
@testable import Indicators

/// The heartbeat and fault blink phase replaced `truncatingRemainder` (libm fmod): it must give fmod's value
/// exactly, for the 1 s heartbeat and the 0.2 s fault blink, over an hour of running time, next to every
/// multiple of the period and for negative times.
@Suite struct LedPanelPhaseTests {
    @Test func matchesTruncatingRemainder() {
        for period in [1.0, 0.2, 0.75] {
            var mismatches = 0
            for i in -2_000...200_000 {
                for t in [Double(i) * 0.0173, Double(i) * period, (Double(i) * period).nextDown, (Double(i) * period).nextUp] {
                    let expected = t.truncatingRemainder(dividingBy: period), got = LedPanel.phase(of: t, period: period)
                    if got != expected { mismatches += 1 }
                    #expect(t >= 0 ? (got >= 0 && got < period) : (got <= 0 && got > -period), "t \(t) period \(period): \(got)")
                }
            }
            #expect(mismatches == 0, "period \(period)")
        }
    }

    @Test func theHeartbeatBlinksAsBefore() {
        var panel = LedPanel()
        let heading = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)
        let status = UInt64(1) << UInt64(Led.status.rawValue)
        #expect(panel.mask(at: 3600.05, heading: heading, fault: false) & status != 0)
        #expect(panel.mask(at: 3600.15, heading: heading, fault: false) & status == 0)
        #expect(panel.mask(at: 3600.05, heading: heading, fault: true) & status != 0)
        #expect(panel.mask(at: 3600.15, heading: heading, fault: true) & status == 0)
    }
}
