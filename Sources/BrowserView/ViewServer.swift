import LibC
import PlainText

/// `headtrack view`'s server: one thread, one poll loop. It reads the tracker's event stream as an ordinary
/// client and passes every line on to a few browsers as server-sent events, with the page's own files, on
/// 127.0.0.1 only. Memory is bounded by the settings (a fixed number of connections, each with a capped queue,
/// and a capped history); a browser that falls behind loses state lines first and is disconnected (its page
/// reconnects) rather than holding anything up.
public final class ViewServer {
    public struct Settings: Sendable, Equatable {
        public var socketPath: String
        public var port = ViewServer.defaultPort
        /// Pages streaming at once (a browser tab with the page open holds one).
        public var maxStreams = 4
        /// Connections being read or answered besides the streams: loading the page takes four requests.
        public var maxRequests = 4
        /// A request head must arrive whole within this (a connection that trickles bytes is cut off).
        public var requestTimeout = 5.0
        /// When every slot is taken, a new connection replaces the one that has waited longest for its request
        /// head, if it has waited at least this long: twelve connections trickling a byte a second, reopened as
        /// they were cut off, kept every slot and a normal `GET /` got 503 in 29 of 30 tries.
        public var evictRequestsAfter = 0.25
        /// A page that takes none of the lines waiting for it for this long has stopped reading (a tab that
        /// reads keeps up with 15 KB/s easily): it is cut off, so it cannot hold a stream slot forever.
        public var streamStalledAfter = 10.0
        /// Queue per stream: over 30 s of state lines at 60 Hz, for a browser tab in the background.
        public var streamQueueBytes = 1 << 20
        /// The part of that queue state and calibration lines may not use, kept for gestures and faults.
        public var streamReserveBytes = 128 << 10
        /// Lines (all but calibration) kept for a page that opens now: about 10 s of state, to fill the plot.
        public var historyBytes = 256 << 10
        /// Calibration lines kept for a page that opens during a calibration: about 10 000 samples.
        public var calibrationHistoryBytes = 256 << 10
        /// Serve `/events` only to local users who may connect to the socket themselves (`PeerAccess`); off only
        /// in tests that have no /proc/net/tcp to look in.
        public var checkPeerAccess = true
        /// How often to try the tracker's socket again while it is not there.
        public var retryInterval = 0.5
        /// A `view` status event this often, so the page knows the view itself is alive.
        public var heartbeatInterval = 1.0
        public var limits = HTTPRequestParser.Limits()

        public init(socketPath: String) { self.socketPath = socketPath }
    }

    public static let defaultPort = 8740
    /// POLLRDHUP (Linux): the peer shut down its sending side or closed. Glibc exports it only with _GNU_SOURCE.
    static let peerHungUp = Int16(0x2000)
    /// Per stream; Linux doubles it. A second of state lines at 60 Hz is about 20 KiB.
    static let kernelSendBufferBytes = 32 << 10

    /// Counts for the exit line and the tests.
    public struct Totals: Sendable, Equatable {
        public var requests = 0
        /// Refused requests by status (400, 404, 408, 431, 503, ...).
        public var refused: [Int: Int] = [:]
        public var streamsOpened = 0
        /// Streams closed because the browser stopped taking lines that must arrive.
        public var streamsCutSlow = 0
        public var trackerLines = 0
        public var trackerConnections = 0
        /// State and calibration lines a slow browser did not get.
        public var droppedLines = 0
    }

    public let settings: Settings
    public var port: Int { listener.port }
    public private(set) var totals = Totals()

    let listener: LoopbackListener
    private let tracker: TrackerLink
    private let connections: [Connection]
    private var hello: [UInt8]? = nil
    private var recent: LineHistory
    private var calibration: LineHistory
    private var nextHeartbeat = -Double.infinity
    private let started = monotonicSeconds()
    private var inbox = [UInt8](repeating: 0, count: 4096)

    public init(settings: Settings) throws(ViewError) {
        guard (1...16).contains(settings.maxStreams), (1...16).contains(settings.maxRequests) else {
            throw ViewError("view connections out of range: 1...16 streams and 1...16 requests")
        }
        self.settings = settings
        listener = try LoopbackListener(port: settings.port)
        tracker = TrackerLink(path: settings.socketPath, retryInterval: settings.retryInterval)
        connections = (0..<(settings.maxStreams + settings.maxRequests)).map { _ in Connection(limits: settings.limits) }
        recent = LineHistory(capacity: settings.historyBytes)
        calibration = LineHistory(capacity: settings.calibrationHistoryBytes)
    }

    /// Pages streaming now.
    var streamCount: Int { connections.filter { $0.fd >= 0 && $0.phase == .stream }.count }

    /// The URL to open.
    public var url: String { "http://127.0.0.1:\(port)/" }

    /// Whether the tracker's stream is connected, or why not.
    public var trackerStatus: String {
        switch tracker.state {
        case .connected: return "connected to \(settings.socketPath)"
        case let .waiting(why): return why
        }
    }

    /// Serves until `shouldStop` says so. `say` gets a line when the tracker comes or goes.
    public func run(shouldStop: () -> Bool, say: (String) -> Void) {
        var lastStatus = ""
        while !shouldStop() {
            step(timeout: 0.1)
            if trackerStatus != lastStatus {
                lastStatus = trackerStatus
                say("headtrack view: " + lastStatus)
            }
        }
        for c in connections where c.fd >= 0 { c.close() }
    }

    /// One round: connect to the tracker when due, wait up to `timeout` s for any socket, and handle what is ready.
    public func step(timeout: Double) {
        var now = monotonicSeconds()
        if tracker.connectIfDue(now: now) {
            if tracker.state == .connected { totals.trackerConnections += 1 }
            broadcastStatus()
        }
        var fds: [pollfd] = [pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)]
        let trackerIndex = tracker.fd >= 0 ? fds.count : -1
        if tracker.fd >= 0 { fds.append(pollfd(fd: tracker.fd, events: Int16(POLLIN), revents: 0)) }
        var polled: [(Int, Connection)] = []
        var wait = timeout
        for c in connections where c.fd >= 0 {
            var events = Int16(0)
            switch c.phase {
            case .request, .linger: events |= Int16(POLLIN)
            // A page sends nothing after its request: only its hang-up is watched, never its bytes. Reading them
            // let a client that floods its stream connection keep this loop copying and discarding (4 flooders
            // cost the view 42 % of a core); unread, they fill that client's own socket and nothing else.
            case .stream: events |= ViewServer.peerHungUp
            case .respond: break
            }
            if !c.out.isEmpty { events |= Int16(POLLOUT) }
            if c.phase == .request || c.phase == .linger { wait = Swift.min(wait, Swift.max(0, c.deadline - now)) }
            polled.append((fds.count, c))
            fds.append(pollfd(fd: c.fd, events: events, revents: 0))
        }
        if tracker.fd < 0 { wait = Swift.min(wait, settings.retryInterval) }
        _ = poll(&fds, nfds_t(fds.count), Int32((wait * 1000).rounded(.up)))
        now = monotonicSeconds()

        if trackerIndex >= 0 && fds[trackerIndex].revents != 0 {
            let open = tracker.read { line in deliver(Array(line)) }
            if !open { broadcastStatus() }
        }
        for (i, c) in polled where c.fd >= 0 {
            let r = fds[i].revents
            if c.phase == .stream && r & (ViewServer.peerHungUp | Int16(POLLHUP | POLLERR)) != 0 { c.close(); continue }
            if r & Int16(POLLIN | POLLHUP | POLLERR) != 0 { receive(c, now: now) }
            if c.fd >= 0 && !c.out.isEmpty && r & Int16(POLLOUT | POLLERR | POLLHUP) != 0 { flush(c, now: now) }
        }
        if fds[0].revents & Int16(POLLIN) != 0 { acceptAll(now: now) }
        for c in connections where c.fd >= 0 && (c.phase == .request || c.phase == .linger) && now >= c.deadline {
            if c.phase == .request {
                refuse(c, HTTPRejection(408, "the request did not arrive whole within \(Int(settings.requestTimeout)) s"), now: now)
            } else {
                c.close()
            }
        }
        for c in connections where c.fd >= 0 && c.phase == .stream && !c.out.isEmpty && now - c.lastProgress > settings.streamStalledAfter {
            totals.streamsCutSlow += 1
            c.close()
        }
        if now >= nextHeartbeat {
            nextHeartbeat = now + settings.heartbeatInterval
            broadcastStatus()
        }
    }

    // MARK: browsers

    private func acceptAll(now: Double) {
        for _ in 0..<64 {
            guard let fd = listener.accept() else { return }
            guard let slot = connections.first(where: { $0.fd < 0 }) ?? evictLongestWaiting(now: now) else {
                // Every slot is taken: say so at once (a best effort on the fresh socket) instead of queueing.
                count(503)
                let bytes = HTTPResponse.error(HTTPRejection(503, "the view serves \(settings.maxStreams) pages at once: close one and reload"))
                _ = bytes.withUnsafeBytes { LibC.send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
                LibC.shutdown(fd, Int32(SHUT_WR))
                LibC.close(fd)
                continue
            }
            slot.open(fd, now: now, deadline: now + settings.requestTimeout)
        }
    }

    /// The slot of the connection that has waited longest for its request head (at least
    /// `evictRequestsAfter`), told 408 and closed; nil when none has.
    private func evictLongestWaiting(now: Double) -> Connection? {
        let waiting = connections.filter { $0.fd >= 0 && $0.phase == .request && now - $0.openedAt >= settings.evictRequestsAfter }
        guard let oldest = waiting.min(by: { $0.openedAt < $1.openedAt }) else { return nil }
        count(408)
        let bytes = HTTPResponse.error(HTTPRejection(408, "the request did not arrive in time, and another connection needed the slot"))
        _ = bytes.withUnsafeBytes { LibC.send(oldest.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
        oldest.close()
        return oldest
    }

    private func receive(_ c: Connection, now: Double) {
        let n = inbox.withUnsafeMutableBytes { LibC.recv(c.fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if n < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
            c.close()
            return
        }
        if n == 0 {
            // The browser closed its end: a stream or a finished answer is over; a half-sent request too.
            c.close()
            return
        }
        switch c.phase {
        case .request:
            let result = inbox.withUnsafeBytes { c.parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            switch result {
            case .incomplete: break
            case let .rejected(why): refuse(c, why, now: now)
            case let .complete(request): answer(c, request, now: now)
            }
        case .linger:
            c.lingered += n
            if c.lingered > 64 * 1024 { c.close() }
        case .stream, .respond:
            break  // a page sends nothing after its request
        }
    }

    private func answer(_ c: Connection, _ request: HTTPRequest, now: Double) {
        totals.requests += 1
        switch ViewRouter.route(request) {
        case let .asset(asset):
            c.respond(HTTPResponse.body(200, contentType: asset.contentType, asset.bytes))
            flush(c, now: now)
        case .noContent:
            c.respond(HTTPResponse.head(204, [("Content-Length", "0")]))
            flush(c, now: now)
        case let .refuse(why):
            refuse(c, why, now: now)
        case .events:
            if let why = streamRefusal(c) { refuse(c, why, now: now); return }
            guard connections.filter({ $0.phase == .stream && $0.fd >= 0 }).count < settings.maxStreams else {
                refuse(c, HTTPRejection(503, "the view serves \(settings.maxStreams) pages at once: close one and reload"), now: now)
                return
            }
            totals.streamsOpened += 1
            c.startStream(capacity: settings.streamQueueBytes)
            c.lastProgress = now
            // A small kernel buffer, so a slow page's backlog waits in its queue, where state lines are dropped
            // first and counted, rather than in the kernel.
            var size = Int32(ViewServer.kernelSendBufferBytes)
            _ = setsockopt(c.fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            var opening = HTTPResponse.eventStreamHead + ServerSentEvents.retry(milliseconds: 1000)
            opening += statusEvent(for: c)
            if let h = hello { opening += ServerSentEvents.event(h) }
            recent.forEach { opening += ServerSentEvents.event($0) }
            calibration.forEach { opening += ServerSentEvents.event($0) }
            if !c.out.append(opening) { c.close(); return }
            flush(c, now: now)
        }
    }

    /// Why the user at the far end may not have the stream, or nil when they may: the view passes it on only to
    /// those the socket itself would let in, so a running view does not make it readable by every local user.
    private func streamRefusal(_ c: Connection) -> HTTPRejection? {
        guard settings.checkPeerAccess else { return nil }
        guard let uid = PeerAccess.peerUID(c.fd) else {
            return HTTPRejection(403, "cannot tell which local user is connecting (no entry in /proc/net/tcp), so the stream is not passed on")
        }
        guard PeerAccess.mayConnect(uid: uid, to: settings.socketPath) else {
            let name = getpwuid(uid).map { String(cString: $0.pointee.pw_name) } ?? "uid \(uid)"
            return HTTPRejection(403, "user \(name) may not read the event stream \(settings.socketPath), so this view does not pass it on: "
                + "add the user to the socket's group (sudo usermod -aG headtrack \(name), then log in again)")
        }
        return nil
    }

    private func refuse(_ c: Connection, _ why: HTTPRejection, now: Double) {
        count(why.status)
        c.respond(HTTPResponse.error(why))
        flush(c, now: now)
    }

    private func count(_ status: Int) { totals.refused[status, default: 0] += 1 }

    private func flush(_ c: Connection, now: Double) {
        guard let sent = c.out.drain(to: c.fd) else { c.close(); return }
        if sent > 0 || c.out.isEmpty { c.lastProgress = now }
        if c.phase == .respond && c.out.isEmpty {
            // Answered: half-close and read what the browser still sends for a moment, so closing does not
            // reset the connection before it has read the answer.
            LibC.shutdown(c.fd, Int32(SHUT_WR))
            c.phase = .linger
            c.deadline = now + 1
        }
    }

    // MARK: the tracker's lines

    private enum Kind { case hello, state, calibration, other }

    private static func kind(_ line: [UInt8]) -> Kind {
        func starts(_ prefix: StaticString) -> Bool {
            prefix.withUTF8Buffer { p in line.count >= p.count && zip(line, p).allSatisfy { $0 == $1 } }
        }
        if starts("{\"type\":\"state\"") { return .state }
        if starts("{\"type\":\"calibration\"") { return .calibration }
        if starts("{\"type\":\"hello\"") { return .hello }
        return .other
    }

    private func deliver(_ line: [UInt8]) {
        guard !line.isEmpty else { return }
        totals.trackerLines += 1
        let kind = ViewServer.kind(line)
        switch kind {
        case .hello:
            // A new tracker session: its clock starts again, so what was kept belongs to the old one.
            hello = line
            recent.clear()
            calibration.clear()
        case .calibration: calibration.add(line)
        case .state, .other: recent.add(line)
        }
        let event = ServerSentEvents.event(line)
        let droppable = kind == .state || kind == .calibration
        for c in connections where c.fd >= 0 && c.phase == .stream {
            send(event, to: c, droppable: droppable)
        }
    }

    private func send(_ event: [UInt8], to c: Connection, droppable: Bool) {
        if droppable {
            if c.out.free - settings.streamReserveBytes >= event.count && c.out.append(event) { return }
            c.dropped += 1
            totals.droppedLines += 1
            return
        }
        if !c.out.append(event) {
            totals.streamsCutSlow += 1
            c.close()
            return
        }
        flush(c, now: monotonicSeconds())
    }

    private func broadcastStatus() {
        for c in connections where c.fd >= 0 && c.phase == .stream {
            let event = statusEvent(for: c)
            if c.out.free >= event.count && c.out.append(event) { flush(c, now: monotonicSeconds()) }
        }
    }

    /// The `view` event: whether the tracker is connected (or why not), and what this page lost on the way.
    private func statusEvent(for c: Connection) -> [UInt8] {
        let connected = tracker.state == .connected
        var reason = ""
        if case let .waiting(why) = tracker.state { reason = why }
        let streams = connections.filter { $0.fd >= 0 && $0.phase == .stream }.count
        let text = JSONOutput.object(.compact) { o in
            o.add("type", .string("view"))
            o.add("tracker", .string(connected ? "connected" : "waiting"))
            o.add("reason", .string(reason))
            o.add("socket", .string(settings.socketPath))
            o.add("dropped", .integer(c.dropped))
            o.add("streams", .integer(streams))
            o.add("max_streams", .integer(settings.maxStreams))
            o.add("uptime_s", .integer(Int(monotonicSeconds() - started)))
        }.text(forScript: true)
        return ServerSentEvents.event(text, name: "view")
    }
}

/// One browser connection: reading its request, answering it, or streaming events to it.
final class Connection {
    enum Phase { case request, respond, stream, linger }

    var fd: Int32 = -1
    var phase = Phase.request
    var parser: HTTPRequestParser
    var out = OutputQueue(capacity: Connection.responseBytes)
    var deadline = 0.0
    /// When it was accepted (the longest waiting for its request head is the one replaced when slots run out).
    var openedAt = 0.0
    /// When a stream last had bytes taken by the kernel, or nothing waiting.
    var lastProgress = 0.0
    var dropped = 0
    var lingered = 0
    let limits: HTTPRequestParser.Limits
    /// Enough for the largest page file with its head.
    static let responseBytes = 512 << 10

    init(limits: HTTPRequestParser.Limits) {
        self.limits = limits
        parser = HTTPRequestParser(limits: limits)
    }

    func open(_ fd: Int32, now: Double, deadline: Double) {
        self.fd = fd
        openedAt = now
        lastProgress = now
        phase = .request
        parser = HTTPRequestParser(limits: limits)
        out = OutputQueue(capacity: Connection.responseBytes)
        self.deadline = deadline
        dropped = 0
        lingered = 0
    }

    func respond(_ bytes: [UInt8]) {
        phase = .respond
        out = OutputQueue(capacity: Swift.max(Connection.responseBytes, bytes.count))
        _ = out.append(bytes)
    }

    func startStream(capacity: Int) {
        phase = .stream
        out = OutputQueue(capacity: capacity)
    }

    func close() {
        guard fd >= 0 else { return }
        LibC.close(fd)
        fd = -1
        out.clear()
    }
}
