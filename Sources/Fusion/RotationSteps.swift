import LibC
import Geometry

// Small rotation helpers for the attitude filter's per-sample path. Each one replaces a general formula
// (sin/cos/atan2 from libm, a square root and a division for a norm) by one that is exact to rounding for the
// small angles and nearly-unit quaternions a filter step produces, and falls back to the general formula
// otherwise. They are force-inlined: an out-of-line call per use was a third of the filter's cost.

/// Largest angle (rad) for which the series below are used: up to 1/16 their first omitted terms stay below
/// 1e-18 of the result with four or five terms.
let smallAngleLimit = 1.0 / 16

/// sin x and cos x. For |x| ≤ 1/16 from their Taylor series up to x⁹ and x⁸ (the next terms are below 1e-19,
/// so exact to rounding, and no libm call); otherwise from libm.
@inline(__always) func sinCosOfSmallAngle(_ x: Double) -> (sin: Double, cos: Double) {
    let x2 = x * x
    // The heading and dip references turn by 1e-4 rad or less per sample: there the x⁴ terms already
    // leave an error below 1e-19 (x⁶/720 at 1/1024), so the series stops early.
    if x2 <= 1.0 / (1024 * 1024) {
        return (x * (1 - x2 * (1.0 / 6 - x2 * (1.0 / 120))), 1 - x2 * (1.0 / 2 - x2 * (1.0 / 24)))
    }
    guard abs(x) <= smallAngleLimit else { return (sin(x), cos(x)) }
    return (x * sinOverXSeries(x2), cosSeries(x2))
}

// The series as polynomials in the squared angle, with the coefficients written as constants so that the
// compiler multiplies by them (a division by 6 or 20 would cost more than the whole series). They are summed in
// pairs of terms (Estrin's scheme) rather than one term after the other (Horner's): three dependent
// multiply-add steps instead of four. The gyro step waits for them at every sample, and what the gyro step
// gives, the gravity estimate, the tilt correction and the bias estimate wait for in turn.

/// cos x from x², to the x⁸ term: (1 − x²/2) + x⁴ (1/24 − x²/720) + x⁸/40320.
@inline(__always) func cosSeries(_ x2: Double) -> Double {
    let x4 = x2 * x2
    let p0 = 1 - x2 * (1.0 / 2), p1 = 1.0 / 24 - x2 * (1.0 / 720)
    return p0 + x4 * (p1 + x4 * (1.0 / 40_320))
}

/// sin x / x from x², to the x⁸ term: (1 − x²/6) + x⁴ (1/120 − x²/5040) + x⁸/362880.
@inline(__always) func sinOverXSeries(_ x2: Double) -> Double {
    let x4 = x2 * x2
    let p0 = 1 - x2 * (1.0 / 6), p1 = 1.0 / 120 - x2 * (1.0 / 5_040)
    return p0 + x4 * (p1 + x4 * (1.0 / 362_880))
}

/// atan2(y, x) for a direction close to +x: for |y| ≤ x/8 from the series of atan(y/x) up to the 17th power
/// (the next term is below 1e-18 of the result), otherwise `fastAtan2` (range-reduced, no libm). The filter
/// asks for the angle between the heading and the field it measures, which is within a few degrees once it
/// has converged (on a fast recording a quarter of the samples are beyond 7°).
@inline(__always) func atan2NearXAxis(_ y: Double, _ x: Double) -> Double {
    guard x > 0, abs(y) <= 0.125 * x else { return fastAtan2(y, x) }
    let t = y / x
    let t2 = t * t, t4 = t2 * t2, t8 = t4 * t4
    // atan t = t (1 − t²/3 + t⁴/5 − … + t¹⁶/17), summed in pairs of terms (Estrin's scheme) rather than one
    // term after the other: four dependent steps instead of eight, which the heading correction waits for.
    let p0 = 1 - t2 * (1.0 / 3), p1 = 1.0 / 5 - t2 * (1.0 / 7)
    let p2 = 1.0 / 9 - t2 * (1.0 / 11), p3 = 1.0 / 13 - t2 * (1.0 / 15)
    let q0 = p0 + t4 * p1, q1 = p2 + t4 * p3
    return t * (q0 + t8 * (q1 + t8 * (1.0 / 17)))
}

extension Quaternion {
    /// The rotation by the rotation vector `r` (axis × angle, rad), as `init(rotationVector:)` but cheaper for
    /// a gyro step: below 1/8 rad (12 rad/s at 100 Hz) cos(θ/2) and sin(θ/2)/θ come from their series in θ²,
    /// which needs no square root, no division and no libm; larger steps use sin and cos.
    @inline(__always) static func gyroStep(_ r: Vector3) -> Quaternion { gyroStep(halfRotationVector: r * 0.5) }

    /// The same from half the rotation vector, h = r/2 (what the series take): the filter forms it as
    /// rate · (dt/2), whose halving is off the sample-to-sample chain, where r · r / 4 would wait for one more
    /// multiplication. Halving is exact in binary, so both give the same bits.
    @inline(__always) static func gyroStep(halfRotationVector h: Vector3) -> Quaternion {
        let h2 = h.dot(h)  // (θ/2)²
        guard h2 <= smallAngleLimit * smallAngleLimit else { return Quaternion(rotationVector: h * 2) }
        // cos(θ/2) and sin(θ/2)/(θ/2), each to the (θ/2)⁸ term: the next is below 3e-19.
        let v = h * sinOverXSeries(h2)
        return Quaternion(w: cosSeries(h2), x: v.x, y: v.y, z: v.z)
    }

    /// Back to unit length for a quaternion that is already within about 1e-8 of it (a product of unit
    /// quaternions): one Newton step for 1/√n², q · (3 − |q|²)/2, whose error is the square of the deviation,
    /// instead of a square root and a division. Repeated every sample it also pulls a larger deviation in.
    @inline(__always) var renormalized: Quaternion { scaled(by: renormalizingFactor) }

    /// (3 − |q|²)/2: the factor that brings q back to unit length to first order. For a product p = q ⊗ r with
    /// a unit r, |p| = |q|, so q's factor renormalises p too, and it can be computed while the product is:
    /// the sample-to-sample chain then waits for one multiplication instead of a norm.
    @inline(__always) var renormalizingFactor: Double { 1.5 - 0.5 * (w * w + x * x + y * y + z * z) }

    @inline(__always) func scaled(by k: Double) -> Quaternion { Quaternion(w: w * k, x: x * k, y: y * k, z: z * k) }

    /// t ⊗ q for a turn t about a horizontal axis (t.z = 0, as `AttitudeFilter.turnToVertical` gives): the
    /// Hamilton product without t.z's four terms. The general product must keep them even for a literal 0
    /// (0 · x is NaN for an infinite x, so the compiler cannot drop it); they only add zeros, so the value is
    /// the same.
    @inline(__always) static func product(ofHorizontalTurn t: Quaternion, _ q: Quaternion) -> Quaternion {
        Quaternion(w: t.w * q.w - t.x * q.x - t.y * q.y,
                   x: t.w * q.x + t.x * q.w + t.y * q.z,
                   y: t.w * q.y - t.x * q.z + t.y * q.w,
                   z: t.w * q.z + t.x * q.y - t.y * q.x)
    }
}

/// The rotation matrix of an attitude, held as its rows: row i is earth (here: level-frame) axis i in body
/// coordinates. The filter needs the body directions of east, north and up (the rows) and one field vector
/// taken to the level frame; from the matrix that is 9 multiply-adds each, where `inverseRotate` of a unit
/// axis and `rotate` cost a full quaternion sandwich each.
struct RotationRows {
    var east: Vector3
    var north: Vector3
    var up: Vector3

    @inline(__always) init(_ q: Quaternion) {
        let xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z
        let xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z
        let wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z
        east = Vector3(1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy))
        north = Vector3(2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx))
        up = Vector3(2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy))
    }

    /// A body-frame vector in the level frame (what `q.rotate(v)` gives).
    @inline(__always) func rotate(_ v: Vector3) -> Vector3 { Vector3(east.dot(v), north.dot(v), up.dot(v)) }
}

/// An angle held as its cosine and sine, turned by small steps without sin/cos per step (the series above),
/// so that the angle between it and a measured direction is one `atan2NearXAxis` of a cross and a dot
/// product instead of an atan2 of the direction and a subtraction.
struct UnitAngle: Equatable {
    private(set) var cos = 1.0
    private(set) var sin = 0.0

    init() {}
    init(_ angle: Double) { (sin, cos) = sinCosOfSmallAngle(angle) }  // (libm beyond small angles)
    /// From a cosine and sine that are already a unit pair.
    @inline(__always) init(cos: Double, sin: Double) {
        self.cos = cos
        self.sin = sin
    }

    /// Turns by a small `step` (rad) and renormalises (one Newton step, as `Quaternion.renormalized`, with
    /// the factor of the pair before the turn: a rotation keeps the length).
    @inline(__always) mutating func turn(by step: Double) {
        let k = 1.5 - 0.5 * (cos * cos + sin * sin)
        let (s, c) = sinCosOfSmallAngle(step)
        let newCos = (cos * c - sin * s) * k, newSin = (sin * c + cos * s) * k
        cos = newCos
        sin = newSin
    }

    /// Past ±π a wrapped angle jumps by 2π; for a half angle that flips the pair's sign.
    @inline(__always) mutating func negate() { cos = -cos; sin = -sin }

    /// The angle from this one to the direction (x, y) (any length), in (−π, π].
    @inline(__always) func angle(to x: Double, _ y: Double) -> Double {
        atan2NearXAxis(y * cos - x * sin, x * cos + y * sin)
    }
}

/// A rotation about the vertical by `angle`, held as cos and sin of its half angle (the quaternion
/// (cos ½a, 0, 0, sin ½a)) and turned by small steps, so the heading correction needs no sin/cos per sample.
/// The sign follows an angle wrapped into (−π, π]: cos ½a ≥ 0, as `Quaternion(axis: up, angle:)` gives.
struct HeadingRotation: Equatable {
    private var half = UnitAngle()

    init() {}
    init(angle: Double) { half = UnitAngle(angle / 2) }

    /// The heading as a unit angle pair: (cos a, sin a) from the half angle's.
    @inline(__always) var angle: UnitAngle {
        UnitAngle(cos: half.cos * half.cos - half.sin * half.sin, sin: 2 * half.sin * half.cos)
    }

    /// Turns by `step` rad (small: one heading correction).
    @inline(__always) mutating func turn(by step: Double) {
        half.turn(by: 0.5 * step)
        if half.cos < 0 { half.negate() }
    }

    /// self ⊗ q: the rotation about up applied after q (the quaternion product with x = y = 0 written out).
    @inline(__always) func applied(to q: Quaternion) -> Quaternion {
        let c = half.cos, s = half.sin
        return Quaternion(w: c * q.w - s * q.z, x: c * q.x - s * q.y, y: c * q.y + s * q.x, z: c * q.z + s * q.w)
    }
}

/// A fixed angle near the learned dip reference with its cosine and sine, from which the measured dip is taken
/// (anchor + the small angle from the anchor to the field, `UnitAngle.angle(to:)`). The reference creeps by
/// 1e-5 rad per sample; a pair turned along with it at every sample cost a sin/cos series, a rotation and a
/// renormalisation. The anchor instead stays put and is only set again (libm sin/cos) once the reference has
/// moved 1/64 rad (0.9°) from it, which keeps the angle to the field inside the series' range; the dip is the
/// same angle either way, to rounding.
struct DipAnchor {
    private(set) var angle: Double
    private(set) var pair: UnitAngle

    init(_ angle: Double) {
        self.angle = angle
        pair = UnitAngle(cos: cos(angle), sin: sin(angle))
    }

    /// Moves the anchor to `reference` once it has drifted away by more than 1/64 rad.
    @inline(__always) mutating func follow(_ reference: Double) {
        if abs(reference - angle) > 1.0 / 64 { self = DipAnchor(reference) }
    }
}
