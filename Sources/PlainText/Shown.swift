/// Text that came from a file, a client or the command line, made safe to put in a message: control characters
/// escaped (a terminal escape in a config value must not retitle or clear the user's terminal) and a long value
/// cut with its length said (a 10 MB device name must not become a 10 MB error line).
public enum Shown {
    /// Characters kept of a long value: enough to recognise a path or a number.
    public static let limit = 64

    /// `'text'`, escaped and cut.
    public static func quoted(_ text: String, limit: Int = Shown.limit) -> String { "'" + cut(text, limit: limit) + "'" }

    /// `text` escaped, and when longer than `limit` characters, its start and "…(N unit)".
    public static func cut(_ text: String, unit: String = "bytes", limit: Int = Shown.limit) -> String {
        var out = ""
        var kept = 0
        for u in text.unicodeScalars {
            if kept == limit {
                let n = unit == "bytes" ? text.utf8.count : text.unicodeScalars.count
                return out + "…(\(n) \(unit))"
            }
            out += escaped(u)
            kept += 1
        }
        return out
    }

    /// Longest run without a space kept whole in a message (a long path still fits; 10 MB of it does not).
    public static let tokenLimit = 512

    /// A whole message made safe to print: line breaks kept, every other control character escaped, and any
    /// run without a space longer than `tokenLimit` cut with its length said. The last line of defence for
    /// values that reach a message without being quoted where they were read.
    public static func message(_ text: String) -> String {
        var needed = false
        var run = 0
        for u in text.unicodeScalars {
            run = u == " " || u == "\n" ? 0 : run + 1
            if run > tokenLimit || (u != "\n" && escaped(u).unicodeScalars.count > 1) { needed = true; break }
        }
        guard needed else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.split(separator: " ", omittingEmptySubsequences: false).map { cut(String($0), limit: tokenLimit) }.joined(separator: " ")
        }.joined(separator: "\n")
    }

    /// C0, DEL and C1 controls, and the bidirectional overrides that make text read in another order, as `\u{…}`.
    static func escaped(_ u: Unicode.Scalar) -> String {
        let v = u.value
        let control = v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
        guard control else { return String(u) }
        switch u {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default: return "\\u{" + String(v, radix: 16) + "}"
        }
    }
}
