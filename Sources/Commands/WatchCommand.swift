import Service
import LibC
import Formats
import EventStream

/// `headtrack watch`: the live view of a running headtrack, from its event stream.
struct WatchCommand: Command {
    static let name = "watch"
    static let summary = "show what the running tracker sees: LEDs, heading, pitch, roll, gestures, faults"
    static let help = options.help("""
        usage: headtrack watch [--socket PATH] [--json]

        Connects to the event stream of a running `headtrack run` (the service) and shows the sensors, the
        mount in use and where it came from (config, learned, none), the LED row, heading, pitch, roll, the
        last gestures and faults, redrawn in place in an 80-column terminal. Not in a
        terminal, it prints one line a second and a line per gesture or fault. Ends when the tracker stops.
        Your user must be in the `headtrack` group to connect (sudo usermod -aG headtrack $USER, log in again).
        """)

    static let options = OptionTable(helpColumn: 18, [
        .value("socket", "PATH", "the stream socket (default /run/headtrack/events.sock)"),
        .flag("json", "pass the stream's JSON lines through unchanged, e.g. headtrack watch --json | jq"),
    ])

    /// `--json` passes the protocol's lines, so its failure is the protocol's own error line.
    static func jsonFailure(_ message: String) -> String {
        JSONOutput.object(.compact) { o in o.add("type", .string("error")); o.add("message", .string(message)) }.text()
    }

    static func run(_ arguments: inout Arguments) throws -> Int32 {
        let path = try arguments.option("socket") ?? EventStream.defaultSocketPath
        let json = arguments.flag("json")
        try arguments.finish()
        let fd = try connect(path)
        defer { close(fd) }
        if json { return passThrough(fd) }
        return show(fd, source: path)
    }

    static func connect(_ path: String) throws -> Int32 {
        let failure: StreamSocketError
        do { return try UnixListener.connectClient(path) } catch { failure = error }
        switch failure.errno {
        case 0:  // the path itself is unusable
            throw CommandError(failure.message, status: 2)
        case ENOENT:
            throw CommandError("no event stream at \(path): is headtrack running? (systemctl status headtrack; "
                + "`run --simulated`, `demo` and `replay TRACE --stream` serve one only with --socket)")
        case EACCES:
            throw CommandError("no permission to connect to \(path): join the headtrack group "
                + "(sudo usermod -aG headtrack $USER, then log in again)")
        case ECONNREFUSED:
            if let kind = notASocket(path) {
                throw CommandError("\(path) is \(kind), not a socket: give the event stream's socket (default "
                    + "\(EventStream.defaultSocketPath), or the --socket PATH the tracker was started with)", status: 2)
            }
            throw CommandError("nothing is serving \(path) (left over from a headtrack that stopped): start headtrack")
        default:
            throw CommandError(failure.message)
        }
    }

    /// What `path` is when it is not a socket ("a directory", "a regular file"), else nil.
    static func notASocket(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFDIR: return "a directory"
        case S_IFREG: return "a regular file"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR, S_IFBLK: return "a device"
        default: return "not a socket"
        }
    }

    /// --json: the bytes as they come (whole lines, since the server only ever queues whole lines).
    static func passThrough(_ fd: Int32) -> Int32 {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return n == 0 ? 0 : 1 }
            var offset = 0
            while offset < n {
                let w = buffer[offset..<n].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, n - offset) }
                if w < 0 { if errno == EINTR { continue }; return 0 }  // the reader went away (| head): done
                offset += w
            }
        }
    }

    static func show(_ fd: Int32, source: String) -> Int32 {
        var model = WatchModel()
        model.source = source
        let live = Console.isTerminal
        var lastDraw = -Double.infinity
        var lastPlain = -Double.infinity
        // The server's lines are at most 1 KiB (its LineBuffer): a line beyond 64 KiB is not the protocol
        // (another program on --socket PATH) and is dropped rather than held.
        var lines = LineSplitter(maximumLine: 64 * 1024)
        var buffer = [UInt8](repeating: 0, count: 65536)
        var view = InPlaceLines()
        func draw() { view.draw(model.screen) }
        var lastState = monotonicSeconds()
        while true {
            // Woken at least every quarter second, so a tracker that stops sending is shown stale in time.
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, 250)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                let quiet = monotonicSeconds() - lastState
                if model.hasState, let after = model.staleAfter, quiet > after {
                    let first = model.staleFor == nil
                    model.staleFor = quiet
                    if live { draw() } else if first { Console.out(model.screen[2]) }
                }
                continue
            }
            let n = read(fd, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var texts: [String] = []
            buffer.withUnsafeBufferPointer { b in
                lines.feed(UnsafeBufferPointer(rebasing: b[0..<n])) { texts.append(String(decoding: $0, as: UTF8.self)) }
            }
            for text in texts {
                let type = model.take(text)
                if type == "state" { lastState = monotonicSeconds() }
                if live {
                    // ~20 redraws a second are smooth and cheap over ssh; gestures and faults show at once.
                    if type != "state" || model.t - lastDraw >= 0.05 || model.t < lastDraw {
                        draw()
                        lastDraw = model.t
                    }
                } else {
                    switch type {
                    case "hello": Console.out(model.screen[0])
                    case "gesture": Console.out("t=\(fixed(model.gestures[0].t, 2))s gesture: \(model.gestures[0].name)")
                    case "fault": Console.out(model.screen[4])
                    case "state" where model.t - lastPlain >= 1 || model.t < lastPlain:
                        lastPlain = model.t
                        Console.out(model.screen[2] + "  " + LiveView.ledRow(model.leds))
                    default: break
                    }
                }
            }
        }
        if live { draw(); Console.out("") }
        Console.out("stream ended: headtrack stopped")
        return 0
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
