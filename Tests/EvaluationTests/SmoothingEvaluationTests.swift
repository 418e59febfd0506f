#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
import Geometry
import Indicators
@testable import Evaluation

/// The benchmark's measurements, checked on the classic recipe, whose response has a closed form, and on
/// made-up recordings whose jitter is known by construction.
@Suite struct SmoothingEvaluationTests {
    static let classic = HeadingSmoother.Settings(kind: .classic)

    @Test func settlingTimeOfTheClassicRecipeMatchesItsClosedForm() {
        // At 60 Hz the 90° turn in 0.3 s is 18 ticks of 5°. Each tick the lag e becomes 0.9 (e + 5), so after
        // the turn e = 45 (1 − 0.9^18); then it shrinks by 0.9 per tick until it is below 2°.
        let endLag = 45 * (1 - pow(0.9, 18))
        var m = 0
        while endLag * pow(0.9, Double(m)) > 2 { m += 1 }
        let before = endLag * pow(0.9, Double(m - 1)), after = endLag * pow(0.9, Double(m))
        let expected = (18 + Double(m - 1) + (before - 2) / (before - after)) / 60
        #expect(abs(SmoothingEvaluation.settlingTime(Self.classic, rateHz: 60) - expected) < 1e-9)
        // The raw heading settles when the turn ends, to within 2° of its end (0.3 s − 2°/300 °/s).
        #expect(abs(SmoothingEvaluation.settlingTime(nil, rateHz: 60) - (0.3 - 2.0 / 300)) < 1e-9)
    }

    @Test(arguments: [(30.0, 18.0), (60, 9), (120, 4.5)])
    func steadyLagOfTheClassicRecipe(rate: Double, expected: Double) {
        // v per tick = 60/rate; the lag settles where 0.1 · lag = 0.9 · v.
        #expect(abs(SmoothingEvaluation.steadyTurnLag(Self.classic, rateHz: rate) - expected) < 1e-3)
    }

    @Test func restJitterOfTheClassicRecipeMatchesTheory() {
        let expected = (0.1 / 1.9).squareRoot()
        #expect(abs(SmoothingEvaluation.restJitter(Self.classic, rateHz: 60, seconds: 600) - expected) < 0.05 * expected)
        #expect(abs(SmoothingEvaluation.restJitter(nil, rateHz: 60, seconds: 600) - 1) < 0.03)
    }

    @Test func wrapTestPassesForEveryCandidateAtEveryRate() {
        for c in SmoothingEvaluation.candidates {
            for rate in SmoothingEvaluation.displayRates {
                let r = SmoothingEvaluation.wrapTest(c.settings, rateHz: rate)
                #expect(r.passed, "\(c.name) at \(rate) Hz: worst \(r.worstViolation)°")
            }
        }
    }

    /// 60 s at 100 Hz still, drifting 0.5 °/s across north, with ±0.3° alternating noise; invalid for 3 s.
    static func madeUpRecording() -> RecordedHeadings {
        var times: [Double] = [], headings: [HeadingReading] = []
        for k in 0..<6000 {
            let t = Double(k) / 100
            let noise = k % 2 == 0 ? 0.3 : -0.3
            let valid = !(t >= 30 && t < 33)
            times.append(t)
            headings.append(HeadingReading(degrees: wrapDegrees360(345 + 0.5 * t + noise), validity: valid ? .valid : .magneticDisturbance))
        }
        return RecordedHeadings(name: "made-up", times: times, headings: headings,
                                stillWindows: [RecordedHeadings.Window(start: 2, end: 60)])
    }

    @Test func recordedJitterScoresNoiseNotDrift() {
        let recording = Self.madeUpRecording()
        // Raw at 50 Hz display picks every other sample: always the same sign, so no jitter at all; at 60 Hz
        // it picks a mix, and the RMS of ±0.3° is 0.3°.
        let raw60 = SmoothingEvaluation.recordedJitter(nil, rateHz: 60, recordings: [recording])
        #expect(abs(raw60 - 0.3) < 0.02, "\(raw60)")
        let raw50 = SmoothingEvaluation.recordedJitter(nil, rateHz: 50, recordings: [recording])
        #expect(raw50 < 0.01, "\(raw50)")
        // Without removing the drift the 5 s pieces spread by 0.5 °/s × 5 s / √12 ≈ 0.72° on top of the noise.
        let spread = SmoothingEvaluation.recordedJitter(nil, rateHz: 60, recordings: [recording], detrend: false)
        #expect(abs(spread - (0.3 * 0.3 + 0.72 * 0.72).squareRoot()) < 0.05, "\(spread)")
        // Smoothers only reduce it.
        for c in SmoothingEvaluation.candidates where c.settings != nil {
            #expect(SmoothingEvaluation.recordedJitter(c.settings, rateHz: 60, recordings: [recording]) < raw60)
        }
    }

    @Test func tableAndJSONHaveARowPerSmootherAndRate() throws {
        let rows = SmoothingEvaluation.evaluate(recordings: [Self.madeUpRecording()])
        #expect(rows.count == SmoothingEvaluation.candidates.count * SmoothingEvaluation.displayRates.count)
        let table = SmoothingEvaluation.table(rows)
        #expect(table.split(separator: "\n").filter { $0.hasPrefix("classic") }.count == 3)
        let json = SmoothingEvaluation.json(rows, recordings: [Self.madeUpRecording()])
        #expect(json.components(separatedBy: "\"smoother\":").count - 1 == rows.count)
        #expect(!json.contains("nan") && !json.contains("inf"))
    }
}
