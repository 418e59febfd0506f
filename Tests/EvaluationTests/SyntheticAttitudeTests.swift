import Fusion
import Geometry
import Testing
@testable import Evaluation

/// The default filter on synthetic head motion (analytic truth, MPU-9250-like noise, uncalibrated gyro bias
/// of about 1 °/s, calibration residue of 2 % soft iron and 1 µT hard iron). The bounds are what a head tracker
/// needs: tilt well under a degree, heading within a few degrees (the calibration residue alone is worth
/// up to 3°), and graceful when the gyro is never still.
@Suite struct SyntheticAttitudeTests {
    func score(_ motion: SyntheticAttitudeTrial.Motion, mode: AttitudeMode = .nineD,
               sensor: SyntheticAttitudeTrial.SensorModel = .init()) -> AttitudeRMSE {
        let trial = SyntheticAttitudeTrial(motion: motion, sensor: sensor)
        return AttitudeEvaluation.evaluate(trace: trial.trace(), name: motion.rawValue, mode: mode).rmse
    }

    @Test(arguments: [
        // motion, max total RMSE (9D), max inclination RMSE
        (SyntheticAttitudeTrial.Motion.still, 3.5, 0.3),
        (.slowTurns, 3.5, 0.4),
        (.fastTurns, 3.5, 0.6),
        (.walking, 3.5, 1.0),
        (.magnetPassing, 4.0, 0.4),
        (.biasDrift, 8.0, 0.8),
    ])
    func nineDStaysWithinBounds(motion: SyntheticAttitudeTrial.Motion, maxTotal: Double, maxInclination: Double) {
        let r = score(motion)
        #expect(r.totalDegrees < maxTotal, "\(motion): total \(r.totalDegrees)°")
        #expect(r.inclinationDegrees < maxInclination, "\(motion): inclination \(r.inclinationDegrees)°")
    }

    @Test func perfectCalibrationRemovesTheHeadingFloor() {
        var sensor = SyntheticAttitudeTrial.SensorModel()
        sensor.softIronResidual = Vector3(1, 1, 1)
        sensor.hardIronResidual = .zero
        let r = score(.slowTurns, sensor: sensor)
        #expect(r.headingDegrees < 1.0, "heading \(r.headingDegrees)°")
    }

    @Test func sixDTiltIsAsGoodAsNineD() {
        for motion in [SyntheticAttitudeTrial.Motion.slowTurns, .fastTurns, .walking] {
            let r = score(motion, mode: .sixD)
            #expect(r.inclinationDegrees < 1.0, "\(motion) 6D inclination \(r.inclinationDegrees)°")
        }
    }

    @Test func jitterAndDroppedSamplesCostLittle() {
        var sensor = SyntheticAttitudeTrial.SensorModel()
        sensor.timeJitter = 0.0005
        sensor.dropFraction = 0.05
        let r = score(.fastTurns, sensor: sensor)
        #expect(r.totalDegrees < 3.5 && r.inclinationDegrees < 0.6, "total \(r.totalDegrees)°, inclination \(r.inclinationDegrees)°")
    }

    @Test func magnetIsFlaggedWhileNearAndNotAfter() {
        let trial = SyntheticAttitudeTrial(motion: .magnetPassing)
        var filter = AttitudeFilter()
        var flaggedWhileNear = 0, samplesNear = 0, flaggedAfter = 0
        var last = 0.0
        for r in trial.trace().records {
            filter.update(gyro: r.gyro, accel: r.accel, mag: r.mag, dt: r.t - last)
            last = r.t
            let motionTime = r.t - 2   // the trial starts with 2 s still
            if r.mag != nil && motionTime > 35 && motionTime < 59 {
                samplesNear += 1
                if filter.isMagneticallyDisturbed { flaggedWhileNear += 1 }
            }
            if motionTime > 70 && filter.isMagneticallyDisturbed { flaggedAfter += 1 }
        }
        #expect(Double(flaggedWhileNear) > 0.9 * Double(samplesNear))
        #expect(flaggedAfter == 0)
    }
}
