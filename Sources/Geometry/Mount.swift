
/// How the sensor sits on the head: maps sensor-frame vectors into the head frame (x forward, y left, z up).
/// Written as the signed sensor axes that point forward, left and up, e.g. "-x,z,y" for a sensor worn with
/// X pointing back, Y up and Z left. Applied once, after scaling, to every sensor of the board.
public struct Mount: Sendable, Equatable, CustomStringConvertible {
    /// Row i is head axis i expressed in sensor coordinates.
    public var forward: Vector3
    public var left: Vector3
    public var up: Vector3

    public static let identity = Mount(forward: Vector3(1, 0, 0), left: Vector3(0, 1, 0), up: Vector3(0, 0, 1))

    public init(forward: Vector3, left: Vector3, up: Vector3) {
        self.forward = forward; self.left = left; self.up = up
    }

    /// Parses "F,L,U" with each of F, L, U one of x, y, z, -x, -y, -z (also "+x"), or nine numbers
    /// (a row-major 3×3 matrix, rows = forward, left, up in sensor coordinates).
    public init(parsing text: String) throws(MountError) {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
        if parts.count == 9 {
            var numbers: [Double] = []
            for p in parts {
                // NaN and infinity pass every later tolerance test (comparisons with NaN are false), and a NaN
                // mount made every attitude row and gesture silently disappear.
                guard let v = Double(p), v.isFinite else { throw .invalid(text, "'\(p)' is not a finite number") }
                numbers.append(v)
            }
            self.init(forward: Vector3(numbers[0], numbers[1], numbers[2]),
                      left: Vector3(numbers[3], numbers[4], numbers[5]),
                      up: Vector3(numbers[6], numbers[7], numbers[8]))
        } else {
            guard parts.count == 3 else {
                throw .invalid(text, "expected three signed axes such as -x,z,y (forward,left,up) or nine matrix numbers")
            }
            var axes: [Vector3] = []
            for p in parts {
                guard let a = Mount.axis(p) else { throw .invalid(text, "'\(p)' is not one of x, y, z, -x, -y, -z") }
                axes.append(a)
            }
            self.init(forward: axes[0], left: axes[1], up: axes[2])
        }
        try validate(text)
    }

    private static func axis(_ s: String) -> Vector3? {
        var sign = 1.0
        var name = Substring(s.lowercased())
        if name.hasPrefix("-") { sign = -1; name = name.dropFirst() } else if name.hasPrefix("+") { name = name.dropFirst() }
        switch name {
        case "x": return Vector3(sign, 0, 0)
        case "y": return Vector3(0, sign, 0)
        case "z": return Vector3(0, 0, sign)
        default: return nil
        }
    }

    private func validate(_ text: String) throws(MountError) {
        let rows = [forward, left, up]
        // Written as "not within" so a NaN that reached here still fails.
        for r in rows where !(abs(r.length - 1) <= 1e-3) {
            throw .invalid(text, "each row must be a unit vector")
        }
        if abs(forward.dot(left)) > 1e-3 || abs(forward.dot(up)) > 1e-3 || abs(left.dot(up)) > 1e-3 {
            throw .invalid(text, "forward, left and up must be perpendicular (an axis is used twice?)")
        }
        // forward × left must be up, or the frame is a mirror image.
        if forward.cross(left).dot(up) < 0 {
            throw .invalid(text, "that is a left-handed (mirrored) frame; flip the sign of one axis")
        }
    }

    /// Sensor-frame vector into the head frame. Forced inline: it runs three times per IMU sample, and out of
    /// line (the optimiser's choice in the pipeline's large `processIMU`) the call cost more than its nine products.
    @inlinable @inline(__always) public func apply(_ v: Vector3) -> Vector3 {
        Vector3(forward.dot(v), left.dot(v), up.dot(v))
    }

    /// Head-frame vector back into the sensor frame.
    @inlinable public func unapply(_ v: Vector3) -> Vector3 {
        forward * v.x + left * v.y + up * v.z
    }

    /// The mount as a quaternion rotating sensor-frame vectors into the head frame (what `apply` does), so a
    /// head attitude times it is the sensor's attitude.
    public var sensorToHeadRotation: Quaternion {
        // The rows of the sensor→head matrix are the head's axes in sensor coordinates.
        Quaternion(rotationRows: forward, left, up)
    }

    public var description: String {
        func name(_ v: Vector3) -> String {
            if v == Vector3(1, 0, 0) { return "x" }
            if v == Vector3(-1, 0, 0) { return "-x" }
            if v == Vector3(0, 1, 0) { return "y" }
            if v == Vector3(0, -1, 0) { return "-y" }
            if v == Vector3(0, 0, 1) { return "z" }
            if v == Vector3(0, 0, -1) { return "-z" }
            return "(\(v.x) \(v.y) \(v.z))"
        }
        return "\(name(forward)),\(name(left)),\(name(up))"
    }
}

public enum MountError: Error, Equatable, CustomStringConvertible {
    case invalid(String, String)
    public var description: String {
        switch self {
        case let .invalid(text, why): return "invalid mount '\(text)': \(why)"
        }
    }
}

extension StringProtocol {
    func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
