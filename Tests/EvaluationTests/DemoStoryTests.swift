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
        #expect(result.check.expected.map(\.label) == ["nod", "shake", "nod"])
        #expect(result.check.missed.isEmpty)
        #expect(result.check.invented.isEmpty, "invented: \(result.check.invented)")
        #expect(result.check.repeated.isEmpty, "repeated: \(result.check.repeated)")
        #expect(result.faults.total == 0)
    }

    /// The story's app asks once; the single nod that follows is its answer, given while the nod is made.
    @Test func theStorysQuestionIsAnsweredByItsSingleNod() throws {
        let run = SimulatedRun()
        let result = try run.run()
        let question = try #require(run.script.questions.first)
        let singleNod = try #require(run.script.gestures.last)
        #expect(run.script.questions.count == 1)
        #expect(result.answers.count == 1)
        let answer = try #require(result.answers.first)
        #expect(answer.gesture == .nod)
        #expect(answer.asked == question.at)
        #expect(answer.t >= singleNod.start && answer.t <= singleNod.end + 0.3, "answered at \(answer.t)")
    }

    /// A single nod through the whole simulated loop: answered while a question is pending, no gesture at all
    /// when nothing asked (always-on takes two cycles), a timed-out question answered with none.
    @Test func aSingleNodCountsOnlyWhileAQuestionIsPending() throws {
        func story(asking: Bool, timeout: Double = 5) -> MotionScript {
            var s = MotionScript(initialHeading: 0)
            s.append(.still(duration: 2))
            if asking { s.ask(timeout: timeout) }
            s.append(.still(duration: 1))
            s.append(.nod(cycles: 1, amplitude: 10, frequency: 2))
            s.append(.still(duration: 2))
            return s
        }
        let asked = try SimulatedRun(script: story(asking: true)).run()
        #expect(asked.detections.map(\.event) == [.nod])
        #expect(asked.answers.map(\.gesture) == [.nod])
        let unasked = try SimulatedRun(script: story(asking: false)).run()
        #expect(unasked.detections.isEmpty, "\(unasked.detections)")
        #expect(unasked.answers.isEmpty)
        // Asked, but the question times out (0.5 s) before the nod begins (1 s later): no answer, no gesture.
        let late = try SimulatedRun(script: story(asking: true, timeout: 0.5)).run()
        #expect(late.detections.isEmpty, "\(late.detections)")
        #expect(late.answers.count == 1 && late.answers.first?.gesture == nil)
    }

    @Test func ledTimelineShowsNodShakeAndNorthAtTheRightMoments() throws {
        let run = SimulatedRun()
        let result = try run.run()
        let leds = result.board.leds
        let end = run.script.duration + run.tail
        let gestures = run.script.gestures
        let nods = gestures.filter { $0.label == "nod" }
        let shake = try #require(gestures.first { $0.label == "shake" })
        let nodOn = leds.onIntervals(line: Led.nod.rawValue, until: end)
        let shakeOn = leds.onIntervals(line: Led.shake.rawValue, until: end)
        // Flashes only inside each gesture's scoring window (a long gesture may flash again after the
        // cooldown), each lasting ~0.4 s.
        #expect(!nodOn.isEmpty && !shakeOn.isEmpty)
        #expect(nods.count == 2)
        for n in nodOn {
            #expect(nods.contains { n.start >= $0.start - 0.3 && n.start <= $0.end + 1.0 }, "nod flash at \(n.start)")
            #expect(abs((n.end - n.start) - 0.4) < 0.05)
        }
        #expect(nods.allSatisfy { nod in nodOn.contains { $0.start >= nod.start - 0.3 && $0.start <= nod.end + 1.0 } })
        for s in shakeOn {
            #expect(s.start >= shake.start - 0.3 && s.start <= shake.end + 1.0)
        }
        // North: the story faces north (heading 0) from the end of the third turn until the final turn.
        let facingNorthFrom = 2 + 1.5 + 2 + 2.0   // still, look right, look left, turn to north
        let answer = try #require(nods.last)
        let facingNorthUntil = answer.end + 2 + 0.5  // still after the answer, then the first part of the last turn
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
