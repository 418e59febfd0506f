import Fusion
import Geometry

/// The guided calibration, as a value fed with raw samples: first the headset lies still (gyro bias), then it
/// is turned in every direction (magnetometer ellipsoid). The terminal command and the tests drive it alike.
public struct CalibrationSession: Sendable {
    public struct Settings: Sendable {
        /// Seconds of stillness for the gyro bias: 5 s averages MPU-class gyro noise to about 0.01 °/s.
        public var restSeconds = 5.0
        /// Skip the still phase (e.g. a recorded trace that starts moving).
        public var measureGyro = true
        /// Coverage at which turning is complete: 80 % of directions pins the ellipsoid well.
        public var targetCoverage = 0.8
        /// Coverage below which a fit is refused (see `EllipsoidFit.fit`).
        public var minimumCoverage = 0.5
        /// Largest relative residual accepted (see `EllipsoidFit.fit`).
        public var maximumResidual = 0.05
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
    public private(set) var magSamples: [Vector3] = []
    /// Coverage so far, judged around the centre of the samples' bounding box (the fit is not known yet).
    public private(set) var coverage = 0.0
    /// Set when the still phase had to start over because the headset moved.
    public private(set) var restartedRest = false

    private var rest = GyroRestCalibration()
    private var restStart: Double?
    private var low = Vector3(repeating: .infinity)
    private var high = Vector3(repeating: -.infinity)

    public init(settings: Settings = Settings()) {
        self.settings = settings
        phase = settings.measureGyro ? .keepStill : .turn
    }

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
            if t - restStart! >= settings.restSeconds, let b = try? rest.bias(minimumSamples: 20) {
                gyroBias = b
                phase = .turn
            }
        case .turn:
            guard let m = mag, m.isFinite else { return }
            magSamples.append(m)
            low = pointwiseMin(low, m)
            high = pointwiseMax(high, m)
            if magSamples.count % 25 == 0 { updateCoverage() }
            if coverage >= settings.targetCoverage && magSamples.count >= EllipsoidFit.minimumSamples * 4 {
                phase = .complete
            }
        case .complete:
            return
        }
    }

    private mutating func updateCoverage() {
        let centre = (low + high) / 2
        var c = SphereCoverage()
        for m in magSamples { c.add(direction: m - centre) }
        coverage = c.fraction
    }

    /// One line for the terminal.
    public func progressText(at t: Double) -> String {
        switch phase {
        case .keepStill:
            let left = Swift.max(0, settings.restSeconds - (t - (restStart ?? t)))
            let tenths = Int((left * 10).rounded())
            return (restartedRest ? "moved — " : "") + "put the headset down and keep it still: \(tenths / 10).\(tenths % 10) s"
        case .turn:
            return "turn the headset slowly in every direction — \(Int((coverage * 100).rounded())) % covered"
        case .complete:
            return "enough directions covered (\(Int((coverage * 100).rounded())) %)"
        }
    }

    /// Fits the magnetometer and builds the calibration; throws with what to do when the data are not good
    /// enough. Call when `phase == .complete`, or earlier when the user stops (the checks then decide).
    public func result(createdUnixTime: Double? = nil) throws(EllipsoidFit.Failure) -> (Calibration, EllipsoidFit.Result) {
        let fit = try EllipsoidFit.fit(magSamples, minimumCoverage: settings.minimumCoverage,
                                       maximumResidual: settings.maximumResidual)
        let quality = Calibration.FitQuality(fieldStrength: fit.fieldStrength, relativeResidual: fit.relativeResidual,
                                             coverage: fit.coverage, samples: magSamples.count)
        let calibration = Calibration(gyroBias: gyroBias ?? .zero, magnetometer: fit.correction,
                                      magnetometerFit: quality, createdUnixTime: createdUnixTime)
        return (calibration, fit)
    }
}
