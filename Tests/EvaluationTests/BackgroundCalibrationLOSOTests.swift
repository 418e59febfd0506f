import Geometry
import SensorCalibration
import Testing
@testable import Evaluation

/// The leave-one-out validation's own parts: the irons it draws are the sizes the issue names, and a trial's
/// values are chosen without looking at that trial.
@Suite struct BackgroundCalibrationLOSOTests {
    @Test func randomIronsHaveTheIssuesSizes() {
        let irons = BackgroundCalibrationLOSO.randomIrons(count: 200, seed: 7)
        for iron in irons {
            #expect(iron.hardIron.length >= 10 && iron.hardIron.length <= 60, "\(iron.hardIron.length) µT")
            let s = iron.softIron
            // Symmetric, with its axis gains (eigenvalues) in 0.8...1.25.
            #expect((s - s.transposed).maxAbs < 1e-12)
            let gains = s.symmetricEigen().values
            for g in [gains.x, gains.y, gains.z] { #expect(g >= 0.8 - 1e-9 && g <= 1.25 + 1e-9, "gain \(g)") }
        }
        // The axes are rotated: most irons have cross terms, not a diagonal soft iron.
        #expect(irons.filter { abs($0.softIron[0, 1]) > 0.01 }.count > 150)
        // Reproducible from the seed, different for another.
        #expect(BackgroundCalibrationLOSO.randomIrons(count: 3, seed: 7) == Array(irons.prefix(3)))
        #expect(BackgroundCalibrationLOSO.randomIrons(count: 3, seed: 8) != Array(irons.prefix(3)))
    }

    @Test func theHeldOutTrialDoesNotChooseItsOwnValues() {
        typealias Run = BackgroundCalibrationLOSO.Run
        let candidates = [BackgroundCalibrationLOSO.today,
                          BackgroundCalibrationLOSO.Candidate(slotsPerCell: 8, coverage: 0.25, clearlyBetter: 0.5)]
        // Three trials. Candidate 1 is far better on trial 0 only; today's is a little better on trials 1 and 2.
        func runs(_ excess: Double) -> [Run] { [Run(kind: .fromStart, excess: excess)] }
        let measured: [[[Run]]] = [
            [runs(5), runs(0.2), runs(0.2)],   // today's
            [runs(0), runs(0.4), runs(0.4)],   // candidate 1
        ]
        // With trial 0 held out, only trials 1 and 2 count: today's.
        #expect(BackgroundCalibrationLOSO.choose(measured, candidates: candidates, heldOut: 0) == 0)
        // With trial 1 held out, trial 0's run beyond +2° decides: candidate 1.
        #expect(BackgroundCalibrationLOSO.choose(measured, candidates: candidates, heldOut: 1) == 1)
        // A tie goes to today's values.
        let tied: [[[Run]]] = [[runs(1), runs(1)], [runs(1), runs(1)]]
        #expect(BackgroundCalibrationLOSO.choose(tied, candidates: [candidates[1], candidates[0]], heldOut: 0) == 1)
    }
}

/// The judging grid: the two scores that judge a correction, each at today's value and a step either side.
@Suite struct BackgroundCalibrationJudgingGridTests {
    @Test func theJudgingGridVariesOnlyTheTwoScoresAndHoldsToday() {
        typealias L = BackgroundCalibrationLOSO
        let grid = L.Grid.judging.candidates
        let today = MagnetometerAutoCalibration.Settings()
        #expect(grid.count == 9)
        #expect(grid.contains(L.today), "today's values are a candidate")
        for c in grid {
            // The tuned settings stay today's; each candidate's scores reach the learner's settings.
            #expect(c.slotsPerCell == today.slotsPerCell && c.coverage == today.acceptance.minimumCoverage
                    && c.clearlyBetter == today.clearlyBetter)
            #expect(c.settings.explainedScore == c.explainedScore && c.settings.contradictedScore == c.contradictedScore)
            #expect(c.explainedScore < c.contradictedScore, "\(c)")
        }
        #expect(Set(grid.map(\.explainedScore)) == [0.05, 0.08, 0.11])
        #expect(Set(grid.map(\.contradictedScore)) == [0.12, 0.16, 0.24])
        // Today's label is the tuned grid's; another candidate names its scores.
        #expect(L.today.description == "12/0.30/0.70")
        #expect(grid.first?.description == "12/0.30/0.70 judging 0.05/0.12")
        // The tuned grid: the three settings a step either side of today's, today's judging scores throughout.
        let tuned = L.Grid.tuned.candidates
        #expect(tuned.count == 27 && tuned.contains(L.today))
        #expect(tuned.allSatisfy { $0.explainedScore == today.explainedScore && $0.contradictedScore == today.contradictedScore })
        #expect(Set(tuned.map(\.slotsPerCell)) == [8, 12, 16])
    }
}
