import Geometry
import Gestures
import Hardware
import Tracking
import Formats
import Service
import Sensors
import Simulation

/// Runs the real loop (driver, pipeline, LEDs) on a simulated board through a motion script.
public struct SimulatedRun {
    public struct Result {
        public var detections: [(t: Double, event: GestureEvent)] = []
        public var faults = FaultCounters()
        public var imuSamples: Int64 = 0
        public var reinitializations = 0
        public var check: ScriptedGestureCheck
        public var board: SimulatedBoard
        /// The script's questions as its app saw them answered (`MotionScript.ask`).
        public var answers: [ScriptedApp.Answer] = []
    }

    public var script: MotionScript
    public var config: Config
    public var sensor = SensorModel()
    /// nil: as fast as possible; N: N× real time.
    public var speed: Double? = nil
    /// Extra simulated time after the script ends (s), so a late detection is still seen.
    public var tail = 1.0
    /// When set, the loop runs exactly this long (s of samples, counted from the first sample after the
    /// sensors came up) instead of the script plus `tail` (`record --simulated --duration`).
    public var loopDuration: Double? = nil
    /// End on SIGINT/SIGTERM too (`record --simulated`); off for the demo and in tests.
    public var stopSignals = false
    /// Whether a client has a question pending (the demo's event stream), as `TrackerLoop.questionPending`;
    /// the script's own questions (`MotionScript.ask`) are pending as well.
    public var questionPending: () -> Bool = { false }
    /// Called when the script's app asks a question and when it gets its answer, after the observer saw that
    /// tick or gesture; `t` is loop time, as the observer's events carry it (s).
    public var onQuestion: (_ asked: MotionScript.ScriptedQuestion, _ t: Double) -> Void = { _, _ in }
    public var onAnswer: (_ answer: ScriptedApp.Answer, _ t: Double) -> Void = { _, _ in }

    public init(script: MotionScript = .demoStory, config: Config = Config()) {
        self.script = script
        self.config = config
    }

    /// Builds the board, brings the sensors up and runs the loop; `prepare` may add faults to the board first.
    public func run(prepare: (SimulatedBoard) -> Void = { _ in },
                    shouldStop: () -> Bool = { false },
                    observer: (LoopEvent, Pipeline) -> Void = { _, _ in }) throws(SensorError) -> Result {
        let board = SimulatedBoard(motion: script, sensor: sensor, speed: speed)
        prepare(board)
        // The same session `run` sets up on real hardware.
        var session = try TrackerSession(bus: board.bus, lines: board.leds, clock: board.clock, config: config)
        try session.start()
        let app = ScriptedApp(script: script)
        let clientAsks = questionPending
        let clock = board.clock
        session.loop.questionPending = { app.isPending(at: clock.seconds) || clientAsks() }
        var result = Result(check: ScriptedGestureCheck(script: script), board: board)
        let start = board.clock.seconds
        var questionsAnnounced = 0
        session.run(duration: loopDuration ?? (script.duration + tail - start), stopSignals: stopSignals,
                    shouldStop: shouldStop) { event, pipeline in
            observer(event, pipeline)
            switch event {
            case let .gesture(g):
                result.detections.append((g.t + start, g.event))
                if let answer = app.hear(g.event, at: g.t + start) { onAnswer(answer, g.t) }
            case let .display(t, _):
                while questionsAnnounced < app.questions.count && app.questions[questionsAnnounced].at <= t + start {
                    onQuestion(app.questions[questionsAnnounced], t)
                    questionsAnnounced += 1
                }
            case .reinitialized: result.reinitializations += 1
            default: break
            }
        }
        result.faults = session.loop.faults
        result.imuSamples = session.loop.imuSamples
        result.check.score(result.detections)
        _ = app.isPending(at: board.clock.seconds)   // settles a question that timed out by the end
        result.answers = app.answers
        return result
    }
}

/// Compares detections with the gestures a motion script performed: each scripted gesture must be detected
/// inside [start − 0.3 s, end + 1.0 s] (the scoring window of the shared recordings) exactly once: a second
/// detection of a gesture already found is a repeat (a second LED flash for one gesture); any other detection
/// is invented.
public struct ScriptedGestureCheck {
    public let expected: [MotionScript.ScriptedGesture]
    public private(set) var found: [Bool]
    public private(set) var invented: [(t: Double, event: GestureEvent)] = []
    public private(set) var repeated: [(t: Double, event: GestureEvent)] = []

    public init(script: MotionScript) {
        expected = script.gestures
        found = Array(repeating: false, count: expected.count)
    }

    public mutating func score(_ detections: [(t: Double, event: GestureEvent)]) {
        found = Array(repeating: false, count: expected.count)
        invented = []
        repeated = []
        for d in detections {
            if let i = expected.indices.first(where: {
                expected[$0].label == d.event.rawValue && d.t >= expected[$0].start - 0.3 && d.t <= expected[$0].end + 1.0
            }) {
                if found[i] { repeated.append(d) }
                found[i] = true
            } else {
                invented.append(d)
            }
        }
    }

    public var missed: [MotionScript.ScriptedGesture] { expected.indices.filter { !found[$0] }.map { expected[$0] } }
    public var passed: Bool { missed.isEmpty && invented.isEmpty && repeated.isEmpty }
}
