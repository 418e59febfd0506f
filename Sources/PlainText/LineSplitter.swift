/// Splits a byte stream into lines at LF, whatever chunks it arrives in: the event stream as the view's tracker
/// link and `watch` read it. A line is handed over without its newline once the newline arrives; a line longer
/// than `maximumLine` bytes is dropped whole (it is not the protocol: another program on the socket path), and
/// nothing held grows past `maximumLine`. Bytes after the last newline wait for the next chunk.
public struct LineSplitter {
    public let maximumLine: Int
    private var pending: [UInt8] = []
    /// The line in progress is already too long: skip to its newline.
    private var skipping = false
    /// Lines dropped for their length.
    public private(set) var droppedLines = 0

    public init(maximumLine: Int) {
        precondition(maximumLine > 0, "a line splitter needs room for a line")
        self.maximumLine = maximumLine
    }

    /// Forgets a partial line (the stream broke; the next one starts afresh).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        skipping = false
    }

    /// Hands every line completed by `chunk` to `line`, in order.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        for i in 0..<chunk.count where chunk[i] == 0x0A {
            let part = UnsafeBufferPointer(rebasing: chunk[start..<i])
            if skipping || pending.count + part.count > maximumLine {
                droppedLines += 1
            } else if pending.isEmpty {
                line(part)
            } else {
                pending += part
                pending.withUnsafeBufferPointer { line($0) }
            }
            pending.removeAll(keepingCapacity: true)
            skipping = false
            start = i + 1
        }
        guard start < chunk.count, !skipping else { return }
        let rest = chunk.count - start
        if pending.count + rest > maximumLine {
            pending.removeAll(keepingCapacity: true)
            skipping = true
        } else {
            pending += chunk[start..<chunk.count]
        }
    }

    public mutating func feed(_ chunk: [UInt8], _ line: (UnsafeBufferPointer<UInt8>) -> Void) {
        chunk.withUnsafeBufferPointer { feed($0, line) }
    }
}
