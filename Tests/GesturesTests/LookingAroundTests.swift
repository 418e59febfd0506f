import Geometry
import Testing
@testable import Gestures

/// Looking around is not a shake (`Settings.holdSpeedFraction`, `maxShakeExcursion`): after a gaze shift the
/// head drifts on while the eyes hold the target, and a look back over a shoulder turns further than a shake
/// does. The truth is analytic head motion (`HeadMotion`) at 50 Hz through the product's path; each test also
/// switches its rule off, to show that the rule is what tells the movement from a shake.
@Suite struct LookingAroundTests {
    /// A turn by `angle` (°) peaking at `peak` (°/s), as a cosine speed profile from `start`.
    static func turn(_ start: Double, _ angle: Double, peak: Double) -> HeadMotion.Movement {
        .turn(start: start, duration: Double.pi * abs(angle) / (2 * peak), angle: angle * degrees)
    }
    static func duration(_ angle: Double, peak: Double) -> Double { Double.pi * abs(angle) / (2 * peak) }

    /// Out by 40° at 200 °/s; then, for 0.35 s, the head turns on the same way (a slow swing from the out
    /// swing's fastest moment peaking at 15 °/s); then back as fast as out.
    var driftingGlance: HeadMotion {
        var m = HeadMotion()
        let out = Self.duration(40, peak: 200), hold = 0.35
        let driftDuration = out / 2 + hold, drift = 15 * 2 * driftDuration / Double.pi
        m.yaw = [Self.turn(1, 40, peak: 200),
                 .turn(start: 1 + out / 2, duration: driftDuration, angle: drift * degrees),
                 Self.turn(1 + out + hold, -(40 + drift), peak: 200)]
        return m
    }

    @Test func aGlanceWithADriftingHoldIsNoShake() throws {
        #expect(try replayedEvents(driftingGlance, hz: 50, duration: 4).isEmpty)
        #expect(try replayedEvents(driftingGlance, hz: 50, duration: 4, mount: nil).isEmpty)
        // Timed by stillness alone, the drift hides the hold: the reversal looks immediate and it is a shake.
        var stillness = GestureDetector.Settings()
        stillness.holdSpeedFraction = 0
        #expect(try replayedEvents(driftingGlance, hz: 50, duration: 4, settings: stillness) == [.shake])
    }

    @Test func aOneSwingShakeThatReversesAtOnceIsAShake() throws {
        // The same speeds, no hold and a shake's size: out 20°, back 36° past the middle.
        var m = HeadMotion()
        m.yaw = [Self.turn(1, 20, peak: 150), Self.turn(1 + Self.duration(20, peak: 150), -36, peak: 150)]
        #expect(try replayedEvents(m, hz: 50, duration: 3) == [.shake])
        #expect(try replayedEvents(m, hz: 50, duration: 3, mount: nil) == [.shake])
    }

    /// Two looks back over the left shoulder in a row: out 70° at 220 °/s, 0.15 s there, back; out again at once.
    var lookBacks: HeadMotion {
        var m = HeadMotion()
        let leg = Self.duration(70, peak: 220)
        var t = 1.0
        for _ in 0..<2 {
            m.yaw += [Self.turn(t, 70, peak: 220), Self.turn(t + leg + 0.15, -70, peak: 220)]
            t += 2 * leg + 0.15
        }
        return m
    }

    @Test func lookingBackOverAShoulderIsNoShake() throws {
        #expect(try replayedEvents(lookBacks, hz: 50, duration: 5).isEmpty)
        #expect(try replayedEvents(lookBacks, hz: 50, duration: 5, mount: nil).isEmpty)
        // Back to the front and out again at once is a reversal without a hold: only the width, 70° from where
        // the head rested, says it is no shake (and, for the single shake a question allows, that its run began
        // as the head came back from the first look: no whole-head rest before it).
        var anyWidth = GestureDetector.Settings()
        anyWidth.maxShakeExcursion = .infinity
        anyWidth.singleGestureFromHeadRest = false
        #expect(try replayedEvents(lookBacks, hz: 50, duration: 5, settings: anyWidth) == [.shake])
    }

    @Test func aWideShakeAboutTheMiddleIsStillAShake() throws {
        // ±35° about where the head rested, 70° swings across (Funk et al.'s vigorous range): within 45.5°.
        var m = HeadMotion()
        let half = Self.duration(35, peak: 200), across = Self.duration(70, peak: 200)
        m.yaw = [Self.turn(1, 35, peak: 200), Self.turn(1 + half, -70, peak: 200),
                 Self.turn(1 + half + across, 70, peak: 200), Self.turn(1 + half + 2 * across, -35, peak: 200)]
        #expect(try replayedEvents(m, hz: 50, duration: 4) == [.shake])
    }
}
