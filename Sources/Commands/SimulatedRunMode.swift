import Formats
import Geometry
import Hardware
import Service
import SimulatedRuns
import Simulation

/// `headtrack run --simulated`: the daemon (`Service`, the same one the headset runs) on the simulated board,
/// paced by the real clock (so real-time mode and wake-up lateness mean something) or as fast as possible with
/// the bus time modelled.
enum SimulatedRunMode {
    /// When the plan read the calibration files (the config came from --config), its calibration is loaded and
    /// reported as `run` does on the headset (a bad file is a warning, and the previous file or none is used),
    /// and the background calibration starts from and saves to the learned file beside it, as on the headset.
    static func run(plan: SessionPlan, options requested: ServiceOptions, speed: Double,
                    worn: Mount = .identity, wearer: WearerOptions = WearerOptions()) throws -> Int32 {
        guard speed == 0 || speed == 1 else {
            throw CommandError("--speed must be 1 (real time) or 0 (as fast as possible) for run --simulated", status: 2)
        }
        var loopOptions = SimulatedLoopOptions()
        loopOptions.config = plan.config
        loopOptions.readout = requested.readout
        var options = requested
        loopOptions.calibration = plan.startingCalibration(quiet: requested.quiet)
        loopOptions.worn = worn
        // A simulated wearer plays the story itself, a movement at a time, so that it can answer in between:
        // the board starts still.
        let story = loopOptions.script
        if wearer.any { loopOptions.script = MotionScript(initialHeading: story.initialHeading) }
        options.duration = requested.duration ?? (wearer.any ? nil : loopOptions.script.duration + 1)
        options.streamByDefault = false
        Console.out("headtrack: simulated MPU-9250 + AK8963" + (worn == .identity ? "" : " worn as \(worn.argument)")
            + ", \(requested.readout.rawValue) readout at \(fixed(plan.rates.imuHz, 0)) Hz, "
            + (options.duration.map { "\(fixed($0, 1)) s " } ?? "until stopped ")
            + (speed == 0 ? "as fast as possible (I²C time at 400 kHz)" : "in real time"))
        let board = SimulatedLoop.board(loopOptions, busTime: speed == 0)
        let person = wearer.any ? SimulatedWearer(board: board, story: story, answer: wearer.answer, loops: wearer.loop) : nil
        if let person {
            Console.out("headtrack: the simulated wearer " + [
                wearer.answer.map { "answers every question with a \($0 == .nod ? "nod" : "shake")" },
                wearer.keys ? "nods on n and shakes on s (then Enter)" : nil,
                wearer.loop ? "plays the story on a loop" : nil,
            ].compactMap { $0 }.joined(separator: ", "))
            if wearer.keys {
                let keys = StandardInputKeys()
                person.readKey = { keys.next() }
            }
        }
        let simulatedStart = board.clock.seconds
        let realStart = StageClock.now()
        /// The service on `clock`, with the wearer moving after each of the loop's sleeps when there is one.
        func serve<C: MonotonicClock>(_ clock: C) throws {
            if let person {
                var service = try Service(session: try SimulatedLoop.session(board: board, clock: WearerClock(clock, wearer: person, board: board),
                                                                             options: loopOptions),
                                          plan: plan, options: options)
                if let stream = service.stream { person.questionPending = { stream.questionPending } }
                try service.run()
            } else {
                var service = try Service(session: try SimulatedLoop.session(board: board, clock: clock, options: loopOptions),
                                          plan: plan, options: options)
                try service.run()
            }
        }
        do {
            if speed == 0 { try serve(board.clock) } else { try serve(PacedClock(driving: board.clock)) }
        } catch let error as ServiceError {
            throw CommandError(error.description)
        } catch {
            throw CommandError("\(error)")
        }
        Console.out("  simulated \(fixed(board.clock.seconds - simulatedStart, 2)) s in \(fixed(Double(StageClock.now() - realStart) * 1e-9, 2)) s real")
        return 0
    }
}
