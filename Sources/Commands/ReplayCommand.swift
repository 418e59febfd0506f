import Service
import Fusion
import SensorCalibration
import Geometry
import Gestures
import Hardware
import Tracking
import Formats
import EventStream
import Sensors

/// `headtrack replay`: the pipeline over a recorded trace, as fast as it can.
struct ReplayCommand: Command {
    static let name = "replay"
    static let stopsCleanly = true
    static let summary = "run the pipeline over a recorded trace; write events, attitude and a plot"
    static let help = options.help("""
        usage: headtrack replay TRACE [--config FILE] [--mount F,L,U] [--calibration FILE] [--no-auto-calibration]
                                [--learned-calibration FILE] [--events OUT.csv] [--attitude OUT.csv]
                                [--plot OUT.svg] [--json] [--ask] [--explain]
                                [--stream [--socket PATH] [--wait-for-client]]
               headtrack replay TRACE --learn-mount [--calibration FILE]

        Runs fusion, heading smoothing and gesture detection over an imu-trace v1 file with its own
        timestamps, as fast as possible, and prints the detected gestures. TRACE `-` reads standard input;
        `--events -` or `--attitude -` write that table to standard output (the gesture lines and the
        summary then go to standard error).
        """)

    static let options = OptionTable(helpColumn: 20, [
        .value("config", "FILE", """
            run the pipeline as 'headtrack run' sets it up from this config file (its mount,
            or else the mount 'calibrate --mount' learned beside its calibration file;
            declination and gestures settings), to check a config offline
            """),
        .value("mount", "F,L,U", """
            sensor axes that point forward, left and up, e.g. --mount=-x,z,y for a sensor
            worn X back, Y up, Z left (default x,y,z). Without it, a trace whose frame line
            says how it was worn ("worn: X back, Y up, Z left") gets a note naming its --mount;
            with --config, overrides the config's mount
            """),
        .value("calibration", "FILE", """
            apply a calibration file from 'headtrack calibrate' to the raw samples, exactly as
            'headtrack run' does (gyro bias, then magnetometer hard/soft iron, before the mount);
            a file that cannot be read is an error here, not a silent fallback; the
            background calibration starts from it, as in 'headtrack run'
            """),
        .flag("no-auto-calibration", """
            turn the background calibration off (it learns hard and soft iron from the
            trace as 'headtrack run' does while worn; config calibration.auto: false)
            """),
        .value("learned-calibration", "FILE", """
            start from FILE when it exists (instead of --calibration) and save what the
            background calibration learns to it, as 'headtrack run' keeps its
            calibration.learned.json: written atomically by a thread of its own, the old file
            kept as FILE.previous
            """),
        .value("events", "FILE", "write t,event rows (event: nod, shake, up, down, left, right)"),
        .value("attitude", "FILE", """
            write t,qw,qx,qy,qz,heading_deg,smoothed_heading_deg per sample; the quaternion
            rotates sensor-frame vectors into ENU, like the trace truth columns
            """),
        .value("plot", "FILE", "draw heading, attitude, rates, gestures and LEDs as an SVG picture"),
        .flag("json", """
            print only a JSON summary: {"trace", "samples", "gestures": {kind: count},
            "events": [{"t", "gesture"}]}
            """),
        .flag("ask", """
            replay as if an app's question were pending throughout (answer mode): a single
            nod or shake answers it, and another question is pending at once. Without it the
            detector runs always-on, as with no app asking: a nod or shake needs two cycles
            (see config gestures.single). With --stream, a client's ask does the same live
            """),
        .flag("explain", """
            print, for every candidate nod or shake, each run rule's measured value against
            its limit and the verdict ("taken" or "refused by ..."): why a nod was or was not
            seen. One line per candidate and swing count, as the detector judged it
            """),
        .flag("stream", """
            serve the event stream while replaying, paced at the trace's own time (so an app
            can be developed against a recording; a gap of more than 1 s is skipped);
            socket /run/headtrack/events.sock
            """),
        .value("socket", "PATH", "the stream's socket (implies --stream)"),
        .flag("wait-for-client", """
            with --stream: start replaying when the first client connects (it gets the whole
            trace from its first sample), so an app can be started after the replay
            """),
        .flag("learn-mount", """
            learn how the sensor was worn from the recording instead, as 'calibrate --mount'
            does: up from gravity where the head holds still, left from a run of 3 or more
            nods, forward from a nod's chin-down first swing. Prints one line,
            "learned mount: F,L,U" (the nine numbers when it is more than 25° from every axis
            form), and how it was measured on stderr; or, exit status 1, why it could not.
            A trace in which no nod begins from rest gets forward from its frame line's
            "worn:" clause, and says so
            """),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        // As `run` plans its session from the config: the config's mount, else the learned one.
        let configPath = try arguments.option("config")
        var plan: SessionPlan? = nil
        if let path = configPath {
            do {
                let planned = SessionPlan(config: try HardwareSession.loadConfig(path), reading: .mount, warn: { Console.err($0) })
                if planned.mount.source == .learned { Console.err("headtrack: mount \(planned.mount.summary)") }
                plan = planned
            } catch { throw CommandError(error.description) }
        }
        let mountOption = try arguments.option("mount")
        // For the stream's hello: which mount the pipeline uses and where it came from. `--mount` is taken over
        // the plan here, after the plan has said where its own mount came from, as replay always has.
        var mountInUse = plan?.mount ?? MountInUse(mount: nil, source: .none)
        if let m = mountOption {
            do { mountInUse = MountInUse(mount: try Mount(parsing: m), source: .option) } catch { throw CommandError(error.description, status: 2) }
        }
        var settings = plan?.config.pipelineSettings ?? Pipeline.Settings()
        settings.mount = mountInUse.mount
        let calibrationPath = try arguments.option("calibration")
        settings.calibration = try CalibrationOption.load(calibrationPath)
        if arguments.flag("no-auto-calibration") { settings.autoCalibration = nil }
        let learnedPath = try arguments.option("learned-calibration")
        if let p = learnedPath {
            guard calibrationPath == nil else { throw CommandError("give --calibration or --learned-calibration, not both: the learned file is also where it starts from", status: 2) }
            guard settings.autoCalibration != nil else { throw CommandError("--learned-calibration saves what the background calibration learns: it cannot go with --no-auto-calibration", status: 2) }
            if FileIO.exists(p) || FileIO.exists(p + ".previous") {
                let (c, problem) = CalibrationStore(path: p).loadKeepingCurrent(nil)
                if let problem { Console.err("headtrack: " + problem) }
                settings.calibration = c
            }
        }
        let learnMount = arguments.flag("learn-mount")
        let eventsPath = try arguments.outputPath("events", allowStandardOutput: true)
        let attitudePath = try arguments.outputPath("attitude", allowStandardOutput: true)
        let plotPath = try arguments.outputPath("plot")
        let json = arguments.flag("json")
        let ask = arguments.flag("ask")
        let explain = arguments.flag("explain")
        let socket = try arguments.socketPath()
        let streaming = arguments.flag("stream") || socket != nil
        let waitForClient = arguments.flag("wait-for-client")
        if waitForClient && !streaming {
            throw CommandError("--wait-for-client waits for a client of the stream: add --stream (or --socket PATH)", status: 2)
        }
        let paths = try arguments.positionals()
        guard paths.count == 1 else {
            throw CommandError(paths.isEmpty ? "give one trace file (see headtrack replay --help)" : "give exactly one trace file", status: 2)
        }
        try SameFileCheck.refuse(input: paths[0], what: "trace",
                                 outputs: [("events", eventsPath), ("attitude", attitudePath), ("plot", plotPath)])
        let trace: Trace
        do {
            trace = paths[0] == "-" ? try TraceFile.read(path: "/dev/stdin", name: "standard input") : try TraceFile.read(path: paths[0])
        } catch {
            throw CommandError(error.description)
        }
        if learnMount {
            guard eventsPath == nil, attitudePath == nil, plotPath == nil, !json, !streaming, !ask, !explain, mountOption == nil, configPath == nil else {
                throw CommandError("--learn-mount only learns the mount: leave out --config, --mount, --events, --attitude, --plot, --json, --ask, --explain and --stream", status: 2)
            }
            return try learnMountOnly(trace, calibration: settings.calibration)
        }
        if settings.mount == nil {
            let name = paths[0] == "-" ? "standard input" : paths[0].split(separator: "/").last.map(String.init) ?? paths[0]
            for note in WornMountNote.lines([(name, trace.wornMount)]) { Console.err(note) }
        }
        if eventsPath == "-" && attitudePath == "-" {
            throw CommandError("only one of --events and --attitude can go to standard output", status: 2)
        }
        if json && (eventsPath == "-" || attitudePath == "-") {
            throw CommandError("--json prints the summary on standard output: write --events/--attitude to a file", status: 2)
        }
        // With a table on stdout, what people read goes to stderr so the table stays clean for a pipe.
        let tableOnStandardOutput = eventsPath == "-" || attitudePath == "-"
        let say = { (line: String) in tableOnStandardOutput ? Console.err(line) : Console.out(line) }
        let events = try eventsPath.map { p throws in try open(p) }
        let attitude = try attitudePath.map { p throws in try open(p) }
        try events?.write("t,event\n")
        try attitude?.write("t,qw,qx,qy,qz,heading_deg,smoothed_heading_deg\n")
        var counts: [String: Int] = [:]
        var detected: [(t: Double, event: GestureEvent)] = []
        var recorder = PlotRecorder()
        var failure: Error? = nil
        let stream = streaming ? try openStream(trace, socket: socket, mount: mountInUse) : nil
        defer { stream?.stop() }
        if waitForClient, let stream {
            Console.err("headtrack: waiting for a client on \(stream.path)")
            waitForFirstClient(stream, t: trace.records.first?.t ?? 0)
        }
        // Paced from here: after the wait, so a client that connects late still gets the whole trace.
        var pacer = TracePacer(firstTraceTime: trace.records.first?.t ?? 0)
        let writer = learnedPath.map { CalibrationWriter(path: $0, warn: { Console.err($0) }) }
        var learnedRevision = 0
        var explained = GestureVerdictChanges()
        var unsaved: Calibration? = nil
        // With a stream, a client's pending question puts the detector in answer mode, as in `run`.
        let questionPending: () -> Bool = ask ? { true } : stream.map { s in { s.questionPending } } ?? { false }
        Replay.run(trace, settings: settings, questionPending: questionPending) { event, pipeline in
            guard failure == nil else { return }
            // A stop (signal or closed output) ends it here: the outputs are not committed, their temporaries
            // go with their writers, and the rest of the trace runs through unpaced and unused.
            if StopSignals.requested {
                failure = CommandError("stopped by \(StopSignals.cause) before the end of the trace: no output file written")
                return
            }
            do {
                switch event {
                case let .gesture(g):
                    let t = g.t, e = g.event
                    counts[e.rawValue, default: 0] += 1
                    detected.append((t, e))
                    if !json { say("t=\(fixed(t, 2))s \(e.rawValue)") }
                    try events?.write("\(fixed(t, 4)),\(e.rawValue)\n")
                    recorder.gesture(t: t, event: e)
                    // The stream says why before what: the explain line of the verdict that took this gesture
                    // (judged at this sample; `.sample` then finds nothing new to explain), then the gesture.
                    stream?.explain(pipeline.recognizer)
                    stream?.gesture(g, bouts: pipeline.bouts)
                case let .sample(_, t):
                    if explain, let v = explained.next(pipeline.recognizer) { say(v.text) }
                    stream?.explain(pipeline.recognizer)
                    if let w = writer, let learner = pipeline.autoCalibration {
                        if learner.revision != learnedRevision {
                            learnedRevision = learner.revision
                            if learner.source == .learned && learner.isEstablished { unsaved = pipeline.calibrationInUse }
                        }
                        if let c = unsaved, w.offer(c) { unsaved = nil }
                    }
                    guard let file = attitude, pipeline.filter.isInitialized else { return }
                    let q = pipeline.sensorAttitude
                    let h = pipeline.heading
                    let d = pipeline.displayed
                    try file.write("\(fixed(t, 6)),\(fixed(q.w, 7)),\(fixed(q.x, 7)),\(fixed(q.y, 7)),\(fixed(q.z, 7)),"
                        + "\(h.isValid ? fixed(h.degrees, 3) : ""),\(d.hasValue ? fixed(d.degrees, 3) : "")\n")
                case let .display(t, leds):
                    recorder.display(t: t, leds: leds, pipeline: pipeline)
                    if let stream {
                        // Paced: each display tick waits for its moment of trace time on the real clock.
                        pacer.wait(untilTraceTime: t)
                        stream.display(t: t, leds: leds, pipeline: pipeline)
                    }
                }
            } catch { failure = error }
        }
        if let w = writer {
            w.finish(saving: unsaved)
            let note = w.saves > 0 ? "learned calibration saved to \(w.store.path)" : "nothing learned to save to \(w.store.path)"
            if json || tableOnStandardOutput { Console.err(note) } else { say(note) }
        }
        if let f = failure as? CommandError { throw f }
        if let f = failure { throw CommandError("\(f)") }
        try events?.close()
        try attitude?.close()
        // The plot before the summary: a plot that cannot be written fails the command before a JSON summary
        // says it went well.
        if let p = plotPath {
            try recorder.write(to: p, title: "headtrack replay \(paths[0])", truth: PlotRecorder.truthBeside(trace: paths[0]))
        }
        let summary = GestureEvent.allCases.compactMap { e in counts[e.rawValue].map { "\(e.rawValue) \($0)" } }
        if json {
            Console.out(jsonSummary(trace: paths[0], samples: trace.records.count, counts: counts, events: detected))
        } else {
            say("\(trace.records.count) samples; gestures: \(summary.isEmpty ? "none" : summary.joined(separator: ", "))"
                + (ask ? " (answer mode: a question pending throughout)" : ""))
        }
        if let p = plotPath {
            if json { Console.err("plot written to \(p)") } else { say("plot written to \(p)") }
        }
        return 0
    }

    /// `--learn-mount`: the learned mount's line on stdout and how it was measured on stderr, or why not (exit 1).
    static func learnMountOnly(_ trace: Trace, calibration: Calibration) throws -> Int32 {
        let learner = LearnedMountReport.learn(trace, calibration: calibration)
        switch learner.result(statedLeft: trace.wornMount?.left) {
        case let .success(learned):
            Console.out(LearnedMountReport.line(learned))
            Console.err("  " + LearnedMountReport.details(learned))
            return 0
        case let .failure(why):
            throw CommandError("could not learn the mount: \(why)")
        }
    }

    static func open(_ path: String) throws -> BufferedFileWriter {
        do { return path == "-" ? try BufferedFileWriter(standardOutput: ()) : try BufferedFileWriter(path: path) } catch {
            throw CommandError(error.description)
        }
    }

    /// The summary for scripts: every gesture kind with its count (0 included), and each detection.
    static func jsonSummary(trace: String, samples: Int, counts: [String: Int],
                            events: [(t: Double, event: GestureEvent)]) -> String {
        JSONOutput.object(.compact) { o in
            o.add("trace", .string(trace))
            o.add("samples", .integer(samples))
            o.add("gestures", .object { g in
                for kind in GestureEvent.allCases { g.add(kind.rawValue, .integer(counts[kind.rawValue] ?? 0)) }
            })
            o.add("events", .array(events.map { e in
                .object { x in
                    x.add("t", .number(e.t, digits: 4))
                    x.add("gesture", .string(e.event.rawValue))
                }
            }))
        }.text()
    }

    /// `--wait-for-client`: serves the socket at the trace's first moment (the hello, and any request the client
    /// sends at once) until a client has connected, checking 50 times a second, or until a stop signal (SIGTERM,
    /// SIGINT, SIGHUP) arrives: the replay after it then stops the clean way at once.
    static func waitForFirstClient(_ stream: EventStream, t: Double) {
        let clock = LinuxMonotonicClock()
        while !StopSignals.requested {
            stream.server.poll(t: t)
            if stream.server.clientCount > 0 { return }
            clock.sleep(until: clock.now() + 20_000_000)
        }
    }

    static func openStream(_ trace: Trace, socket: String?, mount: MountInUse = MountInUse(mount: nil, source: .none)) throws -> EventStream? {
        var rates = LoopRates()
        if let first = trace.records.first, let last = trace.records.last, last.t > first.t, trace.records.count > 1 {
            rates.imuHz = Double(trace.records.count - 1) / (last.t - first.t)
        }
        let hasMag = trace.records.contains { $0.mag != nil }
        let hello = StreamHello(imu: "recorded trace", magnetometer: hasMag ? "recorded" : nil, rates: rates, stateHz: 60,
                                mount: mount)
        return try StreamSetup.open(socket: socket ?? EventStream.defaultSocketPath, config: Config(), byDefault: true, hello: hello)
    }
}

/// `--calibration FILE` of `replay` and `eval attitude`: the file, or none; an unreadable or invalid file is an
/// error (exit 1), never a silent fallback, because the point is to check that very file.
public enum CalibrationOption {
    public static func load(_ path: String?) throws -> Calibration {
        guard let p = path else { return .none }
        do { return try CalibrationStore(path: p).load() } catch { throw CommandError(error.description) }
    }
}
