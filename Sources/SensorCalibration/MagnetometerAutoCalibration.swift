import LibC
import Geometry

/// Hard and soft iron learned while the headset is worn, with no calibration step: the pipeline hands it
/// every magnetometer sample with the sensor's gyro-and-gravity attitude, and one slice of work per IMU
/// sample; it says when its correction changed.
///
/// - **Collecting.** A sample is kept when the field has moved `gateMicrotesla` since the last kept one
///   (`MagnetometerStopRule`'s gate) *and* the head turned enough to explain that move: the field of the room
///   turns with the head, so a change the gyro did not see (a magnet passing a still head, a steel desk
///   walked past) is the world changing, and is refused. Kept samples go into `CalibrationSamples`, a
///   fixed number per region of the sphere.
/// - **Fitting.** `SlicedEllipsoidFit` (EllipsoidFit's robust fit, a few slots per IMU sample) fits the kept
///   samples whenever enough new ones have come in.
/// - **Judging.** The fit is then judged, with the correction in use and the one it replaced, on the
///   samples that came in after the fit started, which it has not seen: corrected and turned into the
///   gyro-and-gravity frame they should all be one vector (`FieldConsistency`). A fit replaces the correction
///   in use only when it explains that fresh field clearly better (`clearlyBetter`, `minimumImprovement`).
///   Until a correction is established (a calibration file, the raw field explaining itself, or a fit that
///   passes `acceptance`: coverage, spread, residual), fits of part of the sphere may stand in for it; an
///   established one is replaced only by a fit that passes `acceptance`, or by the one before it.
/// - **Forgetting.** When an established correction stops explaining the field, the iron changed (or the
///   world is disturbed): samples from before are forgotten, so the next fits see the new iron alone.
///
/// Nothing here allocates after `init`, and each call does bounded work (`slotsPerSample` slots).
public struct MagnetometerAutoCalibration: Sendable {
    public struct Settings: Sendable, Equatable {
        /// Field change (µT) that makes a new sample, and the smoothing behind it: the guided session's gate.
        public var gateMicrotesla = MagnetometerStopRule.Settings().gateMicrotesla
        public var gateSmoothing = MagnetometerStopRule.Settings().gateSmoothing
        /// The gyro test: a turn by θ moves a field of strength B by at most θ·B (a chord of its sphere), times
        /// the largest soft-iron gain. 78 µT is the strongest field a fit accepts (`fieldRange`), 1.5 a gain
        /// well beyond the ±20 % of untrimmed axes and speaker iron; `gyroAllowance` covers noise (the gate's
        /// smoothed noise is under 0.3 µT). So a move the head's turn cannot explain is certainly the world's.
        public var maximumGain = 1.5
        public var gyroAllowanceMicrotesla = 1.0
        /// Samples kept per region: 72 regions × 12 = 864 samples, a sphere's worth four times over at the
        /// 3 samples per region coverage counts. Measured on the BROAD runs of `eval calibration --background`
        /// (docs/results/calibration-worn.md): 8 and 10 kept too few to pin the soft iron early, 16 kept old samples too long.
        public var slotsPerCell = 12
        /// Slots the fit or the judging works through per IMU sample: a fit of a full store is about 9 passes
        /// of 864 slots, about 490 IMU samples (2.4 s at 200 Hz).
        public var slotsPerSample = 16
        /// A new fit starts when this many samples came in since the last one began, and a fit is judged on
        /// at least this many samples it has not seen: Android's background calibration (CHRE mag_cal)
        /// fits batches of at least 25 samples.
        public var batchSamples = 25
        /// Judging also takes the samples kept just before the fit started, this many: the fresh ones alone
        /// come from where the head is looking now, and a fit of part of the sphere predicts those well even
        /// when its soft iron is wrong a little further round. The fit's own criterion is the field's
        /// strength, the judging's its direction (`FieldConsistency`), so judging on samples the fit has seen
        /// does not favour it much; 200 samples are 600 µT of field path, a full turn and more.
        public var judgeSpan = 200
        /// A fit replaces the correction in use when its score is below this fraction of that correction's
        /// and better by at least `minimumImprovement` (relative field error): a clear margin, so two fits of
        /// the same iron do not take turns, and a correction that is already as good as the noise allows is
        /// kept (each change moves the heading's mean a little, and on recordings whose north was set from
        /// their own raw magnetometer that alone costs a tenth of a degree or more). 0.7 and 0.8 measured
        /// alike on the BROAD runs, 0.5 and 0.6 held partial fits too long.
        public var clearlyBetter = 0.7
        public var minimumImprovement = 0.01
        /// A fit also replaces the correction in use when it covers this much more of the sphere and explains
        /// the fresh field as well, within `refineTolerance` (noise): more directions pin the soft iron better,
        /// while two fits of one iron score alike. MotionCal likewise takes a new fit of more data
        /// when its fit error is no worse.
        public var refineCoverage = 0.1
        public var refineTolerance = 0.05
        /// A correction whose score stays at or below `explainedScore` explains the field (the raw field of
        /// a sensor without iron becomes the established correction that way); one above
        /// `contradictedScore` does not (an iron that changed, or a disturbed world).
        public var explainedScore = 0.08
        public var contradictedScore = 0.16
        /// Judgings in a row with the field unexplained and no plausible fit before the stored samples are
        /// forgotten (see `stuck`): about ten seconds of turning.
        public var stuckJudgements = 4
        /// What a fit must show to become an established correction (and to be saved): the guided
        /// calibration's acceptance limits, but 30 % of the sphere instead of 40 %: a background fit must
        /// also explain the field against the gyro, evidence the guided one lacks, and on the BROAD runs 30 %
        /// (and 25 or 35 %) took a good fit 10–20 s sooner with no cost where nothing was wrong. The
        /// outlier-run test is left out: the stored samples are in region order, not in time order, and a
        /// field that changed during collection is caught here by the gyro test and the judging instead.
        public var acceptance: EllipsoidFit.Criteria = {
            var c = EllipsoidFit.Criteria()
            c.minimumCoverage = 0.3
            c.maximumOutlierRun = Int.max
            return c
        }()
        /// Any fit, established or not, must fit its samples this well (the acceptance's residual and
        /// inliers, and its field range) and have no axis more than this many times another: twice the gain
        /// on one axis is beyond the soft iron of any headset and the spread of untrimmed axes.
        public var maximumAxisRatio = 2.0
        /// And spread its samples at least this much in every direction (`EllipsoidFit.Result.spread`; half the
        /// acceptance's): a patch of the sphere narrower than that fits any ellipsoid, and one that predicts
        /// the next few samples well can be wildly wrong a little further on. Android's and ChromeOS's
        /// background fits likewise refuse batches whose scatter is too flat (eigenvalue ratio above 15 or 25).
        public var minimumSpread = 0.1
        public init() {}
    }

    /// Where the correction in use came from.
    public enum Source: Sendable, Equatable {
        /// None: the raw field.
        case uncalibrated
        /// A calibration file (`headtrack calibrate`, or a learned one from an earlier run).
        case file
        /// Learned in this run.
        case learned
    }

    public enum State: Sendable, Equatable {
        /// No established correction that passes the acceptance limits yet.
        case learning
        /// The correction in use is established: a calibration file, or a learned fit that passed
        /// `acceptance`, and it explains the recent field.
        case calibrated
    }

    /// The latest judging of fits on fresh samples.
    public struct Judgement: Sendable, Equatable {
        /// Scores (see `FieldConsistency`) of the correction in use, the fit, and the correction before.
        public var current: Double
        public var candidate: Double?
        public var previous: Double?
        public var samples: Int
    }

    public let settings: Settings
    /// The correction in use, its fit's quality (nil for the raw field or a file without one) and source.
    public private(set) var correction: MagnetometerCorrection
    public private(set) var quality: Calibration.FitQuality?
    public private(set) var source: Source
    /// Whether the correction in use is established (see the type's description).
    public private(set) var isEstablished: Bool
    /// Counts every change of the correction in use.
    public private(set) var revision = 0
    /// The last change replaced a correction that did not explain the field (the heading it gave was
    /// wrong, so the filter's heading should start over); false for a refinement of one that did.
    public private(set) var lastChangeReplacedWrongField = true
    /// The field under the correction the last change took, in the gyro-and-gravity frame: the mean of the
    /// samples it was judged on (nil when none was judged). Its strength and dip are the field's wherever the
    /// heading points, so the filter can tell whether the new correction shows the field it has learned.
    public private(set) var fieldAtLastChange: Vector3? = nil
    /// Fits that became established corrections (each is logged and saved once).
    public private(set) var acceptedFits = 0
    /// How often an established correction stopped explaining the field and the samples before were dropped.
    public private(set) var forgettings = 0
    /// Samples refused because the field moved more than the head's turn explains.
    public private(set) var refusedSamples = 0
    public private(set) var latestJudgement: Judgement? = nil
    /// The most recent fit, accepted or not (what the view shows while learning).
    public private(set) var latestFit: EllipsoidFit.Figures? = nil

    /// The established correction the one in use replaced, kept to come back to.
    private var previous: (correction: MagnetometerCorrection, quality: Calibration.FitQuality?, source: Source)? = nil
    /// The correction in use passed `acceptance` (or came from a file): it may be established again after
    /// a contradiction once it explains the field again. A fit of part of the sphere never is.
    private var mayBeEstablished: Bool
    private var samples: CalibrationSamples
    private var fitter: SlicedEllipsoidFit
    private var phase = Phase.collecting
    private var candidate: EllipsoidFit.Result? = nil
    /// This cycle's fit, plausible or not (nil when there was none).
    private var freshFit: EllipsoidFit.Result? = nil
    private var judgeFrom = 0
    private var cursor = 0
    private var scores = (current: FieldConsistency(), candidate: FieldConsistency(), previous: FieldConsistency())
    private var lastStart = 0
    /// Judgings in a row where the correction in use did not explain the field and no fit of the stored
    /// samples was plausible: they hold two fields (an iron that changed under a correction that was never
    /// established), so after `stuckJudgements` they are forgotten too.
    private var stuck = 0
    /// The correction that sorts new samples into regions: the best so far, or the raw field about the
    /// running mean of the kept samples before there is any.
    private var binning: MagnetometerCorrection
    private var hasBinning: Bool
    private var runningMean = Vector3.zero
    private var smoothed = Vector3.zero
    private var lastKept = Vector3.zero
    private var lastKeptLevel = Quaternion.identity
    private var hasKept = false

    private enum Phase: Sendable { case collecting, fitting, awaitingFresh, judging }

    /// Starts from `calibration` (a file's, or none): a file's correction counts as established.
    public init(settings: Settings = Settings(), starting calibration: Calibration = .none, fromFile: Bool = false) {
        self.settings = settings
        correction = calibration.magnetometer
        quality = calibration.magnetometerFit
        let calibrated = fromFile && calibration.magnetometer != .identity
        source = calibrated ? .file : .uncalibrated
        isEstablished = calibrated
        mayBeEstablished = true
        binning = calibration.magnetometer
        hasBinning = calibrated
        samples = CalibrationSamples(slotsPerCell: settings.slotsPerCell)
        fitter = SlicedEllipsoidFit(capacity: samples.capacity, samplesPerCell: settings.acceptance.samplesPerCell)
    }

    public var state: State { isEstablished && source != .uncalibrated ? .calibrated : .learning }

    /// Magnetometer samples offered, and kept samples that count (in all, and in one region).
    public private(set) var observedSamples = 0
    public var storedSamples: Int { samples.count(numbered: 0..<Int.max) }
    public func storedSamples(inCell cell: Int) -> Int { samples.count(inCell: cell) }
    /// The number the next kept sample gets.
    public var nextSampleNumber: Int { samples.nextSequence }

    /// Calls `body` with each stored sample (raw, µT) numbered in `range` that still counts, in storage order.
    public func forEachStoredSample(numbered range: Range<Int>, _ body: (Vector3) -> Void) {
        for i in 0..<samples.capacity where samples.isCurrent(i) && range.contains(samples.slots[i].sequence) {
            body(samples.slots[i].field)
        }
    }

    // MARK: Per sample

    /// A new magnetometer sample (raw, sensor frame, µT) and the sensor's attitude (sensor → the filter's
    /// gyro-and-gravity frame) at that moment.
    public mutating func observe(_ raw: Vector3, level: Quaternion) {
        guard raw.isFinite, level.isFinite else { return }
        observedSamples += 1
        smoothed = hasKept ? smoothed + (raw - smoothed) * settings.gateSmoothing : raw
        if hasKept {
            let moved = (smoothed - lastKept).length
            guard moved >= settings.gateMicrotesla else { return }
            // The net turn since the last kept sample, from the two attitudes: 2·acos|⟨q₁, q₂⟩|.
            let d = abs(lastKeptLevel.w * level.w + lastKeptLevel.x * level.x + lastKeptLevel.y * level.y + lastKeptLevel.z * level.z)
            let turn = 2 * acos(Swift.min(1, d))
            let explainable = settings.maximumGain * settings.acceptance.fieldRange.upperBound * Swift.min(turn, 2)
                + settings.gyroAllowanceMicrotesla
            lastKept = smoothed
            lastKeptLevel = level
            guard moved <= explainable else {
                refusedSamples += 1
                return
            }
        } else {
            lastKept = smoothed
            lastKeptLevel = level
            hasKept = true
        }
        runningMean += (raw - runningMean) * (samples.nextSequence == 0 ? 1 : 1.0 / 32)
        let direction = hasBinning ? binning.apply(raw) : raw - runningMean
        samples.add(field: raw, level: level, cell: SphereCoverage.cell(of: direction) ?? 0)
    }

    /// One slice of fitting or judging. Returns true when the correction in use changed.
    public mutating func work() -> Bool {
        switch phase {
        case .collecting:
            guard samples.nextSequence - lastStart >= settings.batchSamples else { return false }
            lastStart = samples.nextSequence
            fitter.start(limit: samples.nextSequence)
            phase = .fitting
            return false
        case .fitting:
            fitter.advance(samples, budget: settings.slotsPerSample)
            guard !fitter.isRunning else { return false }
            candidate = fitter.result.flatMap { plausible($0) ? $0 : nil }
            freshFit = fitter.result
            if let r = fitter.result {
                latestFit = r.figures
            }
            judgeFrom = fitter.sequenceLimit
            fitter.abandon()
            phase = .awaitingFresh
            return false
        case .awaitingFresh:
            guard samples.nextSequence - judgeFrom >= settings.batchSamples else { return false }
            cursor = 0
            scores = (FieldConsistency(), FieldConsistency(), FieldConsistency())
            phase = .judging
            return false
        case .judging:
            let end = Swift.min(samples.capacity, cursor + settings.slotsPerSample)
            for i in cursor..<end {
                let s = samples.slots[i]
                guard s.sequence >= judgeFrom - settings.judgeSpan && samples.isCurrent(i) else { continue }
                scores.current.add(s.level.rotate(correction.apply(s.field)))
                if let c = candidate { scores.candidate.add(s.level.rotate(c.correction.apply(s.field))) }
                if let p = previous { scores.previous.add(s.level.rotate(p.correction.apply(s.field))) }
            }
            cursor = end
            guard cursor == samples.capacity else { return false }
            phase = .collecting
            let changed = decide()
            candidate = nil
            freshFit = nil
            return changed
        }
    }

    /// The filter's gyro-and-gravity frame started over (a chip reset): fresh samples from before it are in
    /// another frame, so the fit in progress is judged later on samples from now on.
    public mutating func frameRestarted() {
        if phase != .collecting && phase != .fitting {
            phase = .collecting
            candidate = nil
            freshFit = nil
        }
        judgeFrom = samples.nextSequence
        hasKept = false
    }

    // MARK: Decisions

    private mutating func decide() -> Bool {
        guard let current = scores.current.score else { return false }
        let candidateScore = candidate.flatMap { _ in scores.candidate.score }
        let previousScore = previous.flatMap { _ in scores.previous.score }
        latestJudgement = Judgement(current: current, candidate: candidateScore, previous: previousScore,
                                    samples: scores.current.samples)
        let explains = current <= settings.explainedScore
        if explains && mayBeEstablished { isEstablished = true }
        if current > settings.contradictedScore && isEstablished {
            // The correction that explained the field does not any more: the iron changed, or the world is
            // disturbed. Either way the samples before belong to another field; learn from the fresh ones.
            // The fresh samples themselves may straddle the change: forget them too.
            samples.forget(before: samples.nextSequence)
            isEstablished = false
            forgettings += 1
        }
        // Stuck: the field unexplained and the stored samples, spread enough to fit, not on one ellipsoid.
        let inconsistent = candidate == nil && freshFit.map {
            $0.spread >= settings.minimumSpread
                && ($0.relativeResidual > settings.acceptance.maximumResidual || $0.inlierFraction < settings.acceptance.minimumInliers)
        } == true
        stuck = current > settings.contradictedScore && inconsistent ? stuck + 1 : 0
        if stuck >= settings.stuckJudgements {
            samples.forget(before: samples.nextSequence)
            stuck = 0
            forgettings += 1
        }
        // An alternative must explain the field itself, and clearly better than the correction in use.
        func better(_ s: Double) -> Bool {
            s <= settings.contradictedScore && s < settings.clearlyBetter * current && current - s >= settings.minimumImprovement
        }
        // The correction before comes back when it explains the field clearly better (a temporary iron
        // removed again, or a fit made during a disturbance).
        if let p = previous, let s = previousScore, better(s), s <= (candidateScore ?? .infinity) {
            fieldAtLastChange = scores.previous.mean
            correction = p.correction
            quality = p.quality
            source = p.source
            isEstablished = true
            mayBeEstablished = true
            previous = nil
            changed(from: current)
            return true
        }
        guard let fit = candidate, let s = candidateScore, s <= settings.contradictedScore else { return false }
        let accepted = passesAcceptance(fit)
        let noWorse = s <= current * (1 + settings.refineTolerance)
        let coversMore = quality.map { fit.coverage >= $0.coverage + settings.refineCoverage } ?? false
        let take: Bool
        if isEstablished || explains {
            // A correction that explains the field gives way only to a fit that passes acceptance and halves
            // the error, or explains it as well from clearly more of the sphere; one that never passed
            // acceptance (a fit of part of the sphere) to any accepted fit that is no worse.
            take = accepted && (better(s) || (noWorse && (!mayBeEstablished || coversMore)))
        } else {
            // One that does not explain it gives way to a fit that halves the error, or to an accepted fit
            // that explains it (when both fail, the world is disturbed rather than the iron unknown).
            take = better(s) || (accepted && s <= settings.explainedScore)
        }
        guard take else { return false }
        if isEstablished { previous = (correction, quality, source) }
        fieldAtLastChange = scores.candidate.mean
        correction = fit.correction
        quality = Calibration.FitQuality(fieldStrength: fit.fieldStrength, relativeResidual: fit.relativeResidual,
                                         coverage: fit.coverage, samples: fit.samples)
        source = .learned
        isEstablished = accepted
        mayBeEstablished = accepted
        if accepted { acceptedFits += 1 }
        changed(from: current)
        return true
    }

    private mutating func changed(from score: Double) {
        lastChangeReplacedWrongField = score > settings.explainedScore
        revision += 1
        binning = correction
        hasBinning = true
        candidate = nil
    }

    /// Any fit must fit its own samples well and be a plausible iron (see `Settings.maximumAxisRatio`).
    private func plausible(_ r: EllipsoidFit.Result) -> Bool {
        let a = settings.acceptance
        return r.relativeResidual <= a.maximumResidual && r.inlierFraction >= a.minimumInliers
            && a.fieldRange.contains(r.fieldStrength) && r.axisRatio <= settings.maximumAxisRatio
            && r.spread >= settings.minimumSpread && r.correction.hardIron.isFinite
    }

    private func passesAcceptance(_ r: EllipsoidFit.Result) -> Bool {
        plausible(r) && EllipsoidFit.check(r, settings.acceptance) == nil
    }
}
