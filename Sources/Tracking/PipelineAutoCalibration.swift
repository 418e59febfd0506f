import SensorCalibration
import Geometry

/// The pipeline's side of the background calibration (`MagnetometerAutoCalibration`): every magnetometer
/// sample goes to it raw, with the sensor's gyro-and-gravity attitude after the filter's update, and each
/// IMU sample gives it one slice of work. A new correction takes effect from the next sample; when it
/// replaced one that did not explain the field, the filter's heading starts over from it too.
extension TrackingPipeline {
    @inline(__always) mutating func learnCalibration(mag: Vector3?) {
        if let raw = mag {
            autoCalibration!.observe(raw, level: filter.levelAttitude * mountRotation)
        }
        guard autoCalibration!.work() else { return }
        use(autoCalibration!.correction)
        // A refinement of a correction that explained the field moves the heading a little: the filter
        // follows it as it follows any slow change. A replaced wrong one leaves its heading and field
        // reference wrong: start them over.
        if autoCalibration!.lastChangeReplacedWrongField { filter.restartHeading() }
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
