import Geometry

/// The guided calibration, as a value fed with raw samples: first the headset lies still (gyro bias), then it
/// is turned in every direction (magnetometer ellipsoid). The terminal command, `calibrate --trace` and the
/// tests drive it alike.
///
/// Stop rule: while turning, the ellipsoid is refitted as samples arrive (`MagnetometerStopRule`), and the
/// session is complete only when the fit around its *own* centre covers enough directions, spreads in every
/// axis and fits well. A still sensor's noise never completes it, however long it lies there.
public struct CalibrationSession: Sendable {
    public struct Settings: Sendable {
        /// Seconds of stillness for the gyro bias: 5 s averages MPU-class gyro noise to about 0.01 °/s.
        public var restSeconds = 5.0
        /// Skip the still phase (e.g. a recorded trace that starts moving).
        public var measureGyro = true
        /// How magnetometer samples are kept and when the turn is complete.
        public var stopRule = MagnetometerStopRule.Settings()
        /// What the final fit must show (`EllipsoidFit.Criteria` defaults: see there).
        public var acceptance = EllipsoidFit.Criteria()
        public init() {}
    }

    public enum Phase: Sendable, Equatable {
        case keepStill
        case turn
        case complete
    }

    public let settings: Settings
    public private(set) var phase: Phase
    public private(set) var gyroBias: Vector3?
    public private(set) var stopRule: MagnetometerStopRule
    /// Set when the still phase had to start over because the headset moved.
    public private(set) var restartedRest = false

    private var rest = GyroRestCalibration()
    private var restStart: Double?

    public init(settings: Settings = Settings()) {
        self.settings = settings
        stopRule = MagnetometerStopRule(settings: settings.stopRule)
        phase = settings.measureGyro ? .keepStill : .turn
    }

    /// The magnetometer samples kept so far (one per `gateMicrotesla` of field change).
    public var magSamples: [Vector3] { stopRule.samples }
    /// Coverage of the latest fit around its own centre (0 before the first fit).
    public var coverage: Double { stopRule.latest?.coverage ?? 0 }

    /// One raw sample (sensor frame, SI). `mag` only when a new one arrived.
    public mutating func add(t: Double, gyro: Vector3, accel: Vector3, mag: Vector3?) {
        switch phase {
        case .keepStill:
            if restStart == nil { restStart = t }
            rest.add(gyro: gyro, accel: accel)
            // Judge stillness every half second so one bump restarts the countdown quickly.
            if rest.samples % 50 == 0 && rest.samples > 1 && !rest.isStill {
                rest = GyroRestCalibration()
                restStart = t
                restartedRest = true
                return
            }
            if let start = restStart, t - start >= settings.restSeconds, let b = try? rest.bias(minimumSamples: 20) {
                gyroBias = b
                phase = .turn
            }
        case .turn:
            guard let m = mag else { return }
            stopRule.add(m)
            if stopRule.isComplete { phase = .complete }
        case .complete:
            return
        }
    }

    /// One line for the terminal.
    public func progressText(at t: Double) -> String {
        switch phase {
        case .keepStill:
            let left = Swift.max(0, settings.restSeconds - (t - (restStart ?? t)))
            let tenths = Int((Swift.min(left, 1e6) * 10).rounded())
            return (restartedRest ? "moved — " : "") + "put the headset down and keep it still: \(tenths / 10).\(tenths % 10) s"
        case .turn:
            return "turn the headset slowly in every direction — " + stopRule.progressText
        case .complete:
            return "enough directions covered (" + stopRule.progressText + ")"
        }
    }

    /// Fits the magnetometer and builds the calibration; throws with the cause and what to do when the data
    /// are not good enough. Call when `phase == .complete`, or earlier when the user stops or time runs out
    /// (the acceptance checks then decide).
    public func result(createdUnixTime: Double? = nil) throws(EllipsoidFit.Failure) -> (Calibration, EllipsoidFit.Result) {
        if stopRule.magnetometerSamplesSeen == 0 { throw .noMagnetometer }
        // Plenty of samples arrived but few were distinct: the field hardly moved, i.e. the headset did not turn.
        let kept = stopRule.samples.count
        if kept < EllipsoidFit.minimumSamples && stopRule.magnetometerSamplesSeen >= EllipsoidFit.minimumSamples {
            let spread = EllipsoidFit.principalSpread(stopRule.samples) / settings.acceptance.fieldRange.lowerBound
            throw .tooLittleRotation(spread: spread, coverage: nil, neededSpread: settings.acceptance.minimumSpread,
                                     neededCoverage: settings.acceptance.minimumCoverage)
        }
        let fit = try EllipsoidFit.fit(stopRule.samples, criteria: settings.acceptance)
        let quality = Calibration.FitQuality(fieldStrength: fit.fieldStrength, relativeResidual: fit.relativeResidual,
                                             coverage: fit.coverage, samples: fit.samples)
        let calibration = Calibration(gyroBias: gyroBias ?? .zero, magnetometer: fit.correction,
                                      magnetometerFit: quality, createdUnixTime: createdUnixTime)
        return (calibration, fit)
    }
}
