#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Geometry

/// Attitude estimator for a head: gyroscope strapdown integration, corrected towards gravity and (heading
/// only) towards magnetic north, with gyro bias estimation and magnetic disturbance rejection.
///
/// How it works (the ideas follow the published VQF design by Laidig & Seel, written anew here):
/// - The gyroscope is integrated into `gyroAttitude`, the orientation of the body in an "inertial" frame that
///   only drifts slowly with the gyro bias.
/// - Accelerations are rotated into that frame and low-pass filtered there. A head cannot keep accelerating in
///   one direction, so over a few seconds its accelerations average out and the filtered vector is gravity.
///   Filtering in the inertial frame (not the body frame) means fast rotations cause no lag. The tilt
///   correction `inclination` turns the filtered vector to vertical at every sample.
/// - The magnetometer, seen through the tilt-corrected attitude, gives a heading that is low-pass filtered into
///   `headingOffset`, a rotation about the vertical only: a bad field can never tilt the estimate.
///   The field's norm and dip angle are compared with a learned reference: trust falls as they drift away, a
///   field beyond tolerance is not used, and a different field that stays consistent while the head turns is
///   adopted as the new reference. After a rejection the heading catches up faster for a while.
/// - Gyro bias (`GyroBiasEstimator`, a small Kalman filter): at rest from the averaged gyro reading; in motion
///   from the tilt corrections (the body axes that are horizontal) and the heading corrections (the vertical
///   one), which, averaged over time, are the drift that the bias error causes.
///
/// The attitude is `Rz(headingOffset) ⊗ inclination ⊗ gyroAttitude`.
///
/// Pure: time comes in as `dt`, no clock reads, no allocation, plain struct math. Settings (parameters) are
/// kept apart from the state, so a filter can be reset without losing its configuration.
public struct AttitudeFilter: Sendable {
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

    public let settings: Settings

    // MARK: Public state

    public private(set) var attitude: Quaternion = .identity
    public private(set) var isInitialized = false
    public var gyroBias: Vector3 { biasEstimator.bias }
    public private(set) var isAtRest = false
    /// The latest magnetometer sample disagreed with the learned field and was not used.
    public private(set) var isMagneticallyDisturbed = false
    /// The heading is tied to a magnetometer reference (false in 6D and before the first field sample).
    public private(set) var hasHeadingReference = false

    // MARK: Private state

    /// Gyro-only orientation: body to the inertial frame.
    private var gyroAttitude: Quaternion = .identity
    /// Tilt correction: inertial frame to a level frame (rotation about horizontal axes).
    private var inclination: Quaternion = .identity
    /// Heading correction (rad, counter-clockwise about up): level frame to ENU.
    private var headingOffset = 0.0

    /// Low-pass filter of the acceleration in the inertial frame (its output is the gravity estimate).
    private var accelFilter = LowPass2()
    /// Until one time constant has passed, the gravity estimate is the plain mean of the samples so far.
    private var accelMean: Vector3 = .zero
    private var accelSamples = 0
    private var accelTime = 0.0

    private var restGyroMean: Vector3 = .zero
    private var restAccelMean: Vector3 = .zero
    private var restDuration = 0.0
    /// Mean squared deviation of the accelerometer norm from 1 g over the last second (m²/s⁴): how hard the
    /// head is being accelerated, which makes tilt corrections poor evidence of gyro bias.
    private var accelActivity = 0.0

    private var magNormReference = 0.0
    private var magDipReference = 0.0
    private var magCandidateNorm = 0.0
    private var magCandidateDip = 0.0
    private var magCandidateTime = 0.0
    private var magRejectedTime = 0.0
    private var magRecoveryTime = 0.0
    private var magSamples = 0
    private var magTime = 0.0

    private var gains = Gains()

    /// Coefficients for the magnetometer's own sample interval, and the time since its last sample.

    private var magGains = Gains()

    private var magElapsed = 0.0
    private var biasEstimator: GyroBiasEstimator


    public init(settings: Settings = .default) {
        self.settings = settings
        biasEstimator = GyroBiasEstimator(initialSigma: settings.biasInitialSigma)
    }

    public mutating func reset() {
        self = AttitudeFilter(settings: settings)
    }

    // MARK: Update

    /// One IMU sample. `mag` is nil when no new magnetometer sample arrived with this one (or there is none).
    /// `dt` is the time since the previous sample; a dropped sample just gives a longer dt.
    /// Non-finite inputs are ignored, so a corrupt sample cannot poison the state.
    public mutating func update(gyro rawGyro: Vector3, accel: Vector3, mag: Vector3?, dt rawDt: Double) {
        guard rawGyro.isFinite, accel.isFinite, rawDt.isFinite else { return }
        var magSample: Vector3? = nil
        if settings.useMagnetometer, let m = mag, m.isFinite, m.length > 0 { magSample = m }
        // A stall gives a long dt; integrate at most 100 ms of it, so one sample cannot spin the estimate.
        let dt = Swift.min(Swift.max(rawDt, 0), 0.1)

        if !isInitialized {
            guard accel.length > 0.5 * Units.standardGravity else { return }
            initialize(accel: accel, mag: magSample)
            return
        }
        // Coefficients follow dt, but only when it moves by more than 10 %: timestamps rounded to 0.1 ms or a
        // jittery clock would otherwise cost a dozen exp() per sample, and a 10 % error in a multi-second
        // time constant changes nothing measurable.
        if abs(dt - gains.dt) > 0.1 * dt { gains = Gains(settings: settings, dt: dt) }

        updateRest(gyro: rawGyro, accel: accel, dt: dt)

        let rate = rawGyro - gyroBias
        gyroAttitude = (gyroAttitude * Quaternion(rotationVector: rate * dt)).normalized

        correctInclination(accel: accel, dt: dt)
        // The magnetometer usually runs slower than the IMU (100 Hz vs 200 Hz): its corrections use the time since
        // its previous sample, so the heading time constant is what the settings say at any magnetometer rate.
        magElapsed += dt
        if let m = magSample {
            let magDt = Swift.min(magElapsed, 0.1)
            magElapsed = 0
            if abs(magDt - magGains.dt) > 0.1 * magDt { magGains = Gains(settings: settings, dt: magDt) }
            correctHeading(mag: m, rate: rate.length, dt: magDt)
        }
        attitude = (Quaternion(axis: Vector3(0, 0, 1), angle: headingOffset) * inclination * gyroAttitude).normalized
    }

    // MARK: Initialisation

    private mutating func initialize(accel: Vector3, mag: Vector3?) {
        let start: Quaternion
        if let m = mag, let q = AttitudeFilter.attitudeFrom(accel: accel, mag: m) {
            start = q
            learnMagReference(norm: m.length, dip: AttitudeFilter.dipAngle(earthField: q.rotate(m)))
            magSamples = 1
        } else {
            start = AttitudeFilter.levelAttitude(accel: accel)
        }
        gyroAttitude = start
        inclination = .identity
        headingOffset = 0
        attitude = start
        accelMean = start.rotate(accel)
        accelSamples = 1
        accelTime = 0
        restGyroMean = .zero
        restAccelMean = accel
        isInitialized = true
    }

    /// Orientation from one accelerometer and one magnetometer sample (TRIAD); nil when they are parallel.
    public static func attitudeFrom(accel: Vector3, mag: Vector3) -> Quaternion? {
        let up = accel.normalized
        let east = mag.cross(up)
        guard east.length > 1e-6 * mag.length else { return nil }
        let e = east.normalized
        let n = up.cross(e).normalized
        return Quaternion(rotationRows: e, n, up)
    }

    /// Level from gravity with the body's forward axis (or, looking straight up/down, its left axis) as
    /// close to east as tilt allows: heading is unknown without a field, so any fixed choice will do.
    private static func levelAttitude(accel: Vector3) -> Quaternion {
        let up = accel.normalized
        let east0 = Vector3(0, 1, 0).cross(up)
        let east = east0.length > 0.1 ? east0.normalized : up.cross(Vector3(1, 0, 0)).normalized
        let north = up.cross(east).normalized
        return Quaternion(rotationRows: east, north, up)
    }

    // MARK: Tilt

    private mutating func correctInclination(accel: Vector3, dt: Double) {
        // Taps and impacts are not gravity: hold the average through them.
        if abs(accel.length - Units.standardGravity) <= settings.accelRejection {
            let inertial = gyroAttitude.rotate(accel)
            if accelTime < settings.accelTimeConstant {
                // Start-up: a running mean converges faster than the low-pass and is just as correct while the
                // head is still; the low-pass then starts from it in steady state.
                accelSamples += 1
                accelTime += dt
                accelMean += (inertial - accelMean) / Double(accelSamples)
                accelFilter.settle(at: accelMean, gains.accelFilter)
            } else {
                accelFilter.step(inertial, gains.accelFilter)
            }
        }
        let gravity = accelTime < settings.accelTimeConstant ? accelMean : accelFilter.output
        let level = inclination.rotate(gravity)
        let n = level.length
        guard n > 1e-3 else { return }
        let u = level / n
        // Smallest rotation taking u onto +z: axis u × z = (u.y, -u.x, 0), angle acos(u.z).
        let correction: Quaternion
        if u.z > -0.999_999 {
            let w = ((1 + u.z) / 2).squareRoot()
            correction = Quaternion(w: w, x: u.y / (2 * w), y: -u.x / (2 * w), z: 0)
        } else {
            correction = Quaternion(w: 0, x: 1, y: 0, z: 0)
        }
        inclination = (correction * inclination).normalized
        // Bias seen by the tilt correction: the correction undoes drift, so the drift rate is minus the correction
        // rate; in the body frame that is the part of the bias error that is currently horizontal.
        learnBiasFromCorrection(earthRotation: Vector3(2 * correction.x, 2 * correction.y, 0), dt: dt)
    }

    /// In motion, the tilt correction measures the bias along the body directions that are now horizontal:
    /// the correction undoes drift, so minus its rate is the drift caused by the bias error.
    private mutating func learnBiasFromCorrection(earthRotation: Vector3, dt: Double) {
        // The first second of start-up averaging mostly undoes the error of a first sample taken mid-movement,
        // which is not drift (learning from it can invent a bias of degrees per second); after that the
        // corrections are mostly drift again, and waiting longer only lets a real bias tilt the estimate.
        guard !isAtRest, dt > 0, accelTime >= settings.accelTimeConstant / 3 else { return }
        let toLevel = inclination * gyroAttitude
        let rate = earthRotation / dt
        // While the head is being accelerated hard (walking, jolts), the corrections say more about acceleration
        // than about bias: weigh the evidence down accordingly.
        let scale = settings.accelActivityScale
        let variance = gains.biasMotionVariance * (1 + accelActivity / Swift.max(scale * scale, 1e-12))
        let east = toLevel.inverseRotate(Vector3(1, 0, 0))
        biasEstimator.measure(along: east, value: east.dot(biasEstimator.bias) - rate.x, variance: variance)
        let north = toLevel.inverseRotate(Vector3(0, 1, 0))
        biasEstimator.measure(along: north, value: north.dot(biasEstimator.bias) - rate.y, variance: variance)
        biasEstimator.clamp(settings.maxGyroBias)
    }

    // MARK: Rest and bias

    private mutating func updateRest(gyro: Vector3, accel: Vector3, dt: Double) {
        restGyroMean += (gyro - restGyroMean) * gains.rest
        restAccelMean += (accel - restAccelMean) * gains.rest
        let deviation = accel.length - Units.standardGravity
        accelActivity += (deviation * deviation - accelActivity) * gains.activity
        let still = (gyro - restGyroMean).length < settings.restGyroThreshold
            && (accel - restAccelMean).length < settings.restAccelThreshold
            && restGyroMean.length < settings.maxGyroBias
        restDuration = still ? restDuration + dt : 0
        isAtRest = restDuration >= settings.restTime
        biasEstimator.grow(variance: gains.biasDriftVariance)
        if isAtRest {
            // Still: the averaged gyro reading is the bias, in every direction.
            let v = gains.biasRestVariance
            biasEstimator.measure(along: Vector3(1, 0, 0), value: restGyroMean.x, variance: v)
            biasEstimator.measure(along: Vector3(0, 1, 0), value: restGyroMean.y, variance: v)
            biasEstimator.measure(along: Vector3(0, 0, 1), value: restGyroMean.z, variance: v)
            biasEstimator.clamp(settings.maxGyroBias)
        }
    }

    // MARK: Heading

    private mutating func learnMagReference(norm: Double, dip: Double) {
        magNormReference = norm
        magDipReference = dip
        hasHeadingReference = true
    }

    /// Dip angle (rad, positive when the field points down) of a field given in a level frame.
    static func dipAngle(earthField e: Vector3) -> Double {
        atan2(-e.z, (e.x * e.x + e.y * e.y).squareRoot())
    }

    private mutating func correctHeading(mag m: Vector3, rate: Double, dt: Double) {
        let level = (inclination * gyroAttitude).rotate(m)
        let norm = m.length
        let dip = AttitudeFilter.dipAngle(earthField: level)
        if !hasHeadingReference { learnMagReference(norm: norm, dip: dip) }

        let fitsReference = abs(norm - magNormReference) < settings.magNormTolerance * magNormReference
            && abs(dip - magDipReference) < settings.magDipTolerance
        if fitsReference {
            isMagneticallyDisturbed = false
            magNormReference += (norm - magNormReference) * magGains.magReference
            magDipReference += (dip - magDipReference) * magGains.magReference
            magCandidateTime = 0
            if magRejectedTime > 0 {
                magRecoveryTime = Swift.min(magRejectedTime, settings.magMaxRecoveryTime) / settings.magRecoveryFactor
                magRejectedTime = 0
            }
        } else {
            isMagneticallyDisturbed = true
            magRejectedTime += dt
            trackCandidate(norm: norm, dip: dip, rate: rate, dt: dt)
            if magCandidateTime < settings.magNewFieldTime { return }
            // The field changed for good: adopt it and recover heading as after a rejection.
            learnMagReference(norm: magCandidateNorm, dip: magCandidateDip)
            isMagneticallyDisturbed = false
            magCandidateTime = 0
            magRecoveryTime = Swift.min(magRejectedTime, settings.magMaxRecoveryTime) / settings.magRecoveryFactor
            magRejectedTime = 0
        }

        let horizontal = (level.x * level.x + level.y * level.y).squareRoot()
        guard horizontal > 1e-6 * norm else { return }
        // Angle of the measured field east of north in the level frame: rotating by it about up puts the field
        // on north, so it is where `headingOffset` should be.
        let target = atan2(level.x, level.y)
        var k = magGains.mag
        // The first seconds of heading convergence and the recovery after a rejection are not drift: leave them
        // out of the bias evidence (the same start-up allowance as for tilt).
        magTime += dt
        let steady = magRecoveryTime <= 0 && magTime >= settings.accelTimeConstant
        if magRecoveryTime > 0 {
            k = magGains.magRecovery
            magRecoveryTime -= dt
        }
        // Trust falls smoothly as the field departs from the reference (norm, dip), rather than jumping from full
        // to none at the tolerance: a field that is 8 % off is probably distorted in direction too.
        let dn = (norm - magNormReference) / (settings.magNormTolerance * magNormReference)
        let dd = (dip - magDipReference) / settings.magDipTolerance
        k *= Swift.max(0, 1 - dn * dn) * Swift.max(0, 1 - dd * dd)
        magSamples += 1
        k = Swift.max(k, 1 / Double(magSamples))
        let step = wrapRadians(target - headingOffset) * k
        headingOffset = wrapRadians(headingOffset + step)
        if steady && !isAtRest && dt > 0 {
            // The heading correction undoes drift about the vertical: minus its rate is the bias error there.
            // (Recovery and start-up corrections are not drift, so they are left out.)
            let e = (inclination * gyroAttitude).inverseRotate(Vector3(0, 0, 1))
            biasEstimator.measure(along: e, value: e.dot(biasEstimator.bias) - step / dt, variance: magGains.biasMagVariance)
            biasEstimator.clamp(settings.maxGyroBias)
        }
    }

    private mutating func trackCandidate(norm: Double, dip: Double, rate: Double, dt: Double) {
        let fitsCandidate = magCandidateTime > 0
            && abs(norm - magCandidateNorm) < settings.magNormTolerance * magCandidateNorm
            && abs(dip - magCandidateDip) < settings.magDipTolerance
        if fitsCandidate {
            magCandidateNorm += (norm - magCandidateNorm) * magGains.magReference
            magCandidateDip += (dip - magCandidateDip) * magGains.magReference
            if rate >= settings.magNewFieldMinRate { magCandidateTime += dt }
        } else {
            magCandidateNorm = norm
            magCandidateDip = dip
            // Tiny non-zero time marks "candidate present" even before the head turns.
            magCandidateTime = Double.leastNonzeroMagnitude
        }
    }

    /// Wraps into (-π, π]. Inputs here are sums or differences of two wrapped angles, so one step suffices
    /// (cheaper than fmod on every magnetometer sample).
    private func wrapRadians(_ a: Double) -> Double {
        if a > .pi { return a - 2 * .pi }
        if a <= -.pi { return a + 2 * .pi }
        return a
    }

    // MARK: Per-dt coefficients

    /// Filter coefficients 1 - exp(-dt/τ) for the current dt, recomputed only when dt changes, so a steady
    /// sample rate costs no exp() per sample while jitter is still handled exactly.
    private struct Gains: Sendable {
        var dt = -1.0
        var accelFilter = LowPass2.Coefficients()
        var rest = 0.0, biasRestVariance = 0.0, biasDriftVariance = 0.0, biasMotionVariance = 0.0
        var biasMagVariance = 0.0, activity = 0.0
        var mag = 0.0, magRecovery = 0.0, magReference = 0.0
        init() {}
        init(settings s: Settings, dt: Double) {
            func k(_ tau: Double) -> Double { tau > 0 ? 1 - exp(-dt / tau) : 1 }
            self.dt = dt
            accelFilter = LowPass2.Coefficients(timeConstant: s.accelTimeConstant, dt: dt)
            rest = k(s.restFilterTimeConstant)
            activity = k(1.0)
            biasRestVariance = s.biasRestSigma * s.biasRestSigma * Swift.max(s.biasTimeConstant, dt) / Swift.max(dt, 1e-9)
            biasMagVariance = s.biasMagSigma * s.biasMagSigma * Swift.max(s.magTimeConstant, dt) / Swift.max(dt, 1e-9)
            biasDriftVariance = s.biasDriftSigma * s.biasDriftSigma * dt / Swift.max(s.biasDriftTime, 1e-9)
            // Consecutive corrections are strongly correlated (they come from one low-passed vector): spread one
            // measurement of accuracy biasMotionSigma over the accelTimeConstant / dt samples of that window.
            biasMotionVariance = s.biasMotionSigma * s.biasMotionSigma * Swift.max(s.accelTimeConstant, dt) / Swift.max(dt, 1e-9)
            mag = k(s.magTimeConstant)
            magRecovery = k(s.magTimeConstant / Swift.max(s.magRecoveryFactor, 1))
            magReference = k(s.magReferenceTimeConstant)
        }
    }
}
