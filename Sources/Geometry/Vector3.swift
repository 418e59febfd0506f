// Three-component vectors are SIMD3<Double>: a value type with no heap storage, so it is free to use per sample.

public typealias Vector3 = SIMD3<Double>

extension SIMD3 where Scalar == Double {
    @inlinable public func dot(_ other: Self) -> Double { (self * other).sum() }

    @inlinable public func cross(_ o: Self) -> Self {
        Self(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }

    @inlinable public var length: Double { dot(self).squareRoot() }

    /// The unit vector, or zero when the length is zero (never NaN).
    @inlinable public var normalized: Self {
        let n = length
        return n > 0 ? self / n : .zero
    }

    @inlinable public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

/// Conversion factors kept in one place so every layer agrees.
public enum Units {
    public static let standardGravity = 9.80665
    public static let degreesPerRadian = 180.0 / Double.pi
    public static let radiansPerDegree = Double.pi / 180.0
}

/// Wraps an angle in degrees into [0, 360).
@inlinable public func wrapDegrees360(_ degrees: Double) -> Double {
    var d = degrees.truncatingRemainder(dividingBy: 360)
    if d < 0 { d += 360 }
    return d >= 360 ? 0 : d
}

/// Signed shortest difference `to - from` on the circle, in (-180, 180].
@inlinable public func shortestDegrees(from: Double, to: Double) -> Double {
    var d = (to - from).truncatingRemainder(dividingBy: 360)
    if d > 180 { d -= 360 }
    if d <= -180 { d += 360 }
    return d
}
