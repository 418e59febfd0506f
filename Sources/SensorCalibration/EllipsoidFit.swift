import LibC
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

    /// Hard then soft iron. Forced inline: it runs on every magnetometer sample (see `Mount.apply`).
    @inlinable @inline(__always) public func apply(_ raw: Vector3) -> Vector3 {
        let d = raw - hardIron
        return Vector3(softIron.row0.dot(d), softIron.row1.dot(d), softIron.row2.dot(d))
    }
}

/// Fits an ellipsoid to magnetometer samples taken while the sensor is turned in every direction, and turns it
/// into a `MagnetometerCorrection`.
///
/// Method: the general quadric a·x² + b·y² + c·z² + 2d·xy + 2e·xz + 2f·yz + 2g·x + 2h·y + 2i·z = 1 is linear
/// in its nine coefficients, so a least-squares solve gives it directly (an algebraic fit: no start value, so
/// nothing to diverge on fast or jerky turns). Its centre is the hard iron; the symmetric square root of its
/// shape matrix, scaled to keep the volume, is the soft iron. The solve is repeated with Tukey biweights of
/// each sample's radial error (iteratively reweighted least squares), so a magnet passing by or a burst of bad
/// samples is weighed out instead of bending the ellipsoid. Samples are centred on their mean and scaled by
/// their RMS distance first, so the normal equations stay well conditioned whatever the offset and unit.
public enum EllipsoidFit {
    /// What a fit found and how well, without its cells: all `MagnetometerAutoCalibration` keeps of its latest
    /// fit (a result kept there must not hold on to the fit's coverage buffer, which the fit after next fills
    /// again in place).
    public struct Figures: Sendable, Equatable {
        public var correction: MagnetometerCorrection
        /// Strength of the corrected field (same unit as the samples, µT).
        public var fieldStrength: Double
        /// RMS of (|corrected| − strength) / strength over the inliers: 0.01 means 1 %.
        public var relativeResidual: Double
        /// Fraction of samples the robust fit kept (radial error inside the Tukey cut-off).
        public var inlierFraction: Double
        /// Fraction of the sphere's cells, around the fitted centre, holding at least `samplesPerCell` inliers.
        public var coverage: Double
        /// Angular spread: the smallest principal standard deviation of the corrected inliers divided by the
        /// field strength. 0.577 for directions spread over the whole sphere, 0.29 for one hemisphere, about 0
        /// for a turn about one axis (a circle) or a sensor that did not turn at all (a noise blob).
        public var spread: Double
        public var samples: Int
    }

    /// A fit: its `Figures` (read as the result's own fields), the shape of the ellipsoid and the cells.
    @dynamicMemberLookup
    public struct Result: Sendable, Equatable {
        public var figures: Figures
        /// Ratio of the longest to the shortest ellipsoid axis: close to 1 for a sensor without much iron.
        public var axisRatio: Double
        /// Most consecutive samples (in the order given) beyond the robust cut-off.
        public var longestOutlierRun: Int
        /// The inliers per sphere cell around the fitted centre, from which `coverage` is counted (the live
        /// view draws them).
        public var cells: SphereCoverage

        public subscript<T>(dynamicMember field: KeyPath<Figures, T>) -> T { figures[keyPath: field] }
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case noMagnetometer
        case tooFewSamples(Int, needed: Int)
        /// The field direction did not change enough: spread (see `Result.spread`; before a fit, relative to
        /// the weakest expected field) and coverage when known, with what is needed.
        case tooLittleRotation(spread: Double, coverage: Double?, neededSpread: Double, neededCoverage: Double)
        /// Many samples lie off the ellipsoid the rest fit, or the rest fit it badly: the field itself changed.
        case fieldChanged(inlierFraction: Double, residual: Double, outlierRun: Int)
        /// The fitted field is not the Earth's.
        case implausibleFieldStrength(Double, expected: ClosedRange<Double>)
        /// The quadric through the samples is not an ellipsoid (a plane, cylinder, hyperboloid...).
        case notAnEllipsoid

        public var description: String {
            switch self {
            case .noMagnetometer:
                return "no magnetometer samples: this sensor or trace has no magnetometer (no mx,my,mz), so there is nothing to calibrate for heading"
            case let .tooFewSamples(n, needed):
                return "only \(n) distinct magnetometer samples, at least \(needed) needed: turn the headset slowly in every direction"
            case let .tooLittleRotation(spread, coverage, neededSpread, neededCoverage):
                let measured: String
                if let c = coverage {
                    measured = "directions spread \(fixedPercent(spread)) % of the field strength (\(fixedPercent(neededSpread)) % needed), \(Int((c * 100).rounded())) % of directions covered (\(Int((neededCoverage * 100).rounded())) % needed)"
                } else {
                    measured = "the field barely moved: its spread is \(fixedPercent(spread)) % of the weakest Earth field, \(fixedPercent(neededSpread)) % needed"
                }
                return "too little rotation (\(measured)): turn the headset about all three axes — nose up and down, ear to each shoulder, upside down — not just around one axis or from place to place"
            case let .fieldChanged(inliers, residual, run):
                return "the field changed during the turn (\(fixedPercent(1 - inliers)) % of samples off the ellipsoid, up to \(run) in a row, \(fixedPercent(residual)) % error on the rest): a magnet, speaker or steel moved near the headset, or it was carried past them; keep away from them and try again"
            case let .implausibleFieldStrength(strength, expected):
                return "the fitted field is \(fixedPercent(strength / 100)) µT, the Earth's is \(Int(expected.lowerBound))–\(Int(expected.upperBound)) µT: steel or a magnet close by, or the magnetometer's range/units are wrong"
            case .notAnEllipsoid:
                return "the samples do not lie on an ellipsoid: turn the headset through more directions, away from steel, magnets and speakers, and try again"
            }
        }
    }

    /// What a fit must show before it is used. The defaults are the acceptance limits of `headtrack calibrate`.
    public struct Criteria: Sendable, Equatable {
        /// Cells of `SphereCoverage` that must hold `samplesPerCell` samples: 40 % with the spread below pins
        /// all nine parameters (a hemisphere is 50 %; a head turned through ±60° in yaw and pitch gives ~40 %).
        public var minimumCoverage = 0.4
        /// Smallest angular spread (see `Result.spread`): 0.2 is a cap of about 70° half-angle; one hemisphere
        /// is 0.29; a half or full turn about a single axis is ~0 and leaves the soft iron along it unknown.
        public var minimumSpread = 0.2
        /// Largest RMS radial error of the inliers. Sensor noise is ≤ 1 µT per axis (AK8963 ~0.5, HMC5883L and
        /// QMC5883L ~0.2), ≤ 4 % of the weakest 25 µT field; indoor field gradients over a turn add 1–3 %.
        public var maximumResidual = 0.05
        /// Fewest samples the robust fit may keep. Beyond the Tukey cut-off (4.7 robust σ) a clean turn loses
        /// 0–0.2 % of samples (BROAD's undisturbed trials); more than 5 % outside means the field was not one field.
        public var minimumInliers = 0.95
        /// Longest run of consecutive samples (in the order they came) allowed beyond the cut-off. Noise puts
        /// an outlier here and there; a magnet passing, or the headset carried past steel, puts a run of them —
        /// 8 kept samples in a row is 24 µT of field path all off the ellipsoid — and the samples on its
        /// approach, which stay inside, bend the fit by a degree or more of heading. So refuse and say so.
        public var maximumOutlierRun = 8
        /// The Earth's field is 25–65 µT everywhere (IGRF); ±20 % allows for a sensor whose gain is untrimmed
        /// (the soft iron keeps the volume, so the gain error stays in the strength).
        public var fieldRange: ClosedRange<Double> = 20...78
        /// Samples a cell needs to count as covered: one stray sample is not a covered direction.
        public var samplesPerCell = 3
        public init() {}
    }

    /// Fewest samples accepted: nine unknowns, and enough more that noise averages out.
    public static let minimumSamples = 50

    /// Fits and checks the result against `criteria`; the failure names the cause.
    public static func fit(_ samples: [Vector3], criteria: Criteria = Criteria()) throws(Failure) -> Result {
        if samples.isEmpty { throw .noMagnetometer }
        // A sensor that did not turn (a noise blob) or only slid about fits nonsense; say so before fitting.
        let raw = principalSpread(samples)
        if raw < criteria.minimumSpread * criteria.fieldRange.lowerBound && samples.count >= minimumSamples {
            throw .tooLittleRotation(spread: raw / criteria.fieldRange.lowerBound, coverage: nil, neededSpread: criteria.minimumSpread, neededCoverage: criteria.minimumCoverage)
        }
        let result: Result
        do { result = try fitUnchecked(samples, samplesPerCell: criteria.samplesPerCell) } catch {
            // A flat or degenerate set comes from turning about one axis only.
            if case .notAnEllipsoid = error { throw .tooLittleRotation(spread: 0, coverage: nil, neededSpread: criteria.minimumSpread, neededCoverage: criteria.minimumCoverage) }
            throw error
        }
        if let failure = check(result, criteria) { throw failure }
        return result
    }

    /// The first criterion `result` fails, in the order a user should fix them; nil when it passes.
    public static func check(_ result: Result, _ criteria: Criteria) -> Failure? {
        if result.spread < criteria.minimumSpread || result.coverage < criteria.minimumCoverage {
            return .tooLittleRotation(spread: result.spread, coverage: result.coverage, neededSpread: criteria.minimumSpread, neededCoverage: criteria.minimumCoverage)
        }
        if result.inlierFraction < criteria.minimumInliers || result.relativeResidual > criteria.maximumResidual
            || result.longestOutlierRun > criteria.maximumOutlierRun {
            return .fieldChanged(inlierFraction: result.inlierFraction, residual: result.relativeResidual,
                                 outlierRun: result.longestOutlierRun)
        }
        if !criteria.fieldRange.contains(result.fieldStrength) {
            return .implausibleFieldStrength(result.fieldStrength, expected: criteria.fieldRange)
        }
        return nil
    }

    /// Robust fit without the acceptance checks.
    public static func fitUnchecked(_ samples: [Vector3], samplesPerCell: Int = 3) throws(Failure) -> Result {
        guard samples.count >= minimumSamples else { throw .tooFewSamples(samples.count, needed: minimumSamples) }
        var mean = Vector3.zero
        for s in samples { mean += s }
        mean /= Double(samples.count)
        var sumSquares = 0.0
        for s in samples { sumSquares += (s - mean).dot(s - mean) }
        let scale = (sumSquares / Double(samples.count)).squareRoot()
        guard scale > 0, scale.isFinite else { throw .notAnEllipsoid }
        let points = samples.map { ($0 - mean) / scale }

        var weights = [Double](repeating: 1, count: points.count)
        var errors = [Double](repeating: 0, count: points.count)
        var best: Ellipsoid? = nil
        var cutoff = Double.infinity
        for iteration in 0..<maximumIterations {
            guard let e = Ellipsoid.solve(points, weights: weights) else {
                if best == nil { throw .notAnEllipsoid }
                break
            }
            best = e
            for i in points.indices { errors[i] = e.radialError(points[i]) }
            var magnitudes = errors.map(abs)
            magnitudes.sort()
            let newCutoff = robustCutoff(medianError: magnitudes[magnitudes.count / 2])
            var changed = 0.0
            for i in points.indices {
                let w = tukeyWeight(errors[i], cutoff: newCutoff)
                changed = Swift.max(changed, abs(w - weights[i]))
                weights[i] = w
            }
            cutoff = newCutoff
            if iteration > 0 && changed < 1e-3 { break }
        }
        guard let e = best else { throw .notAnEllipsoid }

        let correction = MagnetometerCorrection(hardIron: mean + e.centre * scale, softIron: e.softIron)
        let strength = e.radius * scale
        var inliers = 0
        var squares = 0.0
        var coverage = SphereCoverage()
        var moments = Moments()
        var run = 0, longestRun = 0
        for i in samples.indices {
            guard abs(errors[i]) < cutoff else {
                run += 1
                longestRun = Swift.max(longestRun, run)
                continue
            }
            run = 0
            inliers += 1
            squares += errors[i] * errors[i]
            let c = correction.apply(samples[i])
            coverage.add(direction: c)
            moments.add(c)
        }
        guard inliers > 0 else { throw .notAnEllipsoid }
        let figures = Figures(correction: correction, fieldStrength: strength,
                              relativeResidual: (squares / Double(inliers)).squareRoot(),
                              inlierFraction: Double(inliers) / Double(samples.count),
                              coverage: coverage.fraction(minimumCount: samplesPerCell),
                              spread: moments.smallestDeviation / strength, samples: samples.count)
        return Result(figures: figures, axisRatio: e.axisRatio, longestOutlierRun: longestRun, cells: coverage)
    }

    /// Reweighting rounds: Tukey IRLS settles in 3–6 on real turns; the cap bounds the work.
    static let maximumIterations = 12
    /// Tukey biweight cut-off in robust σ: 4.685 keeps 95 % efficiency on Gaussian errors.
    static let tukeyConstant = 4.685

    /// The Tukey cut-off from the median absolute radial error: ×1.4826 is σ for Gaussian errors, floored at
    /// 1 % so a clean fit does not start trimming its own noise.
    @inline(__always) static func robustCutoff(medianError: Double) -> Double {
        tukeyConstant * Swift.max(1.4826 * medianError, 0.01)
    }

    /// The Tukey biweight of a radial error: 1 at 0, falling to 0 at the cut-off and beyond.
    @inline(__always) static func tukeyWeight(_ error: Double, cutoff: Double) -> Double {
        let u = error / cutoff
        return abs(u) < 1 ? (1 - u * u) * (1 - u * u) : 0
    }

    /// The smallest principal standard deviation of a point set (same unit as the points).
    public static func principalSpread(_ points: [Vector3]) -> Double {
        var m = Moments()
        for p in points { m.add(p) }
        return m.smallestDeviation
    }

    /// An ellipsoid in the normalised coordinates of a fit.
    struct Ellipsoid {
        var centre: Vector3
        var softIron: Matrix3
        var radius: Double
        var axisRatio: Double

        /// (|softIron · (p − centre)| − radius) / radius.
        func radialError(_ p: Vector3) -> Double {
            (MagnetometerCorrection(hardIron: centre, softIron: softIron).apply(p).length - radius) / radius
        }

        /// Weighted algebraic least squares; nil when singular or not an ellipsoid.
        static func solve(_ points: [Vector3], weights: [Double]) -> Ellipsoid? {
            var equations = NormalEquations()
            for (p, w) in zip(points, weights) where w > 0 { equations.add(p, weight: w) }
            return equations.solve()
        }

        /// The ellipsoid of the quadric's nine coefficients (see `EllipsoidFit`); nil when it is not one.
        init?(coefficients k: UnsafeBufferPointer<Double>) {
            guard k.count == 9 else { return nil }
            for x in k where !x.isFinite { return nil }
            let shape = Matrix3(rows: Vector3(k[0], k[3], k[4]), Vector3(k[3], k[1], k[5]), Vector3(k[4], k[5], k[2]))
            guard let shapeInverse = shape.inverse else { return nil }
            let centre = -(shapeInverse * Vector3(k[6], k[7], k[8]))
            // (p − c)ᵀ A (p − c) = 1 + cᵀ A c: normalise to 1 on the right.
            let gain = 1 + centre.dot(shape * centre)
            guard gain > 0 else { return nil }
            let eigen = (shape * (1 / gain)).symmetricEigen()
            guard eigen.values.min() > 0 else { return nil }
            // Semi-axes 1/√λ; the volume-keeping radius is their geometric mean.
            let roots = Vector3(eigen.values.x.squareRoot(), eigen.values.y.squareRoot(), eigen.values.z.squareRoot())
            let axes = Vector3(1 / roots.x, 1 / roots.y, 1 / roots.z)
            let radius = cbrt(axes.x * axes.y * axes.z)
            // Soft iron = radius · V · diag(√λ) · Vᵀ (maps the ellipsoid onto the sphere of that radius).
            let v = eigen.vectors
            let soft = v * Matrix3.diagonal(roots * radius) * v.transposed
            self.init(centre: centre, softIron: soft, radius: radius, axisRatio: axes.max() / axes.min())
        }

        init(centre: Vector3, softIron: Matrix3, radius: Double, axisRatio: Double) {
            self.centre = centre; self.softIron = softIron; self.radius = radius; self.axisRatio = axisRatio
        }
    }

    /// The weighted normal equations of the quadric's least squares (9 × 9 and 9), in storage of their own
    /// that is allocated once: the guided fit fills one per reweighting, the background fit
    /// (`SlicedEllipsoidFit`) adds samples to one across loop iterations. Solving works on scratch space
    /// of its own, so neither allocates.
    struct NormalEquations {
        /// Upper triangle of AᵀWA (row-major 9 × 9) followed by AᵀW·1, then 90 doubles of scratch.
        private var storage = [Double](repeating: 0, count: 180)

        mutating func clear() {
            storage.withUnsafeMutableBufferPointer { b in for i in 0..<90 { b[i] = 0 } }
        }

        /// Adds one point (in normalised coordinates) with its weight.
        @inline(__always) mutating func add(_ p: Vector3, weight w: Double) {
            let row0 = p.x * p.x, row1 = p.y * p.y, row2 = p.z * p.z
            let row3 = 2 * p.x * p.y, row4 = 2 * p.x * p.z, row5 = 2 * p.y * p.z
            let row6 = 2 * p.x, row7 = 2 * p.y, row8 = 2 * p.z
            storage.withUnsafeMutableBufferPointer { b in
                withUnsafeTemporaryRow(row0, row1, row2, row3, row4, row5, row6, row7, row8) { row in
                    for i in 0..<9 {
                        let wi = w * row[i]
                        b[81 + i] += wi
                        for j in i..<9 { b[i * 9 + j] += wi * row[j] }
                    }
                }
            }
        }

        /// The ellipsoid these equations give; nil when singular or not an ellipsoid.
        mutating func solve() -> Ellipsoid? {
            storage.withUnsafeMutableBufferPointer { b -> Ellipsoid? in
                // Scratch: the full symmetric matrix at 90..<171, the right-hand side (then the solution) at 171..<180.
                for i in 0..<9 {
                    for j in 0..<9 { b[90 + i * 9 + j] = i <= j ? b[i * 9 + j] : b[j * 9 + i] }
                    b[171 + i] = b[81 + i]
                }
                let matrix = UnsafeMutableBufferPointer(rebasing: b[90..<171])
                let rhs = UnsafeMutableBufferPointer(rebasing: b[171..<180])
                guard EllipsoidFit.solveInPlace(matrix, rhs, n: 9) else { return nil }
                return Ellipsoid(coefficients: UnsafeBufferPointer(rhs))
            }
        }
    }

    /// Running mean and scatter of 3-D points.
    struct Moments {
        var count = 0.0
        var sum = Vector3.zero
        var xx = 0.0, yy = 0.0, zz = 0.0, xy = 0.0, xz = 0.0, yz = 0.0
        mutating func add(_ p: Vector3) {
            count += 1; sum += p
            xx += p.x * p.x; yy += p.y * p.y; zz += p.z * p.z
            xy += p.x * p.y; xz += p.x * p.z; yz += p.y * p.z
        }
        var smallestDeviation: Double {
            guard count > 1 else { return 0 }
            let m = sum / count
            let c = Matrix3(rows: Vector3(xx / count - m.x * m.x, xy / count - m.x * m.y, xz / count - m.x * m.z),
                            Vector3(xy / count - m.x * m.y, yy / count - m.y * m.y, yz / count - m.y * m.z),
                            Vector3(xz / count - m.x * m.z, yz / count - m.y * m.z, zz / count - m.z * m.z))
            return Swift.max(0, c.symmetricEigen().values.x).squareRoot()
        }
    }

    /// Gaussian elimination with partial pivoting on an n×n row-major system; nil when singular.
    static func solve(_ matrix: [Double], _ rhs: [Double], n: Int) -> [Double]? {
        var a = matrix, b = rhs
        let solved = a.withUnsafeMutableBufferPointer { ab in
            b.withUnsafeMutableBufferPointer { bb in solveInPlace(ab, bb, n: n) }
        }
        return solved ? b : nil
    }

    /// The same in place: `a` is destroyed and `b` becomes the solution; false (and both undefined) when singular.
    static func solveInPlace(_ a: UnsafeMutableBufferPointer<Double>, _ b: UnsafeMutableBufferPointer<Double>, n: Int) -> Bool {
        var scale = 0.0
        for i in 0..<(n * n) { scale = Swift.max(scale, abs(a[i])) }
        for col in 0..<n {
            var pivot = col
            for r in (col + 1)..<n where abs(a[r * n + col]) > abs(a[pivot * n + col]) { pivot = r }
            guard abs(a[pivot * n + col]) > 1e-12 * scale else { return false }
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
        // Back substitution into b itself: b[r] is read before it is overwritten, and only later rows are used.
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = b[r]
            for c in (r + 1)..<n { s -= a[r * n + c] * b[c] }
            b[r] = s / a[r * n + r]
        }
        return true
    }
}

/// Calls `body` with the nine values as a buffer on the stack (no heap allocation).
@inline(__always) private func withUnsafeTemporaryRow(_ r0: Double, _ r1: Double, _ r2: Double, _ r3: Double, _ r4: Double,
                                                      _ r5: Double, _ r6: Double, _ r7: Double, _ r8: Double,
                                                      _ body: (UnsafeBufferPointer<Double>) -> Void) {
    var row = (r0, r1, r2, r3, r4, r5, r6, r7, r8)
    withUnsafeBytes(of: &row) { raw in body(raw.bindMemory(to: Double.self)) }
}

/// `fraction` × 100 with one decimal ("12.3"); out-of-range values are clamped before they become an Int.
private func fixedPercent(_ fraction: Double) -> String {
    guard fraction.isFinite else { return "?" }
    let tenths = Int((Swift.max(-1e6, Swift.min(1e6, fraction)) * 1000).rounded())
    return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
}

/// Which directions a set of vectors covers: the sphere is cut into `cellCount` cells of equal area
/// (bands of equal height in z, each cut into equal longitudes; each cell about 24° across), and the fraction
/// of cells hit (or hit at least n times) is the coverage.
public struct SphereCoverage: Sendable, Equatable {
    public static let bands = 6
    public static let sectors = 12
    public static var cellCount: Int { bands * sectors }

    /// Vectors per cell, index `band * sectors + sector`: band 0 is the lowest z, sector 0 starts at +x and
    /// the sectors go counter-clockwise (towards +y).
    public private(set) var counts = [Int](repeating: 0, count: SphereCoverage.cellCount)

    public init() {}

    /// The cell a direction falls in (band × sectors + sector; bands from −z to +z, sectors by longitude from
    /// +x towards +y), nil for a zero or non-finite vector.
    public static func cell(of v: Vector3) -> Int? {
        let n = v.length
        guard n > 0, n.isFinite else { return nil }
        let u = v / n
        // Equal-area bands: z is uniformly distributed over the sphere's surface (Archimedes).
        let band = Swift.max(0, Swift.min(bands - 1, Int((u.z + 1) / 2 * Double(bands))))
        var longitude = atan2(u.y, u.x) / (2 * .pi)
        if longitude < 0 { longitude += 1 }
        let sector = Swift.max(0, Swift.min(sectors - 1, Int(longitude * Double(sectors))))
        return band * sectors + sector
    }

    public mutating func add(direction v: Vector3) {
        if let c = SphereCoverage.cell(of: v) { counts[c] += 1 }
    }

    /// Empties every cell in place (a coverage kept for reuse allocates nothing again).
    public mutating func removeAll() {
        for i in counts.indices { counts[i] = 0 }
    }

    /// Vectors counted in cell `i`.
    public func count(inCell i: Int) -> Int { counts[i] }

    public var cellsHit: Int { cells(atLeast: 1) }
    public var fraction: Double { fraction(minimumCount: 1) }
    /// Fraction of cells holding at least `minimumCount` vectors.
    public func fraction(minimumCount: Int) -> Double {
        Double(cells(atLeast: Swift.max(1, minimumCount))) / Double(SphereCoverage.cellCount)
    }

    private func cells(atLeast n: Int) -> Int {
        var hit = 0
        for c in counts where c >= n { hit += 1 }
        return hit
    }
}
