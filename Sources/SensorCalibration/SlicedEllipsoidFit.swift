import Geometry

/// `EllipsoidFit`'s robust fit (the same algebraic quadric, normalisation, Tukey reweighting and quality
/// figures) run over `CalibrationSamples` a few slots at a time, so that the loop can do it between samples:
/// each `advance` call touches at most `budget` slots and allocates nothing (every buffer is made in `init`).
///
/// One fit is a fixed sequence of passes over the slots: moments (mean and scale for the normalisation), the
/// unweighted solve, the robust scale of its errors, reweighted solves until the weights settle, and a
/// quality pass (inliers, residual, coverage, spread). The robust scale of each reweighting comes from the
/// errors of the pass before (a histogram median instead of a sort): the fixed point is EllipsoidFit's.
struct SlicedEllipsoidFit: Sendable {
    enum Stage: Sendable, Equatable {
        case idle, moments, unweighted, scale, reweighted, quality, done, failed
    }

    private(set) var stage = Stage.idle
    /// The fit once `stage == .done`.
    private(set) var result: EllipsoidFit.Result? = nil
    /// Samples numbered below this are the fit's (the ones from it on are new to it).
    private(set) var sequenceLimit = 0

    private var equations = EllipsoidFit.NormalEquations()
    private var weights: [Double]
    private var histogram = ErrorHistogram()
    /// Two coverages, used by turns: a result keeps the one its quality pass filled (`Result.cells`), and the
    /// pass after next refills it in place, when that result has been replaced (so no copy is ever made).
    private var coverages = (SphereCoverage(), SphereCoverage())
    private var secondCoverage = false
    private var moments = EllipsoidFit.Moments()
    private var cursor = 0
    private var iteration = 0
    private var count = 0
    private var sum = Vector3.zero
    private var sumSquares = 0.0
    private var mean = Vector3.zero
    private var scale = 1.0
    private var ellipsoid: EllipsoidFit.Ellipsoid? = nil
    private var cutoff = Double.infinity
    private var weightChange = 0.0
    private var inliers = 0
    private var visited = 0
    private var squares = 0.0
    private let samplesPerCell: Int

    init(capacity: Int, samplesPerCell: Int) {
        weights = [Double](repeating: 1, count: capacity)
        self.samplesPerCell = samplesPerCell
    }

    var isRunning: Bool { stage != .idle && stage != .done && stage != .failed }

    /// Starts a fit of the samples numbered below `limit`.
    mutating func start(limit: Int) {
        sequenceLimit = limit
        stage = .moments
        result = nil
        cursor = 0
        count = 0; sum = .zero; sumSquares = 0
    }

    /// Back to idle (the result, if any, is dropped).
    mutating func abandon() {
        stage = .idle
        result = nil
    }

    /// Works through at most `budget` slots of `samples`.
    mutating func advance(_ samples: CalibrationSamples, budget: Int) {
        var left = budget
        // The weights are moved out while the pass writes them, so that `visit` may mutate the rest of self
        // (an empty array takes no allocation, and the moved one stays uniquely referenced).
        var w: [Double] = []
        swap(&w, &weights)
        defer { swap(&w, &weights) }
        let epoch = samples.epoch
        while left > 0 && isRunning {
            let end = Swift.min(samples.capacity, cursor + left)
            for i in cursor..<end {
                let s = samples.slots[i]
                guard s.sequence >= epoch && s.sequence < sequenceLimit else { continue }
                visit(s.field, weight: &w[i])
            }
            left -= end - cursor
            cursor = end
            if cursor == samples.capacity {
                cursor = 0
                finishPass()
            }
        }
    }

    /// One sample of the current pass.
    @inline(__always) private mutating func visit(_ m: Vector3, weight: inout Double) {
        switch stage {
        case .moments:
            count += 1
            sum += m
            sumSquares += m.dot(m)
        case .unweighted:
            weight = 1
            equations.add((m - mean) / scale, weight: 1)
        case .scale:
            histogram.add(abs(ellipsoid!.radialError((m - mean) / scale)))
        case .reweighted:
            let p = (m - mean) / scale
            let e = ellipsoid!.radialError(p)
            histogram.add(abs(e))
            let w = EllipsoidFit.tukeyWeight(e, cutoff: cutoff)
            weightChange = Swift.max(weightChange, abs(w - weight))
            weight = w
            if w > 0 { equations.add(p, weight: w) }
        case .quality:
            // Counted here, not in the moments pass: a sample the fit had may have been overwritten since by a
            // newer one of its region (which is not the fit's).
            visited += 1
            let e = ellipsoid!.radialError((m - mean) / scale)
            guard abs(e) < cutoff else { return }
            inliers += 1
            squares += e * e
            let c = correction.apply(m)
            if secondCoverage { coverages.1.add(direction: c) } else { coverages.0.add(direction: c) }
            moments.add(c)
        case .idle, .done, .failed:
            return
        }
    }

    /// The correction of the current ellipsoid in sensor units.
    private var correction: MagnetometerCorrection {
        MagnetometerCorrection(hardIron: mean + ellipsoid!.centre * scale, softIron: ellipsoid!.softIron)
    }

    private mutating func finishPass() {
        switch stage {
        case .moments:
            guard count >= EllipsoidFit.minimumSamples else { stage = .failed; return }
            mean = sum / Double(count)
            // Σ|m − mean|² = Σ|m|² − n|mean|²: the RMS distance from the mean, as EllipsoidFit normalises.
            scale = (Swift.max(0, sumSquares / Double(count) - mean.dot(mean))).squareRoot()
            guard scale > 0, scale.isFinite else { stage = .failed; return }
            equations.clear()
            stage = .unweighted
        case .unweighted:
            guard let e = equations.solve() else { stage = .failed; return }
            ellipsoid = e
            histogram.clear()
            stage = .scale
        case .scale:
            cutoff = EllipsoidFit.robustCutoff(medianError: histogram.median)
            beginReweighting()
            iteration = 1
        case .reweighted:
            let nextCutoff = EllipsoidFit.robustCutoff(medianError: histogram.median)
            iteration += 1
            if let e = equations.solve() { ellipsoid = e } else { beginQuality(); return }
            let settled = weightChange < 1e-3
            cutoff = nextCutoff
            if settled || iteration >= EllipsoidFit.maximumIterations { beginQuality() } else { beginReweighting() }
        case .quality:
            guard inliers > 0, let e = ellipsoid else { stage = .failed; return }
            let strength = e.radius * scale
            let coverage = secondCoverage ? coverages.1 : coverages.0
            let figures = EllipsoidFit.Figures(correction: correction, fieldStrength: strength,
                                               relativeResidual: (squares / Double(inliers)).squareRoot(),
                                               inlierFraction: Double(inliers) / Double(visited),
                                               coverage: coverage.fraction(minimumCount: samplesPerCell),
                                               spread: moments.smallestDeviation / strength, samples: visited)
            result = EllipsoidFit.Result(figures: figures, axisRatio: e.axisRatio, longestOutlierRun: 0, cells: coverage)
            stage = .done
        case .idle, .done, .failed:
            return
        }
    }

    private mutating func beginReweighting() {
        equations.clear()
        histogram.clear()
        weightChange = 0
        stage = .reweighted
    }

    private mutating func beginQuality() {
        inliers = 0
        visited = 0
        squares = 0
        secondCoverage.toggle()
        if secondCoverage { coverages.1.removeAll() } else { coverages.0.removeAll() }
        moments = EllipsoidFit.Moments()
        stage = .quality
    }
}

/// The median of relative radial errors without sorting them: 80 bins of 0.25 % up to 20 %, and one above.
/// The median only sets the Tukey cut-off, which is floored at a 1 % σ (a median of 0.67 %), so a bin of
/// 0.25 % resolves what matters; a median beyond 20 % is a fit that will be refused whatever its cut-off.
struct ErrorHistogram: Sendable {
    static let bins = 80
    static let width = 0.0025
    private var counts = [Int](repeating: 0, count: ErrorHistogram.bins + 1)
    private var total = 0

    mutating func clear() {
        for i in counts.indices { counts[i] = 0 }
        total = 0
    }

    @inline(__always) mutating func add(_ magnitude: Double) {
        let bin = magnitude.isFinite ? Swift.min(ErrorHistogram.bins, Int(Swift.max(0, magnitude) / ErrorHistogram.width)) : ErrorHistogram.bins
        counts[bin] += 1
        total += 1
    }

    /// The value of rank total/2 (EllipsoidFit's median), interpolated within its bin.
    var median: Double {
        guard total > 0 else { return 0 }
        let rank = total / 2
        var below = 0
        for bin in 0..<ErrorHistogram.bins {
            let n = counts[bin]
            if below + n > rank {
                return (Double(bin) + (Double(rank - below) + 0.5) / Double(n)) * ErrorHistogram.width
            }
            below += n
        }
        return Double(ErrorHistogram.bins) * ErrorHistogram.width
    }
}
