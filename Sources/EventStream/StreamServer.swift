import LibC
import Formats

/// The clients of the event stream and the one listening socket. Called from the loop thread only, and
/// never blocks: accepting, reading and sending are all non-blocking, and every buffer (one ring and one
/// request line per client slot, the scratch lines) is allocated when the server starts.
///
/// Clients may send requests, one flat JSON object per line: `ask` (see `answer(gesture:t:)`), `subscribe`
/// (a client's own state rate, and whether it gets calibration lines; see `broadcast(_:kind:t:)`) and
/// `recenter` (passed on to the stream: `takeRecenter()`).
/// Nothing a client sends can make the loop wait or allocate: each display tick reads at most `inboxBytes`
/// from each client, the line is assembled in the slot's fixed buffer and scanned in place, requests are
/// rate-limited per client, and a client gets at most one `error` line per tick.
public final class StreamServer {
    public struct Settings: Sendable, Equatable {
        /// Clients served at once. Eight covers an app, `headtrack watch` and a few scripts; each slot costs
        /// `ringBytes` of memory up front (512 KiB in all), so the loop never allocates when one connects.
        public var maxClients = 8
        /// Per-client queue: 64 KiB is about 4 s of state lines at 60 Hz (≈ 250 bytes each), enough to ride
        /// out a client that pauses (a GC, a slow terminal over ssh) without losing anything.
        public var ringBytes = 64 * 1024
        /// The part of the queue state lines may not use, kept for gestures, faults and `dropped` lines:
        /// 8 KiB is ≥ 50 gestures, far more than a person makes while an app is frozen.
        public var reserveBytes = 8 * 1024
        /// The kernel's send buffer per client. Small (Linux doubles it), so that a slow client's backlog
        /// waits in our ring, where it is counted and state is dropped first, not in the kernel.
        public var kernelSendBufferBytes = 16 * 1024
        /// A client with bytes waiting that takes none for this long (loop seconds) has stopped reading: it is
        /// disconnected even if its reserve never fills.
        public var stalledAfter = 30.0
        /// Connections accepted (or refused as too many) per display tick: 2 at 60 Hz lets 120 clients a
        /// second in, far more than apps start, and bounds what a connect/disconnect storm costs a tick.
        public var acceptsPerTick = 2
        /// What to do when the socket's directory does not exist (the service knows its RuntimeDirectory).
        public var missingDirectoryHint = UnixListener.defaultDirectoryHint
        public init() {}
    }

    /// Counts for the exit summary and the tests.
    public struct Totals: Sendable, Equatable {
        public var accepted = 0
        public var refusedTooMany = 0
        public var disconnectedStalled = 0
        public var droppedStateLines = 0
        public var sentBytes = 0
        /// Request lines received (blank lines aside), taken or refused.
        public var requests = 0
        /// `error` lines queued for refused requests, and refusals not told because the client had already
        /// been sent an error line in that display tick.
        public var errors = 0
        public var errorsSuppressed = 0
        /// `answer` lines queued (a gesture, a timeout or a replaced ask).
        public var answers = 0
    }

    /// What a broadcast line is, for what may be dropped and who gets it.
    public enum LineKind: Sendable, Equatable {
        /// Gestures, faults and the like: every client, never dropped for a client that keeps reading.
        case mustArrive
        /// A state line: droppable, and only to the clients whose own subscribed rate has one due.
        case state
        /// A calibration progress line (background or guided): droppable, to clients subscribed to them.
        case calibration
        /// A guided calibration's last line (saved or refused): must arrive, to clients subscribed to them.
        case calibrationResult
        /// Why a candidate nod or shake was taken or refused: droppable, to clients subscribed to `explain`.
        case explain

        var droppable: Bool { self == .state || self == .calibration || self == .explain }
    }

    final class Slot {
        var fd: Int32 = -1
        let ring: ClientRing
        /// State lines dropped since the last `dropped` line went into the ring.
        var droppedPending = 0
        /// Loop time of the last moment this client kept up (sent something, or had nothing waiting).
        var lastProgress = 0.0
        let requests = ClientRequests()
        init(ring: ClientRing) { self.ring = ring }
    }

    public let settings: Settings
    public let path: String
    public private(set) var totals = Totals()
    private let listener: UnixListener
    private let slots: [Slot]
    private let hello: LineBuffer
    /// The first line every client receives.
    public var helloLine: String { hello.text }
    private let droppedLine = LineBuffer(capacity: 64)
    private let answerLine = LineBuffer(capacity: 256)
    private let errorLine = LineBuffer(capacity: 256)
    private let subscribedLine = LineBuffer(capacity: 128)
    /// The stream's state rate (the most a client may subscribe to) and a quarter display period of slack
    /// for each client's own state timing (`ClientRequests.takesState`).
    public let stateHz: Double
    private let stateSlack: Double
    private let inbox: UnsafeMutablePointer<UInt8>
    /// At most this much is read from each client per display tick.
    private static let inboxBytes = 512
    /// Display ticks so far (`poll` calls): the unit of the one-error-line-per-client limit.
    private var tick = 0
    /// A client sent `recenter` and the stream has not taken it yet.
    private var recenterRequested = false
    /// Connected clients with an ask pending.
    private var pendingAsks = 0
    private static let tooMany: StaticString = "{\"type\":\"error\",\"message\":\"too many clients: try again later\"}\n"

    /// Starts listening on `path`; `hello` is the first line every client receives. `stateHz` is the rate the
    /// caller sends state lines at on display ticks of `displayHz` (the event stream's; a bare server, as in
    /// the tests and the fuzzer, assumes 60 on 60).
    public init(path: String, settings: Settings = Settings(), hello: LineBuffer, stateHz: Double = 60,
                displayHz: Double = 60) throws(StreamSocketError) {
        guard settings.maxClients >= 1 && settings.maxClients <= 64 else {
            throw StreamSocketError(message: "stream maxClients \(settings.maxClients) is out of range 1...64")
        }
        guard settings.acceptsPerTick >= 1 && settings.acceptsPerTick <= 64 else {
            throw StreamSocketError(message: "stream acceptsPerTick \(settings.acceptsPerTick) is out of range 1...64")
        }
        guard settings.ringBytes >= 4096 && settings.ringBytes <= 4 << 20,
              settings.reserveBytes >= 512 && settings.reserveBytes <= settings.ringBytes / 2 else {
            throw StreamSocketError(message: "stream ring \(settings.ringBytes) B / reserve \(settings.reserveBytes) B out of range")
        }
        guard stateHz >= 0 && stateHz.isFinite && displayHz > 0 && displayHz.isFinite else {
            throw StreamSocketError(message: "stream state rate \(stateHz) Hz on \(displayHz) Hz ticks is out of range")
        }
        self.settings = settings
        self.path = path
        self.hello = hello
        self.stateHz = stateHz
        stateSlack = 1 / displayHz / 4
        listener = try UnixListener(path: path, directoryHint: settings.missingDirectoryHint)
        slots = (0..<settings.maxClients).map { _ in
            Slot(ring: ClientRing(capacity: settings.ringBytes, reserve: settings.reserveBytes))
        }
        inbox = .allocate(capacity: StreamServer.inboxBytes)
    }

    deinit {
        stop()
        inbox.deallocate()
    }

    public var clientCount: Int { slots.reduce(0) { $0 + ($1.fd >= 0 ? 1 : 0) } }

    /// Whether a connected client is waiting for an answer to its ask (O(1)).
    public var questionPending: Bool { pendingAsks > 0 }

    /// Whether a connected client subscribed to `explain` lines (a look at each slot: no allocation).
    public var explainWanted: Bool {
        for slot in slots where slot.fd >= 0 && slot.requests.explain { return true }
        return false
    }

    /// Once per display tick: takes new clients (each gets the hello), reads and serves what clients asked,
    /// answers asks that ran out with `null`, notices the ones that left, sends what is waiting and drops the
    /// ones that stopped reading.
    public func poll(t: Double) {
        tick &+= 1
        // A bounded number per tick, not all that wait: a storm of `connect(); close()` kept this loop accepting
        // (and sending hellos) for as long as the stormers kept up, hundreds per tick. The rest wait in the
        // listen queue, whose limit then makes the stormers' connects wait, not the loop.
        for _ in 0..<settings.acceptsPerTick {
            guard let fd = listener.acceptClient() else { break }
            admit(fd, t: t)
        }
        for slot in slots where slot.fd >= 0 {
            if !slot.requests.readClosed {
                if !readRequests(slot, t: t) { disconnect(slot); continue }
                if slot.fd < 0 { continue }  // an error or answer line did not fit: it stopped reading
            }
            if slot.requests.readClosed && StreamServer.peerClosed(slot.fd) { disconnect(slot); continue }
            if slot.requests.pending && t >= slot.requests.deadline {
                answerPending(slot, gesture: nil, replaced: false, t: t)
                if slot.fd < 0 { continue }
            }
            drain(slot, t: t)
            if slot.fd >= 0 && slot.ring.count > 0 && t - slot.lastProgress > settings.stalledAfter {
                totals.disconnectedStalled += 1
                disconnect(slot)
            }
        }
    }

    /// A gesture was detected: every pending ask is answered with it (`"nod"`/`"shake"`), only to the client
    /// that asked, and cleared.
    public func answer(gesture: StaticString, t: Double, bout: Int? = nil) {
        guard pendingAsks > 0 else { return }
        for slot in slots where slot.fd >= 0 && slot.requests.pending {
            answerPending(slot, gesture: gesture, replaced: false, t: t, bout: bout)
            if slot.fd >= 0 { drain(slot, t: t) }
        }
    }

    /// Queues one whole line for every client that subscribes to its kind and sends what the sockets take. A
    /// droppable (state, calibration) line that does not fit is counted for that client; a line that must
    /// arrive and does not fit disconnects it. A state line is formatted once and skipped here for the clients
    /// whose own rate has none due, so a slower subscription costs a comparison, not a line.
    public func broadcast(_ line: LineBuffer, kind: LineKind, t: Double) {
        guard !line.overflowed, line.count > 0 else { return }
        for slot in slots where slot.fd >= 0 {
            switch kind {
            case .mustArrive: break
            case .state: if !slot.requests.takesState(t: t, slack: stateSlack) { continue }
            case .calibration, .calibrationResult: if !slot.requests.calibration { continue }
            case .explain: if !slot.requests.explain { continue }
            }
            enqueue(line, into: slot, droppable: kind.droppable)
            if slot.fd >= 0 { drain(slot, t: t) }
        }
    }

    /// Closes every client and the listener, and removes the socket file (clean exit).
    public func stop() {
        for slot in slots where slot.fd >= 0 {
            _ = slot.ring.drain(to: slot.fd)  // a last try for a client that keeps up
            disconnect(slot)
        }
        listener.stop()
    }

    // MARK: -

    private func admit(_ fd: Int32, t: Double) {
        guard let slot = slots.first(where: { $0.fd < 0 }) else {
            totals.refusedTooMany += 1
            StreamServer.tooMany.withUTF8Buffer { b in _ = send(fd, b.baseAddress, b.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL)) }
            close(fd)
            return
        }
        var size = Int32(settings.kernelSendBufferBytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        totals.accepted += 1
        slot.fd = fd
        slot.ring.clear()
        slot.droppedPending = 0
        slot.lastProgress = t
        slot.requests.reset(t: t, streamHz: stateHz)
        enqueue(hello, into: slot, droppable: false)
        drain(slot, t: t)
    }

    private func enqueue(_ line: LineBuffer, into slot: Slot, droppable: Bool) {
        let ring = slot.ring
        if slot.droppedPending > 0 {
            droppedLine.reset()
            droppedLine.literal("{\"type\":\"dropped\",\"n\":")
            droppedLine.integer(Int64(slot.droppedPending))
            droppedLine.literal("}\n")
            let needed = droppedLine.count + (droppable ? line.count : 0)
            if (droppable ? ring.freeForDroppable : ring.free) >= needed {
                ring.push(droppedLine.contents)
                slot.droppedPending = 0
            } else if !droppable {
                disconnect(slot)
                return
            }
        }
        if droppable {
            if slot.droppedPending == 0 && ring.freeForDroppable >= line.count {
                ring.push(line.contents)
            } else {
                slot.droppedPending += 1
                totals.droppedStateLines += 1
            }
        } else if ring.free >= line.count {
            ring.push(line.contents)
        } else {
            // Even the reserve is full: the client has stopped reading.
            totals.disconnectedStalled += 1
            disconnect(slot)
        }
    }

    private func drain(_ slot: Slot, t: Double) {
        guard slot.ring.count > 0 else { slot.lastProgress = t; return }
        guard let sent = slot.ring.drain(to: slot.fd) else { disconnect(slot); return }
        totals.sentBytes += sent
        if sent > 0 { slot.lastProgress = t }
    }

    // MARK: Requests

    /// Reads at most `inboxBytes` of what a client sent, once per tick, and serves the whole lines in it;
    /// false when the client is gone (a read error that will not heal). Reading until EAGAIN let a client that
    /// sends as fast as it can keep the loop thread copying megabytes per tick (hundreds of overruns); one
    /// bounded read per tick keeps it to 512 bytes, and a flooding client just finds its socket full.
    ///
    /// End of input (recv returns 0) is a client that shut down its sending side, not one that left: it may
    /// still be reading (`shutdown(SHUT_WR)` after its last request is how a script says "that was all"), so
    /// it is no longer read but stays connected; `peerClosed` tells the two apart.
    private func readRequests(_ slot: Slot, t: Double) -> Bool {
        var n = 0
        while true {
            n = recv(slot.fd, inbox, StreamServer.inboxBytes, Int32(MSG_DONTWAIT))
            if n > 0 { break }
            if n == 0 {
                slot.requests.readClosed = true
                if slot.requests.endOfInput() { refuse(slot, .unterminated) }
                return true
            }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK
        }
        let bytes = UnsafeBufferPointer(start: inbox, count: n)
        var i = 0
        while slot.fd >= 0, let event = slot.requests.nextLine(bytes, from: &i) {
            switch event {
            case .tooLong:
                totals.requests += 1
                refuse(slot, slot.requests.takeToken(t: t) ? .tooLong : .tooMany)
            case .line(let line):
                serve(RequestScanner.scan(line), line: line, slot: slot, t: t)
            }
        }
        return true
    }

    private func serve(_ request: ClientRequest, line: UnsafeBufferPointer<UInt8>, slot: Slot, t: Double) {
        if case .blank = request { return }
        totals.requests += 1
        guard slot.requests.takeToken(t: t) else { refuse(slot, .tooMany); return }
        switch request {
        case .blank: return
        case .refused(let why): refuse(slot, why)
        case let .ask(idStart, idCount, timeout):
            // A client has one ask at a time; a new one replaces it. The replaced ask is answered right away
            // (null, "replaced":true) rather than dropped, so that every ask gets exactly one answer and a
            // client that pipelines asks can match each answer to its id without waiting for time-outs.
            if slot.requests.pending {
                answerPending(slot, gesture: nil, replaced: true, t: t)
                if slot.fd < 0 { return }
            }
            slot.requests.ask(id: UnsafeBufferPointer(rebasing: line[idStart..<(idStart + idCount)]), deadline: t + timeout)
            pendingAsks += 1
        case let .subscribe(hz, calibration, explain):
            // Refused, not clamped: a client asking for more than the stream sends has misread the hello, and
            // an error naming the limit tells it so, where a quiet clamp would leave it expecting lines that
            // never come unless it reads the acknowledgement closely.
            if let hz, hz > stateHz { refuse(slot, .stateHzTooHigh); return }
            // Wholesale: what the subscribe leaves out goes back to its default.
            slot.requests.subscribe(stateHz: hz ?? stateHz, streamHz: stateHz, calibration: calibration ?? true,
                                    explain: explain ?? false)
            acknowledge(slot)
        case .recenter:
            // The head has one yaw for every app, and a state line is formatted once for all clients: the
            // stream takes the new zero at its next state line and tells every client (`takeRecenter`).
            recenterRequested = true
        }
    }

    /// Whether a client asked to recentre since the last call; the request is taken (cleared).
    public func takeRecenter() -> Bool {
        defer { recenterRequested = false }
        return recenterRequested
    }

    /// `{"type":"subscribed","state_hz":N,"calibration":B}` to that client only, a line that must arrive, so
    /// the client knows what it will get (with the defaults filled in); `"explain":true` added when it gets
    /// explain lines (left out otherwise, as by a tracker that has none, so a client can tell the two apart).
    private func acknowledge(_ slot: Slot) {
        let hz = slot.requests.stateHz
        subscribedLine.reset()
        subscribedLine.literal("{\"type\":\"subscribed\",\"state_hz\":")
        // Whole rates (the usual) as integers, others with three decimals.
        if hz == hz.rounded() { subscribedLine.integer(Int64(hz)) } else { subscribedLine.fixed(hz, 3) }
        subscribedLine.literal(",\"calibration\":")
        subscribedLine.bool(slot.requests.calibration)
        if slot.requests.explain { subscribedLine.literal(",\"explain\":true") }
        subscribedLine.literal("}\n")
        enqueue(subscribedLine, into: slot, droppable: false)
    }

    /// Tells the client why its request was dropped: one `error` line per client per display tick at most (a
    /// client that floods gets one a tick, and the rest are only counted).
    private func refuse(_ slot: Slot, _ why: RequestRefusal) {
        guard slot.requests.errorTick != tick else { totals.errorsSuppressed += 1; return }
        slot.requests.errorTick = tick
        errorLine.reset()
        errorLine.literal("{\"type\":\"error\",\"message\":")
        errorLine.string(why.message)
        errorLine.literal("}\n")
        totals.errors += 1
        enqueue(errorLine, into: slot, droppable: false)
    }

    /// Answers the slot's pending ask (`gesture` nil: `null`, when it ran out or was replaced) with a line that
    /// must arrive, to that client only, and clears it.
    private func answerPending(_ slot: Slot, gesture: StaticString?, replaced: Bool, t: Double, bout: Int? = nil) {
        guard slot.requests.pending else { return }
        slot.requests.clearPending()
        pendingAsks -= 1
        answerLine.reset()
        answerLine.literal("{\"type\":\"answer\",\"id\":\"")
        for b in slot.requests.pendingId { answerLine.byte(b) }  // printable ASCII without " or \: no escapes
        answerLine.literal("\",\"gesture\":")
        if let gesture { answerLine.string(gesture) } else { answerLine.literal("null") }
        if replaced { answerLine.literal(",\"replaced\":true") }
        if let bout {
            answerLine.literal(",\"bout\":")
            answerLine.integer(Int64(bout))
        }
        answerLine.literal(",\"t\":")
        answerLine.fixed(t, 3)
        answerLine.literal("}\n")
        totals.answers += 1
        enqueue(answerLine, into: slot, droppable: false)
    }

    /// Whether a client that shut down its sending side has since closed completely. After end of input, recv
    /// (even with MSG_PEEK) returns 0 for a half-closed client and a closed one alike. A closed client with
    /// bytes queued is noticed by `drain` (send fails with EPIPE), but one with nothing queued (a gestures-only
    /// stream) would keep its slot until the next line for it. A zero-length send does fail with EPIPE on
    /// Linux (checked on 6.18), but only because unix_stream_sendmsg happens to test for shutdown before it
    /// looks at the length; nothing promises that. So ask the kernel with a zero-timeout `poll()`: POLLHUP
    /// means the peer has closed its end, and on an AF_UNIX stream socket it is set once both directions are
    /// shut down, which the peer's `close` (or `shutdown(SHUT_RDWR)`, or its process dying) does and its
    /// `shutdown(SHUT_WR)` alone never does. One syscall per half-closed client per tick, never blocking.
    static func peerClosed(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: 0, revents: 0)  // POLLHUP, POLLERR and POLLNVAL are reported unasked
        while true {
            let r = LibC.poll(&p, 1, 0)
            if r < 0 && errno == EINTR { continue }
            guard r > 0 else { return false }
            return p.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
        }
    }

    /// Closes a client; its pending ask goes with it, unanswered (there is nobody to answer).
    private func disconnect(_ slot: Slot) {
        guard slot.fd >= 0 else { return }
        close(slot.fd)
        slot.fd = -1
        slot.ring.clear()
        slot.droppedPending = 0
        if slot.requests.pending {
            slot.requests.clearPending()
            pendingAsks -= 1
        }
    }

    /// The bytes queued for each connected client (tests).
    func queued() -> [[UInt8]] { slots.filter { $0.fd >= 0 }.map { $0.ring.snapshot() } }
}
