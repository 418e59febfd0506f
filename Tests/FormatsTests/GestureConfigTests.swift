import Gestures
import Testing
@testable import Formats
import Tracking

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

/// `gestures.nodShake` picks how gentle a nod or shake may be; a `mount` tells the detector the head's axes.
@Suite struct NodShakeConfigTests {
    @Test(arguments: GesturePreset.allCases)
    func nodShakePresetReachesTheDetector(preset: GesturePreset) throws {
        let c = try Config.parse(#"{"gestures": {"nodShake": "\#(preset.rawValue)"}}"#)
        #expect(c.pipelineSettings.gestures.swingRate == preset.swingRate)
    }

    @Test func normalIsTheDefaultAndTheMountNamesTheHeadAxes() throws {
        let plain = try Config.parse("{}").pipelineSettings
        #expect(plain.gestures.swingRate == GesturePreset.normal.swingRate)
        #expect(plain.mount == nil && !Pipeline(settings: plain).recognizer.headAxesKnown)
        let mounted = try Config.parse(#"{"mount": "-x,z,y"}"#)
        #expect(mounted.mount?.description == "-x,z,y")
        #expect(Pipeline(settings: mounted.pipelineSettings).recognizer.headAxesKnown)
    }

    @Test func singleGesturesAreTakenOnlyWhenAskedUnlessTheConfigSaysAlways() throws {
        #expect(try !Config.parse("{}").pipelineSettings.gestures.singleGesturesAlways)
        #expect(try !Config.parse(#"{"gestures": {"single": "asked"}}"#).pipelineSettings.gestures.singleGesturesAlways)
        #expect(try Config.parse(#"{"gestures": {"single": "always"}}"#).pipelineSettings.gestures.singleGesturesAlways)
        #expect(throws: ConfigError.self) { try Config.parse(#"{"gestures": {"single": true}}"#) }
    }

    @Test func anUnknownPresetIsRefusedWithItsPath() {
        #expect(throws: ConfigError.self) { try Config.parse(#"{"gestures": {"nodShake": "gentle"}}"#) }
    }

    @Test func presetsAreOrderedAndNormalSitsUnderTheGentlestModelSwing() {
        // The gesture model's gentlest return swing is 30 °/s; "normal" must take it, "firm" must not.
        let degrees = 180 / Double.pi
        #expect(GesturePreset.sensitive.swingRate < GesturePreset.normal.swingRate)
        #expect(GesturePreset.normal.swingRate * degrees < 30)
        #expect(GesturePreset.firm.swingRate * degrees > 30)
    }
}
