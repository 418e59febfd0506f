import Fusion
import Geometry
import Tracking
import Testing
@testable import Evaluation

/// `eval attitude --loso --seeds N`: the iron runs get exactly the irons drawn for them, with none the runs are
/// today's evaluation, a trial's score is the mean of its runs, and a trial still never helps choose its own
/// values. Short synthetic recordings with the times shrunk (learned by 4 s, changed at 4 s, relearned by 8 s).
@Suite struct AttitudeDisturbanceLOSOIronTests {
    typealias L = AttitudeDisturbanceLOSO
    let candidates = [L.Candidate.today, L.Candidate(.normTolerance, 0.05), L.Candidate(.normTolerance, 0.15)]
    var times: L.Times { var t = L.Times(); t.learnBy = 4; t.changeAt = 4; t.relearnBy = 8; return t }
    let trace = SyntheticAttitudeTrial(motion: .slowTurns, duration: 12).trace()

    @Test func aPlantedIronChangesTheRawFieldByExactlyThatDistortion() throws {
        // Worked out by hand: gains 1.1, 0.9, 1 on the axes and a hard iron (10, −20, 30) µT.
        let planted = MagnetometerDistortion(name: "planted", hardIron: Vector3(10, -20, 30),
                                             softIron: Matrix3.diagonal(Vector3(1.1, 0.9, 1)))
        let other = MagnetometerDistortion(name: "other", hardIron: Vector3(-5, 0, 0), softIron: .identity)
        let v = L.variants(trace, irons: [planted, other], times: times)
        #expect(v.map(\.kind) == [.none, .fromStart, .fromStart, .changed, .changed])
        #expect(v.map(\.scoredFrom) == [-.infinity, 4, 4, 8, 8])
        var magnetometerSamples = 0
        for (i, r) in trace.records.enumerated() {
            for variant in v {
                let bent = variant.trace.records[i]
                // Only the magnetometer moves: time, accelerometer, gyro, truth and the moving flag are the recording's.
                #expect(bent.t == r.t && bent.accel == r.accel && bent.gyro == r.gyro && bent.truth == r.truth && bent.moving == r.moving)
            }
            guard let m = r.mag else { #expect(v.allSatisfy { $0.trace.records[i].mag == nil }); continue }
            magnetometerSamples += 1
            let byHand = Vector3(1.1 * m.x + 10, 0.9 * m.y - 20, m.z + 30)
            let shifted = Vector3(m.x - 5, m.y, m.z)
            #expect(v[0].trace.records[i].mag == m)
            #expect((v[1].trace.records[i].mag! - byHand).length < 1e-12)
            #expect(v[2].trace.records[i].mag == shifted)
            // Changed at 4 s: the planted iron, then the other one; and the other way round.
            #expect((v[3].trace.records[i].mag! - (r.t < 4 ? byHand : shifted)).length < 1e-12)
            #expect((v[4].trace.records[i].mag! - (r.t < 4 ? shifted : byHand)).length < 1e-12)
        }
        #expect(magnetometerSamples > 1000)

        // The run scores the distorted recording from 4 s on: the same figure as the filter run here over the
        // hand-distorted samples, scored over the moving samples with truth at 4 s or later.
        var byHandTrace = trace
        for i in byHandTrace.records.indices {
            if let m = byHandTrace.records[i].mag { byHandTrace.records[i].mag = Vector3(1.1 * m.x + 10, 0.9 * m.y - 20, m.z + 30) }
        }
        let estimates = AttitudeEvaluation.estimates(for: byHandTrace, settings: .default)
        let scored = zip(byHandTrace.records, estimates).filter { $0.0.moving == true && $0.0.t >= 4 && $0.0.truth != nil }
        let expected = AttitudeScoring.rmse(estimates: scored.map(\.1), truths: scored.map { $0.0.truth! }, removeHeadingOffset: false)
        let run = L.run(v[1], candidate: .today)
        #expect(run.kind == .fromStart && run.iron == "planted")
        #expect(abs(run.totalDeg - expected.totalDegrees) < 1e-12)
        // And the iron does reach the filter: the run differs from the recording as it is, scored from 4 s.
        let clean = L.run(L.Variant(kind: .none, iron: "", trace: trace, scoredFrom: 4), candidate: .today)
        #expect(run.totalDeg != clean.totalDeg)
    }

    @Test func theIronsAreTheCalibrationLeaveOneOutsOwn() {
        let irons = BackgroundCalibrationLOSO.randomIrons(count: 3, seed: 11)
        let v = L.variants(trace, irons: irons, times: times)
        #expect(v.map(\.iron) == ["", "s11i1", "s11i2", "s11i3", "s11i1>s11i2", "s11i2>s11i3", "s11i3>s11i1"])
        // The calibration's leave-one-out changes an iron part-way with the same function.
        let i = trace.records.firstIndex { $0.t >= 4 && $0.mag != nil }!
        let m = trace.records[i].mag!
        #expect(v[6].trace.records[i].mag == irons[0].apply(m))
        #expect(BackgroundCalibrationLOSO.changed(trace, from: irons[2], to: irons[0], at: 4).records[i].mag == irons[0].apply(m))
    }

    @Test func withNoIronTheRunIsTodaysEvaluation() {
        // `--seeds 0` keeps today's path; with irons, the run as recorded must be the same figure, so the two
        // can be read side by side.
        let v = L.variants(trace, irons: [], times: times)
        #expect(v.count == 1)
        for candidate in candidates {
            let today = AttitudeEvaluation.evaluate(trace: trace, name: "s", mode: .nineD, settings: candidate.settings)
            #expect(L.run(v[0], candidate: candidate).totalDeg == today.rmse.totalDegrees)
        }
        // One run per trial: the choice on the runs is the choice on the table of totals, fold by fold.
        let rmse: [[Double]] = [[1.0, 2.0, 3.0, 4.0], [0.5, 2.5, 3.0, 4.0], [1.0, 1.0, 4.5, 4.0]]
        let runs = rmse.map { $0.map { [L.Run(kind: .none, totalDeg: $0)] } }
        #expect((0..<4).map { L.choose(runs: runs, candidates: candidates, heldOut: $0) }
                == (0..<4).map { L.choose(rmse, candidates: candidates, heldOut: $0) })
    }

    @Test func aTrialsScoreIsTheMeanOfItsRuns() {
        let runs = [L.Run(kind: .none, totalDeg: 1), L.Run(kind: .fromStart, totalDeg: 2), L.Run(kind: .changed, totalDeg: 6)]
        #expect(L.trialScore(runs) == 3)
        #expect(L.ironMean(runs) == 4)
        #expect(L.ironMean([L.Run(kind: .none, totalDeg: 1)]).isNaN)
        // As recorded, the 0.05 tolerance is worse everywhere (1.2° against 1.0°), but under irons much better:
        // its mean per trial is 1.73° against 3.67°, so every fold chooses it.
        func trial(_ recorded: Double, _ ironed: Double) -> [L.Run] {
            [L.Run(kind: .none, totalDeg: recorded), L.Run(kind: .fromStart, totalDeg: ironed), L.Run(kind: .changed, totalDeg: ironed)]
        }
        let measured: [[[L.Run]]] = [
            [trial(1, 5), trial(1, 5), trial(1, 5)],
            [trial(1.2, 2), trial(1.2, 2), trial(1.2, 2)],
            [trial(1, 6), trial(1, 6), trial(1, 6)],
        ]
        #expect((0..<3).map { L.choose(runs: measured, candidates: candidates, heldOut: $0) } == [1, 1, 1])
        let m = AttitudeDisturbanceLOSOReport.Measured(trials: ["01_undisturbed_a", "06_undisturbed_b", "24_disturbed_c"],
                                                      candidates: candidates, rmse: measured.map { $0.map { $0[0].totalDeg } },
                                                      irons: .init(perTrial: 1, seed: 1, runs: measured))
        let f = AttitudeDisturbanceLOSOReport.Findings(m)
        #expect(f.chosen == [1, 1, 1])
        // Held out: 1.2° as recorded against today's 1.0°, 2.0° under irons against 5.0°.
        #expect(abs(f.heldOutMean(m.rmse, trials: [0, 1, 2]) - 1.2) < 1e-12)
        #expect(abs(f.heldOutMean(f.ironMean!, trials: [0, 1, 2]) - 2) < 1e-12)
        // The move under irons (−3°, +1°) is a cliff; as recorded (+0.2°) it is not.
        #expect(f.cliffs(m).allSatisfy(\.underIrons) && f.cliffs(m).count == 4)
        let table = AttitudeDisturbanceLOSOReport.table(m)
        #expect(table.contains("under irons") && table.contains("CLIFF under irons") && table.contains("on a cliff: norm tolerance"))
        let json = AttitudeDisturbanceLOSOReport.json(m)
        #expect(json.contains("\"chosenIronMeanDeg\": 2.0000") && json.contains("\"todayIronMeanDeg\": 5.0000") && json.contains("\"ironsPerTrial\": 1"))
        // Without irons the report has none of it.
        let plain = AttitudeDisturbanceLOSOReport.Measured(trials: m.trials, candidates: candidates, rmse: m.rmse)
        #expect(!AttitudeDisturbanceLOSOReport.table(plain).contains("irons") && !AttitudeDisturbanceLOSOReport.json(plain).contains("Iron"))
    }

    @Test func theHeldOutTrialsRunsNeverEnterItsChoice() {
        // Trial 0 is planted: under irons the 0.05 tolerance is far better there (mean 0.33° against 10°), enough
        // to win the mean of all three trials, while trials 1 and 2 slightly prefer today's.
        func trial(_ v: Double) -> [L.Run] { [L.Run(kind: .none, totalDeg: v), L.Run(kind: .fromStart, totalDeg: v)] }
        let measured: [[[L.Run]]] = [
            [trial(10), trial(1.0), trial(1.0)],
            [[L.Run(kind: .none, totalDeg: 0.5), L.Run(kind: .fromStart, totalDeg: 0.16)], trial(1.1), trial(1.1)],
            [trial(10), trial(1.2), trial(1.2)],
        ]
        #expect(L.choose(runs: measured, candidates: candidates, heldOut: 0) == 0)
        #expect(L.choose(runs: measured, candidates: candidates, heldOut: 1) == 1)
        #expect(L.choose(runs: measured, candidates: candidates, heldOut: 2) == 1)
    }
}
