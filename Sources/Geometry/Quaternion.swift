import LibC

/// Unit quaternion (w, x, y, z). In headtrack an attitude quaternion rotates body-frame vectors into the
/// East-North-Up earth frame: v_earth = q ⊗ v_body ⊗ q⁻¹ (the same convention as the trace truth columns).
public struct Quaternion: Sendable, Equatable, CustomStringConvertible {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    @inlinable public init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// Rotation by `angle` radians about `axis` (need not be unit length; zero axis gives identity).
    @inlinable public init(axis: Vector3, angle: Double) {
        let u = axis.normalized
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: u.x * s, y: u.y * s, z: u.z * s)
    }

    /// Rotation vector (axis × angle) to quaternion; exact for any magnitude.
    @inlinable public init(rotationVector r: Vector3) {
        let angle = r.length
        if angle < 1e-12 {
            self.init(w: 1, x: r.x / 2, y: r.y / 2, z: r.z / 2)
            self = self.normalized
        } else {
            self.init(axis: r, angle: angle)
        }
    }

    @inlinable @inline(__always) public var vector: Vector3 { Vector3(x, y, z) }

    @inlinable @inline(__always) public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    @inlinable @inline(__always) public var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }

    @inlinable @inline(__always) public var normalized: Quaternion {
        let n = norm
        guard n > 0, n.isFinite else { return .identity }
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    /// All four components finite: as `Vector3.isFinite`, a sum of products with 0 is 0 exactly then.
    @inlinable @inline(__always) public var isFinite: Bool { w * 0 + x * 0 + y * 0 + z * 0 == 0 }

    /// Hamilton product.
    @inlinable @inline(__always) public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// Rotates a vector: q ⊗ v ⊗ q⁻¹ (assumes unit norm).
    @inlinable @inline(__always) public func rotate(_ v: Vector3) -> Vector3 {
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// Rotates a vector by the inverse rotation: q⁻¹ ⊗ v ⊗ q (earth to body for an attitude).
    @inlinable @inline(__always) public func inverseRotate(_ v: Vector3) -> Vector3 { conjugate.rotate(v) }

    /// Angle of the rotation in radians, in [0, π].
    @inlinable public var angle: Double { 2 * acos(Swift.min(1, abs(w))) }

    /// Builds the quaternion of a rotation matrix given by its rows (row i = earth axis i in body coordinates).
    public init(rotationRows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        let trace = r0.x + r1.y + r2.z
        var q: Quaternion
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = Quaternion(w: s / 4, x: (r2.y - r1.z) / s, y: (r0.z - r2.x) / s, z: (r1.x - r0.y) / s)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = (1 + r0.x - r1.y - r2.z).squareRoot() * 2
            q = Quaternion(w: (r2.y - r1.z) / s, x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s)
        } else if r1.y > r2.z {
            let s = (1 + r1.y - r0.x - r2.z).squareRoot() * 2
            q = Quaternion(w: (r0.z - r2.x) / s, x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s)
        } else {
            let s = (1 + r2.z - r0.x - r1.y).squareRoot() * 2
            q = Quaternion(w: (r1.x - r0.y) / s, x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4)
        }
        if q.w < 0 { q = Quaternion(w: -q.w, x: -q.x, y: -q.y, z: -q.z) }
        self = q.normalized
    }

    public var description: String { "(\(w), \(x), \(y), \(z))" }
}

/// Roll, pitch and yaw in radians (aerospace-style Z-Y'-X'' sequence in the ENU frame: yaw about up,
/// positive counter-clockwise seen from above; pitch about the left axis, positive nose-down for x forward,
/// y left, z up; roll about forward).
public struct EulerAngles: Sendable, Equatable {
    public var roll: Double
    public var pitch: Double
    public var yaw: Double

    public init(roll: Double, pitch: Double, yaw: Double) {
        self.roll = roll; self.pitch = pitch; self.yaw = yaw
    }

    public init(_ q: Quaternion) {
        let sinPitch = 2 * (q.w * q.y - q.z * q.x)
        roll = atan2(2 * (q.w * q.x + q.y * q.z), 1 - 2 * (q.x * q.x + q.y * q.y))
        pitch = abs(sinPitch) >= 1 ? (sinPitch < 0 ? -Double.pi / 2 : Double.pi / 2) : asin(sinPitch)
        yaw = atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z))
    }

    /// q = yaw(about z) ⊗ pitch(about y) ⊗ roll(about x).
    public var quaternion: Quaternion {
        Quaternion(axis: Vector3(0, 0, 1), angle: yaw)
            * Quaternion(axis: Vector3(0, 1, 0), angle: pitch)
            * Quaternion(axis: Vector3(1, 0, 0), angle: roll)
    }
}
