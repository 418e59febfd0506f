#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Geometry

/// Magnetometer correction: `corrected = softIron * (raw - hardIron)`.
///
/// Hard iron (magnetised parts near the sensor) adds a constant vector; soft iron (and unequal axis gains)
/// turns the sphere of a uniform field into an ellipsoid. Only the symmetric part of soft iron can be seen
/// from field magnitudes, so `softIron` is symmetric; it keeps the ellipsoid's volume, so the corrected field
/// has the geometric-mean strength of the raw one.
public struct MagnetometerCorrection: Sendable, Equatable, Codable {
    public var hardIron: Vector3
    public var softIron: Matrix3

    public init(hardIron: Vector3 = .zero, softIron: Matrix3 = .identity) {
        self.hardIron = hardIron; self.softIron = softIron
    }

    public static let identity = MagnetometerCorrection()

    @inlinable public func apply(_ raw: Vector3) -> Vector3 {
        let d = raw - hardIron
        return Vector3(softIron.row0.dot(d), softIron.row1.dot(d), softIron.row2.dot(d))
    }
}

/// Fits an ellipsoid to magnetometer samples taken while the sensor is turned in every direction, and turns it
/// into a `MagnetometerCorrection`.
///
/// Method: the general quadric a·x² + b·y² + c·z² + 2d·xy + 2e·xz + 2f·yz + 2g·x + 2h·y + 2i·z = 1 is linear
/// in its nine coefficients, so a least-squares solve gives it directly (an algebraic fit). Its centre is the
/// hard iron; the symmetric square root of its shape matrix, scaled to keep the volume, is the soft iron.
public enum EllipsoidFit {
    public struct Result: Sendable, Equatable {
        public var correction: MagnetometerCorrection
        /// Strength of the corrected field (same unit as the samples, µT).
        public var fieldStrength: Double
        /// RMS of (|corrected| − strength) / strength over the samples: 0.01 means 1 %.
        public var relativeResidual: Double
        /// Fraction of the sphere's directions that the corrected samples cover (see `SphereCoverage`).
        public var coverage: Double
        /// Ratio of the longest to the shortest ellipsoid axis: close to 1 for a sensor without much iron.
        public var axisRatio: Double
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case tooFewSamples(Int, needed: Int)
        /// The samples do not span three dimensions well enough to fit an ellipsoid.
        case degenerate
        /// The quadric through the samples is not an ellipsoid (a plane, cylinder, hyperboloid...).
        case notAnEllipsoid
        case poorCoverage(Double, needed: Double)
        case badResidual(Double, allowed: Double)

        public var description: String {
            switch self {
            case let .tooFewSamples(n, needed):
                return "only \(n) magnetometer samples, at least \(needed) needed: keep turning the headset slowly in every direction"
            case .degenerate:
                return "the samples lie in a plane or a line: turn the headset about all three axes, including upside down"
            case .notAnEllipsoid:
                return "the samples do not lie on an ellipsoid: move away from steel, magnets and speakers and try again"
            case let .poorCoverage(c, needed):
                return "only \(Int((c * 100).rounded())) % of directions covered, \(Int((needed * 100).rounded())) % needed: turn the headset through the directions you missed (upside down, on each side)"
            case let .badResidual(r, allowed):
                return "the fit leaves \(fixedPercent(r)) % error, at most \(fixedPercent(allowed)) % allowed: the field changed during the turn (iron or a magnet nearby?); move away from it and try again"
            }
        }
    }

    /// Fewest samples accepted: nine unknowns, and enough more that noise averages out.
    public static let minimumSamples = 50

    /// Fits and checks the result. `minimumCoverage`: a fit from a narrow cap of directions extrapolates the
    /// rest of the ellipsoid and can be off by tens of percent; half the sphere pins all nine parameters.
    /// `maximumResidual`: a good fit in a clean field leaves about 1 % (sensor noise and quantisation); 5 %
    /// means the field itself changed while the samples were taken.
    public static func fit(_ samples: [Vector3], minimumCoverage: Double = 0.5,
                           maximumResidual: Double = 0.05) throws(Failure) -> Result {
        let result = try fitUnchecked(samples)
        if result.coverage < minimumCoverage { throw .poorCoverage(result.coverage, needed: minimumCoverage) }
        if result.relativeResidual > maximumResidual { throw .badResidual(result.relativeResidual, allowed: maximumResidual) }
        return result
    }

    /// The fit without the coverage and residual checks.
    public static func fitUnchecked(_ samples: [Vector3]) throws(Failure) -> Result {
        guard samples.count >= minimumSamples else { throw .tooFewSamples(samples.count, needed: minimumSamples) }
        // Centre and scale the data first, so the squares stay well conditioned whatever the offset and unit.
        var mean = Vector3.zero
        for s in samples { mean += s }
        mean /= Double(samples.count)
        var spread = 0.0
        for s in samples { spread = Swift.max(spread, (s - mean).length) }
        guard spread > 0, spread.isFinite else { throw .degenerate }

        // Normal equations of the 9-coefficient least-squares problem.
        var ata = [Double](repeating: 0, count: 81)
        var atb = [Double](repeating: 0, count: 9)
        var row = [Double](repeating: 0, count: 9)
        for s in samples {
            let p = (s - mean) / spread
            row[0] = p.x * p.x; row[1] = p.y * p.y; row[2] = p.z * p.z
            row[3] = 2 * p.x * p.y; row[4] = 2 * p.x * p.z; row[5] = 2 * p.y * p.z
            row[6] = 2 * p.x; row[7] = 2 * p.y; row[8] = 2 * p.z
            for i in 0..<9 {
                atb[i] += row[i]
                for j in i..<9 { ata[i * 9 + j] += row[i] * row[j] }
            }
        }
        for i in 0..<9 { for j in 0..<i { ata[i * 9 + j] = ata[j * 9 + i] } }
        guard let k = solve(ata, atb, n: 9) else { throw .degenerate }

        let shape = Matrix3(rows: Vector3(k[0], k[3], k[4]), Vector3(k[3], k[1], k[5]), Vector3(k[4], k[5], k[2]))
        guard let shapeInverse = shape.inverse else { throw .notAnEllipsoid }
        let centre = -(shapeInverse * Vector3(k[6], k[7], k[8]))
        // (p − c)ᵀ A (p − c) = 1 + cᵀ A c: normalise to 1 on the right.
        let gain = 1 + centre.dot(shape * centre)
        guard gain > 0 else { throw .notAnEllipsoid }
        let normalised = shape * (1 / gain)
        let eigen = normalised.symmetricEigen()
        guard eigen.values.min() > 0 else { throw .notAnEllipsoid }

        // Semi-axes 1/√λ; the volume-keeping radius is their geometric mean.
        let axes = Vector3(1 / eigen.values.x.squareRoot(), 1 / eigen.values.y.squareRoot(), 1 / eigen.values.z.squareRoot())
        let radius = cbrt(axes.x * axes.y * axes.z)
        // Soft iron = radius · V · diag(√λ) · Vᵀ (maps the ellipsoid onto the sphere of that radius).
        let v = eigen.vectors
        let root = v * Matrix3.diagonal(Vector3(eigen.values.x.squareRoot(), eigen.values.y.squareRoot(),
                                                eigen.values.z.squareRoot()) * radius) * v.transposed
        let correction = MagnetometerCorrection(hardIron: mean + centre * spread, softIron: root)
        let strength = radius * spread

        var sumSquares = 0.0
        var coverage = SphereCoverage()
        for s in samples {
            let c = correction.apply(s)
            let r = (c.length - strength) / strength
            sumSquares += r * r
            coverage.add(direction: c)
        }
        return Result(correction: correction, fieldStrength: strength,
                      relativeResidual: (sumSquares / Double(samples.count)).squareRoot(),
                      coverage: coverage.fraction, axisRatio: axes.max() / axes.min())
    }

    /// Gaussian elimination with partial pivoting on an n×n row-major system; nil when singular.
    static func solve(_ matrix: [Double], _ rhs: [Double], n: Int) -> [Double]? {
        var a = matrix, b = rhs
        var scale = 0.0
        for x in a { scale = Swift.max(scale, abs(x)) }
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<n where abs(a[r * n + col]) > abs(a[pivot * n + col]) { pivot = r }
            guard abs(a[pivot * n + col]) > 1e-12 * scale else { return nil }
            if pivot != col {
                for c in 0..<n { a.swapAt(col * n + c, pivot * n + c) }
                b.swapAt(col, pivot)
            }
            for r in (col + 1)..<n {
                let f = a[r * n + col] / a[col * n + col]
                if f == 0 { continue }
                for c in col..<n { a[r * n + c] -= f * a[col * n + c] }
                b[r] -= f * b[col]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = b[r]
            for c in (r + 1)..<n { s -= a[r * n + c] * x[c] }
            x[r] = s / a[r * n + r]
        }
        return x
    }
}

private func fixedPercent(_ fraction: Double) -> String {
    let tenths = Int((fraction * 1000).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

/// Which directions a set of vectors covers: the sphere is cut into `cellCount` cells of equal area
/// (bands of equal height in z, each cut into equal longitudes), and the fraction of cells hit is the coverage.
public struct SphereCoverage: Sendable, Equatable {
    public static let bands = 6
    public static let sectors = 12
    public static var cellCount: Int { bands * sectors }

    /// Bit i set when cell i has been hit (72 cells fit in two words).
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    public init() {}

    public mutating func add(direction v: Vector3) {
        let n = v.length
        guard n > 0, n.isFinite else { return }
        let u = v / n
        // Equal-area bands: z is uniformly distributed over the sphere's surface (Archimedes).
        let band = Swift.min(SphereCoverage.bands - 1, Int((u.z + 1) / 2 * Double(SphereCoverage.bands)))
        var longitude = atan2(u.y, u.x) / (2 * .pi)
        if longitude < 0 { longitude += 1 }
        let sector = Swift.min(SphereCoverage.sectors - 1, Int(longitude * Double(SphereCoverage.sectors)))
        let cell = band * SphereCoverage.sectors + sector
        if cell < 64 { low |= 1 << UInt64(cell) } else { high |= 1 << UInt64(cell - 64) }
    }

    public var cellsHit: Int { low.nonzeroBitCount + high.nonzeroBitCount }
    public var fraction: Double { Double(cellsHit) / Double(SphereCoverage.cellCount) }
}
