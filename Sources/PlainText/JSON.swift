/// A parsed JSON value. A small parser of our own: the config loader needs exact error positions and the
/// set of keys present (to reject unknown ones with their path), which Codable does not give.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// `text` as a JSON string literal, quotes included: the one escaper, behind `JSONOutput`'s strings and keys.
    public static func quoted(_ text: String) -> String { quoted(text, forScript: false) }

    /// `forScript` also escapes U+2028 and U+2029, which JSON allows raw but older JavaScript does not
    /// (`headtrack view`'s page).
    public static func quoted(_ text: String, forScript: Bool) -> String {
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || (forScript && (u.value == 0x2028 || u.value == 0x2029)) {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    public subscript(key: String) -> JSONValue? {
        if case let .object(members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }
}

public struct JSONError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    public var description: String { "line \(line), column \(column): \(message)" }
}

/// A parsed file with where each value sits: the line of every value and the text of every number as written,
/// by JSON path ("rates.imuHz", "events[2].t_start"), so an error can say `FILE:LINE:` and quote the file
/// (a million-digit number is not "inf").
public struct JSONDocument: Sendable {
    public let root: JSONValue
    public let lines: [String: Int]
    public let numberTexts: [String: String]

    public init(root: JSONValue, lines: [String: Int], numberTexts: [String: String]) {
        self.root = root
        self.lines = lines
        self.numberTexts = numberTexts
    }

    public func line(_ path: String) -> Int? { lines[path] }

    /// A number as the file wrote it, shown for an error (cut when long, with its length said).
    public func numberText(_ path: String, else value: Double) -> String {
        guard let text = numberTexts[path] else { return "\(value)" }
        return Shown.cut(text, unit: "digits")
    }
}

public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    /// Recording where values are (parseDocument): the current line and the tables being built.
    private let recording: Bool
    private var line = 1
    private var lines: [String: Int] = [:]
    private var numberTexts: [String: String] = [:]

    public static func parse(_ text: String) throws(JSONError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses raw file bytes. Strings must be valid UTF-8 (a config value decoded with U+FFFD in place of a
    /// bad byte would silently name another file or chip) and hold no control characters or NUL (a C path
    /// would be cut short at the NUL).
    public static func parse(bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var p = JSONParser(bytes: bytes, recording: false)
        return try p.document()
    }

    /// The same, keeping each value's line and each number's text (for files whose errors name a line).
    public static func parseDocument(bytes: [UInt8]) throws(JSONError) -> JSONDocument {
        var p = JSONParser(bytes: bytes, recording: true)
        let root = try p.document()
        return JSONDocument(root: root, lines: p.lines, numberTexts: p.numberTexts)
    }

    private init(bytes: [UInt8], recording: Bool) {
        self.bytes = bytes
        self.recording = recording
    }

    private mutating func document() throws(JSONError) -> JSONValue {
        skipSpace()
        let v = try value(depth: 0, path: "")
        skipSpace()
        if i < bytes.count { throw error("unexpected text after the JSON value") }
        return v
    }

    private func error(_ message: String) -> JSONError {
        var line = 1, column = 1
        for b in bytes[0..<min(i, bytes.count)] {
            if b == 0x0A { line += 1; column = 1 } else { column += 1 }
        }
        return JSONError(line: line, column: column, message: message)
    }

    /// Skips white space and // or /* */ comments (JSON5-style comments are allowed in config files).
    private mutating func skipSpace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A { line += 1; i += 1; continue }
            if b == 0x20 || b == 0x09 || b == 0x0D { i += 1; continue }
            if b == 0x2F && i + 1 < bytes.count && bytes[i + 1] == 0x2F {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
                continue
            }
            if b == 0x2F && i + 1 < bytes.count && bytes[i + 1] == 0x2A {
                i += 2
                while i + 1 < bytes.count && !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) {
                    if bytes[i] == 0x0A { line += 1 }
                    i += 1
                }
                i += 2
                continue
            }
            break
        }
    }

    private mutating func value(depth: Int, path: String) throws(JSONError) -> JSONValue {
        guard depth < 64 else { throw error("nested too deeply") }
        guard i < bytes.count else { throw error("unexpected end of file (truncated?)") }
        if recording { lines[path] = line }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth, path: path)
        case UInt8(ascii: "["): return try array(depth: depth, path: path)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number(path: path))
        }
    }

    private mutating func literal(_ word: String) throws(JSONError) {
        for c in word.utf8 {
            guard i < bytes.count, bytes[i] == c else { throw error("expected '\(word)'") }
            i += 1
        }
    }

    private mutating func number(path: String) throws(JSONError) -> Double {
        let start = i
        while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard i > start, let v = Double(text) else {
            throw error("expected a value (number, string, true, false, null, object or array)")
        }
        if recording { numberTexts[path] = text }
        return v
    }

    private mutating func string() throws(JSONError) -> String {
        i += 1
        var out: [UInt8] = []
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                guard let text = String(validating: out, as: UTF8.self) else {
                    throw error("string is not valid UTF-8 (save the file as UTF-8)")
                }
                i += 1
                return text
            }
            if b < 0x20 { throw error("control character \(b) inside a string (write it as an escape such as \\n)") }
            if b == UInt8(ascii: "\\") {
                i += 1
                guard i < bytes.count else { break }
                switch bytes[i] {
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    guard i + 4 < bytes.count, let code = UInt32(String(decoding: bytes[(i + 1)...(i + 4)], as: UTF8.self), radix: 16),
                          let scalar = Unicode.Scalar(code) else { throw error("bad \\u escape") }
                    guard code != 0 else { throw error("\\u0000 (NUL) inside a string is not allowed") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                    i += 4
                default: out.append(bytes[i])
                }
                i += 1
                continue
            }
            out.append(b)
            i += 1
        }
        throw error("unterminated string")
    }

    private mutating func array(depth: Int, path: String) throws(JSONError) -> JSONValue {
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1, path: recording ? path + "[\(items.count)]" : ""))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an array (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']'")
        }
    }

    private mutating func object(depth: Int, path: String) throws(JSONError) -> JSONValue {
        i += 1
        var members: [(String, JSONValue)] = []
        // Keys seen so far: a set keeps the duplicate check linear (a list made 160 000 keys take a minute).
        var keys = Set<String>()
        skipSpace()
        if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            guard keys.insert(key).inserted else { throw error("duplicate key '\(key)'") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key '\(key)'") }
            i += 1
            skipSpace()
            let member = recording ? (path.isEmpty ? key : path + "." + key) : ""
            members.append((key, try value(depth: depth + 1, path: member)))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an object (truncated?)") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}'")
        }
    }
}

extension JSONValue {
    /// The value as an Int when it is a whole number inside `range`, else nil: a count or a pin number must
    /// never trap on 1e19 nor silently become 17 from 17.9.
    public func integer(in range: ClosedRange<Int>) -> Int? {
        guard case let .number(x) = self, x.isFinite, x == x.rounded(),
              x >= Double(range.lowerBound), x <= Double(range.upperBound),
              abs(x) < 9.0e15 else { return nil }  // below 2^53: exact, and far inside Int
        return Int(x)
    }
}
