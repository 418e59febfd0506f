import LibC
import Geometry

/// The three BROAD error angles (radians) of one estimate against its truth, as defined in shared
/// data/README.md: error quaternion in the earth frame e = q_est ⊗ q_true⁻¹, split into a rotation about
/// the vertical (heading) and the rest (inclination).
public struct AttitudeError: Sendable, Equatable {
    public var total: Double
    public var heading: Double
    public var inclination: Double

    public init(estimate: Quaternion, truth: Quaternion) {
        self.init(error: AttitudeError.errorQuaternion(estimate: estimate, truth: truth))
    }

    /// Angles of an earth-frame error quaternion e.
    public init(error e: Quaternion) {
        let ew = abs(e.w)
        total = 2 * acos(Swift.min(1, ew))
        // e = Rz(heading) ⊗ (rotation about a horizontal axis): e_z / e_w = tan(heading / 2).
        heading = ew > 0 ? 2 * atan(abs(e.z / e.w)) : .pi
        inclination = 2 * acos(Swift.min(1, (e.w * e.w + e.z * e.z).squareRoot()))
    }

    /// e = q_est ⊗ q_true⁻¹ (both normalised first, so a slightly denormalised input cannot bias the angles).
    public static func errorQuaternion(estimate: Quaternion, truth: Quaternion) -> Quaternion {
        estimate.normalized * truth.normalized.conjugate
    }

    /// Signed heading part of an error quaternion (radians, counter-clockwise seen from above): the angle a
    /// with e = Rz(a) ⊗ (rotation about a horizontal axis).
    public static func signedHeading(of e: Quaternion) -> Double {
        // q and -q are the same rotation; fold to w ≥ 0 so the angle lands in (-π, π].
        let s: Double = e.w < 0 ? -1 : 1
        return 2 * atan2(s * e.z, s * e.w)
    }
}

/// Per-trial RMSEs in degrees.
public struct AttitudeRMSE: Sendable, Equatable, Codable {
    public var totalDegrees: Double
    public var headingDegrees: Double
    public var inclinationDegrees: Double
    /// Samples that counted (moving and with truth).
    public var samples: Int
}

/// Scores a sequence of (estimate, truth) pairs the BROAD way.
public enum AttitudeScoring {
    /// RMSE over the given pairs. With `removeHeadingOffset` (6D: no magnetometer, so the heading is only
    /// known up to a constant), one constant rotation about the vertical — the circular mean of the signed
    /// heading errors — is taken off every error quaternion first.
    public static func rmse(estimates: [Quaternion], truths: [Quaternion], removeHeadingOffset: Bool) -> AttitudeRMSE {
        precondition(estimates.count == truths.count, "one truth per estimate")
        let errors = zip(estimates, truths).map { AttitudeError.errorQuaternion(estimate: $0, truth: $1) }
        let offset = removeHeadingOffset ? circularMeanHeading(errors) : 0
        let undo = Quaternion(axis: Vector3(0, 0, 1), angle: -offset)
        var sumTotal = 0.0, sumHeading = 0.0, sumInclination = 0.0
        for e in errors {
            let a = AttitudeError(error: removeHeadingOffset ? undo * e : e)
            sumTotal += a.total * a.total
            sumHeading += a.heading * a.heading
            sumInclination += a.inclination * a.inclination
        }
        let n = Double(Swift.max(errors.count, 1))
        return AttitudeRMSE(totalDegrees: (sumTotal / n).squareRoot() * Units.degreesPerRadian,
                            headingDegrees: (sumHeading / n).squareRoot() * Units.degreesPerRadian,
                            inclinationDegrees: (sumInclination / n).squareRoot() * Units.degreesPerRadian,
                            samples: errors.count)
    }

    /// Circular mean (radians) of the signed heading errors.
    public static func circularMeanHeading(_ errors: [Quaternion]) -> Double {
        var s = 0.0, c = 0.0
        for e in errors {
            let a = AttitudeError.signedHeading(of: e)
            s += sin(a); c += cos(a)
        }
        return (s == 0 && c == 0) ? 0 : atan2(s, c)
    }
}
