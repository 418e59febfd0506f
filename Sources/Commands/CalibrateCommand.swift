#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinux
import Fusion
import Hardware
import Runtime
import Sensors

/// `headtrack calibrate`: gyro bias at rest, then magnetometer hard/soft iron from turning the headset,
/// saved atomically to the calibration file (the old one kept as FILE.previous).
struct CalibrateCommand: Command {
    static let name = "calibrate"
    static let summary = "measure gyro bias and magnetometer hard/soft iron; save them to the calibration file"
    static let help = """
        usage: headtrack calibrate [--out FILE] [--i2c DEV] [--config FILE] [--duration S] [--skip-gyro]
               headtrack calibrate --trace TRACE [--out FILE] [--skip-gyro]
               headtrack calibrate --show [--out FILE]

        Guided in the terminal:
          1. put the headset down and keep it still for 5 s (gyro bias);
          2. turn it slowly in every direction — upside down and on each side too — until the display says
             80 % of directions are covered (a hand-held turn of the headset is easiest).
        The magnetometer samples are fitted with an ellipsoid (hard and soft iron). A fit that covers less than
        50 % of directions or leaves more than 5 % error is refused, and nothing is written. A good one is saved
        atomically; the file it replaces is kept as FILE.previous.

        options:
          --out FILE      calibration file (default: calibrationFile from the config,
                          /var/lib/headtrack/calibration.json)
          --i2c DEV       I²C bus (default from the config, else /dev/i2c-1)
          --config FILE   JSON config
          --duration S    give up turning after S seconds (default 180)
          --skip-gyro     do not measure the gyro bias (keep the headset moving from the start)
          --trace TRACE   calibrate from a recorded imu-trace v1 file instead of the sensors
          --show          print the calibration file and exit
        """

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let config = try HardwareSession.loadConfig(try arguments.option("config"))
        let out = try arguments.option("out") ?? config.calibrationFile
        let i2c = try arguments.option("i2c") ?? config.i2cDevice
        let duration = try arguments.duration() ?? 180
        let trace = try arguments.option("trace")
        let skipGyro = arguments.flag("skip-gyro")
        let show = arguments.flag("show")
        try arguments.finish()
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
            let recording: Trace
            do { recording = try TraceFile.read(path: path) } catch { throw CommandError(error.description) }
            for r in recording.records { session.add(t: r.t, gyro: r.gyro, accel: r.accel, mag: r.mag) }
            if session.phase == .keepStill {
                throw CommandError("\(path) never holds still for \(fixed(settings.restSeconds, 0)) s: pass --skip-gyro to calibrate only the magnetometer")
            }
        } else {
            try runOnSensors(&session, config: config, i2c: i2c, duration: duration)
        }
        return try finish(session, store: store)
    }

    private static func runOnSensors(_ session: inout CalibrationSession, config: Config, i2c: String, duration: Double) throws {
        var cfg = config
        cfg.i2cDevice = i2c
        var bus = try HardwareSession.openBus(i2c)
        let driver = try HardwareSession.detectBoard(&bus, config: cfg)
        var loop = TrackerLoop(driver: driver, lines: NoLines(), clock: LinuxMonotonicClock(),
                               pipeline: Pipeline(settings: cfg.pipelineSettings), rates: cfg.rates)
        do { try loop.start() } catch { throw CommandError(error.description) }
        guard loop.driver.hasMagnetometer else {
            throw CommandError("\(loop.driver.chipName) on \(i2c) has no magnetometer: nothing to calibrate for heading (check the wiring of the AK8963 / external compass)")
        }
        ht_install_stop_handlers()
        let live = Console.isTerminal
        var lastPrint = -Double.infinity
        var turnStart: Double?
        var state = session
        loop.run(duration: nil, shouldStop: {
            ht_stop_requested() != 0 || state.phase == .complete
                || (turnStart != nil && (lastPrint - turnStart!) > duration)
        }) { event, _ in
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
            throw CommandError("stopped before the gyro bias was measured; nothing written")
        }
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
        Console.out("field \(fixed(fit.fieldStrength, 1)) µT, fit error \(fixed(fit.relativeResidual * 100, 2)) %, \(Int((fit.coverage * 100).rounded())) % of directions, \(session.magSamples.count) samples")
        Console.out("saved \(store.path)" + (FileIO.exists(store.previousPath) ? " (previous kept as \(store.previousPath))" : ""))
        return 0
    }
}
