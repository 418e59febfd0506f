import LibC

/// The axis forms of a mount (each head axis one signed sensor axis, the 24 proper rotations that `--mount`
/// writes as "F,L,U"), how far apart two mounts are, and a mount made from measured up and left directions.
extension Mount {
    /// Every right-handed axis form, "x,y,z" first.
    public static let axisForms: [Mount] = {
        let axes = [Vector3(1, 0, 0), Vector3(-1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0), Vector3(0, 0, 1), Vector3(0, 0, -1)]
        var forms: [Mount] = []
        for f in axes {
            for l in axes where abs(f.dot(l)) < 0.5 {
                forms.append(Mount(forward: f, left: l, up: f.cross(l)))
            }
        }
        return forms
    }()

    /// Whether every row is a signed sensor axis.
    public var isAxisForm: Bool {
        func isAxis(_ v: Vector3) -> Bool { abs(abs(v.x) + abs(v.y) + abs(v.z) - 1) < 1e-12 && abs(v.length - 1) < 1e-12 }
        return isAxis(forward) && isAxis(left) && isAxis(up)
    }

    /// The angle (rad, 0...π) of the rotation that takes this mount's head axes onto `other`'s: 0 for the same
    /// mount, π/2 for an axis form and its neighbour.
    public func angle(to other: Mount) -> Double {
        // R = Aᵀ·B (sensor frame): trace R = 1 + 2 cos θ and its antisymmetric part is sin θ times the axis.
        // atan2 of the two stays accurate near 0°, where acos of the trace alone loses half the digits.
        let a = Matrix3(rows: forward, left, up), b = Matrix3(rows: other.forward, other.left, other.up)
        let r = a.transposed * b
        let trace = r[0, 0] + r[1, 1] + r[2, 2]
        let skew = Vector3(r[2, 1] - r[1, 2], r[0, 2] - r[2, 0], r[1, 0] - r[0, 1])
        return atan2(skew.length / 2, (trace - 1) / 2)
    }

    /// The axis form nearest this mount, with the angle between them (at most 62.8°, since the 24 lie 90° apart).
    public var nearestAxisForm: (mount: Mount, angle: Double) {
        var best = Mount.identity, bestAngle = Double.infinity
        for form in Mount.axisForms {
            let a = angle(to: form)
            if a < bestAngle { best = form; bestAngle = a }
        }
        return (best, bestAngle)
    }

    /// The mount as `--mount` and the config's `mount` take it: "F,L,U" for an axis form, else the nine numbers
    /// row by row (forward, left, up) with four decimals, which read back as a valid mount.
    public var argument: String {
        if isAxisForm { return description }
        return [forward, left, up].flatMap { [$0.x, $0.y, $0.z] }.map(Mount.fourDecimals).joined(separator: ",")
    }

    /// "-0.0012" style, without Foundation; "-0.0000" is written "0.0000".
    static func fourDecimals(_ v: Double) -> String {
        let scaled = Int64((v * 10_000).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let fraction = String(magnitude % 10_000)
        return sign + String(magnitude / 10_000) + "." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }

    /// The head frame from two measured directions in sensor coordinates: `up` (from gravity) and `left` (a
    /// nod's rotation axis), which are never exactly perpendicular. Neither measure is the better one (gravity
    /// carries the head's roll at rest, the nod axis a nod's yaw cross-talk), so both are turned towards a right
    /// angle by the same amount in their common plane; forward = left × up. nil when they are (nearly) parallel.
    public init?(up measuredUp: Vector3, left measuredLeft: Vector3) {
        let u = measuredUp.normalized, l = measuredLeft.normalized
        guard u.isFinite, l.isFinite, u.length > 0.5, l.length > 0.5 else { return nil }
        let c = u.dot(l)
        guard abs(c) < 0.9 else { return nil }   // within 26° of parallel: no frame worth the name
        // u − k·l and l − k·u are perpendicular when c·k² − 2k + c = 0; the small root turns each by the same angle.
        let k = abs(c) < 1e-12 ? 0 : (1 - (1 - c * c).squareRoot()) / c
        let up = (u - l * k).normalized, left = (l - u * k).normalized
        self.init(forward: left.cross(up), left: left, up: up)
    }
}
