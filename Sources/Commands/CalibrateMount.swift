import LibC
import Geometry
import MountLearning
import Hardware
import Tracking
import Formats
import Service
import SimulatedRuns
import Simulation

/// `headtrack calibrate --mount`: the guided step that learns how the headset is worn, on the sensors, on the
/// simulated board or from a recording, and writes the mount file. The file is written after the loop has
/// stopped, never from the loop thread.
enum MountCalibration {
    static func show(_ store: MountStore) throws -> Int32 {
        do { Console.write(1, MountStore.encode(try store.load())) } catch { throw CommandError(error.description) }
        return 0
    }

    /// From a recording, with the same phases as on the sensors (still first, then the nods).
    static func fromTrace(_ path: String, store: MountStore) throws -> Int32 {
        let recording: Trace
        do { recording = try TraceFile.read(path: path == "-" ? "/dev/stdin" : path) } catch { throw CommandError(error.description) }
        var session = MountCalibrationSession()
        for r in recording.records where session.phase != .complete {
            session.add(t: r.t, gyro: r.gyro, accel: r.accel)
        }
        return try finish(session, store: store)
    }

    /// On the simulated board worn as `worn`, through the same session and loop as the sensors.
    static func simulated(worn: Mount, config: Config, store: MountStore, duration: Double) throws -> Int32 {
        var options = SimulatedLoopOptions()
        options.config = config
        options.script = .mountCalibration()
        options.worn = worn
        Console.out("headtrack: simulated MPU-9250 worn as \(worn.argument): the wearer keeps still, then nods 4 times")
        let board = SimulatedLoop.board(options, busTime: false)
        var tracker: TrackerSession<SimulatedI2CBus, RecordingOutputLines, VirtualClock>
        do { tracker = try SimulatedLoop.makeSession(board: board, clock: board.clock, options: options) } catch {
            throw CommandError(error.description)
        }
        let session = guide(&tracker, duration: Swift.min(duration, options.script.duration), live: false)
        return try finish(session, store: store)
    }

    static func onSensors(config: Config, duration: Double, store: MountStore) throws -> Int32 {
        var tracker = try TrackerSession.started(config: config, lines: NoLines())
        Console.out("wear the headset; when the prompt says so, nod (give up after \(fixed(duration, 0)) s)")
        let session = guide(&tracker, duration: duration, live: Console.isTerminal)
        return try finish(session, store: store)
    }

    /// Runs the loop, feeding the session and showing its prompt, until the mount is learned or time is up.
    static func guide<B, L, C>(_ tracker: inout TrackerSession<B, L, C>, duration: Double, live: Bool) -> MountCalibrationSession {
        var state = MountCalibrationSession()
        var lastPrint = -Double.infinity
        var shownPhase = state.phase
        // Every nod counted is shown: at one line per 2 s off a terminal, 4 nods in 3 s went from "1 nod" to "done".
        var shownNods = 0
        tracker.run(duration: duration, shouldStop: { state.phase == .complete }) { event, pipeline in
            guard case let .imu(t, sample, _) = event else { return }
            state.add(t: t, gyro: pipeline.settings.calibration.correctGyro(sample.gyro), accel: sample.accel)
            let nods = state.phase == .nod ? state.learner.nodsInProgress : shownNods
            let changed = state.phase != shownPhase || nods != shownNods
            guard changed || t - lastPrint >= (live ? 0.2 : 2) else { return }
            lastPrint = t
            shownPhase = state.phase
            shownNods = nods
            let line = state.progressText(at: t)
            if live { Console.write(1, "\r\u{1B}[K" + line) } else { Console.out(line) }
        }
        if live { Console.out("") }
        return state
    }

    static func finish(_ session: MountCalibrationSession, store: MountStore) throws -> Int32 {
        let learned: MountLearner.Learned
        switch session.result() {
        case let .success(l): learned = l
        case let .failure(why): throw CommandError("mount not learned, nothing written: \(why)")
        }
        let record = MountStore.Record(mount: learned.mount, createdUnixTime: Double(time(nil)),
                                       measured: learned.measured == learned.mount ? nil : learned.measured,
                                       offAxisFormDegrees: learned.offAxisForm * Units.degreesPerRadian, nods: learned.nods)
        // What was learned first: a save that fails (no /var/lib/headtrack on a laptop) must not lose it.
        Console.out(LearnedMountReport.line(learned))
        Console.out("  " + LearnedMountReport.details(learned))
        do { try store.save(record) } catch {
            throw CommandError("\(error.description); the mount above was learned but not saved: give --out FILE to keep it, "
                + "or use it as --mount=\(learned.mount.argument)")
        }
        Console.out("saved \(store.path)" + (FileIO.exists(store.path + ".previous") ? " (previous kept as \(store.path).previous)" : ""))
        Console.out("'headtrack run' uses it when the config names no mount (restart the service to use it now)")
        return 0
    }
}
