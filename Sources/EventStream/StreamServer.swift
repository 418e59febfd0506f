import LibC
import Formats

/// The clients of the event stream and the one listening socket. Called from the loop thread only, and
/// never blocks: accepting, reading and sending are all non-blocking, and every buffer (one ring per client
/// slot, the scratch lines) is allocated when the server starts.
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
    }

    final class Slot {
        var fd: Int32 = -1
        let ring: ClientRing
        /// State lines dropped since the last `dropped` line went into the ring.
        var droppedPending = 0
        /// Loop time of the last moment this client kept up (sent something, or had nothing waiting).
        var lastProgress = 0.0
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
    private let inbox: UnsafeMutableRawPointer
    private static let inboxBytes = 512
    private static let tooMany: StaticString = "{\"type\":\"error\",\"message\":\"too many clients: try again later\"}\n"

    /// Starts listening on `path`; `hello` is the first line every client receives.
    public init(path: String, settings: Settings = Settings(), hello: LineBuffer) throws(StreamSocketError) {
        guard settings.maxClients >= 1 && settings.maxClients <= 64 else {
            throw StreamSocketError(message: "stream maxClients \(settings.maxClients) is out of range 1...64")
        }
        guard settings.ringBytes >= 4096 && settings.ringBytes <= 4 << 20,
              settings.reserveBytes >= 512 && settings.reserveBytes <= settings.ringBytes / 2 else {
            throw StreamSocketError(message: "stream ring \(settings.ringBytes) B / reserve \(settings.reserveBytes) B out of range")
        }
        self.settings = settings
        self.path = path
        self.hello = hello
        listener = try UnixListener(path: path, directoryHint: settings.missingDirectoryHint)
        slots = (0..<settings.maxClients).map { _ in
            Slot(ring: ClientRing(capacity: settings.ringBytes, reserve: settings.reserveBytes))
        }
        inbox = .allocate(byteCount: StreamServer.inboxBytes, alignment: 8)
    }

    deinit {
        stop()
        inbox.deallocate()
    }

    public var clientCount: Int { slots.reduce(0) { $0 + ($1.fd >= 0 ? 1 : 0) } }

    /// Once per display tick: takes new clients (each gets the hello), notices the ones that left, sends
    /// what is waiting and drops the ones that stopped reading.
    public func poll(t: Double) {
        while let fd = listener.acceptClient() { admit(fd, t: t) }
        for slot in slots where slot.fd >= 0 {
            if !readAndDiscard(slot.fd) { disconnect(slot); continue }
            drain(slot, t: t)
            if slot.fd >= 0 && slot.ring.count > 0 && t - slot.lastProgress > settings.stalledAfter {
                totals.disconnectedStalled += 1
                disconnect(slot)
            }
        }
    }

    /// Queues one whole line for every client and sends what the sockets take. A droppable (state) line that
    /// does not fit is counted for that client; a line that must arrive and does not fit disconnects it.
    public func broadcast(_ line: LineBuffer, droppable: Bool, t: Double) {
        guard !line.overflowed, line.count > 0 else { return }
        for slot in slots where slot.fd >= 0 {
            enqueue(line, into: slot, droppable: droppable)
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

    /// Reads (and ignores) at most `inboxBytes` of what a client sent, once per tick; false when it has closed
    /// its end. Protocol 1 expects nothing from clients: reading until EAGAIN let one that sends as fast as it
    /// can keep the loop thread copying megabytes per tick (hundreds of overruns); one bounded read per tick
    /// still notices a client that left, and a flooding client just finds its socket full.
    private func readAndDiscard(_ fd: Int32) -> Bool {
        while true {
            let n = recv(fd, inbox, StreamServer.inboxBytes, Int32(MSG_DONTWAIT))
            if n > 0 { return true }
            if n == 0 { return false }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK
        }
    }

    private func disconnect(_ slot: Slot) {
        guard slot.fd >= 0 else { return }
        close(slot.fd)
        slot.fd = -1
        slot.ring.clear()
        slot.droppedPending = 0
    }

    /// The bytes queued for each connected client (tests).
    func queued() -> [[UInt8]] { slots.filter { $0.fd >= 0 }.map { $0.ring.snapshot() } }
}
