import Testing
import PlainText

/// `LineSplitter`: the same lines however the bytes are chunked, over-long lines dropped whole.
@Suite struct LineSplitterTests {
    static func lines(_ chunks: [String], maximum: Int = 64) -> (lines: [String], dropped: Int) {
        var s = LineSplitter(maximumLine: maximum)
        var out: [String] = []
        for c in chunks { s.feed(Array(c.utf8)) { out.append(String(decoding: $0, as: UTF8.self)) } }
        return (out, s.droppedLines)
    }

    @Test func linesComeWholeHoweverTheBytesAreChunked() {
        let text = "{\"type\":\"hello\"}\n{\"type\":\"state\",\"t\":1}\n\n{\"type\":\"gesture\"}\npartial"
        let whole = Self.lines([text])
        #expect(whole.lines == ["{\"type\":\"hello\"}", "{\"type\":\"state\",\"t\":1}", "", "{\"type\":\"gesture\"}"])
        let bytes = Array(text)
        for size in 1...7 {
            let chunks = stride(from: 0, to: bytes.count, by: size).map { String(bytes[$0..<min($0 + size, bytes.count)]) }
            #expect(Self.lines(chunks).lines == whole.lines, "chunks of \(size)")
        }
    }

    @Test func aLineLongerThanTheMaximumIsDroppedWhole() {
        // 12 bytes against a maximum of 8, arriving in pieces: neither it nor its tail is handed over.
        let r = Self.lines(["ok\nabcdef", "ghij", "kl\nnext\n"], maximum: 8)
        #expect(r.lines == ["ok", "next"])
        #expect(r.dropped == 1)
        // Exactly the maximum fits.
        #expect(Self.lines(["12345678\n"], maximum: 8).lines == ["12345678"])
    }

    @Test func resetForgetsAPartialLine() {
        var s = LineSplitter(maximumLine: 64)
        var out: [String] = []
        s.feed(Array("{\"type\":\"sta".utf8)) { out.append(String(decoding: $0, as: UTF8.self)) }
        s.reset()   // the stream broke; a new one starts
        s.feed(Array("{\"type\":\"hello\"}\n".utf8)) { out.append(String(decoding: $0, as: UTF8.self)) }
        #expect(out == ["{\"type\":\"hello\"}"])
    }
}
