import Hardware
import Formats
import EventStream
import Service
import Sensors

/// `headtrack run`: the pipeline on real hardware until SIGINT/SIGTERM.
struct RunCommand: Command {
    static let name = "run"
    static let summary = "track the head on real hardware and drive the LEDs (until Ctrl-C / SIGTERM)"
    static let help = """
        usage: headtrack run [--i2c DEV] [--gpio-chip CHIP] [--config FILE] [--duration S] [--quiet]
                             [--fifo] [--imu-hz HZ] [--realtime [--cpu N] [--priority P]] [--socket PATH]
               headtrack run --simulated [--speed N] [--duration S] [--fifo] [--imu-hz HZ] [--realtime ...]
                                         [--config FILE] [--socket PATH]

        Reads the IMU and magnetometer over I²C, fuses attitude and heading, detects gestures and drives the
        LEDs through the GPIO character device. SIGINT or SIGTERM end it cleanly with every LED off.
        A fault summary is logged every minute and at exit. Gestures, heading and faults are served to local
        apps as JSON lines on a Unix socket (the README's "Event stream"; `headtrack watch` shows them).

        options:
          --i2c DEV         I²C bus device (default from the config, else /dev/i2c-1)
          --gpio-chip CHIP  GPIO chip path or label, e.g. /dev/gpiochip0, pinctrl-rp1, pinctrl-bcm2711
          --config FILE     JSON config (default /etc/headtrack/config.json when it exists)
          --duration S      stop after S seconds (default: run until stopped)
          --quiet           print only faults and the summary
          --fifo            read the IMU through its FIFO: the chip samples on its own clock and every sample
                            is stamped from the sensor's sample period (default: direct register polling)
          --imu-hz HZ       IMU sample rate, \(ConfigLimits.text(ConfigLimits.imuHz)) (default from the config, else 200)
          --realtime        SCHED_FIFO for the loop thread, all memory locked (mlockall); if the system
                            refuses, one warning line and normal scheduling
          --cpu N           with --realtime: pin the loop thread to CPU N
          --priority P      with --realtime: SCHED_FIFO priority 1...99 (default 50)
          --socket PATH     event stream socket (default: the config's stream.socket, else
                            /run/headtrack/events.sock; with --simulated only when given or configured)
          --simulated       run the loop on the simulated board (demo story) instead of hardware; prints
                            the loop's stage timing at the end
          --speed N         with --simulated: 1 = paced by the real clock (default), 0 = as fast as possible
                            with the I²C bus time modelled at 400 kHz
        """

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        var config = try HardwareSession.loadConfig(try arguments.option("config"))
        if let d = try arguments.option("i2c") { config.i2cDevice = d }
        if let c = try arguments.option("gpio-chip") { config.gpioChip = c }
        let duration = try arguments.duration()
        let quiet = arguments.flag("quiet")
        let readout: ImuReadout = arguments.flag("fifo") ? .fifo : .polling
        if let hz = try arguments.double("imu-hz") {
            guard ConfigLimits.imuHz.contains(hz) else {
                throw CommandError("--imu-hz must be within \(ConfigLimits.text(ConfigLimits.imuHz)), got \(hz)", status: 2)
            }
            config.rates.imuHz = hz
        }
        let realtime = try RealtimeOptions.parse(&arguments)
        let socket = try arguments.option("socket")
        if arguments.flag("simulated") {
            let speed = try arguments.double("speed") ?? 1
            try arguments.finish()
            return try SimulatedRunMode.run(config: config, readout: readout, speed: speed, duration: duration,
                                            quiet: quiet, realtime: realtime, socket: socket)
        }
        try arguments.finish()

        var session = try TrackerSession.onHardware(
            config: config, readout: readout, report: { if !quiet { Console.out($0) } },
            lines: { () throws(SessionError) in try HardwareSession.openLines(config) },
            calibration: { HardwareSession.loadCalibration(config.calibrationFile, warn: { Console.err($0) }) })
        // Before the sensors start: a socket the user named that cannot be opened stops here, LEDs untouched.
        let stream = try StreamSetup.open(explicit: socket, config: config, byDefault: true,
                                          hello: StreamHello(board: session.loop.driver, rates: config.rates,
                                                             stateHz: config.streamStateHz))
        defer { stream?.stop() }
        let lines = session.loop.lines
        do { try session.start() } catch { throw CommandError(error.description) }
        let chip = session.loop.driver.chipName
        Console.out("headtrack: \(chip) on \(config.i2cDevice)"
            + ", LEDs on \(lines.chipPath) (\(lines.chipLabel)) lines \(config.ledLines.map(String.init).joined(separator: ","))")
        // Under systemd, stdout and stderr are sockets to the journal, written from the loop thread. A journal
        // that stalls would block that write and with it the loop: make them non-blocking, so a line it cannot
        // take now is dropped and counted instead (restored before the closing lines, which must get through).
        let journalNeverBlocks = Log.toJournal && Console.outputsNeverBlock(true)
        defer { if journalNeverBlocks { Console.outputsNeverBlock(false) } }   // also on an error's way out
        var status = ServiceStatus(device: chip)
        var faultLog = FaultLog()
        // Made once before the loop: the loop thread's gesture lines are formatted into it without allocating.
        let gestureLine = LineBuffer(capacity: 64)
        // Opened once before the loop: every ping and status is then one sendto() from the loop thread.
        let notifier = SystemdNotifier()
        defer { notifier?.close() }
        session.serve(duration: duration, thread: LoopThread(realtime: realtime), status: status.text,
                      notifier: notifier, say: Log.say) { event, pipeline in
            stream?.handle(event, pipeline)
            if let notifier, let text = status.handle(event) { notifier.send("STATUS=" + text) }
            switch event {
            case let .gesture(t, e):
                if !quiet { Log.gesture(e, at: t, into: gestureLine) }
            case let .fault(t, error):
                if faultLog.fault(t: t) { Log.warning("t=\(fixed(t, 2))s fault: \(error)") }
            case let .reinitialized(t):
                Log.warning("t=\(fixed(t, 2))s a sensor had lost its configuration (power glitch?): re-initialised")
            case let .display(t, _):
                if let ended = faultLog.tick(t: t) {
                    Log.warning("t=\(fixed(t, 2))s fault over after \(fixed(ended.duration, 2)) s"
                        + (ended.repeats > 0 ? "; \(ended.repeats) more failing samples (counted in the summary)" : ""))
                }
            case .imu:
                break
            }
        }
        stream?.stop()
        if journalNeverBlocks { Console.outputsNeverBlock(false) }
        if Console.droppedLines > 0 {
            Log.warning("headtrack: \(Console.droppedLines) log lines dropped while the journal could not take them")
        }
        Console.out(session.stoppedLine)
        if let s = stream { Log.info("  " + StreamSetup.summary(s)) }
        if !quiet { for line in session.loop.timing.summaryLines { Console.out("  " + line) } }
        return 0
    }
}
