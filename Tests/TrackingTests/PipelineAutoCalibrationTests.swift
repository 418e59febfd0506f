#if canImport(Glibc)
import Glibc
#endif
import Fusion
import SensorCalibration
import Geometry
import Testing
@testable import Tracking

/// The background calibration through the one wiring: a headset with a known iron (the truth) tumbling in
/// the Earth's field, its gyro and accelerometer exact, worn tilted on the head (a mount), replayed through
/// `Pipeline.processIMU` as `replay` and `run` drive it.
@Suite struct PipelineAutoCalibrationTests {
    let earthField = Vector3(0, 20, -45)
    let hardIron = Vector3(-18, 21, -11)
    let softIron = Matrix3(rows: Vector3(0.80, -0.12, 0.07), Vector3(-0.12, 1.15, 0.10), Vector3(0.07, 0.10, 1.10))

    /// Sensor → ENU: a tumble through every direction after 5 s at rest.
    func truth(_ t: Double) -> Quaternion {
        let s = Swift.max(0, t - 5)
        return EulerAngles(roll: 0.7 * s, pitch: 1.2 * sin(0.27 * s), yaw: 0.2 * s + 0.5).quaternion
    }

    /// Replays `seconds` at 200 Hz (magnetometer every other sample); returns the largest heading error (°)
    /// over the last 10 s.
    func replay(_ pipeline: inout Pipeline, seconds: Double, iron: Bool = true,
                hardIronAt: ((Double) -> Vector3)? = nil, restarts: UnsafeMutablePointer<[(t: Double, keptReference: Bool)]>? = nil) -> Double {
        let dt = 0.005
        var worst = 0.0
        var revision = pipeline.autoCalibration?.revision ?? 0
        for k in 0..<Int(seconds / dt) {
            let t = Double(k) * dt
            let q = truth(t), next = truth(t + dt)
            // Mean rate over the step, in the sensor frame.
            let step = q.conjugate * next
            let gyro = step.vector * (2 / dt) * (step.w < 0 ? -1 : 1)
            let ideal = next.inverseRotate(earthField)
            let h = hardIronAt?(t) ?? hardIron
            let mag: Vector3? = k % 2 == 0 ? (iron ? softIron * ideal + h : ideal) : nil
            _ = pipeline.processIMU(t: t + dt, accel: next.inverseRotate(Vector3(0, 0, 9.81)), gyro: gyro, mag: mag)
            if let r = pipeline.autoCalibration?.revision, r != revision {
                revision = r
                // A restart leaves the filter's heading average empty until its next magnetometer sample.
                if pipeline.filter.state.magSamples == 0 { restarts?.pointee.append((t, pipeline.filter.hasHeadingReference)) }
            }
            if t > seconds - 10 {
                let e = pipeline.sensorAttitude * next.conjugate
                worst = Swift.max(worst, abs(2 * atan(e.z / e.w)) * 180 / .pi)
            }
        }
        return worst
    }

    func settings(auto: Bool) throws -> Pipeline.Settings {
        var s = Pipeline.Settings()
        s.mount = try Mount(parsing: "-x,z,y")
        if !auto { s.autoCalibration = nil }
        return s
    }

    @Test func learnsTheIronAndTheHeadingComesRight() throws {
        var on = Pipeline(settings: try settings(auto: true))
        let learnedError = replay(&on, seconds: 120)
        var off = Pipeline(settings: try settings(auto: false))
        let uncalibratedError = replay(&off, seconds: 120)
        let learner = try #require(on.autoCalibration)
        #expect(learner.state == .calibrated)
        #expect((learner.correction.hardIron - hardIron).length < 0.5, "learned \(learner.correction.hardIron)")
        #expect(learnedError < 1.5, "heading error \(learnedError)° with the background calibration")
        #expect(uncalibratedError > 10, "heading error \(uncalibratedError)° without: the iron should matter")
        // The calibration in use is what was learned, with the settings' gyro bias.
        #expect(on.calibrationInUse.magnetometer == learner.correction)
        #expect(on.calibrationInUse.magnetometerFit == learner.quality)
    }

    /// The iron changes at 120 s by 15 µT (less than the field): the old correction is contradicted and the
    /// new iron learned. The new correction shows the room's field again, which the filter still holds as its
    /// reference (it refused the wrongly corrected field as a disturbance): the reference is kept (a start over
    /// would take it from the next samples, whatever disturbs them), and the heading comes right.
    @Test func aChangedIronIsRelearnedKeepingTheFieldReference() throws {
        var p = Pipeline(settings: try settings(auto: true))
        var restarts: [(t: Double, keptReference: Bool)] = []
        let moved = hardIron + Vector3(12, -9, 0)
        let worst = replay(&p, seconds: 240, hardIronAt: { $0 < 120 ? self.hardIron : moved }, restarts: &restarts)
        let learner = try #require(p.autoCalibration)
        #expect(learner.forgettings >= 1)
        #expect((learner.correction.hardIron - moved).length < 0.5, "learned \(learner.correction.hardIron)")
        let afterChange = restarts.filter { $0.t >= 120 }
        #expect(afterChange.allSatisfy { $0.keptReference }, "heading and reference restarted at \(afterChange.map(\.t)) s")
        #expect(worst < 1.5, "heading error \(worst)°")
    }

    @Test func offSwitchLeavesTheCalibrationAsGiven() throws {
        var off = Pipeline(settings: try settings(auto: false))
        _ = replay(&off, seconds: 60)
        #expect(off.autoCalibration == nil)
        #expect(off.calibrationInUse == Calibration.none)
    }

    @Test func resetKeepsWhatWasLearned() throws {
        var p = Pipeline(settings: try settings(auto: true))
        _ = replay(&p, seconds: 120)
        let learned = try #require(p.autoCalibration?.correction)
        p.reset()
        #expect(p.autoCalibration?.correction == learned)
        #expect(!p.filter.isInitialized)
        #expect(p.hardIron == learned.hardIron)
    }

    @Test func aSensorWithoutIronKeepsItsRawField() throws {
        var p = Pipeline(settings: try settings(auto: true))
        let error = replay(&p, seconds: 120, iron: false)
        #expect(p.autoCalibration?.revision == 0)
        #expect(error < 1.5)
    }
}
