import Formats
import BrowserView

/// The event stream's lines as the view and `watch` read them, and the view's server-sent-events framing of
/// each. The input's first byte sets the longest line (1–64 bytes, so over-long lines are common), its second
/// seeds the chunk sizes the bytes arrive in (1–17), the rest is the stream. What must hold for every input:
/// the lines handed over are exactly the input's newline-ended lines that fit, however it was chunked; and
/// every line, framed as an event, reads back as itself (CR, LF and CRLF inside it as line breaks of its
/// data) in one event, with no field but `data`.
enum LinesFuzz {
    static func run(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        let maximum = Int(bytes[0] % 64) + 1
        var seed = UInt32(bytes[1]) &* 2_654_435_761 | 1
        let stream = Array(bytes.dropFirst(2))

        var splitter = LineSplitter(maximumLine: maximum)
        var got: [[UInt8]] = []
        var at = 0
        while at < stream.count {
            seed = seed &* 1_103_515_245 &+ 12_345
            let size = min(Int(seed >> 16) % 17 + 1, stream.count - at)
            splitter.feed(Array(stream[at..<at + size])) { got.append(Array($0)) }
            at += size
        }
        var expected: [[UInt8]] = []
        var dropped = 0
        var line: [UInt8] = []
        for b in stream {
            if b == 0x0A {
                if line.count <= maximum { expected.append(line) } else { dropped += 1 }
                line = []
            } else {
                line.append(b)
            }
        }
        guard got == expected else { fatalError("lines \(got) from chunks, \(expected) whole (max \(maximum))") }
        guard splitter.droppedLines == dropped else { fatalError("dropped \(splitter.droppedLines) lines, not \(dropped)") }

        for l in got { checkFrame(l) }
        checkFrame(stream)
    }

    /// `text` framed as one event reads back as itself.
    static func checkFrame(_ text: [UInt8]) {
        let framed = ServerSentEvents.event(text)
        guard framed.count >= 8, framed.suffix(2).elementsEqual([0x0A, 0x0A]) else { fatalError("event not ended by a blank line: \(framed)") }
        let fields = framed.dropLast(2).split(separator: 0x0A, omittingEmptySubsequences: false)
        var data: [UInt8] = []
        for (i, f) in fields.enumerated() {
            guard f.starts(with: "data: ".utf8) else { fatalError("a field that is not data: \(Array(f)) in \(framed)") }
            if i > 0 { data.append(0x0A) }
            data += f.dropFirst(6)
        }
        var normal: [UInt8] = []
        var i = 0
        while i < text.count {
            if text[i] == 0x0D {
                normal.append(0x0A)
                if i + 1 < text.count && text[i + 1] == 0x0A { i += 1 }
            } else {
                normal.append(text[i])
            }
            i += 1
        }
        guard data == normal else { fatalError("event data \(data) for the text \(text)") }
    }
}
