import Gestures
import Indicators
import SimulatedRuns
import Simulation
import Testing
@testable import Evaluation

/// The demo story end to end: simulated chips → driver → fusion → detector → LEDs on simulated GPIO.
/// Truth is the script itself: when it nods, shakes and faces north.
@Suite struct DemoStoryTests {
    @Test func storyYieldsExactlyItsScriptedGestures() throws {
        let result = try SimulatedRun().run()
        #expect(result.check.expected.map(\.label) == ["nod", "shake"])
        #expect(result.check.missed.isEmpty)
        #expect(result.check.invented.isEmpty, "invented: \(result.check.invented)")
        #expect(result.faults.total == 0)
    }

    @Test func ledTimelineShowsNodShakeAndNorthAtTheRightMoments() throws {
        let run = SimulatedRun()
        let result = try run.run()
        let leds = result.board.leds
        let end = run.script.duration + run.tail
        let gestures = run.script.gestures
        let nod = try #require(gestures.first { $0.label == "nod" })
        let shake = try #require(gestures.first { $0.label == "shake" })
        let nodOn = leds.onIntervals(line: Led.nod.rawValue, until: end)
        let shakeOn = leds.onIntervals(line: Led.shake.rawValue, until: end)
        // Flashes only inside each gesture's scoring window (a long gesture may flash again after the
        // cooldown), each lasting ~0.4 s.
        #expect(!nodOn.isEmpty && !shakeOn.isEmpty)
        for n in nodOn {
            #expect(n.start >= nod.start - 0.3 && n.start <= nod.end + 1.0)
            #expect(abs((n.end - n.start) - 0.4) < 0.05)
        }
        for s in shakeOn {
            #expect(s.start >= shake.start - 0.3 && s.start <= shake.end + 1.0)
        }
        // North: the story faces north (heading 0) from the end of the third turn until the final turn.
        let facingNorthFrom = 2 + 1.5 + 2 + 2.0   // still, look right, look left, turn to north
        let facingNorthUntil = shake.end + 2 + 0.5  // still after the shake, then the first part of the last turn
        let northOn = leds.onIntervals(line: Led.north.rawValue, until: end)
        #expect(northOn.contains { $0.start < facingNorthFrom + 0.5 && $0.end > facingNorthUntil - 0.5 })
        // Facing east at the start and south at the end: north LED off there.
        #expect(!northOn.contains { $0.start < 2 })
        #expect(!northOn.contains { $0.end > end - 1 })
        // Status LED: a heartbeat (about once a second), never the fault blink.
        let status = leds.onIntervals(line: Led.status.rawValue, until: end)
        #expect(status.count >= Int(end) - 2 && status.count <= Int(end) + 1)
    }
}
