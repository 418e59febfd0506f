import Gestures
import Testing
@testable import Runtime

/// The config's "gestures" section reaches the detector: flicks, their preset and the cooldown.
@Suite struct GestureConfigTests {
    @Test func gesturesSectionSetsTheDetector() throws {
        let c = try Config.parse(#"{"gestures": {"flicks": true, "preset": "firm", "cooldownS": 0.8}}"#)
        let s = c.pipelineSettings.gestures
        #expect(s.flicks)
        #expect(s.flickRate == 0.08 * 60)
        #expect(s.cooldown == 0.8)
    }

    @Test func defaultsAreFlicksOffNormalHalfASecond() throws {
        let s = try Config.parse("{}").pipelineSettings.gestures
        #expect(!s.flicks && s.flickRate == 0.04 * 60 && s.cooldown == 0.5)
    }
}
