import LibC
import Geometry

extension AttitudeFilter {
    /// Everything the filter changes from sample to sample, in one value: read it to save or inspect the
    /// filter, assign it to restore one (`AttitudeFilter.state`), and `reset()` replaces it with a fresh one.
    /// The split follows VQF's Params / State / Coefficients: `Settings` are fixed, `State` evolves, and
    /// `Coefficients` are derived from the settings and the sample interval.
    public struct State: Sendable, Equatable {
        // MARK: Outputs

        public var isInitialized = false
        /// Head → ENU: `Rz(headingOffset) ⊗ inclination ⊗ gyroAttitude`.
        public var attitude: Quaternion = .identity
        public var isAtRest = false
        /// The latest magnetometer sample disagreed with the learned field and was not used.
        public var isMagneticallyDisturbed = false
        /// The heading is tied to a magnetometer reference (false in 6D and before the first field sample).
        public var hasHeadingReference = false

        // MARK: Attitude in three parts

        /// Gyro-only orientation: body to the inertial frame.
        public var gyroAttitude: Quaternion = .identity
        /// Tilt correction: inertial frame to a level frame (rotation about horizontal axes).
        public var inclination: Quaternion = .identity
        /// Heading correction (rad in (−π, π], counter-clockwise about up): level frame to ENU.
        public var headingOffset = 0.0

        // MARK: Gravity estimate

        /// Low-pass filter of the acceleration in the inertial frame (its output is the gravity estimate).
        var accelFilter = LowPass2()
        /// Until one time constant has passed, the gravity estimate is the plain mean of the samples so far.
        public var accelMean: Vector3 = .zero
        public var accelSamples = 0
        public var accelTime = 0.0

        // MARK: Rest and gyro bias

        public var restGyroMean: Vector3 = .zero
        public var restAccelMean: Vector3 = .zero
        public var restDuration = 0.0
        /// Mean squared deviation of the accelerometer norm from 1 g over the last second (m²/s⁴): how hard the
        /// head is being accelerated, which makes tilt corrections poor evidence of gyro bias.
        public var accelActivity = 0.0
        public var bias: GyroBiasEstimator

        // MARK: Magnetic field

        public var magNormReference = 0.0
        public var magDipReference = 0.0
        public var magCandidateNorm = 0.0
        public var magCandidateDip = 0.0
        public var magCandidateTime = 0.0
        public var magRejectedTime = 0.0
        public var magRecoveryTime = 0.0
        public var magSamples = 0
        public var magTime = 0.0
        /// Time since the last magnetometer sample (its corrections use its own interval).
        public var magElapsed = 0.0

        /// The state of a filter that has seen no sample yet.
        public init(settings: Settings) {
            bias = GyroBiasEstimator(initialSigma: settings.biasInitialSigma)
        }
    }

    /// Filter coefficients for one sample interval, derived from the settings: low-pass gains 1 − exp(−dt/τ),
    /// variances per sample, and squared or inverted thresholds, so the per-sample path compares squares and
    /// multiplies instead of taking square roots and dividing. Recomputed only when dt changes, so a steady
    /// sample rate costs no exp() per sample while jitter is still handled exactly.
    struct Coefficients: Sendable {
        var dt = -1.0
        var accelFilter = LowPass2.Coefficients()
        var rest = 0.0, biasRestVariance = 0.0, biasDriftVariance = 0.0, biasMotionVariance = 0.0
        var biasMagVariance = 0.0, activity = 0.0
        var mag = 0.0, magRecovery = 0.0, magReference = 0.0
        /// 1 / scale² of the acceleration activity that halves the in-motion bias evidence.
        var inverseActivityScale2 = 0.0
        /// 1 / the dip tolerance.
        var inverseDipTolerance = 0.0
        /// Squares of the rest thresholds and of the bias limit, for comparisons with squared lengths.
        var restGyroThreshold2 = 0.0, restAccelThreshold2 = 0.0, maxGyroBias2 = 0.0
        /// A third of the gravity time constant (s): from then on tilt corrections count as bias evidence
        /// (`learnBiasFromCorrection`). Held here so that the sample path does not divide for it.
        var biasLearningStart = 0.0

        init() {}
        init(settings s: Settings, dt: Double) {
            func k(_ tau: Double) -> Double { tau > 0 ? 1 - exp(-dt / tau) : 1 }
            // |v| < limit as |v|² < limit²; a limit ≤ 0 admits nothing, whatever its square.
            func squaredLimit(_ limit: Double) -> Double { limit > 0 ? limit * limit : -1 }
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
            inverseActivityScale2 = 1 / Swift.max(s.accelActivityScale * s.accelActivityScale, 1e-12)
            inverseDipTolerance = 1 / s.magDipTolerance
            restGyroThreshold2 = squaredLimit(s.restGyroThreshold)
            restAccelThreshold2 = squaredLimit(s.restAccelThreshold)
            maxGyroBias2 = squaredLimit(s.maxGyroBias)
            biasLearningStart = s.accelTimeConstant / 3
        }
    }
}
