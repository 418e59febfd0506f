import LibC
import Formats
import EventStream

/// The event stream's input side: what clients send the server. The bytes are a script for up to four hostile
/// clients on a real socket, next to one client that only reads. Each step takes one byte (what a client
/// does: send the next bytes, half-close, close and reconnect, or nothing), then the server's display tick
/// runs, and a gesture and a state line are broadcast. What must hold for every script: the server never
/// traps nor blocks, and the reading client gets the hello and every gesture, whole lines in order.
enum StreamInputFuzz {
    static let hostileClients = 4

    static func run(_ bytes: [UInt8]) {
        let path = "/tmp/headtrack-fuzz-stream-\(getpid()).sock"
        let hello = LineBuffer(capacity: 64)
        hello.literal("{\"type\":\"hello\",\"version\":1}\n")
        // The smallest queues the server takes, so a script of a few hundred steps reaches what thousands of
        // lines would: clients that never read fill their queue and reserve and are dropped.
        var settings = StreamServer.Settings()
        settings.ringBytes = 4096
        settings.reserveBytes = 1024
        settings.kernelSendBufferBytes = 4096
        guard let server = try? StreamServer(path: path, settings: settings, hello: hello) else {
            fatalError("the fuzz stream server did not start on \(path)")
        }
        defer { server.stop() }

        let reader = connectClient(path)
        var hostile = (0..<hostileClients).map { _ in connectClient(path) }
        defer { (hostile + [reader]).forEach { if $0 >= 0 { close($0) } } }
        var received: [UInt8] = []
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        let gesture = LineBuffer(capacity: 128), state = LineBuffer(capacity: 256)
        var sentGestures = 0
        var t = 0.0
        var i = 0
        while i < bytes.count {
            let op = bytes[i], client = Int(op >> 2) % hostileClients
            i += 1
            switch op & 3 {
            case 0:  // send the next up to 255 bytes (their count is the next byte)
                let n = i < bytes.count ? min(Int(bytes[i]), bytes.count - i - 1) : 0
                if n > 0 && hostile[client] >= 0 {
                    _ = bytes[(i + 1)...(i + n)].withUnsafeBytes { send(hostile[client], $0.baseAddress, n, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
                }
                i += 1 + n
            case 1: if hostile[client] >= 0 { shutdown(hostile[client], Int32(SHUT_WR)) }
            case 2:
                if hostile[client] >= 0 { close(hostile[client]) }
                hostile[client] = connectClient(path)
            default: break
            }
            t += 1.0 / 60
            server.poll(t: t)
            gesture.reset()
            gesture.literal("{\"type\":\"gesture\",\"gesture\":\"nod\",\"n\":")
            gesture.integer(Int64(sentGestures))
            gesture.literal("}\n")
            server.broadcast(gesture, kind: .mustArrive, t: t)
            sentGestures += 1
            state.reset()
            state.literal("{\"type\":\"state\",\"t\":")
            state.fixed(t, 3)
            state.literal("}\n")
            server.broadcast(state, kind: .state, t: t)
            drain(reader, into: &received, scratch: &scratch)
        }
        server.poll(t: t + 1)
        drain(reader, into: &received, scratch: &scratch)
        check(received, gestures: sentGestures)
    }

    /// The reader's view: the hello, then gestures 0, 1, 2… in order (state and `dropped` lines between
    /// them), each line whole.
    static func check(_ received: [UInt8], gestures: Int) {
        let text = String(decoding: received, as: UTF8.self)
        guard text.isEmpty || text.last == "\n" else { fatalError("the reading client got a torn line: \(text.suffix(80))") }
        let lines = text.split(separator: "\n")
        guard lines.first == "{\"type\":\"hello\",\"version\":1}" else { fatalError("no hello first: \(lines.first ?? "")") }
        var next = 0
        for line in lines.dropFirst() where line.hasPrefix("{\"type\":\"gesture\"") {
            guard line == "{\"type\":\"gesture\",\"gesture\":\"nod\",\"n\":\(next)}" else {
                fatalError("gesture \(next) missing or out of order: \(line)")
            }
            next += 1
        }
        guard next == gestures else { fatalError("the reading client got \(next) of \(gestures) gestures") }
    }

    static func connectClient(_ path: String) -> Int32 {
        (try? UnixListener.connectClient(path, nonBlocking: true)) ?? -1
    }

    static func drain(_ fd: Int32, into out: inout [UInt8], scratch: inout [UInt8]) {
        guard fd >= 0 else { return }
        while true {
            let n = recv(fd, &scratch, scratch.count, Int32(MSG_DONTWAIT))
            if n > 0 { out += scratch[0..<n]; continue }
            if n < 0 && errno == EINTR { continue }
            return
        }
    }
}
