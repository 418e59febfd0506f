import Geometry

/// Decides when the headset has been turned through enough directions: keeps one magnetometer sample per few
/// µT of field change (so a still sensor adds almost nothing and a fast turn is not over-weighted), refits the
/// ellipsoid as the kept set grows, and is complete when that fit — judged around its own centre, never the
/// samples' bounding box — passes the stricter `stopCriteria`.
public struct MagnetometerStopRule: Sendable {
    public struct Settings: Sendable {
        /// A sample is kept when the (smoothed) field has moved this far from the last kept one. 3 µT is more
        /// than 10× the smoothed noise of the noisiest supported chip (AK8963, about 0.6 µT RMS per axis; BROAD's
        /// myon sensor 0.8 µT), so lying still adds next to nothing; in the weakest field (25 µT) it is a 7°
        /// step, so each 24° coverage cell that a turn crosses gets at least 3 samples.
        public var gateMicrotesla = 3.0
        /// Weight of the newest sample in the smoothed field used for that decision only (the kept sample is
        /// the raw one): 0.25 cuts the noise 2.6× and lags 3 samples (30 ms at 100 Hz).
        public var gateSmoothing = 0.25
        /// Kept samples needed before the first fit: 150 samples 3 µT apart is a path of 450 µT, over one
        /// and a half great circles of a 45 µT field.
        public var firstFitSamples = 150
        /// Refit when the kept set has grown by this fraction (at least 50 samples): geometric spacing keeps
        /// the total work of fitting as you go about ten times one final fit.
        public var refitGrowth = 0.1
        /// Memory bound: 20 000 kept samples is a path of 60 mT, some 200 full turns (480 kB).
        public var maximumSamples = 20_000
        /// Complete when a fit passes these: half the sphere's cells, the spread of a hemisphere's worth of
        /// turning, 4 % error and 98 % inliers — stricter than acceptance, so stopping early never lands on a
        /// fit that only just passes.
        public var stopCriteria: EllipsoidFit.Criteria = {
            var c = EllipsoidFit.Criteria()
            c.minimumCoverage = 0.5
            c.minimumSpread = 0.25
            c.maximumResidual = 0.04
            c.minimumInliers = 0.98
            return c
        }()
        public init() {}
    }

    public let settings: Settings
    public private(set) var samples: [Vector3] = []
    /// Every magnetometer sample offered, kept or not (0 means the sensor has no magnetometer).
    public private(set) var magnetometerSamplesSeen = 0
    /// The most recent fit, and why it does not pass `stopCriteria` yet (nil once it does).
    public private(set) var latest: EllipsoidFit.Result?
    public private(set) var latestShortfall: EllipsoidFit.Failure?
    public private(set) var isComplete = false

    private var smoothed: Vector3?
    private var lastKept = Vector3.zero
    private var nextFitAt: Int

    public init(settings: Settings = Settings()) {
        self.settings = settings
        nextFitAt = Swift.max(EllipsoidFit.minimumSamples, settings.firstFitSamples)
        samples.reserveCapacity(Swift.max(0, Swift.min(settings.maximumSamples, 20_000)))
    }

    public mutating func add(_ raw: Vector3) {
        guard raw.isFinite, !isComplete else { return }
        magnetometerSamplesSeen += 1
        let s = smoothed.map { $0 + (raw - $0) * settings.gateSmoothing } ?? raw
        smoothed = s
        if !samples.isEmpty && (s - lastKept).length < settings.gateMicrotesla { return }
        guard samples.count < settings.maximumSamples else { return }
        samples.append(raw)
        lastKept = s
        if samples.count >= nextFitAt { assess() }
    }

    /// Fits the kept samples now and checks them against `stopCriteria`.
    public mutating func assess() {
        nextFitAt = samples.count + Swift.max(50, Int(Double(samples.count) * Swift.max(0, Swift.min(10, settings.refitGrowth))))
        do {
            let fit = try EllipsoidFit.fit(samples, criteria: settings.stopCriteria)
            latest = fit
            latestShortfall = nil
            isComplete = true
        } catch {
            latestShortfall = error
            latest = try? EllipsoidFit.fitUnchecked(samples, samplesPerCell: settings.stopCriteria.samplesPerCell)
        }
    }

    /// The latest fit found samples off the ellipsoid in runs: a magnet or steel nearby, worth telling the
    /// user while they turn rather than only at the end.
    public var isFieldChanging: Bool {
        if case .fieldChanged = latestShortfall { return true }
        return false
    }

    /// Progress for the terminal: what the latest fit shows against what is needed.
    public var progressText: String {
        guard let fit = latest else {
            return magnetometerSamplesSeen == 0 ? "no magnetometer samples yet" : "\(samples.count) distinct samples, fitting from \(nextFitAt)"
        }
        let need = settings.stopCriteria
        return "\(whole(fit.coverage * 100)) % of directions (need \(whole(need.minimumCoverage * 100))), "
            + "spread \(whole(fit.spread * 100)) % (need \(whole(need.minimumSpread * 100))), "
            + "fit error \(whole(fit.relativeResidual * 100)) %, field \(whole(fit.fieldStrength)) µT"
            + (isFieldChanging ? " — the field is changing: move away from magnets, speakers and steel" : "")
    }
}

/// A rounded whole number for display, clamped before it becomes an Int.
private func whole(_ x: Double) -> Int {
    x.isFinite ? Int(Swift.max(-1e9, Swift.min(1e9, x)).rounded()) : 0
}
