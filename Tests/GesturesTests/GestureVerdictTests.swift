import Geometry
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport
@testable import Gestures

/// `GestureDetector.verdict`: each candidate's verdict says which rule decided, with the measured value against the
/// limit. The truth is analytic motion: a level head pitching down 12° in 0.25 s, holding `hold` seconds, and
/// back up in 0.25 s (a raised-cosine rate per swing), in answer mode so a single nod can be taken.
@Suite struct GestureVerdictTests {
    func run(hold: Double, hz: Double = 100) -> (events: [GestureEvent], verdicts: [GestureVerdict]) {
        var d = GestureDetector(settings: GestureDetector.Settings(), headAxesKnown: true)
        d.listening = true
        var events: [GestureEvent] = []
        var verdicts: [GestureVerdict] = []
        var seen = 0
        for i in 0..<Int(3 * hz) {
            let t = Double(i) / hz
            if let e = d.update(t: t, gyro: AnalyticNod.downHoldUp(t, hold: hold), attitude: .identity) { events.append(e) }
            if d.verdicts != seen, let v = d.verdict {
                seen = d.verdicts
                verdicts.append(v)
            }
        }
        return (events, verdicts)
    }

    @Test func aNodThatTurnsBackAtOnceIsTakenAndEveryRuleSaysSo() throws {
        let r = run(hold: 0)
        #expect(r.events == [.nod])
        let v = try #require(r.verdicts.last)
        #expect(v.accepted && v.event == .nod && v.swings == 2)
        #expect(abs(v.start - 1) < 0.05, "the run began with the down swing at 1 s: \(v.start)")
        for rule in [GestureRule.leadIn, .farPause, .pause, .swingBigEnough, .swingNotTooWide, .noseDown] {
            #expect(v.passed(rule), "\(rule.name): \(v.value(rule)) against \(v.limit(rule))")
        }
        // The swing measured between its threshold crossings is a little under the 12° turned.
        #expect(v.value(.swingBigEnough) * Units.degreesPerRadian > 10 && v.value(.swingBigEnough) * Units.degreesPerRadian <= 12)
        #expect(v.text.contains("taken"))
    }

    @Test(arguments: [0.3, 0.5])
    func aLookDownThatHoldsIsRefusedByItsHoldWithTheHoldMeasured(hold: Double) throws {
        let r = run(hold: hold)
        #expect(r.events.isEmpty)
        let v = try #require(r.verdicts.last)
        #expect(!v.accepted && v.refusedBy.contains(.farPause))
        // The hold is timed from where the first swing fell below a third of its peak to where the second is
        // that fast again: the hold itself and a little of each swing's slow end.
        #expect(v.value(.farPause) >= hold && v.value(.farPause) < hold + 0.15, "\(v.value(.farPause))")
        #expect(v.limit(.farPause) == GestureDetector.Settings().maxTurnPause)
        #expect(v.text.contains("refused by far-end hold"))
    }

    @Test(arguments: [0.0, 0.3, 0.5])
    func theVerdictIsTheDecisionAndEveryRuleIsMeasured(hold: Double) throws {
        // The rules after the first refusal are still measured (what `--explain` and the stream show is the
        // whole judgement), and the last verdict is what was decided: taken exactly when the nod was reported.
        let r = run(hold: hold)
        let v = try #require(r.verdicts.last)
        #expect(v.accepted == (r.events == [.nod]), "taken \(v.accepted), events \(r.events)")
        for rule in [GestureRule.leadIn, .farPause, .pause, .swingBigEnough, .swingNotTooWide, .noseDown] {
            #expect(v.applies(rule), "\(rule.name) was not measured (hold \(hold) s)")
        }
    }

    @Test func withAMountANodThatStartsNoseUpIsRefusedByThatRule() throws {
        var d = GestureDetector(settings: GestureDetector.Settings(), headAxesKnown: true)
        d.listening = true
        for i in 0..<300 {
            let t = Double(i) / 100
            // The same nod mirrored: up first, then down.
            _ = d.update(t: t, gyro: AnalyticNod.downHoldUp(t, hold: 0) * -1, attitude: .identity)
        }
        let v = try #require(d.verdict)
        #expect(v.refusedBy == [.noseDown])
    }
}
