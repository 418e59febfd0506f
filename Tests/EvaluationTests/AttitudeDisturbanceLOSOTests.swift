import Fusion
import Geometry
import Testing
@testable import Evaluation

/// The attitude leave-one-out's arithmetic on tables small enough to work out by hand, and the one fold
/// selection it shares with the background calibration's: a trial never helps choose its own values.
@Suite struct AttitudeDisturbanceLOSOTests {
    typealias L = AttitudeDisturbanceLOSO
    let candidates = [L.Candidate.today, L.Candidate(.normTolerance, 0.05), L.Candidate(.normTolerance, 0.15)]

    @Test func eachFoldChoosesTheLowestMeanOnTheOtherTrials() {
        // Four trials. By hand, the mean over the three trials left in each fold:
        //   fold 0 (1, 2, 3): today 3.00, 0.05 3.17, 0.15 3.17 → today
        //   fold 1 (0, 2, 3): today 2.67, 0.05 2.50, 0.15 3.17 → 0.05
        //   fold 2 (0, 1, 3): today 2.33, 0.05 2.33 (a tie: today's stays), 0.15 2.00 → 0.15
        //   fold 3 (0, 1, 2): today 2.00, 0.05 2.00 (tie), 0.15 2.17 → today
        let rmse: [[Double]] = [
            [1.0, 2.0, 3.0, 4.0],   // today
            [0.5, 2.5, 3.0, 4.0],   // norm tolerance 0.05
            [1.0, 1.0, 4.5, 4.0],   // norm tolerance 0.15
        ]
        #expect((0..<4).map { L.choose(rmse, candidates: candidates, heldOut: $0) } == [0, 1, 2, 0])
        // The report counts the folds that kept each value: the norm tolerance in folds 0 and 3, every other
        // setting in all four (only the norm tolerance was moved).
        let f = AttitudeDisturbanceLOSOReport.Findings(.init(trials: ["a", "b", "c", "d"], candidates: candidates, rmse: rmse))
        #expect(f.keptToday.first { $0.0 == .normTolerance }?.1 == 2)
        #expect(f.keptToday.filter { $0.0 != .normTolerance }.allSatisfy { $0.1 == 4 })
        // Held out, each trial is scored at its fold's choice: 1.0, 2.5, 4.5, 4.0.
        let m = AttitudeDisturbanceLOSOReport.Measured(trials: ["a", "b", "c", "d"], candidates: candidates, rmse: rmse)
        #expect(abs(f.heldOutMean(m, trials: [0, 1, 2, 3]) - 12.0 / 4) < 1e-12)
    }

    @Test func theHeldOutTrialsOwnScoreNeverEntersItsChoice() {
        // Trial 0 is planted: the 0.05 tolerance is far better there (10° against 0°), enough to win the mean of
        // all three trials (0.73° against 4.0°), while trials 1 and 2 slightly prefer today's.
        let rmse: [[Double]] = [[10, 1.0, 1.0], [0, 1.1, 1.1], [10, 1.2, 1.2]]
        #expect(L.choose(rmse, candidates: candidates, heldOut: 0) == 0)
        #expect(L.choose(rmse, candidates: candidates, heldOut: 1) == 1)
        #expect(L.choose(rmse, candidates: candidates, heldOut: 2) == 1)
        // The shared selection never even shows the held-out trial's entry to the score.
        let table = (0..<3).map { _ in [0, 1, 2, 3] }
        for heldOut in 0..<4 {
            var seen: Set<Int> = []
            _ = LeaveOneOut.choose(table, preferred: 0, heldOut: heldOut, score: { (trials: [Int]) -> Int in seen.formUnion(trials); return 0 }, isBetter: { (a: Int, b: Int) in a < b })
            #expect(seen == Set([0, 1, 2, 3]).subtracting([heldOut]))
        }
    }

    @Test func aNeighbourThatMovesAGroupMeanPastTheCliffIsFlagged() {
        let trials = ["01_undisturbed_a", "02_undisturbed_b", "24_disturbed_c"]
        // 0.05: the undisturbed mean moves by +0.30° (a cliff at 0.25°); 0.15: the disturbed one by −0.20° (none).
        let rmse: [[Double]] = [[2, 3, 1.5], [2.3, 3.3, 1.5], [2, 3, 1.3]]
        let m = AttitudeDisturbanceLOSOReport.Measured(trials: trials, candidates: candidates, rmse: rmse)
        let cliffs = AttitudeDisturbanceLOSOReport.Findings(m).cliffs(m)
        #expect(cliffs.count == 1)
        #expect(cliffs.first?.candidate == 1 && cliffs.first?.group == .undisturbed)
        #expect(abs((cliffs.first?.change ?? 0) - 0.3) < 1e-9)
        #expect(AttitudeDisturbanceLOSOReport.table(m).contains("on a cliff: norm tolerance"))
    }

    @Test func aCandidateMovesOneSettingInTheFiltersUnits() {
        let dip = L.Candidate(.dipTolerance, 5).settings
        #expect(abs(dip.magDipTolerance - 5 * Double.pi / 180) < 1e-15)
        var rest = dip
        rest.magDipTolerance = AttitudeFilter.Settings.default.magDipTolerance
        #expect(rest == .default)
        let rate = L.Candidate(.newFieldMinRate, 20).settings
        #expect(abs(rate.magNewFieldMinRate - 20 * Double.pi / 180) < 1e-15)
        // Today's value and a step either side of each of the seven settings; VQF's magNewTime (20 s) and
        // magNewMinGyr (20 °/s), where ours differ, are among the steps.
        #expect(L.grid.count == 15 && L.grid.first == .today)
        #expect(L.grid.contains(L.Candidate(.newFieldTime, 20)) && L.grid.contains(L.Candidate(.newFieldMinRate, 20)))
    }
}
