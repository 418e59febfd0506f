import Formats
import Geometry
import Service
import SimulatedRuns
import Simulation

/// `headtrack run --simulated`: the daemon (`Service`, the same one the headset runs) on the simulated board,
/// paced by the real clock (so real-time mode and wake-up lateness mean something) or as fast as possible with
/// the bus time modelled.
enum SimulatedRunMode {
    /// With `calibrationNamed` (the config came from --config), its calibrationFile is loaded and reported as
    /// `run` does on the headset (a bad file is a warning, and the previous file or none is used), and the
    /// background calibration starts from and saves to the learned file beside it, as on the headset.
    static func run(config: Config, options requested: ServiceOptions, speed: Double, calibrationNamed: Bool,
                    worn: Mount = .identity) throws -> Int32 {
        guard speed == 0 || speed == 1 else {
            throw CommandError("--speed must be 1 (real time) or 0 (as fast as possible) for run --simulated", status: 2)
        }
        var loopOptions = SimulatedLoopOptions()
        loopOptions.config = config
        loopOptions.readout = requested.readout
        var options = requested
        if calibrationNamed {
            loopOptions.calibration = HardwareSession.startingCalibration(config, warn: { Log.warning($0) },
                                                                          info: { if !requested.quiet { Log.info($0) } })
            if config.autoCalibration { options.learnedCalibration = CalibrationStore.learnedPath(beside: config.calibrationFile) }
        }
        loopOptions.worn = worn
        options.duration = requested.duration ?? loopOptions.script.duration + 1
        options.streamByDefault = false
        Console.out("headtrack: simulated MPU-9250 + AK8963" + (worn == .identity ? "" : " worn as \(worn.argument)")
            + ", \(requested.readout.rawValue) readout at \(fixed(config.rates.imuHz, 0)) Hz, "
            + "\(fixed(options.duration!, 1)) s " + (speed == 0 ? "as fast as possible (I²C time at 400 kHz)" : "in real time"))
        let board = SimulatedLoop.board(loopOptions, busTime: speed == 0)
        let simulatedStart = board.clock.seconds
        let realStart = StageClock.now()
        do {
            if speed == 0 {
                var service = try Service(session: try SimulatedLoop.session(board: board, clock: board.clock, options: loopOptions),
                                          config: config, options: options)
                try service.run()
            } else {
                var service = try Service(session: try SimulatedLoop.session(board: board, clock: PacedClock(driving: board.clock),
                                                                             options: loopOptions),
                                          config: config, options: options)
                try service.run()
            }
        } catch let error as ServiceError {
            throw CommandError(error.description)
        } catch {
            throw CommandError("\(error)")
        }
        Console.out("  simulated \(fixed(board.clock.seconds - simulatedStart, 2)) s in \(fixed(Double(StageClock.now() - realStart) * 1e-9, 2)) s real")
        return 0
    }
}
