import Formats
import Service
import SimulatedRuns

/// `headtrack record`: raw samples to an imu-trace v1 file.
struct RecordCommand: Command {
    static let name = "record"
    static let stopsCleanly = true
    static let summary = "record raw IMU samples (SI units) to a trace file for replay and evaluation"
    static let help = options.help("""
        usage: headtrack record --out FILE [--duration S] [--i2c DEV] [--config FILE] [--simulated]

        Writes accelerometer (m/s²), gyroscope (rad/s) and magnetometer (µT) samples in the sensor's own
        axes, in the imu-trace v1 format that `replay` and `eval` read. Stops after --duration or on Ctrl-C;
        the file is flushed and synced on exit.
        """)

    static let options = OptionTable(helpColumn: 18, [
        .value("out", "FILE", "trace file to write (required)"),
        .value("duration", "S", "seconds to record (default: until Ctrl-C; with --simulated, the demo story)", allowed: .seconds),
        .value("i2c", "DEV", "I²C bus (default from the config, else /dev/i2c-1)"),
        .value("config", "FILE", "JSON config"),
        .flag("simulated", "record the simulated board running the demo story instead of real hardware"),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        guard let out = try arguments.outputPath("out") else {
            throw CommandError("--out FILE is required (see headtrack record --help)", status: 2)
        }
        var config = try HardwareSession.loadConfig(try arguments.option("config"))
        if let d = try arguments.option("i2c") { config.i2cDevice = d }
        let duration = try arguments.double("duration")
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
        if simulated {
            writer = try openOutput()
            try writer?.write(TraceFile.header(metadata: [("source", "headtrack record --simulated (demo story)"),
                                                         ("rate_hz", fixed(config.rates.imuHz, 3)),
                                                         ("units", "t s, acc m/s^2, gyr rad/s, mag uT"),
                                                         ("frame", "MPU-9250 chip axes")], withMagnetometer: true))
            var session = SimulatedRun(config: config)
            session.loopDuration = duration
            session.stopSignals = true
            _ = try session.run(observer: { e, _ in record(e) })
        } else {
            var session = try TrackerSession.started(config: config, lines: NoLines())
            let chip = session.loop.driver.chipName
            writer = try openOutput()
            try writer?.write(TraceFile.header(metadata: [("source", "headtrack record, \(chip) on \(config.i2cDevice)"),
                                                         ("rate_hz", fixed(config.rates.imuHz, 3)),
                                                         ("units", "t s, acc m/s^2, gyr rad/s, mag uT"),
                                                         ("frame", "IMU chip axes (magnetometer aligned to them)")], withMagnetometer: session.loop.driver.hasMagnetometer))
            Console.out("recording \(chip) to \(out)" + (duration == nil ? " until Ctrl-C" : " for \(fixed(duration!, 1)) s"))
            var progress = RecordingProgress()
            session.run(duration: duration, shouldStop: { writeError != nil }) { e, _ in
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
