import Geometry

/// The guided step of `headtrack calibrate --mount`, as a value fed with raw samples: the wearer looks straight
/// ahead and keeps still (up from gravity), then nods a few times (left from the nods' axis, its sense from the
/// first, chin-down swing). The terminal, `--trace` and `--simulated` drive it alike; `MountLearner` decides.
public struct MountCalibrationSession: Sendable {
    public struct Settings: Sendable {
        /// Seconds of stillness before the nods: 2 s, eight of the learner's blocks, so one bump does not pass
        /// for rest and the head's sway of a second or two averages out of gravity's direction.
        public var restSeconds = 2.0
        public var learner = MountLearner.Settings()
        public init() {}
    }

    public enum Phase: Sendable, Equatable {
        case keepStill, nod, complete
    }

    public let settings: Settings
    public private(set) var phase = Phase.keepStill
    public private(set) var learner: MountLearner
    /// When the nod phase began (the prompt to nod).
    public private(set) var nodPromptAt: Double? = nil
    private var checkedSeries = -1
    private var checkedNods = -1
    private var learned: MountLearner.Learned? = nil

    public init(settings: Settings = Settings()) {
        self.settings = settings
        learner = MountLearner(settings: settings.learner)
    }

    public mutating func add(t: Double, gyro: Vector3, accel: Vector3) {
        guard phase != .complete else { return }
        learner.add(t: t, gyro: gyro, accel: accel)
        switch phase {
        case .keepStill:
            if learner.stillSeconds >= settings.restSeconds {
                phase = .nod
                nodPromptAt = t
            }
        case .nod:
            // The learner's verdict changes only when a series grows or ends: asked then, not per sample.
            let series = learner.seriesCompleted, nods = learner.nodsInProgress
            guard series != checkedSeries || nods != checkedNods else { return }
            checkedSeries = series
            checkedNods = nods
            if case let .success(l) = learner.result() {
                learned = l
                phase = .complete
            }
        case .complete:
            return
        }
    }

    /// The mount, or why there is none yet (call when complete, or when the user stops or time runs out).
    public func result() -> Result<MountLearner.Learned, MountLearner.Failure> {
        if let learned { return .success(learned) }
        if phase == .keepStill && learner.stillSeconds < settings.restSeconds {
            return .failure(.noStillStretch)
        }
        return learner.result()
    }

    /// One line for the terminal.
    public func progressText(at t: Double) -> String {
        switch phase {
        case .keepStill:
            let held = Swift.min(learner.stillSeconds, settings.restSeconds)
            return "look straight ahead and keep still: \(tenths(settings.restSeconds - held)) s"
        case .nod:
            let n = learner.nodsInProgress
            return "now nod \(settings.learner.minimumNods) or more times in a row, chin down first: \(n) nod\(n == 1 ? "" : "s")"
        case .complete:
            return "done"
        }
    }

    private func tenths(_ s: Double) -> String {
        let n = Int((Swift.max(0, Swift.min(s, 1e6)) * 10).rounded())
        return "\(n / 10).\(n % 10)"
    }
}
