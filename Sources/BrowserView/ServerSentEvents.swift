/// Server-sent events framing (the WHATWG HTML standard's text/event-stream): each event is `event:` (when
/// named) and one `data:` field per line of its text, ended by a blank line. A CR or LF inside the text starts
/// a new data line, so no input can end an event early or smuggle a field in.
public enum ServerSentEvents {
    /// One event carrying `text` (a JSON line without its newline), optionally named.
    public static func event(_ text: UnsafeBufferPointer<UInt8>, name: StaticString? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 16)
        if let n = name {
            out += "event: ".utf8
            n.withUTF8Buffer { out += $0 }
            out.append(0x0A)
        }
        out += "data: ".utf8
        var i = 0
        while i < text.count {
            let b = text[i]
            if b == 0x0D || b == 0x0A {
                // CRLF is one line end; CR or LF alone is one too.
                if b == 0x0D && i + 1 < text.count && text[i + 1] == 0x0A { i += 1 }
                out += "\ndata: ".utf8
            } else {
                out.append(b)
            }
            i += 1
        }
        out += "\n\n".utf8
        return out
    }

    public static func event(_ text: [UInt8], name: StaticString? = nil) -> [UInt8] {
        text.withUnsafeBufferPointer { event($0, name: name) }
    }

    public static func event(_ text: String, name: StaticString? = nil) -> [UInt8] {
        event(Array(text.utf8), name: name)
    }

    /// A comment line: ignored by the browser, it keeps the connection busy so nothing between times it out.
    public static let keepAlive: [UInt8] = Array(": keep-alive\n\n".utf8)

    /// How long the browser waits before it reconnects a stream that broke (ms).
    public static func retry(milliseconds: Int) -> [UInt8] { Array("retry: \(milliseconds)\n\n".utf8) }
}
