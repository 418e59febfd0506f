import Geometry

extension AttitudeFilter {
    /// The filter's parameters: fixed for its lifetime, kept apart from its `State` (which `reset()` clears)
    /// and from the per-dt `Coefficients` derived from them.
    public struct Settings: Sendable, Equatable {
        // MARK: Accelerometer (tilt)

        /// Time constant (s) of the low-pass filter on the acceleration in the inertial frame, i.e. how long
        /// accelerations are averaged before they count as gravity. Head accelerations (nods, steps, turns)
        /// reverse within about a second, so 3 s averages them out, while gyro drift (< 0.1 °/s after the bias
        /// estimate) builds up less than 0.3° in that time.
        public var accelTimeConstant: Double = 3.0
        /// Accelerometer samples whose norm differs from 1 g by more than this (m/s²) are left out of the gravity
        /// average. Off by default (infinite): the average in the inertial frame already removes accelerations,
        /// and leaving out only the large samples of an oscillation biases the average towards one side
        /// (measured: 15–30 m/s² cut-offs tilt the estimate by degrees during fast translations).
        public var accelRejection: Double = .infinity

        // MARK: Magnetometer (heading)

        /// Time constant (s) of the heading pull towards the magnetometer. A head mostly turns in place, so the
        /// field errors it sees (calibration residue, iron nearby) depend on where it looks and repeat with each
        /// look around, which takes about 10 s; the heading should average over at least that. Much longer lets
        /// gyro drift show: a warming-up gyro (0.5 °/s within minutes, the synthetic bias-drift trial) already
        /// lags the heading by several degrees at 15 s. VQF's general-purpose choice is 9 s.
        public var magTimeConstant: Double = 12.0
        /// A field whose norm differs from the learned reference by more than this fraction is a disturbance.
        /// An undisturbed field varies by a few percent over a room and with calibration error; a magnet or a
        /// speaker at head distance changes it by tens of percent. Inside the tolerance the heading gain falls
        /// smoothly with the deviation (1 − (deviation / tolerance)², likewise for dip), so there is no cliff
        /// between full trust and none.
        public var magNormTolerance: Double = 0.1
        /// A field whose dip angle differs from the learned reference by more than this (rad) is a disturbance.
        /// Iron in the room moves the dip by a few degrees; a nearby magnet by tens.
        public var magDipTolerance: Double = 10 * Units.radiansPerDegree
        /// Time constant (s) with which the reference norm and dip follow an accepted field, so slow real
        /// changes (walking to another part of the room) are learned without letting a creeping magnet in.
        public var magReferenceTimeConstant: Double = 20.0
        /// A disturbed field that stays self-consistent (same norm and dip) for this long while the head turns is
        /// taken as the new normal (the field changed for good: another room, a new calibration). 40 s of turning
        /// shows the field from many directions; a magnet that passes by the head for half a minute (the synthetic
        /// `magnetPassing` trial: 24 s) must not be adopted, so this is well above that.
        public var magNewFieldTime: Double = 40.0
        /// Turning rate (rad/s) above which time counts towards `magNewFieldTime`: a field seen from one
        /// direction only proves nothing about being uniform. 10 °/s is slow deliberate head motion.
        public var magNewFieldMinRate: Double = 10 * Units.radiansPerDegree
        /// After a rejection, the heading is pulled towards the field with a time constant this many times
        /// shorter, for a time this many times shorter than the rejection lasted, to remove the gyro drift
        /// accumulated meanwhile without making the heading jumpy in normal operation.
        public var magRecoveryFactor: Double = 2.0
        /// Longest rejection (s) whose drift the recovery undoes; beyond it, recovery lasts as long as for this.
        public var magMaxRecoveryTime: Double = 60.0

        // MARK: Rest and gyro bias

        /// Rest: deviation of the gyro from its short-term mean below this (rad/s). 2 °/s is above MEMS gyro
        /// noise but below the tremor of a head that is "held still" by a person.
        public var restGyroThreshold: Double = 2 * Units.radiansPerDegree
        /// Rest: deviation of the accelerometer from its short-term mean below this (m/s²).
        public var restAccelThreshold: Double = 0.5
        /// How long the sensor must be still before its gyro reading is taken as bias (s).
        public var restTime: Double = 1.5
        /// Time constant (s) of the short-term means used by the rest detector.
        public var restFilterTimeConstant: Double = 0.5
        /// Time (s) of gyro averaging at rest that pins the bias down to `biasRestSigma`: a few seconds averages
        /// gyro noise down to a small fraction of a degree per second.
        public var biasTimeConstant: Double = 3.0
        /// Uncertainty (rad/s) of the bias before anything is known: 1 °/s, the typical zero-rate offset of an
        /// uncalibrated MPU-class gyro. It sets how fast the first in-motion evidence moves the estimate.
        public var biasInitialSigma: Double = 1 * Units.radiansPerDegree
        /// Uncertainty (rad/s) of a bias learned at rest: averaging a few seconds of gyro noise leaves about
        /// 0.03 °/s.
        public var biasRestSigma: Double = 0.03 * Units.radiansPerDegree
        /// How much (rad/s) the bias may drift in `biasDriftTime`: MEMS gyros drift by about 0.1 °/s within minutes
        /// as they warm up; this keeps the estimate willing to follow.
        public var biasDriftSigma: Double = 0.1 * Units.radiansPerDegree
        /// The time (s) over which the bias may drift by `biasDriftSigma`.
        public var biasDriftTime: Double = 100.0
        /// Accuracy (rad/s) of the in-motion bias evidence gathered over one `accelTimeConstant`: head
        /// accelerations that slip through the gravity averaging look like tilt drift of about this size.
        public var biasMotionSigma: Double = 0.3 * Units.radiansPerDegree
        /// RMS deviation of the accelerometer norm from 1 g (m/s², over about a second) at which the in-motion bias
        /// evidence counts half: 0.5 m/s² separates turning the head (≈ 0) from walking or jolts (1–3 m/s²).
        public var accelActivityScale: Double = 0.5
        /// Accuracy (rad/s) of the bias evidence from the heading correction over one `magTimeConstant`: the
        /// undisturbed indoor field still wanders by a few degrees as the head moves through it.
        public var biasMagSigma: Double = 0.3 * Units.radiansPerDegree
        /// Largest gyro bias (rad/s) the filter will believe. 0.1 rad/s (5.7 °/s) covers the ±5 °/s zero-rate
        /// offset of MPU-class gyros; a larger "bias" is a slow rotation, not an offset.
        public var maxGyroBias: Double = 0.1

        /// Use the magnetometer at all (9D) or not (6D).
        public var useMagnetometer: Bool = true

        public init() {}
        public static let `default` = Settings()
    }
}
