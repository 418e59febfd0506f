import LibC
import Fusion
import SensorCalibration
import Geometry
import Gestures
import Hardware
import Tracking
import Formats
import Service
import EventStream

/// `headtrack calibrate`: gyro bias at rest, then magnetometer hard/soft iron from turning the headset,
/// saved atomically to the calibration file (the old one kept as FILE.previous); with `--mount`, the guided
/// step that learns how the headset is worn (`MountCalibration`).
struct CalibrateCommand: Command {
    static let name = "calibrate"
    static let stopsCleanly = true
    static let summary = "learn how the headset is worn (--mount); measure gyro bias and magnetometer hard/soft iron"
    static let help = options.help("""
        usage: headtrack calibrate --mount [--out FILE] [--i2c DEV] [--config FILE] [--duration S]
                                   [--restart-service [--service UNIT] [--service-user USER]]
               headtrack calibrate --mount --trace TRACE [--out FILE]
               headtrack calibrate --mount --simulated [--worn F,L,U] [--out FILE]
               headtrack calibrate [--out FILE] [--i2c DEV] [--config FILE] [--duration S] [--skip-gyro]
                                   [--restart-service [--service UNIT] [--service-user USER]] [--socket PATH]
               headtrack calibrate --trace TRACE [--out FILE] [--skip-gyro] [--socket PATH [--speed N]]
               headtrack calibrate [--mount] --show [--out FILE]

        --mount, the first step of setting up a headset, learns how the sensor sits on the head. Wear the
        headset and follow the prompts:
          1. look straight ahead and keep still for 2 s (up, from gravity);
          2. nod 3 or more times in a row, chin down first and back up (left, from the nods' axis; forward,
             from the chin-down first swing).
        A run of nods that reverse without a hold is what it takes; a tilt toward a shoulder is not one. The
        mount is written atomically to mount.json beside the calibration file (default
        /var/lib/headtrack/mount.json; the file it replaces is kept as FILE.previous) as an axis form such as
        -x,z,y when the head's axes measure within 25° of one, else as nine numbers; 'run' uses it when the
        config names no mount. --simulated plays the step on the simulated board, worn as --worn says.

        Without --mount, the sensors' calibration, guided in the terminal:
          1. put the headset down and keep it still for 5 s (gyro bias);
          2. turn it slowly in every direction — nose up and down, ear to each shoulder, upside down — until
             the display says enough directions are covered. Waiting still before turning is fine: the
             session keeps collecting until the fit is good or --duration runs out.
        The ellipsoid (hard and soft iron) is refitted as you turn; the turn is complete when, around the
        fitted centre, half the directions are covered with 3+ samples each, the directions spread in every
        axis, and the fit leaves under 4 % error with almost no samples off it. At the end a fit is refused,
        and nothing is written, with the reason: too little rotation, a field that changed during the turn
        (a magnet or steel nearby), a field strength outside the Earth's 25–65 µT, or no magnetometer.
        A good fit is saved atomically; the file it replaces is kept as FILE.previous.

        On a board where the headtrack service runs, the service holds the sensors: calibrate says so, or
        with --restart-service (as root) stops the service, calibrates as the service's user, writes the
        configured calibration file and starts the service again, also after Ctrl-C or a dropped ssh link.
        From a laptop:  ssh -t pi@HOST sudo /opt/headtrack/current/headtrack calibrate --restart-service
                          --config /etc/headtrack/config.json
        """)

    static let options = OptionTable(helpColumn: 22, [
        .flag("mount", "learn the mount (the guided step above) instead of calibrating the sensors"),
        .value("out", "FILE", """
            calibration file (default: calibrationFile from the config,
            /var/lib/headtrack/calibration.json); with --mount, the mount file (default:
            mount.json in the calibration file's directory)
            """),
        .value("i2c", "DEV", "I²C bus (default from the config, else /dev/i2c-1)"),
        .value("config", "FILE", "JSON config"),
        .value("duration", "S", """
            give up turning after S seconds (default 180; with --mount, give up after S
            seconds in all, default 60)
            """, allowed: .seconds),
        .flag("skip-gyro", "do not measure the gyro bias (keep the headset moving from the start)"),
        .flag("restart-service", "stop the running service first and start it again afterwards (needs root)"),
        .value("service", "UNIT", "systemd unit to stop and start (default headtrack)"),
        .value("service-user", "U", "user to calibrate and write the file as (default headtrack, the unit's User=)"),
        .value("trace", "TRACE", """
            calibrate from a recorded imu-trace v1 file instead of the sensors, with the
            same stop rule (the fit uses the samples up to where it is complete)
            """),
        .flag("simulated", "with --mount: on the simulated board (a wearer keeps still, then nods 4 times)"),
        .value("worn", "F,L,U", "with --simulated: how the simulated board sits on the head (default x,y,z)"),
        .flag("show", "print the calibration file (with --mount: the mount file) and exit"),
        .value("socket", "PATH", """
            serve the event stream while calibrating: state lines and `calibration` lines with
            the samples, the fit and its coverage cells, so `headtrack view --socket PATH`
            draws the sphere filling up (the service's socket is gone while it is stopped)
            """),
        .value("speed", "N", """
            with --trace and --socket: replay the trace N× faster than its own time
            (default 1; 0 = as fast as possible)
            """,
            allowed: .numbers(0...Limits.maxSpeed, said: "0 (as fast as possible) or a speed up to \(Int(Limits.maxSpeed))× the trace's time")),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let file = try HardwareSession.loadConfig(try arguments.option("config"))
        let mountStep = arguments.flag("mount")
        let outOption = try arguments.option("out")
        var overrides = SessionPlan.Overrides()
        overrides.i2cDevice = try arguments.option("i2c")
        let duration = try arguments.double("duration") ?? (mountStep ? 60 : 180)
        let trace = try arguments.option("trace")
        let skipGyro = arguments.flag("skip-gyro")
        let show = arguments.flag("show")
        let restartService = arguments.flag("restart-service")
        let unit = try arguments.option("service") ?? "headtrack"
        let serviceUser = try arguments.option("service-user") ?? "headtrack"
        overrides.socket = try arguments.socketPath()
        let speed = try arguments.double("speed")
        let simulated = arguments.flag("simulated")
        let worn = try WornOption.parse(&arguments)
        try arguments.finish()
        let plan = SessionPlan(config: file, overrides: overrides)
        let config = plan.config, i2c = config.i2cDevice, socket = plan.socket
        // By default the files the plan names: the mount file `run` reads, or the guided calibration file.
        let out = outOption ?? (mountStep ? plan.mountFile : config.calibrationFile)
        if mountStep {
            guard socket == nil && speed == nil else {
                throw CommandError("--socket and --speed serve the sensors' calibration; calibrate --mount prints its prompts", status: 2)
            }
            let store = MountStore(path: out)
            if show { return try MountCalibration.show(store) }
            if skipGyro { throw CommandError("--skip-gyro is for the magnetometer calibration; calibrate --mount measures no gyro bias", status: 2) }
            if let path = trace { return try MountCalibration.fromTrace(path, store: store) }
            if simulated { return try MountCalibration.simulated(worn: worn, config: config, store: store, duration: duration) }
            return try inPlace(i2c: i2c, unit: unit, restartRequested: restartService, serviceUser: serviceUser, out: out,
                               step: "calibrate --mount") {
                try MountCalibration.onSensors(config: config, duration: duration, store: store)
            }
        }
        if simulated { throw CommandError("--simulated is for calibrate --mount (the magnetometer calibration runs on the sensors or --trace)", status: 2) }
        if speed != nil && (trace == nil || socket == nil) {
            throw CommandError("--speed paces a --trace for the stream: it needs --trace and --socket", status: 2)
        }
        if let s = speed, s > 0 && s < Limits.minSpeed {
            throw CommandError("--speed must be 0 (as fast as possible) or at least \(Limits.minSpeed)", status: 2)
        }
        let store = CalibrationStore(path: out)

        if show {
            let c: Calibration
            do { c = try store.load() } catch { throw CommandError(error.description) }
            Console.write(1, CalibrationStore.encode(c))
            return 0
        }

        var settings = CalibrationSession.Settings()
        settings.measureGyro = !skipGyro
        var session = CalibrationSession(settings: settings)
        if let path = trace {
            try SameFileCheck.refuse(input: path, what: "trace", outputs: [("out", out)])
            let recording: Trace
            do { recording = try TraceFile.read(path: path) } catch { throw CommandError(error.description) }
            guard recording.hasMagnetometer else {
                throw CommandError("\(path) has no magnetometer columns (mx,my,mz are empty): nothing to calibrate for heading; record a trace on a board with a magnetometer")
            }
            var broadcast: CalibrationBroadcast? = nil
            if socket != nil, let stream = try ReplayCommand.openStream(recording, socket: socket) {
                broadcast = CalibrationBroadcast(stream: stream)
            }
            defer { broadcast?.stop() }
            if let b = broadcast {
                replayStreaming(recording, into: &session, broadcast: b, speed: speed ?? 1)
            } else {
                // The same stop rule as on the sensors: the fit uses the samples up to the moment it is complete.
                for r in recording.records where session.phase != .complete && !StopSignals.requested {
                    session.add(t: r.t, gyro: r.gyro, accel: r.accel, mag: r.mag)
                }
            }
            if StopSignals.requested { throw CommandError("stopped by \(StopSignals.cause) before the fit: nothing saved") }
            if session.phase == .keepStill {
                throw CommandError("\(path) never holds still for \(fixed(settings.restSeconds, 0)) s: pass --skip-gyro to calibrate only the magnetometer")
            }
            let done = session
            return try broadcast?.end(done, saved: "saved \(store.path)") { try finish(done, store: store) } ?? finish(done, store: store)
        }

        return try inPlace(i2c: i2c, unit: unit, restartRequested: restartService, serviceUser: serviceUser, out: out) {
            let broadcast = try runOnSensors(&session, config: config, duration: duration, socket: socket)
            defer { broadcast?.stop() }
            let done = session
            return try broadcast?.end(done, saved: "saved \(store.path)") { try finish(done, store: store) } ?? finish(done, store: store)
        }
    }

    /// On the board, who holds the sensors decides what happens: `work` runs now, or after the service was
    /// stopped (as the service's user, the service started again afterwards), or not at all, saying why.
    private static func inPlace(i2c: String, unit: String, restartRequested: Bool, serviceUser: String, out: String,
                                step: String = "calibrate", work: () throws -> Int32) throws -> Int32 {
        let busBusy = busHeldElsewhere(i2c)
        let service = ServiceControl(unit: unit)
        // Asked even when the bus is free: a service running an older binary takes no lock.
        let plan = InPlacePlan.decide(busBusy: busBusy, serviceActive: service.isActive,
                                      restartRequested: restartRequested, isRoot: geteuid() == 0,
                                      unit: unit, device: i2c, out: out,
                                      program: CommandLine.arguments.first ?? "headtrack", step: step)
        switch plan {
        case let .refuse(message):
            throw CommandError(message)
        case .calibrate:
            return try work()
        case .restartService:
            guard let user = ServiceUser.lookup(serviceUser) else {
                throw CommandError("no user '\(serviceUser)' on this board (the service's User=): pass --service-user, nothing changed")
            }
            StopSignals.install()
            StopSignals.installHangup()
            Console.out("stopping \(unit) to free the sensors")
            try service.stop()
            defer {
                ServiceUser.becomeRootAgain()
                Console.out(service.start() ? "\(unit) started again" : "could not start \(unit) again: run 'sudo systemctl start \(unit)'")
            }
            // The daemon's lock goes when it exits (TimeoutStopSec=5s): wait a little longer than that.
            var waited = 0.0
            while busHeldElsewhere(i2c) && waited < 6 {
                var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
                nanosleep(&pause, nil)
                waited += 0.1
            }
            try user.become()
            return try work()
        }
    }

    /// The guided calibration on the sensors; with `socket`, the stream it serves (still open, for the last line).
    private static func runOnSensors(_ session: inout CalibrationSession, config: Config, duration: Double,
                                     socket: String?) throws -> CalibrationBroadcast? {
        var tracker = try TrackerSession.started(config: config, lines: NoLines())
        guard tracker.loop.driver.hasMagnetometer else {
            throw CommandError("\(tracker.loop.driver.chipName) on \(config.i2cDevice) has no magnetometer: nothing to calibrate for heading (check the wiring of the AK8963 / external compass)")
        }
        var broadcast: CalibrationBroadcast? = nil
        if let stream = try StreamSetup.open(socket: socket, config: config, byDefault: false,
                                             hello: StreamHello(board: tracker.loop.driver, rates: config.rates,
                                                                stateHz: config.streamStateHz)) {
            broadcast = CalibrationBroadcast(stream: stream)
        }
        let live = Console.isTerminal
        var lastPrint = -Double.infinity
        var turnStart: Double?
        var state = session
        tracker.run(duration: nil, shouldStop: {
            state.phase == .complete || (turnStart != nil && (lastPrint - turnStart!) > duration)
        }) { event, pipeline in
            broadcast?.handle(event, pipeline, session: state)
            guard case let .imu(t, sample, mag) = event else { return }
            state.add(t: t, gyro: sample.gyro, accel: sample.accel, mag: mag)
            if state.phase == .turn && turnStart == nil { turnStart = t }
            if t - lastPrint >= (live ? 0.2 : 2) {
                lastPrint = t
                let line = state.progressText(at: t)
                if live { Console.write(1, "\r\u{1B}[K" + line) } else { Console.out(line) }
            }
        }
        if live { Console.out("") }
        session = state
        if session.phase == .keepStill {
            broadcast?.stop()
            throw CommandError("stopped before the gyro bias was measured; nothing written")
        }
        return broadcast
    }

    /// `--trace` with `--socket`: the trace through the pipeline (state lines for the view's head) and the
    /// session, paced at the trace's own time × `speed`, until the turn is complete.
    private static func replayStreaming(_ recording: Trace, into session: inout CalibrationSession,
                                        broadcast: CalibrationBroadcast, speed: Double) {
        var pacer = TracePacer(firstTraceTime: recording.records.first?.t ?? 0, speed: speed)
        var state = session
        Replay.run(recording, settings: Pipeline.Settings()) { event, pipeline in
            // The rest of the trace, after the turn is complete or a stop, runs unpaced and unsent.
            guard state.phase != .complete && !StopSignals.requested else { return }
            switch event {
            case let .sample(index, t):
                let r = recording.records[index]
                state.add(t: t, gyro: r.gyro, accel: r.accel, mag: r.mag)
                broadcast.progress(state, t: t)
            case let .display(t, leds):
                pacer.wait(untilTraceTime: t)
                broadcast.stream.display(t: t, leds: leds, pipeline: pipeline)
            case let .gesture(g):
                broadcast.stream.gesture(g, bouts: pipeline.bouts)
            }
        }
        session = state
    }

    private static func finish(_ session: CalibrationSession, store: CalibrationStore) throws -> Int32 {
        let made: (Calibration, EllipsoidFit.Result)
        do { made = try session.result(createdUnixTime: Double(time(nil))) } catch {
            throw CommandError("magnetometer fit refused, nothing written: \(error)")
        }
        let (calibration, fit) = made
        do { try store.save(calibration) } catch { throw CommandError(error.description) }
        let b = calibration.gyroBias * Units.degreesPerRadian
        let h = calibration.magnetometer.hardIron
        Console.out("gyro bias: \(fixed(b.x, 3)), \(fixed(b.y, 3)), \(fixed(b.z, 3)) °/s"
                    + (session.gyroBias == nil ? " (not measured)" : ""))
        Console.out("hard iron: \(fixed(h.x, 2)), \(fixed(h.y, 2)), \(fixed(h.z, 2)) µT; ellipsoid axis ratio \(fixed(fit.axisRatio, 3))")
        Console.out("field \(fixed(fit.fieldStrength, 1)) µT (Earth: 25–65), fit error \(fixed(fit.relativeResidual * 100, 2)) %, "
                    + "\(fixed(fit.inlierFraction * 100, 1)) % of samples kept, \(Int((fit.coverage * 100).rounded())) % of directions, "
                    + "spread \(Int((fit.spread * 100).rounded())) %, \(fit.samples) distinct samples"
                    + (session.phase == .complete ? "" : " (stopped before the turn was complete; accepted by the looser final checks)"))
        if !(25...65).contains(fit.fieldStrength) {
            Console.out("note: the fitted field (\(fixed(fit.fieldStrength, 1)) µT) is outside the Earth's 25–65 µT: accepted, because an untrimmed sensor gain can put it there, but check for steel nearby")
        }
        Console.out("saved \(store.path)" + (FileIO.exists(store.previousPath) ? " (previous kept as \(store.previousPath))" : ""))
        return 0
    }
}
