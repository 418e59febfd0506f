import LibC
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
/// Pure: time comes in as `dt`, no clock reads, no allocation, plain struct math. `Settings` (parameters),
/// `State` (everything that evolves) and `Coefficients` (derived per sample interval) are kept apart, so a
/// filter can be reset, saved or restored without losing its configuration.
///
/// Cost: the per-sample path is written for speed without changing the math (outputs match the direct
/// formulas to rounding): the gyro step and the heading turn use series for their small angles
/// (`RotationSteps.swift`), the product inclination ⊗ gyroAttitude is formed once and its rotation matrix
/// gives the east, north and up axes, quaternions are renormalised by one Newton step, thresholds are
/// compared squared, and the two tilt measurements of the bias are one joint Kalman update.
public struct AttitudeFilter: Sendable {
    public let settings: Settings

    /// Everything that evolves (see `State`). Assigning a state restores a filter to it.
    public var state: State {
        get { current }
        set {
            current = newValue
            // The per-sample renormalisation is a first-order step: give it unit quaternions to keep.
            current.gyroAttitude = AttitudeFilter.unit(newValue.gyroAttitude)
            current.inclination = AttitudeFilter.unit(newValue.inclination)
            headingRotation = HeadingRotation(angle: newValue.headingOffset)
            dipAnchor = DipAnchor(newValue.magDipReference)
        }
    }

    /// q itself when it is of unit length to rounding (so a saved state comes back bit for bit), else q normalised.
    private static func unit(_ q: Quaternion) -> Quaternion {
        abs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) < 1e-12 ? q : q.normalized
    }

    // MARK: Outputs

    public var attitude: Quaternion { current.attitude }
    public var isInitialized: Bool { current.isInitialized }
    public var gyroBias: Vector3 { current.bias.bias }
    public var isAtRest: Bool { current.isAtRest }
    /// The latest magnetometer sample disagreed with the learned field and was not used.
    public var isMagneticallyDisturbed: Bool { current.isMagneticallyDisturbed }
    /// The heading is tied to a magnetometer reference (false in 6D and before the first field sample).
    public var hasHeadingReference: Bool { current.hasHeadingReference }
    /// Body → the gyro-and-gravity frame: the attitude without the magnetometer's heading correction (tilt
    /// from gravity, heading from the gyro alone), for judging a magnetometer calibration against the gyro.
    public var levelAttitude: Quaternion { current.inclination * current.gyroAttitude }

    // MARK: Storage

    private var current: State
    /// `current.headingOffset` as a half-angle rotation, turned along with it (no sin/cos per sample).
    private var headingRotation = HeadingRotation()
    /// An angle near `current.magDipReference`, with its cosine and sine, from which the field's dip is measured.
    private var dipAnchor = DipAnchor(0)
    /// Coefficients for the IMU's sample interval and for the magnetometer's own.
    private var coefficients = Coefficients()
    private var magCoefficients = Coefficients()

    public init(settings: Settings = .default) {
        self.settings = settings
        current = State(settings: settings)
    }

    /// Back to the state of a new filter; the settings stay.
    public mutating func reset() {
        self = AttitudeFilter(settings: settings)
    }

    /// The magnetometer's calibration changed: the learned field (norm, dip, a candidate new field) and the
    /// heading average are of the old correction, so they start over as at start (the next samples are
    /// averaged into the heading from the first one on); tilt, gyro bias and the gyro attitude stay.
    /// `keepingReference`: the new correction shows the field the filter holds (`agreesWithReference`), so
    /// only the heading average starts over, and samples that disagree with that field are still refused
    /// rather than taken as the reference.
    public mutating func restartHeading(keepingReference: Bool = false) {
        if !keepingReference { current.hasHeadingReference = false }
        current.isMagneticallyDisturbed = false
        current.magSamples = 0
        current.magTime = 0
        current.magCandidateTime = 0
        current.magRejectedTime = 0
        current.magRecoveryTime = 0
    }

    /// Whether a field (in the gyro-and-gravity frame, `levelAttitude`'s) has the strength and dip of the field
    /// the heading is tied to, within the tolerances that decide a sample's trust (`magNormTolerance`,
    /// `magDipTolerance`): a field the filter would take as it stands. Neither depends on where the head
    /// points, so a drifted gyro heading does not matter. False without a reference.
    public func agreesWithReference(levelField f: Vector3) -> Bool {
        guard current.hasHeadingReference, f.isFinite else { return false }
        let norm = f.length
        let dip = AttitudeFilter.dipAngle(earthField: f)
        return fieldMatches(norm: norm, dip: dip, referenceNorm: current.magNormReference, referenceDip: current.magDipReference)
    }

    /// The trust test, in one place: a field of this strength and dip is the same field as the reference when
    /// both are within the tolerances (`magNormTolerance` as a fraction of the reference's strength,
    /// `magDipTolerance`). Used for each sample against the learned field and a candidate new one, and for a
    /// new calibration's field (`agreesWithReference`).
    @inline(__always) private func fieldMatches(norm: Double, dip: Double, referenceNorm: Double, referenceDip: Double) -> Bool {
        abs(norm - referenceNorm) < settings.magNormTolerance * referenceNorm
            && abs(dip - referenceDip) < settings.magDipTolerance
    }

    /// Whether a field (in the gyro-and-gravity frame, as for `agreesWithReference`) points where the heading
    /// says north is, within `magDipTolerance`, the angle by which the trust test lets a field's direction
    /// stray: the heading it gives is one the filter could have reached from its own field.
    public func agreesWithHeading(levelField f: Vector3) -> Bool {
        guard current.hasHeadingReference, f.isFinite, f.x * f.x + f.y * f.y > 0 else { return false }
        return abs(headingRotation.angle.angle(to: f.y, f.x)) < settings.magDipTolerance
    }

    // MARK: Update

    /// One IMU sample. `mag` is nil when no new magnetometer sample arrived with this one (or there is none).
    /// `dt` is the time since the previous sample; a dropped sample just gives a longer dt.
    /// Non-finite inputs are ignored, so a corrupt sample cannot poison the state.
    public mutating func update(gyro rawGyro: Vector3, accel: Vector3, mag: Vector3?, dt rawDt: Double) {
        guard rawGyro.isFinite, accel.isFinite, rawDt.isFinite else { return }
        // The field as a value and a flag, not an Optional: an Optional vector is kept in memory through the
        // whole update and unwrapped again where it is used.
        let field = mag ?? .zero
        let hasField = settings.useMagnetometer && mag != nil && field.isFinite && field.dot(field) > 0
        // A stall gives a long dt; integrate at most 100 ms of it, so one sample cannot spin the estimate.
        let dt = Swift.min(Swift.max(rawDt, 0), 0.1)
        let accelNorm = accel.length

        if !current.isInitialized {
            guard accelNorm > 0.5 * Units.standardGravity else { return }
            initialize(accel: accel, mag: hasField ? field : nil)
            return
        }
        // Coefficients follow dt, but only when it moves by more than 10 %: timestamps rounded to 0.1 ms or a
        // jittery clock would otherwise cost a dozen exp() per sample, and a 10 % error in a multi-second
        // time constant changes nothing measurable.
        if abs(dt - coefficients.dt) > 0.1 * dt { coefficients = Coefficients(settings: settings, dt: dt) }

        updateRest(gyro: rawGyro, accel: accel, accelNorm: accelNorm, dt: dt)

        let rate = rawGyro - current.bias.bias
        let gyroAttitude = current.gyroAttitude
        let step = Quaternion.gyroStep(halfRotationVector: rate * (0.5 * dt))
        current.gyroAttitude = (gyroAttitude * step).scaled(by: gyroAttitude.renormalizingFactor)

        let tiltCorrection = correctInclination(accel: accel, accelNorm: accelNorm, dt: dt)
        // Body → level, formed once for the bias evidence, the field and the output.
        let toLevel = current.inclination * current.gyroAttitude
        let axes = RotationRows(toLevel)
        if let c = tiltCorrection { learnBiasFromCorrection(c, axes: axes, dt: dt) }

        // The magnetometer usually runs slower than the IMU (100 Hz vs 200 Hz): its corrections use the time since
        // its previous sample, so the heading time constant is what the settings say at any magnetometer rate.
        current.magElapsed += dt
        if hasField {
            let magDt = Swift.min(current.magElapsed, 0.1)
            current.magElapsed = 0
            if abs(magDt - magCoefficients.dt) > 0.1 * magDt { magCoefficients = Coefficients(settings: settings, dt: magDt) }
            correctHeading(mag: field, axes: axes, rate: rate, dt: magDt)
        }
        current.attitude = headingRotation.applied(to: toLevel).renormalized
    }

    // MARK: Initialisation

    private mutating func initialize(accel: Vector3, mag: Vector3?) {
        let start: Quaternion
        if let m = mag, let q = AttitudeFilter.attitudeFrom(accel: accel, mag: m) {
            start = q
            learnMagReference(norm: m.length, dip: AttitudeFilter.dipAngle(earthField: q.rotate(m)))
            current.magSamples = 1
        } else {
            start = AttitudeFilter.levelAttitude(accel: accel)
        }
        current.gyroAttitude = start
        current.inclination = .identity
        current.headingOffset = 0
        headingRotation = HeadingRotation()
        current.attitude = start
        current.accelMean = start.rotate(accel)
        current.accelSamples = 1
        current.accelTime = 0
        current.restGyroMean = .zero
        current.restAccelMean = accel
        current.isInitialized = true
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

    /// Turns the gravity estimate to vertical; returns the correction applied (nil without a usable estimate).
    @inline(__always) private mutating func correctInclination(accel: Vector3, accelNorm: Double, dt: Double) -> Quaternion? {
        // Taps and impacts are not gravity: hold the average through them.
        if abs(accelNorm - Units.standardGravity) <= settings.accelRejection {
            let inertial = current.gyroAttitude.rotate(accel)
            if current.accelTime < settings.accelTimeConstant {
                // Start-up: a running mean converges faster than the low-pass and is just as correct while the
                // head is still; the low-pass then starts from it in steady state.
                current.accelSamples += 1
                current.accelTime += dt
                current.accelMean += (inertial - current.accelMean) / Double(current.accelSamples)
                current.accelFilter.settle(at: current.accelMean, coefficients.accelFilter)
            } else {
                current.accelFilter.step(inertial, coefficients.accelFilter)
            }
        }
        let gravity = current.accelTime < settings.accelTimeConstant ? current.accelMean : current.accelFilter.output
        let inclination = current.inclination
        let correction = AttitudeFilter.turnToVertical(inclination.rotate(gravity), length: gravity.length)
        if let c = correction {
            current.inclination = Quaternion.product(ofHorizontalTurn: c, inclination).scaled(by: inclination.renormalizingFactor)
        }
        return correction
    }

    /// Smallest rotation taking the direction of `v` (of length `n`) onto +z: axis v × z = (v.y, −v.x, 0), angle
    /// acos(v.z/n). Its quaternion (cos ½θ, sin ½θ · axis/|axis|) is ((n + v.z), v.y, −v.x, 0) / √(2n(n + v.z)).
    /// The length is passed in because a rotated vector keeps it: the gravity estimate's length does not wait
    /// for the rotation. Nil for a vector too short to have a direction.
    @inline(__always) static func turnToVertical(_ v: Vector3, length n: Double) -> Quaternion? {
        guard n > 1e-3 else { return nil }
        let nz = n + v.z
        // Pointing (almost) straight down: turn by π about x.
        guard nz > 1e-6 * n else { return Quaternion(w: 0, x: 1, y: 0, z: 0) }
        let k = inverseSquareRootOfTwoNTimes(n, plus: v.z)
        return Quaternion(w: nz * k, x: v.y * k, y: -v.x * k, z: 0)
    }

    /// 1 / √(2n(n + v.z)). Once the filter has converged v is within a small angle of vertical, so with
    /// δ = (n − v.z)/(2n) (about a quarter of that angle squared) this is 1/(2n) · (1 − δ)^(−1/2), whose series
    /// 1 + δ/2 + 3δ²/8 + 5δ³/16 + 35δ⁴/128 is exact to rounding for δ ≤ 1e-4 (angles below 1.1°) and needs
    /// neither square root nor division on the sample chain (1/(2n) depends on the gravity estimate only).
    /// The series is summed in pairs of terms, (1 + δ/2) + δ² (3/8 + 5δ/16) + δ⁴ · 35/128 (Estrin's scheme:
    /// three dependent steps instead of four, on the chain from one sample's bias estimate to the next).
    @inline(__always) static func inverseSquareRootOfTwoNTimes(_ n: Double, plus z: Double) -> Double {
        let halfInverseN = 0.5 / n
        let delta = (n - z) * halfInverseN
        guard delta <= 1e-4 else { return 1 / (2 * n * (n + z)).squareRoot() }
        let delta2 = delta * delta
        let p0 = 1 + delta * (1.0 / 2), p1 = 3.0 / 8 + delta * (5.0 / 16)
        return halfInverseN * (p0 + delta2 * (p1 + delta2 * (35.0 / 128)))
    }

    /// In motion, the tilt correction measures the bias along the body directions that are now horizontal:
    /// the correction undoes drift, so minus its rate is the drift caused by the bias error. East and north
    /// are measured together (one joint Kalman update).
    @inline(__always) private mutating func learnBiasFromCorrection(_ correction: Quaternion, axes: RotationRows, dt: Double) {
        // The first second of start-up averaging mostly undoes the error of a first sample taken mid-movement,
        // which is not drift (learning from it can invent a bias of degrees per second); after that the
        // corrections are mostly drift again, and waiting longer only lets a real bias tilt the estimate.
        guard !current.isAtRest, dt > 0, current.accelTime >= coefficients.biasLearningStart else { return }
        // Rate of the correction in the level frame: 2 (x, y) of its quaternion per dt (small angle).
        let rateScale = 2 / dt
        // While the head is being accelerated hard (walking, jolts), the corrections say more about acceleration
        // than about bias: weigh the evidence down accordingly.
        let variance = coefficients.biasMotionVariance * (1 + current.accelActivity * coefficients.inverseActivityScale2)
        current.bias.correct(along: axes.east, axes.north,
                             residuals: -correction.x * rateScale, -correction.y * rateScale, variance: variance)
        current.bias.clamp(settings.maxGyroBias)
    }

    // MARK: Rest and bias

    @inline(__always) private mutating func updateRest(gyro: Vector3, accel: Vector3, accelNorm: Double, dt: Double) {
        let c = coefficients
        current.restGyroMean += (gyro - current.restGyroMean) * c.rest
        current.restAccelMean += (accel - current.restAccelMean) * c.rest
        let deviation = accelNorm - Units.standardGravity
        current.accelActivity += (deviation * deviation - current.accelActivity) * c.activity
        // The thresholds compare lengths; squared lengths against squared thresholds need no square roots.
        let gyroDeviation = gyro - current.restGyroMean, accelDeviation = accel - current.restAccelMean
        let still = gyroDeviation.dot(gyroDeviation) < c.restGyroThreshold2
            && accelDeviation.dot(accelDeviation) < c.restAccelThreshold2
            && current.restGyroMean.dot(current.restGyroMean) < c.maxGyroBias2
        current.restDuration = still ? current.restDuration + dt : 0
        current.isAtRest = current.restDuration >= settings.restTime
        current.bias.grow(variance: c.biasDriftVariance)
        if current.isAtRest {
            // Still: the averaged gyro reading is the bias, in every direction.
            current.bias.measureEachAxis(current.restGyroMean, variance: c.biasRestVariance)
            current.bias.clamp(settings.maxGyroBias)
        }
    }

    // MARK: Heading

    private mutating func learnMagReference(norm: Double, dip: Double) {
        current.magNormReference = norm
        current.magDipReference = dip
        dipAnchor = DipAnchor(dip)
        current.hasHeadingReference = true
    }

    /// Dip angle (rad, positive when the field points down) of a field given in a level frame.
    static func dipAngle(earthField e: Vector3) -> Double {
        atan2(-e.z, (e.x * e.x + e.y * e.y).squareRoot())
    }

    @inline(__always) private mutating func correctHeading(mag m: Vector3, axes: RotationRows, rate: Vector3, dt: Double) {
        let level = axes.rotate(m)
        let norm = m.length
        let horizontal = (level.x * level.x + level.y * level.y).squareRoot()
        // Dip angle of the field (`dipAngle(earthField: level)`). Once there is a reference, as an anchor angle
        // near it plus the angle from the anchor to the field's (horizontal, down) direction: a small angle, so a
        // series rather than libm's atan2.
        let dip: Double
        if current.hasHeadingReference {
            dip = dipAnchor.angle + dipAnchor.pair.angle(to: horizontal, -level.z)
        } else {
            dip = atan2(-level.z, horizontal)
            learnMagReference(norm: norm, dip: dip)
        }

        let fitsReference = fieldMatches(norm: norm, dip: dip, referenceNorm: current.magNormReference,
                                         referenceDip: current.magDipReference)
        if fitsReference {
            current.isMagneticallyDisturbed = false
            current.magNormReference += (norm - current.magNormReference) * magCoefficients.magReference
            let dipChange = (dip - current.magDipReference) * magCoefficients.magReference
            current.magDipReference += dipChange
            dipAnchor.follow(current.magDipReference)
            current.magCandidateTime = 0
            if current.magRejectedTime > 0 {
                current.magRecoveryTime = Swift.min(current.magRejectedTime, settings.magMaxRecoveryTime) / settings.magRecoveryFactor
                current.magRejectedTime = 0
            }
        } else {
            current.isMagneticallyDisturbed = true
            current.magRejectedTime += dt
            trackCandidate(norm: norm, dip: dip, rate: rate.length, dt: dt)
            if current.magCandidateTime < settings.magNewFieldTime { return }
            // The field changed for good: adopt it and recover heading as after a rejection.
            learnMagReference(norm: current.magCandidateNorm, dip: current.magCandidateDip)
            current.isMagneticallyDisturbed = false
            current.magCandidateTime = 0
            current.magRecoveryTime = Swift.min(current.magRejectedTime, settings.magMaxRecoveryTime) / settings.magRecoveryFactor
            current.magRejectedTime = 0
        }

        guard horizontal > 1e-6 * norm else { return }
        // The measured field's angle east of north in the level frame is where `headingOffset` should be; the
        // step is the shortest way there, i.e. the angle from the heading (cos h, sin h) to the field's horizontal
        // part (north, east) = (level.y, level.x): wrap(atan2(level.x, level.y) − h) without forming either angle.
        let offset = headingRotation.angle.angle(to: level.y, level.x)
        var k = magCoefficients.mag
        // The first seconds of heading convergence and the recovery after a rejection are not drift: leave them
        // out of the bias evidence (the same start-up allowance as for tilt).
        current.magTime += dt
        let steady = current.magRecoveryTime <= 0 && current.magTime >= settings.accelTimeConstant
        if current.magRecoveryTime > 0 {
            k = magCoefficients.magRecovery
            current.magRecoveryTime -= dt
        }
        // Trust falls smoothly as the field departs from the reference (norm, dip), rather than jumping from full
        // to none at the tolerance: a field that is 8 % off is probably distorted in direction too.
        let dn = (norm - current.magNormReference) / (settings.magNormTolerance * current.magNormReference)
        let dd = (dip - current.magDipReference) * magCoefficients.inverseDipTolerance
        k *= Swift.max(0, 1 - dn * dn) * Swift.max(0, 1 - dd * dd)
        // At first the heading is the plain mean of the samples so far: k ≥ 1/n (tested as k·n < 1, no division).
        current.magSamples += 1
        let samples = Double(current.magSamples)
        if k * samples < 1 { k = 1 / samples }
        let step = offset * k
        current.headingOffset = wrapRadians(current.headingOffset + step)
        headingRotation.turn(by: step)
        if steady && !current.isAtRest && dt > 0 {
            // The heading correction undoes drift about the vertical: minus its rate is the bias error there.
            // (Recovery and start-up corrections are not drift, so they are left out.)
            // (1 / dt does not wait for the step: a division off the sample-to-sample chain.)
            let inverseDt = 1 / dt
            current.bias.correct(along: axes.up, residual: -step * inverseDt, variance: magCoefficients.biasMagVariance)
            current.bias.clamp(settings.maxGyroBias)
        }
    }

    private mutating func trackCandidate(norm: Double, dip: Double, rate: Double, dt: Double) {
        let fitsCandidate = current.magCandidateTime > 0
            && fieldMatches(norm: norm, dip: dip, referenceNorm: current.magCandidateNorm, referenceDip: current.magCandidateDip)
        if fitsCandidate {
            current.magCandidateNorm += (norm - current.magCandidateNorm) * magCoefficients.magReference
            current.magCandidateDip += (dip - current.magCandidateDip) * magCoefficients.magReference
            if rate >= settings.magNewFieldMinRate { current.magCandidateTime += dt }
        } else {
            current.magCandidateNorm = norm
            current.magCandidateDip = dip
            // Tiny non-zero time marks "candidate present" even before the head turns.
            current.magCandidateTime = Double.leastNonzeroMagnitude
        }
    }

    /// Wraps into (-π, π]. Inputs here are sums or differences of two wrapped angles, so one step suffices
    /// (cheaper than fmod on every magnetometer sample).
    private func wrapRadians(_ a: Double) -> Double {
        if a > .pi { return a - 2 * .pi }
        if a <= -.pi { return a + 2 * .pi }
        return a
    }
}
