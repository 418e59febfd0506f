#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLinux
import Hardware
import Runtime
import Sensors
import SimulatedRuns
import Simulation

/// `headtrack record`: raw samples to an imu-trace v1 file.
struct RecordCommand: Command {
    static let name = "record"
    static let summary = "record raw IMU samples (SI units) to a trace file for replay and evaluation"
    static let help = """
        usage: headtrack record --out FILE [--duration S] [--i2c DEV] [--config FILE] [--simulated]

        Writes accelerometer (m/s²), gyroscope (rad/s) and magnetometer (µT) samples in the sensor's own
        axes, in the imu-trace v1 format that `replay` and `eval` read. Stops after --duration or on Ctrl-C;
        the file is flushed and synced on exit.

        options:
          --out FILE      trace file to write (required)
          --duration S    seconds to record (default: until Ctrl-C; with --simulated, the demo story)
          --i2c DEV       I²C bus (default from the config, else /dev/i2c-1)
          --config FILE   JSON config
          --simulated     record the simulated board running the demo story instead of real hardware
        """

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        guard let out = try arguments.outputPath("out") else {
            throw CommandError("--out FILE is required (see headtrack record --help)", status: 2)
        }
        var config = try HardwareSession.loadConfig(try arguments.option("config"))
        if let d = try arguments.option("i2c") { config.i2cDevice = d }
        let duration = try arguments.duration()
        let simulated = arguments.flag("simulated")
        try arguments.finish()

        // The file is opened only once the samples can come (after the bus answered), and it writes to a
        // temporary that replaces OUT at the end: a failed start never touches an existing recording.
        func openOutput() throws -> BufferedFileWriter {
            do { return try BufferedFileWriter(path: out) } catch { throw CommandError(error.description) }
        }
        var writer: BufferedFileWriter? = nil
        var rows = 0
        var writeError: FileError? = nil
        func record(_ event: LoopEvent) {
            guard case let .imu(t, sample, mag) = event, writeError == nil else { return }
            do { try writer?.write(TraceFile.row(t: t, accel: sample.accel, gyro: sample.gyro, mag: mag)) } catch {
                writeError = error
            }
            rows += 1
        }
        ht_install_stop_handlers()
        if simulated {
            writer = try openOutput()
            try writer?.write(TraceFile.header(metadata: [("source", "headtrack record --simulated (demo story)"),
                                                         ("rate_hz", fixed(config.rates.imuHz, 3)),
                                                         ("units", "t s, acc m/s^2, gyr rad/s, mag uT"),
                                                         ("frame", "MPU-9250 chip axes")], withMagnetometer: true))
            var session = SimulatedRun(config: config)
            session.loopDuration = duration
            _ = try session.run(shouldStop: { ht_stop_requested() != 0 }, observer: { e, _ in record(e) })
        } else {
            var bus = try HardwareSession.openBus(config.i2cDevice)
            let driver = try HardwareSession.detectBoard(&bus, config: config)
            let lines = NoLines()
            var loop = TrackerLoop(driver: driver, lines: lines, clock: LinuxMonotonicClock(),
                                   pipeline: Pipeline(settings: config.pipelineSettings), rates: config.rates)
            do { try loop.start() } catch { throw CommandError(error.description) }
            writer = try openOutput()
            try writer?.write(TraceFile.header(metadata: [("source", "headtrack record, \(loop.driver.chipName) on \(config.i2cDevice)"),
                                                         ("rate_hz", fixed(config.rates.imuHz, 3)),
                                                         ("units", "t s, acc m/s^2, gyr rad/s, mag uT"),
                                                         ("frame", "IMU chip axes (magnetometer aligned to them)")], withMagnetometer: loop.driver.hasMagnetometer))
            Console.out("recording \(loop.driver.chipName) to \(out)" + (duration == nil ? " until Ctrl-C" : " for \(fixed(duration!, 1)) s"))
            var progress = RecordingProgress()
            loop.run(duration: duration, shouldStop: { ht_stop_requested() != 0 || writeError != nil }) { e, _ in
                record(e)
                if case let .display(t, _) = e { progress.update(t: t, samples: rows) }
            }
            progress.finish()
        }
        do { try writer?.close() } catch { throw CommandError(error.description) }
        if let e = writeError { throw CommandError(e.description) }
        Console.out("wrote \(rows) samples to \(out)")
        return 0
    }
}

/// Output lines that go nowhere (recording drives no LEDs).
struct NoLines: OutputLines {
    var count: Int { 0 }
    func set(_ values: UInt64) throws(GPIOError) {}
}

/// Elapsed time and sample count on stderr while recording on hardware: redrawn once a second on a
/// terminal, a line every 10 s otherwise (a log should not fill with progress).
struct RecordingProgress {
    private var next = 1.0
    private let live = isatty(STDERR_FILENO) == 1

    mutating func update(t: Double, samples: Int) {
        guard t >= next else { return }
        next += live ? 1 : 10
        let text = "recording: \(fixed(t, 0)) s, \(samples) samples"
        if live { Console.write(STDERR_FILENO, "\r" + text + "   ") } else { Console.err(text) }
    }

    func finish() { if live && next > 1 { Console.err("") } }
}
