import BrowserView
import EventStream
import Hardware
import Service

/// `headtrack view`: the live page in a browser, served from the event stream by a process of its own.
struct ViewCommand: Command {
    static let name = "view"
    static let stopsCleanly = true
    static let summary = "serve a live page (3D head, LEDs, gestures, rates, calibration) to a browser on 127.0.0.1"
    static let help = options.help("""
        usage: headtrack view [--socket PATH] [--port N]

        Reads the event stream of a running headtrack (the service, run --simulated, demo or replay --stream)
        and serves a page showing it live: the head in 3D, heading with the north LED's sector, pitch and roll,
        the LED row, the last gestures, faults, a 10 s plot of the head's rates with each gesture marked, the
        stream's dropped counts, and the magnetometer calibration's sphere while `calibrate --socket` runs.
        Open the URL it prints. It listens on 127.0.0.1 only, for up to 4 pages at once; from a laptop use
        deploy/deploy.sh --view user@host, which forwards the port over ssh. The tracker itself never listens
        on the network: this is a separate process, an ordinary client of the stream, like watch. It keeps
        running when the tracker stops (the page marks the data stale) and reconnects when it is back.
        Ctrl-C ends it. Your user must be in the headtrack group to read the service's stream.
        """)

    static let options = OptionTable(helpColumn: 18, [
        .value("socket", "PATH", "the stream socket (default /run/headtrack/events.sock)"),
        .value("port", "N", "the TCP port on 127.0.0.1 (default \(ViewServer.defaultPort); 0 = any free port, printed)",
               allowed: .wholeNumbers(0...65535)),
    ])

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let path = try arguments.option("socket") ?? EventStream.defaultSocketPath
        let port = try arguments.integer("port") ?? ViewServer.defaultPort
        try arguments.finish()
        guard !path.isEmpty else { throw CommandError("--socket needs a path", status: 2) }
        var settings = ViewServer.Settings(socketPath: path)
        settings.port = port
        let server: ViewServer
        do { server = try ViewServer(settings: settings) } catch { throw CommandError(error.message) }
        StopSignals.install()
        StopSignals.installHangup()
        Console.out("headtrack view: \(server.url) (stream from \(path); Ctrl-C ends it)")
        server.run(shouldStop: { StopSignals.requested }, say: { Console.out($0) })
        let t = server.totals
        let refused = t.refused.keys.sorted().map { "\(t.refused[$0]!)×\($0)" }.joined(separator: ", ")
        Console.out("headtrack view: stopped; \(t.requests) requests, \(t.streamsOpened) pages streamed, "
            + "\(t.trackerLines) lines from the tracker in \(t.trackerConnections) connections, "
            + "\(t.droppedLines) dropped for slow pages, \(t.streamsCutSlow) cut off"
            + (refused.isEmpty ? "" : ", refused \(refused)"))
        return 0
    }
}
