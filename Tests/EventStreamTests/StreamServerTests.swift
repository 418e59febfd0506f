#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
@testable import Formats
@testable import EventStream

/// The stream server with real AF_UNIX clients: what a slow client loses (state lines only, and it is told),
/// what a client that stopped reading costs (its connection, nobody else's gestures), and the socket file.
struct StreamServerTests {
    static func tempPath(_ name: String) -> String { "/tmp/headtrack-stream-\(getpid())-\(name).sock" }

    static func line(_ s: StaticString) -> LineBuffer {
        let b = LineBuffer(capacity: 512)
        b.literal(s)
        return b
    }

    /// A connected client socket with a small receive buffer, so the server's ring is what fills.
    struct Client {
        let fd: Int32
        init(path: String) throws {
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var size: Int32 = 4096
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var address = try UnixListener.address(path)
            let r = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            #expect(r == 0)
        }
        /// Everything readable now, split into lines.
        func readLines() -> [String] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if n <= 0 { break }
                bytes += chunk[0..<n]
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        var closedByPeer: Bool {
            var b: UInt8 = 0
            var rest = [UInt8](repeating: 0, count: 65536)
            while recv(fd, &rest, rest.count, Int32(MSG_DONTWAIT)) > 0 {}
            return recv(fd, &b, 1, Int32(MSG_DONTWAIT)) == 0
        }
        func close() { Glibc.close(fd) }
    }

    func settings() -> StreamServer.Settings {
        var s = StreamServer.Settings()
        s.ringBytes = 8192
        s.reserveBytes = 1024
        s.kernelSendBufferBytes = 4096
        return s
    }

    @Test func slowClientLosesOnlyStateAndIsToldHowMany() throws {
        let path = Self.tempPath("slow")
        let server = try StreamServer(path: path, settings: settings(), hello: Self.line("{\"type\":\"hello\"}\n"))
        defer { server.stop() }
        let client = try Client(path: path)
        defer { client.close() }
        server.poll(t: 0)
        #expect(server.clientCount == 1)
        let state = LineBuffer(capacity: 256)
        // Longer than a state line, so it fits only thanks to the reserve once state has filled the rest.
        let gesture = Self.line("{\"type\":\"gesture\",\"gesture\":\"nod\",\"pad\":\"............................................................................................................................................................\"}\n")
        let sent = 2000
        for i in 0..<sent {
            state.reset()
            state.literal("{\"type\":\"state\",\"i\":")
            state.integer(Int64(i))
            state.literal(",\"pad\":\"................................................................\"}\n")
            server.broadcast(state, kind: .state, t: Double(i) / 60)
            if i == 1000 { server.broadcast(gesture, kind: .mustArrive, t: Double(i) / 60) }
        }
        #expect(server.totals.droppedStateLines > 0)
        #expect(server.clientCount == 1)  // stalled for 33 s of loop time but never polled: still there
        // The client reads again: everything it gets is whole lines, the gesture is among them, and the
        // states it received plus the dropped counts add up to the states sent.
        var lines: [String] = []
        for k in 0..<200 {
            lines += client.readLines()
            server.poll(t: Double(sent + k) / 60)
            state.reset()
            state.literal("{\"type\":\"state\",\"i\":-1}\n")
            server.broadcast(state, kind: .state, t: Double(sent + k) / 60)
        }
        lines += client.readLines()
        var states = 0, dropped = 0, gestures = 0
        for l in lines {
            let v = try JSONParser.parse(l)
            switch v["type"] {
            case .string("state"): states += 1
            case .string("gesture"): gestures += 1
            case .string("dropped"):
                guard case let .number(n)? = v["n"] else { Issue.record("dropped without n: \(l)"); continue }
                dropped += Int(n)
            case .string("hello"): break
            default: Issue.record("unexpected line \(l)")
            }
        }
        #expect(lines.first == "{\"type\":\"hello\"}")
        #expect(gestures == 1)
        #expect(dropped > 0)
        #expect(states + dropped == sent + 200)
        #expect(dropped == server.totals.droppedStateLines)
    }

    @Test func clientThatStopsReadingIsDisconnectedOthersKeepEveryGesture() throws {
        let path = Self.tempPath("stalled")
        let server = try StreamServer(path: path, settings: settings(), hello: Self.line("{\"type\":\"hello\"}\n"))
        defer { server.stop() }
        let stalled = try Client(path: path)
        let reader = try Client(path: path)
        defer { stalled.close(); reader.close() }
        server.poll(t: 0)
        #expect(server.clientCount == 2)
        let gesture = Self.line("{\"type\":\"gesture\",\"gesture\":\"shake\",\"pad\":\"..............................................\"}\n")
        var received = 0
        for i in 0..<400 {
            server.broadcast(gesture, kind: .mustArrive, t: Double(i) * 0.01)
            received += reader.readLines().count
        }
        received += reader.readLines().count
        #expect(server.clientCount == 1)
        #expect(server.totals.disconnectedStalled == 1)
        #expect(stalled.closedByPeer)
        #expect(received == 401)  // the hello and every gesture
    }

    @Test func idleClientWithBacklogIsDroppedAfterTheStallTime() throws {
        let path = Self.tempPath("idle")
        var s = settings()
        s.stalledAfter = 5
        let server = try StreamServer(path: path, settings: s, hello: Self.line("{\"type\":\"hello\"}\n"))
        defer { server.stop() }
        let client = try Client(path: path)
        defer { client.close() }
        server.poll(t: 0)
        let state = Self.line("{\"type\":\"state\",\"pad\":\"..........................................................................\"}\n")
        for i in 0..<600 {  // 10 s at 60 Hz, never read
            server.broadcast(state, kind: .state, t: Double(i) / 60)
            server.poll(t: Double(i) / 60)
        }
        #expect(server.clientCount == 0)
        #expect(server.totals.disconnectedStalled == 1)
    }

    @Test func socketFileModeAndRemoval() throws {
        let path = Self.tempPath("mode")
        let server = try StreamServer(path: path, hello: Self.line("{}\n"))
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o660)
        #expect(st.st_mode & S_IFMT == S_IFSOCK)
        server.stop()
        #expect(stat(path, &st) != 0)
    }

    @Test func liveSocketIsRefusedStaleOneReplacedOtherFileKept() throws {
        let path = Self.tempPath("live")
        let first = try StreamServer(path: path, hello: Self.line("{}\n"))
        #expect(throws: StreamSocketError(message: "another headtrack is already serving \(path) (pid \(getpid())): stop it first "
                                          + "(systemctl stop headtrack) or give another --socket PATH")) {
            _ = try StreamServer(path: path, hello: Self.line("{}\n"))
        }
        first.stop()

        // What a crash leaves: a bound socket file nobody listens on.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try UnixListener.address(path)
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        Glibc.close(fd)
        let second = try StreamServer(path: path, hello: Self.line("{}\n"))
        second.stop()

        let plain = Self.tempPath("plain")
        let f = open(plain, O_CREAT | O_WRONLY, 0o644)
        Glibc.close(f)
        defer { unlink(plain) }
        #expect(throws: StreamSocketError.self) { _ = try StreamServer(path: plain, hello: Self.line("{}\n")) }
        #expect(access(plain, F_OK) == 0)  // a file that is not a socket is never removed
    }

    /// A server that took no lock (a headtrack from before the lock) is still refused, and named by the pid
    /// the kernel gives for the socket's other end.
    @Test func serverWithoutTheLockIsNamedByItsPid() throws {
        let path = Self.tempPath("older")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(fd); unlink(path) }
        var address = try UnixListener.address(path)
        let bound = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0 && listen(fd, 4) == 0)
        do {
            _ = try StreamServer(path: path, hello: Self.line("{}\n"))
            Issue.record("a live socket was taken over")
        } catch {
            #expect(error.message.hasPrefix("another headtrack is already serving \(path) (pid \(getpid()))"), "\(error.message)")
        }
        #expect(access(path, F_OK) == 0)
    }

    @Test func tooManyClientsAreToldAndClosed() throws {
        let path = Self.tempPath("many")
        var s = settings()
        s.maxClients = 1
        let server = try StreamServer(path: path, settings: s, hello: Self.line("{\"type\":\"hello\"}\n"))
        defer { server.stop() }
        let a = try Client(path: path)
        let b = try Client(path: path)
        defer { a.close(); b.close() }
        server.poll(t: 0)
        #expect(server.clientCount == 1)
        #expect(server.totals.refusedTooMany == 1)
        #expect(a.readLines() == ["{\"type\":\"hello\"}"])
        #expect(b.readLines().first?.contains("too many clients") == true)
    }

    @Test func clientThatLeavesFreesItsSlot() throws {
        let path = Self.tempPath("leave")
        let server = try StreamServer(path: path, hello: Self.line("{}\n"))
        defer { server.stop() }
        let a = try Client(path: path)
        server.poll(t: 0)
        #expect(server.clientCount == 1)
        a.close()
        server.poll(t: 0.02)
        #expect(server.clientCount == 0)
    }
    /// A crowd at the door is let in a few per tick: one tick's work stays bounded however many connect at
    /// once (a connect/disconnect storm), and every waiting client still gets its hello a few ticks later.
    @Test func waitingClientsAreTakenAFewPerTick() throws {
        let path = Self.tempPath("crowd")
        var s = StreamServer.Settings()
        s.acceptsPerTick = 3
        let server = try StreamServer(path: path, settings: s, hello: Self.line("{\"type\":\"hello\"}\n"))
        defer { server.stop() }
        let clients = try (0..<8).map { _ in try Client(path: path) }
        defer { clients.forEach { $0.close() } }
        server.poll(t: 0)
        #expect(server.totals.accepted == 3)
        server.poll(t: 1.0 / 60)
        server.poll(t: 2.0 / 60)
        #expect(server.totals.accepted == 8)
        #expect(clients.allSatisfy { $0.readLines() == ["{\"type\":\"hello\"}"] })
    }
}
