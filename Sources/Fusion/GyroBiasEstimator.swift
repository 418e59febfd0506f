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

    /// Standard deviation of the estimate along a unit body direction.
    public func sigma(along e: Vector3) -> Double { e.dot(covarianceTimes(e)).squareRoot() }

    /// Time passes: every direction becomes less certain by `variance` (rad/s)².
    public mutating func grow(variance: Double) {
        pxx += variance; pyy += variance; pzz += variance
    }

    /// One scalar measurement: `value` is the bias component along the unit body direction `e`, with
    /// measurement variance `variance`.
    public mutating func measure(along e: Vector3, value: Double, variance: Double) {
        let pe = covarianceTimes(e)
        let s = e.dot(pe) + variance
        guard s > 0 else { return }
        let gain = pe / s
        bias += gain * (value - e.dot(bias))
        // P ← P − (P e)(P e)ᵀ / s, which keeps P symmetric.
        pxx -= pe.x * pe.x / s; pyy -= pe.y * pe.y / s; pzz -= pe.z * pe.z / s
        pxy -= pe.x * pe.y / s; pxz -= pe.x * pe.z / s; pyz -= pe.y * pe.z / s
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
    public mutating func clamp(_ limit: Double) {
        bias = Vector3(Swift.min(Swift.max(bias.x, -limit), limit),
                       Swift.min(Swift.max(bias.y, -limit), limit),
                       Swift.min(Swift.max(bias.z, -limit), limit))
    }

    private func covarianceTimes(_ e: Vector3) -> Vector3 {
        Vector3(pxx * e.x + pxy * e.y + pxz * e.z,
                pxy * e.x + pyy * e.y + pyz * e.z,
                pxz * e.x + pyz * e.y + pzz * e.z)
    }
}
