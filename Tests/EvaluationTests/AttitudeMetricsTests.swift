import Geometry
import Tracking
import Testing
@testable import Evaluation

/// The BROAD metrics (shared data/README.md) against quaternions whose errors are known by construction.
@Suite struct AttitudeMetricsTests {
    let d = Units.radiansPerDegree
    func rz(_ deg: Double) -> Quaternion { Quaternion(axis: Vector3(0, 0, 1), angle: deg * d) }
    func rx(_ deg: Double) -> Quaternion { Quaternion(axis: Vector3(1, 0, 0), angle: deg * d) }
    func ry(_ deg: Double) -> Quaternion { Quaternion(axis: Vector3(0, 1, 0), angle: deg * d) }
    func degrees(_ e: AttitudeError) -> (Double, Double, Double) {
        (e.total / d, e.heading / d, e.inclination / d)
    }

    @Test func pureHeadingError() {
        let (total, heading, inclination) = degrees(AttitudeError(estimate: rz(10), truth: .identity))
        #expect(abs(total - 10) < 1e-9 && abs(heading - 10) < 1e-9 && abs(inclination) < 1e-6)
    }

    @Test func pureInclinationError() {
        let (total, heading, inclination) = degrees(AttitudeError(estimate: rx(5), truth: .identity))
        #expect(abs(total - 5) < 1e-9 && abs(heading) < 1e-9 && abs(inclination - 5) < 1e-9)
    }

    @Test func combinedError() {
        // e = Rz(30°) ⊗ Rx(40°): w = cos15°·cos20°, z = sin15°·cos20°, so heading 30°, inclination 40° and
        // total 2·acos(cos15°·cos20°) = 49.6284338°.
        let (total, heading, inclination) = degrees(AttitudeError(estimate: rz(30) * rx(40), truth: .identity))
        #expect(abs(heading - 30) < 1e-9)
        #expect(abs(inclination - 40) < 1e-9)
        #expect(abs(total - 49.628433809) < 1e-6)
    }

    @Test func errorIsTakenInTheEarthFrame() {
        // e = q_est ⊗ q_true⁻¹: a heading offset applied on the earth side is a pure heading error even when
        // the truth is tilted.
        let truth = ry(20) * rx(-35)
        let (total, heading, inclination) = degrees(AttitudeError(estimate: rz(10) * truth, truth: truth))
        #expect(abs(total - 10) < 1e-9 && abs(heading - 10) < 1e-9 && abs(inclination) < 1e-6)
        // The same rotation on the body side is not a pure heading error.
        let body = degrees(AttitudeError(estimate: truth * rz(10), truth: truth))
        #expect(body.2 > 1)
    }

    @Test func signOfTheQuaternionDoesNotMatter() {
        let q = rz(10)
        let negated = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z)
        let (total, heading, _) = degrees(AttitudeError(estimate: negated, truth: .identity))
        #expect(abs(total - 10) < 1e-9 && abs(heading - 10) < 1e-9)
    }

    @Test func rmseOfThreeAndFourDegrees() {
        let r = AttitudeScoring.rmse(estimates: [rz(3), rx(4)], truths: [.identity, .identity], removeHeadingOffset: false)
        #expect(abs(r.totalDegrees - 12.5.squareRoot()) < 1e-9)      // √((9 + 16) / 2)
        #expect(abs(r.headingDegrees - 4.5.squareRoot()) < 1e-9)     // √((9 + 0) / 2)
        #expect(abs(r.inclinationDegrees - 8.0.squareRoot()) < 1e-9) // √((0 + 16) / 2)
        #expect(r.samples == 2)
    }

    @Test func sixDRemovesOneConstantHeadingOffset() {
        // Heading errors of 25° ± 2°: the circular mean 25° comes off, leaving 2° everywhere.
        let truths = (0..<10).map { ry(Double($0)) }
        let estimates = truths.enumerated().map { i, t in rz(25 + (i % 2 == 0 ? 2 : -2)) * t }
        let r = AttitudeScoring.rmse(estimates: estimates, truths: truths, removeHeadingOffset: true)
        #expect(abs(r.headingDegrees - 2) < 1e-9)
        #expect(abs(r.totalDegrees - 2) < 1e-9)
        // Across ±180°: errors of 179° and -179° average to 180°, not 0°.
        let wrap = AttitudeScoring.rmse(estimates: [rz(179), rz(-179)], truths: [.identity, .identity], removeHeadingOffset: true)
        #expect(abs(wrap.headingDegrees - 1) < 1e-9)
    }

    @Test func onlyMovingSamplesWithTruthCount() {
        // A still sensor with perfect readings: the filter's estimate is the truth from the first sample on.
        let truth = EulerAngles(roll: 0.2, pitch: -0.1, yaw: 1.0).quaternion
        let accel = truth.inverseRotate(Vector3(0, 0, Units.standardGravity))
        let mag = truth.inverseRotate(Vector3(0, 20, -45))
        var trace = Trace(metadata: ["rate_hz": "100"])
        for i in 0..<40 {
            var r = TraceRecord(t: Double(i) * 0.01, accel: accel, gyro: .zero, mag: mag, truth: truth, moving: false)
            switch i {
            case 0..<10: r.truth = rz(90) * truth            // not moving: a wrong truth must not count
            case 10..<20: r.moving = true                     // moving, right truth: 0°
            case 20..<30: r.moving = true; r.truth = rz(10) * truth  // moving, truth 10° off
            default: r.moving = true; r.truth = nil           // moving without truth: skipped
            }
            trace.records.append(r)
        }
        let result = AttitudeEvaluation.evaluate(trace: trace, name: "x_undisturbed", mode: .nineD)
        #expect(result.rmse.samples == 20)
        #expect(abs(result.rmse.totalDegrees - 50.0.squareRoot()) < 1e-3)   // √((10·0 + 10·100) / 20)
        #expect(abs(result.rmse.headingDegrees - 50.0.squareRoot()) < 1e-3)
        #expect(result.rmse.inclinationDegrees < 1e-3)
    }

    @Test func groupsAreFoundByNameAndAveragedPlainly() {
        #expect(TrialGroup(trialName: "01_undisturbed_slow_rotation_A") == .undisturbed)
        #expect(TrialGroup(trialName: "24_disturbed_tapping_A") == .disturbed)
        #expect(TrialGroup(trialName: "walk") == .other)
        func trial(_ name: String, _ total: Double) -> AttitudeTrialResult {
            AttitudeTrialResult(name: name, group: TrialGroup(trialName: name), mode: .nineD,
                                rmse: AttitudeRMSE(totalDegrees: total, headingDegrees: 0, inclinationDegrees: 0, samples: total == 1 ? 10 : 1000))
        }
        let groups = AttitudeEvaluation.groups([trial("a_undisturbed", 1), trial("b_undisturbed", 3), trial("c_disturbed", 5)])
        // Plain mean of the trials' RMSEs, not weighted by sample count.
        #expect(groups.first { $0.group == .undisturbed }?.meanTotalDegrees == 2)
        #expect(groups.first { $0.group == .disturbed }?.meanTotalDegrees == 5)
    }

    @Test func reportNamesTheSixDOffsetRemovalAndIsValidJSONShape() {
        let r = AttitudeTrialResult(name: "t_\"q\"", group: .other, mode: .sixD,
                                    rmse: AttitudeRMSE(totalDegrees: 1, headingDegrees: 0.5, inclinationDegrees: 0.8, samples: 3),
                                    removedHeadingOffsetDegrees: 12)
        #expect(AttitudeReport.table([r]).contains("heading offset"))
        let json = AttitudeReport.json([r])
        #expect(json.contains("\"removedHeadingOffsetDeg\": 12.0000"))
        #expect(json.contains("t_\\\"q\\\""))
        #expect(json.filter { $0 == "{" }.count == json.filter { $0 == "}" }.count)
    }
}
