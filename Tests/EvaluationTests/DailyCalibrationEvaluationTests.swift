#if canImport(Glibc)
import Glibc
#endif
import Geometry
import Testing
import Tracking
@testable import Evaluation

/// `eval calibration --daily` on synthetic recordings shaped like ClassyGlass (100 Hz IMU, 20 Hz
/// magnetometer, a glasses-sized hard iron) whose irons are applied here, so the truth is known: a steady
/// iron is learned once and kept, and an iron changed mid-way is forgotten and replaced, with the field's
/// strength and dip steady under the learned corrections; an iron changed by more than the field is a
/// known defect.
@Suite struct DailyCalibrationEvaluationTests {
    static let earthField = Vector3(0, 20, -30)   // 36 µT, dip 56°: the ClassyGlass rooms' median field
    /// Irons of the size the glasses carry (|b| 80–300 µT) with soft iron within ±20 %.
    static let first = MagnetometerDistortion(
        name: "glasses", hardIron: Vector3(150, -120, -90),
        softIron: Matrix3(rows: Vector3(1.15, 0.06, 0.02), Vector3(0.06, 0.90, -0.05), Vector3(0.02, -0.05, 1.0)))
    static let second = MagnetometerDistortion(
        name: "other glasses", hardIron: Vector3(-60, 40, 110),
        softIron: Matrix3(rows: Vector3(0.90, -0.05, 0.04), Vector3(-0.05, 1.10, 0.03), Vector3(0.04, 0.03, 1.05)))

    /// The first iron's hard iron moved by 21 µT, less than the field, with another soft iron.
    static let nearby = MagnetometerDistortion(
        name: "nearby", hardIron: first.hardIron + Vector3(15, -12, 10),
        softIron: Matrix3(rows: Vector3(1.05, -0.04, 0.03), Vector3(-0.04, 0.95, 0.06), Vector3(0.03, 0.06, 1.1)))

    /// A head (or a person on a swivel chair) turning through most directions: yaw round and round, pitch
    /// ±70°, roll ±50°, after 2 s still.
    static func attitude(_ t: Double) -> Quaternion {
        let m = Swift.max(0, t - 2)
        return EulerAngles(roll: 0.9 * sin(0.23 * m + 1), pitch: 1.2 * sin(0.31 * m), yaw: 0.25 * m).quaternion
    }

    /// The recording: exact gyro and accelerometer, magnetometer at every fifth sample with 0.3 µT noise and
    /// `first` before `changeAt`, `second` from then on.
    static func recording(seconds: Double, changeAt: Double = .infinity, second: MagnetometerDistortion = second) -> Trace {
        var trace = Trace(metadata: ["rate_hz": "100"], records: [])
        var state: UInt64 = 7
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return (Double(state >> 11) / 9007199254740992 - 0.5) * 0.3 * 3.46
        }
        let dt = 0.01
        var previous = attitude(0)
        for k in 0..<Int(seconds * 100) {
            let t = Double(k) * dt
            let q = attitude(t)
            var d = previous.conjugate * q
            if d.w < 0 { d = Quaternion(w: -d.w, x: -d.x, y: -d.y, z: -d.z) }
            let s = d.vector.length
            let gyro = s > 1e-12 ? d.vector * (2 * atan2(s, d.w) / s / dt) : .zero
            previous = q
            var mag: Vector3? = nil
            if k % 5 == 0 {
                let clean = q.inverseRotate(earthField) + Vector3(noise(), noise(), noise())
                mag = (t < changeAt ? first : second).apply(clean)
            }
            trace.records.append(TraceRecord(t: t, accel: q.inverseRotate(Vector3(0, 0, 9.80665)), gyro: gyro, mag: mag))
        }
        return trace
    }

    @Test func aSteadyIronIsLearnedOnceAndKept() {
        let r = DailyCalibrationEvaluation.evaluate(trace: Self.recording(seconds: 240), name: "steady", activity: "turning")
        let established = try! #require(r.establishedAt)
        #expect(established < 60, "established at \(established) s")
        #expect(r.forgettings == 0 && r.standIns == 0 && r.headingRestarts == 0)
        // Refinements from more of the sphere follow the first established fit (each counts as a
        // replacement) and move the heading reference by a degree or so; then the correction is kept: four
        // more minutes of the same iron add none.
        #expect(r.replacements <= 2, "\(r.replacements) replacements")
        #expect((r.largestJump ?? 0) < 2, "jump \(r.largestJump ?? 0)°")
        let longer = DailyCalibrationEvaluation.evaluate(trace: Self.recording(seconds: 480), name: "steady", activity: "turning")
        #expect(longer.replacements == r.replacements && longer.forgettings == 0, "\(longer.replacements) replacements in 480 s")
        // Under the learned correction the field is one vector: strength within 2 % (the 0.3 µT noise alone
        // spreads a 36 µT field's strength by 1.4 % at the 90th percentile), dip within 1°.
        #expect(DailyCalibrationEvaluation.percentile(r.strengthDeviations, 0.9) < 0.02)
        #expect(DailyCalibrationEvaluation.percentile(r.dipDeviations, 0.9) < 1)
        #expect(abs(r.medianDip! - 56.3) < 1, "dip \(r.medianDip!)°")
        #expect(!r.turningAzimuthRMS.isEmpty && DailyCalibrationEvaluation.percentile(r.turningAzimuthRMS, 0.9) < 2)
    }

    /// An iron changed by less than the field (a new hard iron 21 µT from the first, new soft iron): the old
    /// correction is contradicted, its samples forgotten, and the new iron learned and established.
    @Test func anIronChangedMidwayIsForgottenAndReplaced() {
        let r = DailyCalibrationEvaluation.evaluate(trace: Self.recording(seconds: 300, changeAt: 120, second: Self.nearby),
                                                    name: "changed", activity: "turning")
        let established = try! #require(r.establishedAt)
        #expect(established < 60)
        #expect(r.forgettings == 1, "\(r.forgettings) forgettings")
        // The refinements of the first iron (as in the steady test), then the second iron.
        let steady = DailyCalibrationEvaluation.evaluate(trace: Self.recording(seconds: 120), name: "steady", activity: "turning")
        #expect(r.replacements >= steady.replacements + 1, "\(r.replacements) replacements, \(steady.replacements) before the change")
        // The old correction under the new iron points the field elsewhere: the change shifts the heading's
        // reference by many degrees. It does not restart the heading: the filter refused the wrongly corrected
        // field as a disturbance and kept the room's field, which the new correction shows again, so it
        // recovers onto it from its gyro-held heading.
        #expect(r.headingRestarts == 0, "\(r.headingRestarts) heading restarts")
        #expect((r.largestJump ?? 0) > 10, "jump \(r.largestJump ?? 0)°")
    }

    /// A known defect (docs/results/background-calibration.md): a hard iron that moves by more than the
    /// field (330 µT here; glasses carry 65–300 µT, and it changes between wearings) is forgotten but never
    /// learned again, because the contradicted correction goes on sorting the new samples into regions and
    /// puts them all in the same few. Sorting about the raw mean after such a forgetting relearns it, but
    /// cost 1.4° of heading on BROAD's attached-magnet trial, so it is not in.
    @Test func anIronChangedByMoreThanTheFieldIsNotRelearned() {
        let r = DailyCalibrationEvaluation.evaluate(trace: Self.recording(seconds: 300, changeAt: 120), name: "changed",
                                                    activity: "turning")
        #expect(r.establishedAt != nil)
        #expect(r.forgettings >= 1, "\(r.forgettings) forgettings")
        withKnownIssue("a hard-iron change larger than the field is not relearned") {
            // Relearned, the correction would move the heading's reference by many degrees.
            #expect((r.largestJump ?? 0) > 10, "jump \(r.largestJump ?? 0)°")
        }
    }

    @Test func activityIsTheFileNamesEnd() {
        #expect(DailyCalibrationEvaluation.activity(ofFile: "../x/cg2_u05_e027_sit_to_stand.csv") == "sit_to_stand")
        #expect(DailyCalibrationEvaluation.activity(ofFile: "cg1A_u01_e001_reading.csv") == "reading")
        #expect(DailyCalibrationEvaluation.activity(ofFile: "01_undisturbed_slow_rotation_A.csv") == "01_undisturbed_slow_rotation_A")
    }
}

