import Fusion
import SensorCalibration
import Hardware
import Sensors
import Tracking
import Formats

/// One tracking session, the same for every command that runs the loop (run, record, calibrate, demo and
/// the simulated modes): the config's detection request → the drivers for what answered → the loop on
/// them (the one place a `TrackerLoop` is built) → the sensors brought up → the loop run until its
/// duration, a stop signal or the caller's condition → every LED off. Generic over bus, lines and clock,
/// so the simulated board goes through exactly the set-up the headset does.
public struct TrackerSession<Bus: I2CBus, Lines: OutputLines, Clock: MonotonicClock> {
    public var loop: TrackerLoop<Bus, Lines, Clock>
    /// What answered on the bus, and what is used.
    public let detection: Detection

    /// Detects the sensors `config` asks for on `bus` and builds the loop on them (not started yet).
    /// `report` gets detection's findings ("  0x68: MPU-9250 (WHO_AM_I 0x71)") and notes ("  note: ...").
    /// `calibration` nil keeps the config's pipeline settings as they are.
    public init(bus: Bus, lines: Lines, clock: Clock, config: Config, calibration: Calibration? = nil,
                readout: ImuReadout = .polling, report: (String) -> Void = { _ in }) throws(SensorError) {
        let (board, detection) = try Self.detectBoard(bus: bus, config: config, report: report)
        self.init(board: board, detection: detection, lines: lines, clock: clock, config: config,
                  calibration: calibration, readout: readout)
    }

    /// The loop on drivers already detected. The one place a `TrackerLoop` is built.
    public init(board: SensorBoard<Bus>, detection: Detection, lines: Lines, clock: Clock, config: Config,
                calibration: Calibration? = nil, readout: ImuReadout = .polling) {
        self.detection = detection
        var settings = config.pipelineSettings
        if let calibration { settings.calibration = calibration }
        loop = TrackerLoop(driver: board, lines: lines, clock: clock, pipeline: Pipeline(settings: settings), rates: config.rates)
        loop.readout = readout
    }

    /// Detection on `bus` as `config` asks, its findings and notes to `report`, and the drivers for what
    /// answered (not initialised). Throws the detection's failure, which says what to do.
    public static func detectBoard(bus: Bus, config: Config, report: (String) -> Void) throws(SensorError) -> (SensorBoard<Bus>, Detection) {
        var probing = bus
        let detection = BoardDetector.detect(&probing, request: config.detectionRequest)
        for f in detection.findings { report("  " + f) }
        for n in detection.notes { report("  note: " + n) }
        let board = try detection.makeBoard(bus: probing, settings: config.imuSettings,
                                            magnetometerMount: config.magnetometerMount, screen: config.screenSettings)
        return (board, detection)
    }

    /// Brings the sensors up (and the FIFO, for that readout). On failure every LED is switched off.
    public mutating func start() throws(SensorError) {
        do { try loop.start() } catch {
            loop.ledsOff()
            throw error
        }
    }

    /// Runs the loop until `duration` seconds have passed (nil: no limit), SIGINT/SIGTERM arrived (when
    /// `stopSignals`: the handlers are installed here if they are not yet) or `shouldStop` returns true; then
    /// every LED is off. `thread` prepares the calling thread first, its log line going to `say`.
    public mutating func run(duration: Double?, stopSignals: Bool = true, thread: LoopThread? = nil,
                             say: (ServiceLine) -> Void = { _ in }, shouldStop: () -> Bool = { false },
                             observer: (LoopEvent, Pipeline) -> Void) {
        if stopSignals { StopSignals.install() }
        if let thread { thread.enter(say: say) }
        loop.run(duration: duration, shouldStop: { (stopSignals && StopSignals.requested) || shouldStop() }, observer: observer)
        loop.ledsOff()
    }
}

extension TrackerSession where Bus == LinuxI2CBus, Clock == LinuxMonotonicClock {
    /// A session on the real bus the config names: the stop signals installed, the bus opened, the sensors
    /// detected (findings to `report`), then the LED lines opened (`lines`: the GPIO lines, or `NoLines`)
    /// and the calibration loaded, in that order, so the first thing that fails is the one reported.
    public static func onHardware(config: Config, readout: ImuReadout = .polling, report: (String) -> Void = { _ in },
                                  lines: () throws(SessionError) -> Lines,
                                  calibration: () -> Calibration? = { nil }) throws(SessionError) -> TrackerSession {
        // Installed before the sensors come up, so a Ctrl-C during set-up also ends through the normal path.
        StopSignals.install()
        let bus = try HardwareSession.openBus(config.i2cDevice)
        let detected: (SensorBoard<Bus>, Detection)
        do { detected = try detectBoard(bus: bus, config: config, report: report) } catch { throw SessionError(error.description) }
        return TrackerSession(board: detected.0, detection: detected.1, lines: try lines(), clock: LinuxMonotonicClock(),
                              config: config, calibration: calibration(), readout: readout)
    }

    /// `onHardware` and `start` in one, for the commands that only read the sensors (record, calibrate).
    public static func started(config: Config, lines: Lines) throws(SessionError) -> TrackerSession {
        var session = try onHardware(config: config, lines: { lines })
        do { try session.start() } catch { throw SessionError(error.description) }
        return session
    }
}
