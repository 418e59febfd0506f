import LibC

/// Bytes waiting to go to one browser, never more than `capacity`: what does not fit is refused, and the
/// caller decides whether that drops a line or the connection.
struct OutputQueue {
    let capacity: Int
    private var bytes: [UInt8] = []
    private var head = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { bytes.count - head }
    var isEmpty: Bool { count == 0 }
    var free: Int { capacity - count }

    /// Appends all of `b`, or nothing when it does not fit.
    mutating func append(_ b: [UInt8]) -> Bool {
        guard b.count <= free else { return false }
        if head > 0 && head >= bytes.count / 2 {
            bytes.removeFirst(head)
            head = 0
        }
        bytes += b
        return true
    }

    mutating func clear() {
        bytes.removeAll(keepingCapacity: false)
        head = 0
    }

    /// Sends what the socket takes now. nil when the peer is gone.
    mutating func drain(to fd: Int32) -> Int? {
        var sent = 0
        while head < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + head, bytes.count - head, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { break }
                return nil
            }
            if n == 0 { break }
            head += n
            sent += n
        }
        if head == bytes.count { bytes.removeAll(keepingCapacity: true); head = 0 }
        return sent
    }
}

/// The latest lines of one kind, in order, at most `capacity` bytes: what a browser that opens the page now is
/// sent first, so its plot and sphere start full instead of empty.
struct LineHistory {
    let capacity: Int
    private var lines: [[UInt8]] = []
    private var first = 0
    private(set) var bytes = 0

    init(capacity: Int) { self.capacity = capacity }

    var count: Int { lines.count - first }

    mutating func add(_ line: [UInt8]) {
        guard line.count <= capacity else { return }
        lines.append(line)
        bytes += line.count
        while bytes > capacity {
            bytes -= lines[first].count
            first += 1
        }
        if first > 1024 && first > lines.count / 2 {
            lines.removeFirst(first)
            first = 0
        }
    }

    mutating func clear() {
        lines.removeAll()
        first = 0
        bytes = 0
    }

    func forEach(_ body: ([UInt8]) -> Void) {
        for i in first..<lines.count { body(lines[i]) }
    }
}
