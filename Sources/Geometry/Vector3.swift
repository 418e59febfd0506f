// Three-component vectors are SIMD3<Double>: a value type with no heap storage, so it is free to use per sample.

public typealias Vector3 = SIMD3<Double>

extension SIMD3 where Scalar == Double {
    @inlinable @inline(__always) public func dot(_ other: Self) -> Double { (self * other).sum() }

    @inlinable @inline(__always) public func cross(_ o: Self) -> Self {
        Self(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    @inlinable @inline(__always) public var length: Double { dot(self).squareRoot() }

    /// The unit vector, or zero when the length is zero (never NaN).
    @inlinable @inline(__always) public var normalized: Self {
        let n = length
        return n > 0 ? self / n : .zero
    }

    /// All three components finite (neither infinite nor NaN). x · 0 is ±0 for a finite x and NaN for an
    /// infinite or NaN one, so the sum of the three products is 0 exactly when all three are finite: one vector
    /// multiply and a sum, where three separate `isFinite` tests cost three lane extractions and branches (the
    /// filter and the gesture detector test every input vector of every sample).
    @inlinable @inline(__always) public var isFinite: Bool { (self * 0).sum() == 0 }
}

/// Conversion factors kept in one place so every layer agrees.
public enum Units {
    public static let standardGravity = 9.80665
    public static let degreesPerRadian = 180.0 / Double.pi
    public static let radiansPerDegree = Double.pi / 180.0
}

/// x mod 360 (fmod), for the rare angle beyond one turn. Most inputs of the two functions below are within
/// one turn (an atan2 plus a declination, a difference of two wrapped angles), where fmod returns its input,
/// so they skip it (it costs about 100 instructions). Out of line on purpose: inlined, the optimiser computes
/// it speculatively on the fast path too (as a select), which costs more than it saves.
@usableFromInline @inline(never) func remainderOfTurns(_ degrees: Double) -> Double {
    degrees.truncatingRemainder(dividingBy: 360)
}

/// Wraps an angle in degrees into [0, 360).
@inlinable public func wrapDegrees360(_ degrees: Double) -> Double {
    var d = abs(degrees) < 360 ? degrees : remainderOfTurns(degrees)
    if d < 0 { d += 360 }
    return d >= 360 ? 0 : d
}

/// Signed shortest difference `to - from` on the circle, in (-180, 180].
@inlinable public func shortestDegrees(from: Double, to: Double) -> Double {
    let difference = to - from
    var d = abs(difference) < 360 ? difference : remainderOfTurns(difference)
    if d > 180 { d -= 360 }
    if d <= -180 { d += 360 }
    return d
}
