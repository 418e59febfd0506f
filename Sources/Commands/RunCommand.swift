import Hardware
import Formats
import EventStream
import Service
import Sensors
import Geometry

/// `headtrack run`: the pipeline on real hardware until SIGINT/SIGTERM.
struct RunCommand: Command {
    static let name = "run"
    static let stopsCleanly = true
    static let summary = "track the head on real hardware and drive the LEDs (until Ctrl-C / SIGTERM)"
    static let help = options.help("""
        usage: headtrack run [--i2c DEV] [--gpio-chip CHIP] [--config FILE] [--duration S] [--quiet]
                             [--fifo] [--imu-hz HZ] [--realtime [--cpu N] [--priority P]] [--socket PATH]
               headtrack run --simulated [--speed N] [--duration S] [--fifo] [--imu-hz HZ] [--realtime ...]
                                         [--config FILE] [--socket PATH] [--worn F,L,U]
                                         [--answer nod|shake] [--keys] [--loop]

        Reads the IMU and magnetometer over I²C, fuses attitude and heading, detects gestures and drives the
        LEDs through the GPIO character device. SIGINT or SIGTERM end it cleanly with every LED off.
        A fault summary is logged every minute and at exit. Gestures, heading and faults are served to local
        apps as JSON lines on a Unix socket (docs/protocol.md; `headtrack watch` shows them).
        The mount is the config's `mount`; when it names none, the one `headtrack calibrate --mount` learned
        (mount.json beside the calibration file). While worn, the head's rests and nods are compared with it:
        a mount that disagrees with them for minutes gets one warning in the log.
        """, outro: """
        The magnetometer's hard and soft iron are learned while the headset is worn (config calibration.auto,
        default true) and kept in calibration.learned.json beside the config's calibrationFile (with
        --simulated only when --config names the config); see docs/calibration.md.
        """)

    static let options = OptionTable(helpColumn: 20, [
        .value("i2c", "DEV", "I²C bus device (default from the config, else /dev/i2c-1)"),
        .value("gpio-chip", "CHIP", "GPIO chip path or label, e.g. /dev/gpiochip0, pinctrl-rp1, pinctrl-bcm2711"),
        .value("config", "FILE", "JSON config (default /etc/headtrack/config.json when it exists)"),
        .value("duration", "S", "stop after S seconds (default: run until stopped)", allowed: .seconds),
        .flag("quiet", "print only faults and the summary"),
        .flag("fifo", """
            read the IMU through its FIFO: the chip samples on its own clock and every sample
            is stamped from the sensor's sample period (default: direct register polling)
            """),
        .value("imu-hz", "HZ", "IMU sample rate, \(ConfigLimits.text(ConfigLimits.imuHz)) (default from the config, else 200)",
               allowed: .numbers(ConfigLimits.imuHz, said: "within \(ConfigLimits.text(ConfigLimits.imuHz))")),
        .flag("realtime", """
            SCHED_FIFO for the loop thread, all memory locked (mlockall); if the system
            refuses, one warning line and normal scheduling
            """),
        .value("cpu", "N", "with --realtime: pin the loop thread to CPU N", allowed: RealtimeOptions.cpus),
        .value("priority", "P", "with --realtime: SCHED_FIFO priority 1...99 (default 50)", allowed: RealtimeOptions.priorities),
        .value("socket", "PATH", """
            event stream socket (default: the config's stream.socket, else
            /run/headtrack/events.sock; with --simulated only when given or configured)
            """),
        .flag("simulated", """
            run the loop on the simulated board (demo story) instead of hardware; prints
            the loop's stage timing at the end
            """),
        .value("speed", "N", """
            with --simulated: 1 = paced by the real clock (default), 0 = as fast as possible
            with the I²C bus time modelled at 400 kHz
            """),
        .value("worn", "F,L,U", """
            with --simulated: the simulated board's axes that point forward, left and up on
            the simulated head (default x,y,z), e.g. --worn=-x,z,y for a headphone board
            """),
        .value("answer", "G", """
            with --simulated: the simulated wearer answers every app's question (an `ask` on the
            event stream) with G, nod or shake, a second after it is asked
            """, allowed: .words(["nod", "shake"])),
        .flag("keys", """
            with --simulated: type n (nod) or s (shake), then Enter, and the simulated wearer
            makes that gesture (the same from a test: write to standard input)
            """),
        .flag("loop", """
            with --simulated: play the story again and again
            With --answer, --keys or --loop the run goes on until stopped (or --duration); a
            gesture asked for starts when the story's current movement ends (3 s at most)
            """),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let configPath = try arguments.option("config")
        let config = try HardwareSession.loadConfig(configPath)
        var overrides = SessionPlan.Overrides()
        overrides.i2cDevice = try arguments.option("i2c")
        overrides.gpioChip = try arguments.option("gpio-chip")
        var options = ServiceOptions()
        options.duration = try arguments.double("duration")
        options.quiet = arguments.flag("quiet")
        options.readout = arguments.flag("fifo") ? .fifo : .polling
        overrides.imuHz = try arguments.double("imu-hz")
        options.realtime = try RealtimeOptions.parse(&arguments)
        overrides.socket = try arguments.socketPath()
        let simulated = arguments.flag("simulated")
        // The mount is the config's, else the one `calibrate --mount` learned, on the simulated board too; the
        // simulated board takes the calibration files only of a config named with --config.
        let plan = SessionPlan(config: config, overrides: overrides,
                               reading: simulated && configPath == nil ? .mount : [.mount, .calibration],
                               warn: { Log.warning($0) })
        if simulated {
            for (option, given) in [("i2c", overrides.i2cDevice), ("gpio-chip", overrides.gpioChip)] where given != nil {
                throw CommandError("--\(option) does not apply to run --simulated: the simulated board has its own bus and "
                    + "LED lines (drop --\(option), or leave out --simulated to run on that hardware)", status: 2)
            }
            let speed = try arguments.double("speed") ?? 1
            let worn = try WornOption.parse(&arguments)
            let wearer = try WearerOptions.parse(&arguments)
            try arguments.finish()
            return try SimulatedRunMode.run(plan: plan, options: options, speed: speed, worn: worn, wearer: wearer)
        }
        try arguments.finish()
        do {
            var service = try Service.onHardware(plan: plan, options: options)
            try service.run()
        } catch { throw CommandError(error.description) }
        return 0
    }
}
