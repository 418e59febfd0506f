import Hardware
import Service
import Gestures
import Formats
import EventStream
import SimulatedRuns
import Simulation

/// `headtrack demo`: the whole pipeline on the simulated board, through a scripted story.
struct DemoCommand: Command {
    static let name = "demo"
    static let stopsCleanly = true
    static let summary = "run the full pipeline on a simulated board through a ~24 s scripted story"
    static let extraExitStatuses: [(status: Int32, meaning: String)] = [
        (1, "failed (the plot or the stream could not be written), or a scripted gesture was missed, invented or reported twice"),
    ]
    static let help = options.help("""
        usage: headtrack demo [--speed N] [--plot OUT.svg] [--socket PATH]

        Runs the real driver, fusion, gesture detector, heading smoother and LED logic against a simulated
        MPU-9250 + AK8963 on a simulated I²C bus. The story: look around, face north, nod (two cycles), shake
        (two cycles), an app asks a question and a single nod answers it, turn around.
        In a terminal it shows a live LED row, heading, pitch and roll; otherwise it prints plain lines.
        At the end it lists which scripted gestures were detected, and exits 1 if one was missed, invented
        or reported twice (one gesture, one LED flash).
        """)

    static let options = OptionTable(helpColumn: 18, [
        .value("speed", "N", """
            run N× faster than real time (default 1 in a terminal or with --socket, as fast as
            possible otherwise; 0 = as fast as possible)
            """,
            allowed: .numbers(0...Limits.maxSpeed, said: "0 (as fast as possible) or a speed up to \(Int(Limits.maxSpeed))× real time")),
        .value("plot", "OUT.svg", "also draw what happened as an SVG picture"),
        .value("socket", "PATH", """
            serve the event stream (docs/protocol.md) on this socket while the story runs,
            e.g. for `headtrack watch --socket PATH` or your own app
            """),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let speedOption = try arguments.double("speed")
        let plotPath = try arguments.outputPath("plot")
        var overrides = SessionPlan.Overrides()
        overrides.socket = try arguments.socketPath()
        try arguments.finish()
        // The story's board is set up by the built-in config, never by the headset's files.
        let plan = SessionPlan(config: Config(), overrides: overrides)
        let socket = plan.socket
        let live = Console.isTerminal
        var demo = SimulatedRun(config: plan.config)
        // Real time whenever someone watches: a terminal, or apps on the socket (as fast as possible, the
        // story was over in 0.3 s, before an app could connect).
        let speed = speedOption ?? (live || socket != nil ? 1 : 0)
        if speed > 0 && speed < Limits.minSpeed {
            throw CommandError("--speed must be 0 (as fast as possible) or at least \(Limits.minSpeed) (times real time)", status: 2)
        }
        demo.speed = speed > 0 ? speed : nil
        let script = demo.script
        let stream = try StreamSetup.open(socket: socket, config: plan.config, byDefault: false,
                                          hello: StreamHello(imu: "MPU-9250", magnetometer: "AK8963", rates: plan.rates,
                                                             stateHz: plan.config.streamStateHz, mount: plan.mount))
        defer { stream?.stop() }
        // A client's ask puts the demo's detector in answer mode, as `run --simulated --socket` does.
        if let stream { demo.questionPending = { stream.questionPending } }
        Console.out("headtrack demo: simulated MPU-9250 + AK8963, \(fixed(script.duration, 0)) s story"
            + (demo.speed.map { " at \(fixed($0, 1))× real time" } ?? " as fast as possible"))
        var lastEvent = ""
        var lastPrinted = -1.0
        demo.onQuestion = { _, t in
            if !live { Console.out("t=\(fixed(t, 2))s an app asks a yes/no question (a single nod or shake answers it)") }
            else { lastEvent = "app asks yes/no" }   // no longer than "SHAKE at 13.2 s": the live row fits 80 columns
        }
        demo.onAnswer = { a, t in
            let said = a.gesture.map { "\($0.rawValue) (\($0 == .nod ? "yes" : "no"))" } ?? "none (timed out)"
            if !live { Console.out("t=\(fixed(t, 2))s the app's answer: \(said)") }
        }
        var recorder = PlotRecorder()
        var view = InPlaceLines()
        let result = try demo.run(shouldStop: { StopSignals.requested }, observer: { event, pipeline in
            stream?.handle(event, pipeline)
            switch event {
            case let .gesture(g):
                lastEvent = "\(g.event.rawValue.uppercased()) at \(fixed(g.t, 1)) s"
                if !live { Console.out("t=\(fixed(g.t, 2))s gesture: \(g.event.rawValue)") }
                recorder.gesture(t: g.t, event: g.event)
            case let .display(t, leds):
                recorder.display(t: t, leds: leds, pipeline: pipeline)
                if live {
                    view.draw(LiveView.screen(t: t, leds: leds, pipeline: pipeline, lastEvent: lastEvent))
                } else if t - lastPrinted >= 1 {
                    lastPrinted = t
                    Console.out(LiveView.line(t: t, leds: leds, pipeline: pipeline, lastEvent: ""))
                }
            case let .fault(t, error):
                Console.out("t=\(fixed(t, 2))s fault: \(error)")
            default: break
            }
        })
        if live { Console.out("") }
        if StopSignals.requested {
            throw CommandError("stopped by \(StopSignals.cause) before the story's end" + (plotPath == nil ? "" : ": no plot written"))
        }
        let check = result.check
        Console.out("\nscripted gestures:")
        for (i, g) in check.expected.enumerated() {
            Console.out("  \(g.label) \(fixed(g.start, 1))–\(fixed(g.end, 1)) s: \(check.found[i] ? "detected" : "MISSED")")
        }
        for d in check.invented {
            Console.out("  invented: \(d.event.rawValue) at \(fixed(d.t, 2)) s")
        }
        for d in check.repeated {
            Console.out("  reported again: \(d.event.rawValue) at \(fixed(d.t, 2)) s")
        }
        Console.out("IMU samples: \(result.imuSamples), \(result.faults.summary)")
        if let path = plotPath {
            try recorder.write(to: path, title: "headtrack demo (simulated board)", truth: check.expected.map {
                (label: $0.label, start: $0.start, end: $0.end)
            })
            Console.out("plot written to \(path)")
        }
        if check.passed {
            Console.out("demo passed: every scripted gesture detected once, none invented")
            return 0
        }
        Console.out("demo FAILED: \(check.missed.count) missed, \(check.invented.count) invented, "
            + "\(check.repeated.count) reported twice")
        return 1
    }
}
