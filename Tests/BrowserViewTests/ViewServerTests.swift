#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import BrowserView
import ViewPage

/// The server with real sockets: a browser's requests over TCP, a tracker's stream over AF_UNIX (a fake one,
/// written here, that sends the lines the test chooses), and the server stepped by the test itself.
@Suite(.serialized) struct ViewServerTests {
    static func socketPath(_ name: String) -> String { "/tmp/headtrack-view-\(getpid())-\(name).sock" }

    /// A tracker stand-in: listens where the view connects and sends whole lines.
    final class FakeTracker {
        let path: String
        var listener: Int32 = -1
        var client: Int32 = -1

        init(path: String) {
            self.path = path
            unlink(path)
            listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
            _ = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            listen(listener, 4)
            _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
        }

        func acceptView() -> Bool {
            if client >= 0 { return true }
            client = accept(listener, nil, nil)
            return client >= 0
        }

        func send(_ line: String) {
            let bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { return }
                offset += n
            }
        }

        /// The tracker stops: its connection and its socket file go.
        func stop() {
            if client >= 0 { close(client); client = -1 }
            if listener >= 0 { close(listener); listener = -1 }
            unlink(path)
        }
    }

    /// A browser connection: sends bytes, collects what comes back.
    final class Browser {
        let fd: Int32
        var received: [UInt8] = []
        var closed = false

        init(port: Int, receiveBuffer: Int32? = nil) {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if var size = receiveBuffer {
                setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            let r = withUnsafePointer(to: &address) { p in
                p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            #expect(r == 0)
        }

        deinit { close(fd) }

        func send(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        /// Reads what is there now.
        func read() {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = recv(fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
                if n == 0 { closed = true; return }
                if n < 0 { if errno == ECONNRESET { closed = true }; return }
                received += chunk[0..<n]
            }
        }

        var text: String { String(decoding: received, as: UTF8.self) }
        var statusLine: String { String(text.prefix { $0 != "\r\n" && $0 != "\r" }) }
        /// The server-sent events after the response head.
        var events: [ServerSentEventsTests.Event] {
            guard let end = text.range(of: "\r\n\r\n") else { return [] }
            return ServerSentEventsTests.parse(Array(text[end.upperBound...].utf8))
        }
    }

    /// Steps the server until `done` (at most `rounds` rounds of 10 ms); the browsers read in between.
    @discardableResult
    func pump(_ server: ViewServer, _ browsers: [Browser] = [], rounds: Int = 300, until done: () -> Bool) -> Bool {
        for _ in 0..<rounds {
            server.step(timeout: 0.01)
            for b in browsers { b.read() }
            if done() { return true }
        }
        return false
    }

    func server(_ name: String, _ change: (inout ViewServer.Settings) -> Void = { _ in }) throws -> ViewServer {
        var s = ViewServer.Settings(socketPath: Self.socketPath(name))
        s.port = 0
        change(&s)
        return try ViewServer(settings: s)
    }

    static let get = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    static let events = "GET /events HTTP/1.1\r\nHost: localhost:8740\r\nAccept: text/event-stream\r\n\r\n"

    @Test func servesThePageWithItsHeaders() throws {
        let s = try server("page")
        let b = Browser(port: s.port)
        b.send(Self.get)
        #expect(pump(s, [b]) { b.closed })
        #expect(b.statusLine == "HTTP/1.1 200 OK")
        #expect(b.text.contains("\r\nContent-Type: text/html; charset=utf-8\r\n"))
        #expect(b.text.contains("\r\nContent-Security-Policy: default-src 'none'"))
        #expect(b.text.hasSuffix(String(decoding: PageAssets.page.bytes, as: UTF8.self)))
        #expect(s.totals.requests == 1)
    }

    @Test func refusalsAreClear() throws {
        let s = try server("refusals")
        for (request, status) in [("GET /nope HTTP/1.1\r\nHost: localhost\r\n\r\n", "404 Not Found"),
                                  ("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", "405 Method Not Allowed"),
                                  ("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", "403 Forbidden"),
                                  ("BREW /pot HTCPCP/1.0\r\n\r\n", "400 Bad Request")] {
            let b = Browser(port: s.port)
            b.send(request)
            #expect(pump(s, [b]) { b.closed })
            #expect(b.statusLine == "HTTP/1.1 " + status)
            #expect(b.text.contains("\r\n\r\n" + status + ": "))
        }
    }

    /// A tracker that is frozen with its listen queue full: the view's connect must not wait for it. It says
    /// why it is waiting and serves the page meanwhile (a blocking connect froze the whole view until the
    /// tracker resumed).
    @Test func aFrozenTrackerDoesNotFreezeThePage() throws {
        let s = try server("frozen")
        let path = s.settings.socketPath
        unlink(path)
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in path.utf8.enumerated() { raw[i] = b } }
        let sockaddrSize = socklen_t(MemoryLayout<sockaddr_un>.size)
        _ = withUnsafePointer(to: &address) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, sockaddrSize) } }
        listen(listener, 0)
        // Never accepted: connect until the queue is full (a non-blocking connect then fails with EAGAIN).
        var queued: [Int32] = []
        defer { queued.forEach { close($0) }; close(listener); unlink(path) }
        while queued.count < 64 {
            let c = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            let r = withUnsafePointer(to: &address) { p in p.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(c, $0, sockaddrSize) } }
            if r != 0 { close(c); break }
            queued.append(c)
        }
        let b = Browser(port: s.port)
        b.send(Self.get)
        #expect(pump(s, [b]) { b.closed })
        #expect(b.statusLine == "HTTP/1.1 200 OK")
        #expect(s.trackerStatus.contains("accepts no connection now"), "\(s.trackerStatus)")
    }

    @Test func aTricklingRequestIsCutOff() throws {
        let s = try server("slowloris") { $0.requestTimeout = 0.2 }
        let b = Browser(port: s.port)
        b.send("GET / HTTP/1.1\r\nHost: loc")
        // Keeps trickling a byte now and then: the deadline counts from the connection, not from the last byte.
        var rounds = 0
        #expect(pump(s, [b], rounds: 1000) {
            rounds += 1
            if rounds % 5 == 0 && !b.closed { b.send("a") }
            return b.closed
        })
        #expect(b.statusLine == "HTTP/1.1 408 Request Timeout")
        #expect(s.totals.refused[408] == 1)
    }

    /// Connections that trickle their request heads hold every slot: a new connection replaces the one that has
    /// waited longest, so a normal `GET /` is answered (it got 503 while the tricklers kept every slot).
    @Test func tricklersCannotLockOutAPage() throws {
        let s = try server("lockout") { $0.maxStreams = 1; $0.maxRequests = 2; $0.evictRequestsAfter = 0.05 }
        let tricklers = (0..<3).map { _ in Browser(port: s.port) }
        tricklers.forEach { $0.send("GET / HTTP/1.1\r\nHost: loc") }
        pump(s, tricklers, rounds: 10) { false }  // 0.1 s: every slot taken, each older than evictRequestsAfter
        let page = Browser(port: s.port)
        page.send(Self.get)
        #expect(pump(s, [page]) { page.closed })
        #expect(page.statusLine == "HTTP/1.1 200 OK")
        tricklers.forEach { $0.read() }
        #expect(tricklers.filter { $0.statusLine == "HTTP/1.1 408 Request Timeout" }.count == 1)
    }

    /// A page that takes nothing (its buffers full, lines waiting) is cut off after `streamStalledAfter`, even
    /// when only droppable state lines wait for it: it held a stream slot for as long as it stayed connected.
    @Test func aStreamThatStopsReadingIsCutOff() throws {
        let s = try server("stalled") { $0.streamStalledAfter = 0.2; $0.streamQueueBytes = 64 << 10; $0.streamReserveBytes = 16 << 10 }
        let tracker = FakeTracker(path: s.settings.socketPath)
        defer { tracker.stop() }
        #expect(pump(s) { tracker.acceptView() })
        tracker.send(#"{"type":"hello","version":1,"imu":"fake"}"#)
        let idle = Browser(port: s.port, receiveBuffer: 4096)
        idle.send(Self.events)
        pump(s, rounds: 10) { false }  // never reads
        let pad = String(repeating: "x", count: 1000)
        var i = 0
        #expect(pump(s, rounds: 1000) {
            for _ in 0..<20 { tracker.send(#"{"type":"state","i":\#(i),"pad":"\#(pad)"}"#); i += 1 }
            return s.totals.streamsCutSlow == 1
        })
        #expect(s.streamCount == 0)
    }

    @Test func hugeHeadersGet431AndTheConnectionEnds() throws {
        let s = try server("huge")
        let b = Browser(port: s.port)
        b.send("GET / HTTP/1.1\r\n")
        var sent = 0
        #expect(pump(s, [b]) {
            if sent < 256 { b.send("X-Filler: " + String(repeating: "z", count: 1000) + "\r\n"); sent += 1 }
            return b.closed
        })
        #expect(b.statusLine == "HTTP/1.1 431 Request Header Fields Too Large")
        #expect(sent < 256)  // refused long before the quarter megabyte was sent
    }

    @Test func moreConnectionsThanSlotsGet503() throws {
        let s = try server("slots") { $0.maxStreams = 1; $0.maxRequests = 1 }
        let idle = [Browser(port: s.port), Browser(port: s.port)]
        pump(s, idle, rounds: 5) { false }
        let third = Browser(port: s.port)
        #expect(pump(s, idle + [third]) { third.closed })
        #expect(third.statusLine == "HTTP/1.1 503 Service Unavailable")
        #expect(third.text.contains("Retry-After: 5"))
        #expect(!idle[0].closed && !idle[1].closed)
    }

    @Test func streamsTheTrackersLinesWithHistoryAndStatus() throws {
        let s = try server("stream")
        let tracker = FakeTracker(path: s.settings.socketPath)
        defer { tracker.stop() }
        #expect(pump(s) { tracker.acceptView() })
        tracker.send(#"{"type":"hello","version":1,"imu":"fake"}"#)
        tracker.send(#"{"type":"state","t":0.017}"#)
        tracker.send(#"{"type":"gesture","gesture":"nod","t":0.5}"#)
        pump(s, rounds: 10) { false }
        // A page that opens now gets the status, the hello and what came since, then what comes next.
        let b = Browser(port: s.port)
        b.send(Self.events)
        #expect(pump(s, [b]) { b.events.count >= 4 })
        #expect(b.statusLine == "HTTP/1.1 200 OK" && b.text.contains("Content-Type: text/event-stream"))
        let e = b.events
        #expect(e[0].name == "view" && e[0].data.contains(#""tracker":"connected""#))
        #expect(e[1...3].map(\.data) == [#"{"type":"hello","version":1,"imu":"fake"}"#, #"{"type":"state","t":0.017}"#,
                                         #"{"type":"gesture","gesture":"nod","t":0.5}"#])
        tracker.send(#"{"type":"state","t":0.033}"#)
        #expect(pump(s, [b]) { b.events.contains { $0.data == #"{"type":"state","t":0.033}"# } })
        // The tracker goes: the page is told at once, and the view waits for it.
        tracker.stop()
        #expect(pump(s, [b]) { b.events.last?.name == "view" && b.events.last!.data.contains(#""tracker":"waiting""#) })
        // It comes back with a new session: the page gets the new hello, and a page opened now gets none of the old.
        let back = FakeTracker(path: s.settings.socketPath)
        defer { back.stop() }
        #expect(pump(s, [b]) { back.acceptView() })
        back.send(#"{"type":"hello","version":1,"imu":"again"}"#)
        #expect(pump(s, [b]) { b.events.contains { $0.data.contains("again") } })
        let late = Browser(port: s.port)
        late.send(Self.events)
        #expect(pump(s, [late]) { late.events.count >= 2 })
        #expect(!late.text.contains("0.017") && late.events[1].data.contains("again"))
        #expect(s.totals.trackerConnections == 2)
    }

    /// A stream client that floods its connection: the view does not spend its loop reading the flood (the
    /// bytes stay in the flooder's own socket, which stays full), the page still gets its lines, and a page
    /// that closes is still noticed.
    @Test func aFloodingStreamClientIsNotRead() throws {
        let s = try server("flooding")
        let tracker = FakeTracker(path: s.settings.socketPath)
        defer { tracker.stop() }
        #expect(pump(s) { tracker.acceptView() })
        tracker.send(#"{"type":"hello","version":1,"imu":"fake"}"#)
        let flooder = Browser(port: s.port)
        flooder.send(Self.events)
        #expect(pump(s, [flooder]) { flooder.events.count >= 2 })
        _ = fcntl(flooder.fd, F_SETFL, fcntl(flooder.fd, F_GETFL) | O_NONBLOCK)
        var small: Int32 = 4096  // a fixed send buffer: what the flooder gets rid of is what the view's side takes
        setsockopt(flooder.fd, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size))
        let block = [UInt8](repeating: 0x41, count: 65536)
        func sendAll() -> Int {
            var total = 0
            while true {
                let n = block.withUnsafeBytes { Glibc.send(flooder.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return total }
                total += n
            }
        }
        #expect(sendAll() > 0)
        // Until the kernel's buffers take no more for 20 rounds of the view's loop in a row (they fill in steps).
        var idleRounds = 0
        for _ in 0..<1000 where idleRounds < 20 {
            s.step(timeout: 0)
            idleRounds = sendAll() == 0 ? idleRounds + 1 : 0
        }
        // 10 000 more rounds, the flooder topping up after each: a view that reads the stream's connection takes
        // about 128 bytes a round (1.2 MB); one that does not leaves the flood in the kernel's buffers, which
        // take at most ~100 KB more as the kernel compacts what waits in them.
        var more = 0
        for _ in 0..<10_000 {
            s.step(timeout: 0)
            more += sendAll()
        }
        #expect(more < 512 << 10, "the view read \(more) bytes of the flood")
        tracker.send(#"{"type":"gesture","gesture":"nod","t":0.5}"#)
        #expect(pump(s, [flooder]) { flooder.events.contains { $0.data.contains("nod") } })
        shutdown(flooder.fd, Int32(SHUT_RDWR))  // the page goes
        #expect(pump(s) { s.streamCount == 0 })
    }

    @Test func aPageThatStopsReadingLosesStateLinesNotGestures() throws {
        let s = try server("slow") { $0.streamQueueBytes = 64 << 10; $0.streamReserveBytes = 16 << 10 }
        let tracker = FakeTracker(path: s.settings.socketPath)
        defer { tracker.stop() }
        #expect(pump(s) { tracker.acceptView() })
        tracker.send(#"{"type":"hello","version":1}"#)
        let b = Browser(port: s.port, receiveBuffer: 4096)
        b.send(Self.events)
        #expect(pump(s, [b]) { b.events.count >= 2 })
        // The page stops reading; the tracker goes on.
        let filler = String(repeating: "x", count: 200)
        for i in 0..<4000 {
            tracker.send(#"{"type":"state","t":\#(i),"pad":"\#(filler)"}"#)
            if i % 50 == 0 { s.step(timeout: 0) }
        }
        tracker.send(#"{"type":"gesture","gesture":"shake","t":99}"#)
        pump(s, rounds: 20) { false }
        #expect(s.totals.droppedLines > 0)
        #expect(s.totals.streamsCutSlow == 0)
        // Reading again: the gesture arrives, and the next status says how many lines this page lost.
        #expect(pump(s, [b]) { b.events.contains { $0.data.contains("shake") } })
        #expect(pump(s, [b], rounds: 200) {
            b.events.last { $0.name == "view" }?.data.contains(#""dropped":\#(s.totals.droppedLines)"#) == true
        })
    }

    @Test func listensOnLoopbackOnly() throws {
        let s = try server("bind")
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        // The listener's own address, read back from the kernel.
        _ = withUnsafeMutablePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(s.listener.fd, $0, &length) }
        }
        #expect(UInt32(bigEndian: address.sin_addr.s_addr) == 0x7F00_0001)
        #expect(Int(UInt16(bigEndian: address.sin_port)) == s.port)
    }

    @Test func aPortInUseIsAClearError() throws {
        let first = try server("inuse")
        var s = ViewServer.Settings(socketPath: Self.socketPath("inuse2"))
        s.port = first.port
        #expect(throws: ViewError("port \(first.port) on 127.0.0.1 is in use (another view?): give another --port N, or --port 0 for any free one")) {
            _ = try ViewServer(settings: s)
        }
    }
}
