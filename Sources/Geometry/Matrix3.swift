import LibC

/// A 3×3 matrix stored as three rows; enough linear algebra for magnetometer calibration.
public struct Matrix3: Sendable, Equatable, Codable, CustomStringConvertible {
    public var row0: Vector3
    public var row1: Vector3
    public var row2: Vector3

    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        row0 = r0; row1 = r1; row2 = r2
    }

    public static let identity = Matrix3(rows: Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1))

    public static func diagonal(_ d: Vector3) -> Matrix3 {
        Matrix3(rows: Vector3(d.x, 0, 0), Vector3(0, d.y, 0), Vector3(0, 0, d.z))
    }

    public subscript(row: Int, column: Int) -> Double {
        get { (row == 0 ? row0 : row == 1 ? row1 : row2)[column] }
        set {
            switch row {
            case 0: row0[column] = newValue
            case 1: row1[column] = newValue
            default: row2[column] = newValue
            }
        }
    }

    public var transposed: Matrix3 {
        Matrix3(rows: Vector3(row0.x, row1.x, row2.x), Vector3(row0.y, row1.y, row2.y), Vector3(row0.z, row1.z, row2.z))
    }

    public var determinant: Double { row0.dot(row1.cross(row2)) }

    /// The inverse, or nil when the matrix is (numerically) singular.
    public var inverse: Matrix3? {
        let det = determinant
        let scale = Swift.max(row0.length, row1.length, row2.length)
        guard det.isFinite, abs(det) > 1e-12 * scale * scale * scale else { return nil }
        // Columns of the inverse are cross products of rows, divided by the determinant.
        let c0 = row1.cross(row2) / det, c1 = row2.cross(row0) / det, c2 = row0.cross(row1) / det
        return Matrix3(rows: c0, c1, c2).transposed
    }

    public static func * (m: Matrix3, v: Vector3) -> Vector3 {
        Vector3(m.row0.dot(v), m.row1.dot(v), m.row2.dot(v))
    }

    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(rows: Vector3(a.row0.dot(t.row0), a.row0.dot(t.row1), a.row0.dot(t.row2)),
                       Vector3(a.row1.dot(t.row0), a.row1.dot(t.row1), a.row1.dot(t.row2)),
                       Vector3(a.row2.dot(t.row0), a.row2.dot(t.row1), a.row2.dot(t.row2)))
    }

    public static func * (m: Matrix3, s: Double) -> Matrix3 { Matrix3(rows: m.row0 * s, m.row1 * s, m.row2 * s) }

    public static func - (a: Matrix3, b: Matrix3) -> Matrix3 {
        Matrix3(rows: a.row0 - b.row0, a.row1 - b.row1, a.row2 - b.row2)
    }

    /// Largest absolute element: a simple norm for comparisons.
    public var maxAbs: Double {
        var m = 0.0
        for r in [row0, row1, row2] { m = Swift.max(m, Swift.abs(r.x), Swift.abs(r.y), Swift.abs(r.z)) }
        return m
    }

    public var isFinite: Bool { row0.isFinite && row1.isFinite && row2.isFinite }

    /// Eigenvalues and unit eigenvectors (as the columns of `vectors`) of a symmetric matrix, by cyclic Jacobi
    /// rotations. Eigenvalues in ascending order.
    public func symmetricEigen() -> (values: Vector3, vectors: Matrix3) {
        var a = self
        var v = Matrix3.identity
        for _ in 0..<50 {
            let off = a[0, 1] * a[0, 1] + a[0, 2] * a[0, 2] + a[1, 2] * a[1, 2]
            if off < 1e-30 * Swift.max(1, a.maxAbs * a.maxAbs) { break }
            // The pairs (0, 1), (0, 2), (1, 2) without an array literal (which would allocate per call).
            for pair in 0..<3 {
                let p = pair == 2 ? 1 : 0, q = pair == 0 ? 1 : 2
                let apq = a[p, q]
                guard abs(apq) > 0 else { continue }
                // Rotation angle that zeroes a[p][q].
                let theta = (a[q, q] - a[p, p]) / (2 * apq)
                let t = (theta >= 0 ? 1.0 : -1.0) / (abs(theta) + (theta * theta + 1).squareRoot())
                let c = 1 / (t * t + 1).squareRoot(), s = t * c
                for k in 0..<3 {
                    let akp = a[k, p], akq = a[k, q]
                    a[k, p] = c * akp - s * akq
                    a[k, q] = s * akp + c * akq
                }
                for k in 0..<3 {
                    let apk = a[p, k], aqk = a[q, k]
                    a[p, k] = c * apk - s * aqk
                    a[q, k] = s * apk + c * aqk
                }
                for k in 0..<3 {
                    let vkp = v[k, p], vkq = v[k, q]
                    v[k, p] = c * vkp - s * vkq
                    v[k, q] = s * vkp + c * vkq
                }
            }
        }
        // Ascending order by a stable insertion sort of the three indices (as sorting [0, 1, 2] did, without
        // the array: this runs in the background calibration's per-sample path).
        var o0 = 0, o1 = 1, o2 = 2
        if a[o1, o1] < a[o0, o0] { swap(&o0, &o1) }
        if a[o2, o2] < a[o1, o1] {
            swap(&o1, &o2)
            if a[o1, o1] < a[o0, o0] { swap(&o0, &o1) }
        }
        let values = Vector3(a[o0, o0], a[o1, o1], a[o2, o2])
        var vectors = Matrix3.identity
        for k in 0..<3 {
            vectors[k, 0] = v[k, o0]
            vectors[k, 1] = v[k, o1]
            vectors[k, 2] = v[k, o2]
        }
        return (values, vectors)
    }

    public var description: String { "[\(row0.x) \(row0.y) \(row0.z); \(row1.x) \(row1.y) \(row1.z); \(row2.x) \(row2.y) \(row2.z)]" }
}
