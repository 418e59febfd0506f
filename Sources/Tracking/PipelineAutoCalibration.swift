import SensorCalibration
import Geometry

/// The pipeline's side of the background calibration (`MagnetometerAutoCalibration`): every magnetometer
/// sample goes to it raw, with the sensor's gyro-and-gravity attitude after the filter's update, and each
/// IMU sample gives it one slice of work. A new correction takes effect from the next sample; when it
/// replaced one that did not explain the field, the filter's heading may start over too (below).
extension TrackingPipeline {
    @inline(__always) mutating func learnCalibration(mag: Vector3?) {
        if let raw = mag {
            autoCalibration!.observe(raw, level: filter.levelAttitude * mountRotation)
        }
        guard autoCalibration!.work() else { return }
        use(autoCalibration!.correction)
        // A refinement of a correction that explained the field moves the heading a little: the filter
        // follows it as it follows any slow change. A replaced wrong one may have left the filter's field
        // reference (strength, dip) wrong, or its heading, or neither:
        // - the new correction shows another field than the reference: the reference was learned under the
        //   wrong one; start heading and reference over;
        // - the same field, the filter refusing the wrongly corrected one as a disturbance, and north where
        //   its heading says (within the angle a trusted field's direction may stray): its heading has come
        //   from the gyro since, and is better than a start over from the next few samples under a fit that
        //   may still be partial; keep both, and the filter recovers onto the new field as after any
        //   disturbance;
        // - otherwise the heading was the wrong correction's: start it over and keep the reference, so a
        //   disturbance just then is refused rather than learned.
        guard autoCalibration!.lastChangeReplacedWrongField else { return }
        guard let field = autoCalibration!.fieldAtLastChange, filter.agreesWithReference(levelField: field) else {
            filter.restartHeading()
            return
        }
        if !(filter.isMagneticallyDisturbed && filter.agreesWithHeading(levelField: field)) {
            filter.restartHeading(keepingReference: true)
        }
    }

    /// The calibration in use: the learned one when the background calibration is on, else the settings'.
    public var calibrationInUse: Calibration {
        guard let learner = autoCalibration else { return settings.calibration }
        var c = settings.calibration
        c.magnetometer = learner.correction
        c.magnetometerFit = learner.quality
        return c
    }

    /// After `reset`: carry on with what was learned.
    mutating func keepLearned(_ learner: MagnetometerAutoCalibration) {
        var kept = learner
        kept.frameRestarted()
        autoCalibration = kept
        use(kept.correction)
    }

    private mutating func use(_ correction: MagnetometerCorrection) {
        magnetometerToHead = Matrix3(rows: mount.forward, mount.left, mount.up) * correction.softIron
        hardIron = correction.hardIron
    }
}
