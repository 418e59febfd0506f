import EventStream
import Formats
import Hardware
import Sensors
import Tracking

/// What `headtrack run` asks of the daemon beyond its plan (`SessionPlan`: config, mount, calibration, socket).
public struct ServiceOptions: Sendable {
    /// Stop after this long (s); nil: until SIGINT/SIGTERM.
    public var duration: Double? = nil
    /// Print only faults and the summary.
    public var quiet = false
    public var readout: ImuReadout = .polling
    public var realtime: RealtimeMode? = nil
    /// Without a socket named (`SessionPlan.socket`) or configured (`stream.socket`), serve the default path:
    /// the headset does; a simulated run on a laptop does not, so a machine without /run/headtrack stays quiet.
    public var streamByDefault = true
    public init() {}
}

/// Why the daemon could not start, said so the user can act on it.
public struct ServiceError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The daemon: one tracking session served as the headset's service. It owns everything between the config
/// and the LEDs: the session (detection, drivers, loop, calibration), the event stream, the stop signals, the
/// real-time mode of the loop thread, systemd's READY, status and watchdog, and the journal's log lines. The
/// command line parses options and hands them over; the simulated board (`run --simulated`) goes through the
/// same type, so what is tested there is what the headset runs.
public struct Service<Bus: I2CBus, Lines: OutputLines, Clock: MonotonicClock> {
    public private(set) var session: TrackerSession<Bus, Lines, Clock>
    public let plan: SessionPlan
    public let options: ServiceOptions
    public let stream: EventStream?

    /// The service around a session that is not started yet. The event stream opens first, so a socket the
    /// user named that cannot be opened stops here, before the sensors start and the LEDs are touched.
    /// `session` must be built from `plan.config`, which holds the plan's mount.
    public init(session: TrackerSession<Bus, Lines, Clock>, plan: SessionPlan, options: ServiceOptions) throws(ServiceError) {
        self.session = session
        self.plan = plan
        self.options = options
        stream = try StreamSetup.open(socket: plan.socket, config: plan.config, byDefault: options.streamByDefault,
                                      hello: StreamHello(detection: session.detection, rates: plan.rates,
                                                         stateHz: plan.config.streamStateHz, mount: plan.mount))
    }

    /// Brings the sensors up and tracks until the duration has passed or SIGINT/SIGTERM arrived, then every
    /// LED is off and the closing lines are logged. Nothing said from the loop thread blocks it: under systemd
    /// the journal stream is non-blocking (a line it cannot take is dropped and counted), gesture lines are
    /// formatted into a buffer made here, and every stream socket is non-blocking.
    public mutating func run() throws(ServiceError) {
        defer { stream?.stop() }
        do { try session.start() } catch { throw ServiceError(error.description) }
        let device = session.loop.driver.chipName
        Log.info("headtrack: \(device) on \(session.detection.bus), LEDs on \(session.loop.lines.name)")
        let mount = plan.mount
        Log.info("headtrack: mount " + mount.summary)
        let journalNeverBlocks = Log.toJournal && Console.outputsNeverBlock(true)
        defer { if journalNeverBlocks { Console.outputsNeverBlock(false) } }   // also on an error's way out
        var status = ServiceStatus(device: device, mount: mount)
        // Learning while worn: says when the configured mount disagrees with the head for minutes (see there).
        var mountWatch = WornMountWatch(configured: mount.mount)
        var faultLog = FaultLog()
        let gestureLine = LineBuffer(capacity: 64)
        // Opened once before the loop: every ping and status is then one sendto() from the loop thread.
        let notifier = SystemdNotifier()
        defer { notifier?.close() }
        let quiet = options.quiet
        let stream = self.stream
        let writer = plan.learnedCalibration.map { CalibrationWriter(path: $0, warn: { Log.warning($0) }) }
        defer { writer?.finish() }
        var calibration = CalibrationReports(writer: writer, quiet: quiet)
        // A client's pending question puts the detector in answer mode (single gestures), checked per display tick.
        if let stream { session.loop.questionPending = { stream.questionPending } }
        session.serve(duration: options.duration, thread: LoopThread(realtime: options.realtime), status: status.text,
                      notifier: notifier, say: Log.say) { event, pipeline in
            stream?.handle(event, pipeline)
            if let notifier, let text = status.handle(event) { notifier.send("STATUS=" + text) }
            if case let .gesture(g) = event, !quiet { Log.gesture(g.event, at: g.t, into: gestureLine) }
            if let warning = faultLog.warning(for: event) { Log.warning(warning) }
            if case let .imu(t, sample, _) = event,
               let finding = mountWatch.add(t: t, gyro: pipeline.settings.calibration.correctGyro(sample.gyro), accel: sample.accel) {
                if finding.isWarning { Log.warning(finding.text) } else { Log.info(finding.text) }
            }
            if case let .display(t, _) = event, let text = calibration.tick(t: t, pipeline: pipeline, status: &status) {
                notifier?.send("STATUS=" + text)
            }
        }
        stream?.stop()
        writer?.finish()
        if let w = writer, w.saves > 0 { Log.info("headtrack: learned calibration saved to \(w.store.path) (\(w.saves) saves)") }
        if journalNeverBlocks { Console.outputsNeverBlock(false) }
        if Console.droppedLines > 0 {
            Log.warning("headtrack: \(Console.droppedLines) log lines dropped while the journal could not take them")
        }
        Log.info(session.stoppedLine)
        if let s = stream { Log.info("  " + s.summary) }
        if !quiet { for line in session.loop.timing.summaryLines { Log.info("  " + line) } }
    }
}

extension Service where Bus == LinuxI2CBus, Lines == LinuxGPIOLines, Clock == LinuxMonotonicClock {
    /// The daemon on the board the plan's config names: the bus opened and the sensors detected (findings
    /// logged unless quiet), the LED lines opened, the plan's calibration loaded (its lines said then; a bad
    /// file is a warning, never a stop), the event stream opened; not started yet.
    public static func onHardware(plan: SessionPlan, options: ServiceOptions) throws(ServiceError) -> Service {
        let quiet = options.quiet
        let session: TrackerSession<Bus, Lines, Clock>
        do {
            session = try TrackerSession.onHardware(
                config: plan.config, readout: options.readout, report: { if !quiet { Log.info($0) } },
                lines: { () throws(SessionError) in try HardwareSession.openLines(plan.config) },
                calibration: { plan.startingCalibration(quiet: quiet) })
        } catch { throw ServiceError(error.description) }
        return try Service(session: session, plan: plan, options: options)
    }
}

extension StreamHello {
    /// What the stream's clients learn of the board: the chips by the names detection gave them (those
    /// `probe` prints), the rates, and the mount in use.
    public init(detection: Detection, rates: LoopRates, stateHz: Double, mount: MountInUse = MountInUse(mount: nil, source: .none)) {
        self.init(imu: detection.imu?.name ?? "none", magnetometer: detection.magnetometer?.kind.displayName,
                  rates: rates, stateHz: stateHz, mount: mount)
    }
}
