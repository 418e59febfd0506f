import Geometry
/// Gyro bias (body frame, rad/s) with its uncertainty: a three-state Kalman filter whose measurements are
/// projections of the bias onto chosen body directions.
///
/// At rest every direction is measured (the averaged gyro is the bias). In motion only the directions that are
/// currently horizontal are measured, through the tilt correction; as the head turns, every body axis is
/// horizontal now and then, so the whole bias becomes known. The uncertainty grows slowly with time, so the
/// estimate keeps following a drifting bias (thermal warm-up) instead of freezing.
///
/// Plain struct math: the covariance is a symmetric 3×3 matrix stored as six numbers.
public struct GyroBiasEstimator: Sendable, Equatable {
    public private(set) var bias: Vector3 = .zero
    // Symmetric covariance (rad/s)²: [pxx pxy pxz; pxy pyy pyz; pxz pyz pzz].
    private var pxx, pyy, pzz, pxy, pxz, pyz: Double

    public init(initialSigma: Double) {
        let v = initialSigma * initialSigma
        pxx = v; pyy = v; pzz = v; pxy = 0; pxz = 0; pyz = 0
    }

    /// The covariance (rad/s)² as a matrix, for inspection and tests.
    public var covariance: Matrix3 {
        Matrix3(rows: Vector3(pxx, pxy, pxz), Vector3(pxy, pyy, pyz), Vector3(pxz, pyz, pzz))
    }

    /// Standard deviation of the estimate along a unit body direction.
    public func sigma(along e: Vector3) -> Double { e.dot(covarianceTimes(e)).squareRoot() }

    /// Time passes: every direction becomes less certain by `variance` (rad/s)².
    @inline(__always) public mutating func grow(variance: Double) {
        pxx += variance; pyy += variance; pzz += variance
    }

    /// One scalar measurement: `value` is the bias component along the unit body direction `e`, with
    /// measurement variance `variance`.
    @inline(__always) public mutating func measure(along e: Vector3, value: Double, variance: Double) {
        correct(along: e, residual: value - e.dot(bias), variance: variance)
    }

    /// One scalar measurement given as its residual: measured minus estimated bias component along the unit
    /// body direction `e`.
    @inline(__always) public mutating func correct(along e: Vector3, residual: Double, variance: Double) {
        let pe = covarianceTimes(e)
        correct(covarianceTimesDirection: pe, innovationVariance: e.dot(pe) + variance, residual: residual)
    }

    /// At rest the averaged gyro reading `measured` is the bias in every direction: one scalar measurement
    /// along each body axis, x then y then z, the same three updates as `measure(along:)` with the unit axes.
    /// Written out per axis because the general update cannot drop the products with the axis' zeros (the
    /// compiler must keep 0 · p, which is NaN for an infinite p): along e_x, P e is P's first column, e · P e
    /// is pxx and e · bias is bias.x, with nothing multiplied. The values are the same: the left-out products
    /// only added zeros of the same sign (P's entries and the bias are finite, and never −0).
    @inline(__always) public mutating func measureEachAxis(_ measured: Vector3, variance: Double) {
        correct(covarianceTimesDirection: Vector3(pxx, pxy, pxz), innovationVariance: pxx + variance,
                residual: measured.x - bias.x)
        correct(covarianceTimesDirection: Vector3(pxy, pyy, pyz), innovationVariance: pyy + variance,
                residual: measured.y - bias.y)
        correct(covarianceTimesDirection: Vector3(pxz, pyz, pzz), innovationVariance: pzz + variance,
                residual: measured.z - bias.z)
    }

    /// The scalar update along a unit direction e, given pe = P e and s = e · P e + the measurement variance.
    @inline(__always) private mutating func correct(covarianceTimesDirection pe: Vector3, innovationVariance s: Double,
                                                    residual: Double) {
        guard s > 0 else { return }
        let inverse = 1 / s  // one division instead of nine
        bias += pe * (residual * inverse)
        // P ← P − (P e)(P e)ᵀ / s, which keeps P symmetric.
        let g = pe * inverse
        pxx -= pe.x * g.x; pyy -= pe.y * g.y; pzz -= pe.z * g.z
        pxy -= pe.x * g.y; pxz -= pe.x * g.z; pyz -= pe.y * g.z
    }

    /// Two measurements at once, along the unit body directions `e1` and `e2`, with equal variance and
    /// residuals r1, r2 (measured minus estimated bias component). The joint Kalman update: with
    /// a = P e1, b = P e2 and S = [e1·a + v, e1·b; e1·b, e2·b + v], the gain is [a b] S⁻¹, and S⁻¹ of a 2×2
    /// matrix needs one division (by its determinant) where two scalar updates in a row need two, each waiting
    /// for the one before.
    @inline(__always) public mutating func correct(along e1: Vector3, _ e2: Vector3, residuals r1: Double, _ r2: Double,
                                                   variance: Double) {
        let a = covarianceTimes(e1), b = covarianceTimes(e2)
        let s11 = e1.dot(a) + variance, s12 = e1.dot(b), s22 = e2.dot(b) + variance
        let determinant = s11 * s22 - s12 * s12
        guard s11 > 0, determinant > 0 else { return }
        let inverse = 1 / determinant
        // Gain columns k1 = (s22 a − s12 b) / det and k2 = (s11 b − s12 a) / det.
        let k1 = (a * s22 - b * s12) * inverse
        let k2 = (b * s11 - a * s12) * inverse
        bias += k1 * r1 + k2 * r2
        // P ← P − K H P with H P = [aᵀ; bᵀ]: P_ij −= k1_i a_j + k2_i b_j (symmetric, so the upper half suffices).
        pxx -= k1.x * a.x + k2.x * b.x; pyy -= k1.y * a.y + k2.y * b.y; pzz -= k1.z * a.z + k2.z * b.z
        pxy -= k1.x * a.y + k2.x * b.y; pxz -= k1.x * a.z + k2.x * b.z; pyz -= k1.y * a.z + k2.y * b.z
    }

    /// At rest the averaged gyro reading is the bias: move a `fraction` of the way towards it, and know it to
    /// `sigma` in every direction from then on.
    public mutating func settle(towards measured: Vector3, fraction: Double, sigma: Double) {
        bias += (measured - bias) * fraction
        let v = sigma * sigma
        pxx = Swift.min(pxx, v); pyy = Swift.min(pyy, v); pzz = Swift.min(pzz, v)
        pxy = 0; pxz = 0; pyz = 0
    }

    /// Limits each component to ±limit: a larger "bias" is a slow rotation, not an offset.
    @inline(__always) public mutating func clamp(_ limit: Double) {
        // The bias is almost always inside the limit: three well-predicted tests skip the three min/max pairs
        // (each a compare and a select, as Swift.min/max must pass NaN through), with the same result, NaN
        // included (a NaN component fails its test and would stay NaN through min/max too).
        guard abs(bias.x) > limit || abs(bias.y) > limit || abs(bias.z) > limit else { return }
        bias = Vector3(Swift.min(Swift.max(bias.x, -limit), limit),
                       Swift.min(Swift.max(bias.y, -limit), limit),
                       Swift.min(Swift.max(bias.z, -limit), limit))
    }

    @inline(__always) private func covarianceTimes(_ e: Vector3) -> Vector3 {
        Vector3(pxx * e.x + pxy * e.y + pxz * e.z,
                pxy * e.x + pyy * e.y + pyz * e.z,
                pxz * e.x + pyz * e.y + pzz * e.z)
    }
}
