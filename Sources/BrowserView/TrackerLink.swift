import LibC
import PlainText

/// The view's connection to the tracker's event stream: an ordinary client of the Unix socket, like `watch`.
/// It reads whatever arrives at once (so the tracker never has to hold or drop a line for it), splits whole
/// lines, and after the tracker goes away tries again every `retryInterval` until it is back.
final class TrackerLink {
    enum State: Equatable {
        case connected
        /// Not connected; why the last attempt failed, said so the user can act on it.
        case waiting(String)
    }

    let path: String
    let retryInterval: Double
    private(set) var fd: Int32 = -1
    private(set) var state: State = .waiting("not connected yet")
    private var nextAttempt = -Double.infinity
    /// Whether a tracker was ever connected: then a missing socket means it stopped, not that it never came.
    private var wasConnected = false
    private var lines = LineSplitter(maximumLine: TrackerLink.maximumLine)
    private let buffer: UnsafeMutableRawPointer
    static let bufferBytes = 65536
    /// The stream's lines are at most a few KiB; bytes without a newline beyond this are not the protocol.
    static let maximumLine = 64 * 1024

    init(path: String, retryInterval: Double) {
        self.path = path
        self.retryInterval = retryInterval
        buffer = .allocate(byteCount: TrackerLink.bufferBytes, alignment: 8)
    }

    deinit {
        disconnect(because: "stopped")
        buffer.deallocate()
    }

    /// Connects when due. Returns true when the state changed.
    func connectIfDue(now: Double) -> Bool {
        guard fd < 0, now >= nextAttempt else { return false }
        nextAttempt = now + retryInterval
        let before = state
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity, !bytes.contains(0) else {
            state = .waiting("the socket path must be 1 to \(capacity - 1) bytes: give a shorter --socket PATH")
            return state != before
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        // Non-blocking: a tracker that is frozen (SIGSTOP, a debugger) with its listen queue full made a blocking
        // connect wait until it resumed, and every page with it. On AF_UNIX a full queue is EAGAIN at once.
        let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard s >= 0 else { state = .waiting("cannot create a socket: \(errorText())"); return state != before }
        let r = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { LibC.connect(s, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if r == 0 {
            setNonBlocking(s)
            fd = s
            lines.reset()
            state = .connected
            wasConnected = true
            return true
        }
        let e = errno
        close(s)
        switch e {
        case ENOENT where wasConnected:
            state = .waiting("the tracker stopped (no event stream at \(path) now): waiting for it to start again")
        case ENOENT: state = .waiting("no event stream at \(path) yet: is headtrack running (with --socket \(path) for run --simulated, demo, replay)?")
        case EACCES: state = .waiting("no permission to connect to \(path): run the view as a user in the headtrack group (sudo usermod -aG headtrack $USER, log in again)")
        case ECONNREFUSED: state = .waiting("nothing serves \(path) (left over from a headtrack that stopped): waiting for it to start again")
        case EAGAIN:
            state = .waiting("the tracker at \(path) accepts no connection now (stopped or frozen, its queue full): trying again every \(retryInterval) s")
        default: state = .waiting("cannot connect to \(path): \(errorText(e))")
        }
        return state != before
    }

    /// Reads what is there and hands each whole line (without its newline) to `line`. Returns false when the
    /// tracker closed the stream (the link is then waiting again).
    func read(_ line: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard fd >= 0 else { return false }
        // At most 1 MiB per call, so a flood from the socket cannot starve the browsers.
        for _ in 0..<16 {
            let n = recv(fd, buffer, TrackerLink.bufferBytes, Int32(MSG_DONTWAIT))
            if n == 0 { disconnect(because: "the tracker stopped (its stream closed): waiting for it to start again"); return false }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return true }
                // A tracker that exits can leave ECONNRESET rather than an end of file: the same to the view.
                disconnect(because: errno == ECONNRESET
                    ? "the tracker stopped (its stream closed): waiting for it to start again"
                    : "the tracker's stream broke (\(errorText())): waiting for it to start again")
                return false
            }
            lines.feed(UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self), count: n), line)
        }
        return true
    }

    func disconnect(because reason: String) {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
        state = .waiting(reason)
        lines.reset()
    }
}
