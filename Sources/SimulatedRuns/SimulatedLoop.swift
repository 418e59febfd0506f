import Geometry
import SensorCalibration
import Hardware
import Tracking
import Formats
import Service
import Sensors
import Simulation
import SensorCalibration

/// The production loop (`TrackerLoop`) on a simulated board, either as fast as possible on the simulation
/// clock or paced by real time (`PacedClock`), for `run --simulated` and `bench`.
public struct SimulatedLoopOptions: Sendable {
    public var config = Config()
    public var readout: ImuReadout = .polling
    /// SCL rate of the simulated bus: transfers take their real bus time (hardware-facts §6.1). Only for the
    /// full-speed mode; nil = transfers take no simulated time.
    public var busClockHz: Double? = 400_000
    public var script: MotionScript = .demoStory
    /// Applied to the simulated board's samples as `run` applies the headset's calibration file.
    public var calibration: Calibration? = nil
    /// How the simulated board sits on the simulated head (`--worn`): its sensor axes as forward, left, up.
    public var worn: Mount = .identity
    public init() {}
}

/// What a simulated loop run did.
public struct SimulatedLoopReport: Sendable {
    public var imuSamples: Int64 = 0
    public var overruns = 0
    public var fifoOverflows = 0
    public var fifoAdjustments: Int64 = 0
    /// Samples the FIFO readout lost to overflows (0 when it kept up).
    public var fifoSamplesLost: Int64 = 0
    public var faults = FaultCounters()
    public var gestures = 0
    public var simulatedSeconds = 0.0
    /// Real time the run took.
    public var realSeconds = 0.0
    public var timing = LoopTiming()
}

public enum SimulatedLoop {
    /// A session on the board, not started: the same detection and loop `run` sets up on real hardware.
    public static func session<C: MonotonicClock>(
        board: SimulatedBoard, clock: C, options: SimulatedLoopOptions
    ) throws(SensorError) -> TrackerSession<SimulatedI2CBus, RecordingOutputLines, C> {
        try TrackerSession(bus: board.bus, lines: board.leds, clock: clock, config: options.config, calibration: options.calibration,
                           readout: options.readout)
    }

    /// The same, started (sensors initialised), ready to `run`.
    public static func makeSession<C: MonotonicClock>(
        board: SimulatedBoard, clock: C, options: SimulatedLoopOptions
    ) throws(SensorError) -> TrackerSession<SimulatedI2CBus, RecordingOutputLines, C> {
        var s = try session(board: board, clock: clock, options: options)
        try s.start()
        return s
    }

    /// The started session's loop, for callers that drive it themselves (bench).
    public static func make<C: MonotonicClock>(
        board: SimulatedBoard, clock: C, options: SimulatedLoopOptions
    ) throws(SensorError) -> TrackerLoop<SimulatedI2CBus, RecordingOutputLines, C> {
        try makeSession(board: board, clock: clock, options: options).loop
    }

    public static func board(_ options: SimulatedLoopOptions, busTime: Bool) -> SimulatedBoard {
        var sensor = SensorModel()
        sensor.mount = options.worn
        let board = SimulatedBoard(motion: options.script, sensor: sensor)
        board.bus.recordWrites = false
        if busTime { board.bus.busClockHz = options.busClockHz }
        return board
    }

    /// As fast as possible: the simulation clock jumps from deadline to deadline (plus the bus time of each
    /// transfer when `busClockHz` is set, so a loop that cannot keep its rate on a real bus overruns here too).
    /// `stopSignals`, `thread` and `say` as in `TrackerSession.run` (`run --simulated` uses them).
    public static func runFullSpeed(_ options: SimulatedLoopOptions, duration: Double,
                                    stopSignals: Bool = false, thread: LoopThread? = nil, say: (ServiceLine) -> Void = { _ in },
                                    shouldStop: () -> Bool = { false },
                                    observer: (LoopEvent, Pipeline) -> Void = { _, _ in }) throws(SensorError) -> SimulatedLoopReport {
        let b = board(options, busTime: true)
        var session = try makeSession(board: b, clock: b.clock, options: options)
        return run(&session, duration: duration, simulation: b.clock, stopSignals: stopSignals, thread: thread, say: say,
                   shouldStop: shouldStop, observer: observer)
    }

    /// Paced by CLOCK_MONOTONIC: the loop sleeps to real deadlines, so its wake-up lateness is real.
    public static func runPaced(_ options: SimulatedLoopOptions, duration: Double,
                                stopSignals: Bool = false, thread: LoopThread? = nil, say: (ServiceLine) -> Void = { _ in },
                                shouldStop: () -> Bool = { false },
                                observer: (LoopEvent, Pipeline) -> Void = { _, _ in }) throws(SensorError) -> SimulatedLoopReport {
        let b = board(options, busTime: false)
        var session = try makeSession(board: b, clock: PacedClock(driving: b.clock), options: options)
        return run(&session, duration: duration, simulation: b.clock, stopSignals: stopSignals, thread: thread, say: say,
                   shouldStop: shouldStop, observer: observer)
    }

    static func run<C: MonotonicClock>(_ session: inout TrackerSession<SimulatedI2CBus, RecordingOutputLines, C>, duration: Double,
                                       simulation: VirtualClock, stopSignals: Bool, thread: LoopThread?,
                                       say: (ServiceLine) -> Void, shouldStop: () -> Bool,
                                       observer: (LoopEvent, Pipeline) -> Void) -> SimulatedLoopReport {
        thread?.enter(say: say)  // before the real time starts counting
        var report = SimulatedLoopReport()
        let simulatedStart = simulation.seconds
        let realStart = StageClock.now()
        session.run(duration: duration, stopSignals: stopSignals, shouldStop: shouldStop) { event, pipeline in
            if case .gesture = event { report.gestures += 1 }
            observer(event, pipeline)
        }
        let loop = session.loop
        report.realSeconds = Double(StageClock.now() - realStart) * 1e-9
        report.simulatedSeconds = simulation.seconds - simulatedStart
        report.imuSamples = loop.imuSamples
        report.faults = loop.faults
        report.overruns = loop.faults.overruns
        report.fifoOverflows = loop.fifoOverflows
        report.fifoAdjustments = loop.fifoClock.adjustments
        report.fifoSamplesLost = loop.fifoClock.samplesLost
        report.timing = loop.timing
        return report
    }
}
