/// One client slot's side of the request channel: the line being assembled from what the client sent, its
/// token bucket, its pending ask and its subscription. Its buffers are allocated once with the slot and reused by every client
/// that later takes the slot, so nothing a client sends makes the loop allocate.
final class ClientRequests {
    /// The longest request line taken (without its newline); a longer one is refused and skipped to its newline.
    static let maxLineBytes = 1024
    /// The token bucket: a client may send this many requests at once, and on average this many a second
    /// (refilled with loop time); a request that finds the bucket empty is refused.
    static let bucketTokens = 5.0
    static let refillPerSecond = 5.0

    /// What `nextLine` found in the bytes.
    enum LineEvent {
        /// A whole line without its newline; the bytes stay valid until the next call.
        case line(UnsafeBufferPointer<UInt8>)
        /// The line has passed `maxLineBytes`: it is refused now and the rest of it, up to its newline, skipped.
        case tooLong
    }

    /// The line so far, without its newline.
    private let line: UnsafeMutablePointer<UInt8>
    private var lineCount = 0
    /// Skipping the rest of a line that was too long.
    private var discarding = false
    private var tokens = bucketTokens
    private var tokensAt = 0.0

    /// The pending ask's id (`idCount` bytes of `id`) and the loop time it runs out at.
    let id: UnsafeMutablePointer<UInt8>
    private(set) var idCount = 0
    private(set) var pending = false
    private(set) var deadline = 0.0
    /// The client has shut down its sending side (recv returned 0): it is not read any more, but it may still
    /// be reading, so it stays connected and keeps its pending ask.
    var readClosed = false
    /// The display tick of the last error line this client was sent (at most one per tick).
    var errorTick = -1

    /// The subscription: the state rate acknowledged, and whether `calibration` and `explain` lines are sent.
    /// Until a subscribe (and for keys it leaves out), the stream's own state rate, calibration on, explain off.
    private(set) var stateHz = 0.0
    private(set) var calibration = true
    private(set) var explain = false
    /// The client's own state period and next-due loop time, so a slower rate costs two Doubles and no
    /// allocation. Period 0: every state line the stream sends; ∞: none.
    private var statePeriod = 0.0
    private var nextState = -Double.infinity

    init() {
        line = .allocate(capacity: ClientRequests.maxLineBytes)
        id = .allocate(capacity: RequestScanner.maxIdBytes)
    }

    deinit {
        line.deallocate()
        id.deallocate()
    }

    /// A new client takes the slot at loop time `t`: a full bucket, no line, no ask, and the stream's own
    /// state rate `streamHz` with calibration lines.
    func reset(t: Double, streamHz: Double) {
        lineCount = 0
        discarding = false
        tokens = ClientRequests.bucketTokens
        tokensAt = t
        idCount = 0
        pending = false
        deadline = 0
        readClosed = false
        errorTick = -1
        subscribe(stateHz: streamHz, streamHz: streamHz, calibration: true, explain: false)
    }

    /// Takes a subscription wholesale; `stateHz` is within 0...`streamHz` (checked by the caller). The next
    /// state line is due at once.
    func subscribe(stateHz: Double, streamHz: Double, calibration: Bool, explain: Bool) {
        precondition(stateHz >= 0 && stateHz <= streamHz)
        self.stateHz = stateHz
        self.calibration = calibration
        self.explain = explain
        // The stream's own rate needs no timing of its own: the stream already sends at it.
        statePeriod = stateHz >= streamHz ? 0 : (stateHz > 0 ? 1 / stateHz : .infinity)
        nextState = -.infinity
    }

    /// Whether the state line the stream sends at `t` goes to this client, and if so the next is due one
    /// period on. `slack` is the stream's: a quarter display period, so 30 Hz on 60 Hz ticks never skips a tick
    /// to rounding; and the due time steps by whole periods, so the rate does not drift with the tick phase.
    func takesState(t: Double, slack: Double) -> Bool {
        if statePeriod == 0 { return true }
        guard statePeriod.isFinite, t + slack >= nextState else { return false }
        nextState = nextState.isFinite && nextState + statePeriod > t ? nextState + statePeriod : t + statePeriod
        return true
    }

    /// The next event in `bytes` from index `i` on (advanced past what was used), or nil when they are used
    /// up; a line that is not finished yet is kept for the next read.
    func nextLine(_ bytes: UnsafeBufferPointer<UInt8>, from i: inout Int) -> LineEvent? {
        while i < bytes.count {
            let b = bytes[i]
            i += 1
            if b == UInt8(ascii: "\n") {
                if discarding { discarding = false; continue }
                let n = lineCount
                lineCount = 0
                return .line(UnsafeBufferPointer(start: line, count: n))
            }
            if discarding { continue }
            if lineCount == ClientRequests.maxLineBytes {
                lineCount = 0
                discarding = true
                return .tooLong
            }
            line[lineCount] = b
            lineCount += 1
        }
        return nil
    }

    /// The client will send nothing more: true when it left a request without its newline (which is dropped).
    func endOfInput() -> Bool {
        let unfinished = lineCount > 0 && !discarding
        lineCount = 0
        discarding = false
        return unfinished
    }

    /// Takes one token for a request at loop time `t`; false when the bucket is empty.
    func takeToken(t: Double) -> Bool {
        if t > tokensAt {
            tokens = min(ClientRequests.bucketTokens, tokens + (t - tokensAt) * ClientRequests.refillPerSecond)
            tokensAt = t
        }
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// Makes `newId` the pending ask, running out at `deadline`. The caller has answered a pending one first.
    func ask(id newId: UnsafeBufferPointer<UInt8>, deadline: Double) {
        precondition(!pending && newId.count >= 1 && newId.count <= RequestScanner.maxIdBytes)
        id.update(from: newId.baseAddress!, count: newId.count)
        idCount = newId.count
        self.deadline = deadline
        pending = true
    }

    /// The pending ask has been answered (or its client left).
    func clearPending() {
        pending = false
    }

    /// The pending ask's id.
    var pendingId: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: id, count: idCount) }
}
