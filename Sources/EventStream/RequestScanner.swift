/// What one request line from a client says: an ask, a subscribe, a blank line (ignored), or why it is refused.
enum ClientRequest: Equatable {
    /// `{"type":"ask","id":"q1","timeout_s":5}`; the id is `line[idStart ..< idStart + idCount]`, already
    /// checked (1–64 bytes of printable ASCII without `"` or `\`), and the timeout is in range (default 5 s).
    case ask(idStart: Int, idCount: Int, timeout: Double)
    /// `{"type":"subscribe","state_hz":10,"calibration":false,"explain":true}`: at least one key given (nil:
    /// absent, so its default). `stateHz` is a finite number ≥ 0 (`1e999` reads as ∞ and is refused here);
    /// whether it is above the stream's rate only the server knows.
    case subscribe(stateHz: Double?, calibration: Bool?, explain: Bool? = nil)
    /// `{"type":"recenter"}`: the head's yaw now becomes 0 of every state line's `yaw_deg` (other keys skipped).
    case recenter
    /// Nothing but whitespace: not a request (a client may end its lines with "\r\n", or send empty ones).
    case blank
    case refused(RequestRefusal)
}

/// Why a request was dropped; the client gets `message` in an `error` line. Each message is a static string
/// (nothing is allocated to say it) that names what was wrong and what to send instead.
enum RequestRefusal: Equatable, CaseIterable {
    case malformed, nested, duplicateKey, missingType, unknownType, missingId, badId, badTimeout
    case tooLong, unterminated, tooMany
    case emptySubscribe, badStateHz, stateHzTooHigh, badCalibration, badExplain

    var message: StaticString {
        switch self {
        case .malformed: return "malformed JSON: dropped; send one flat JSON object per line, e.g. {\"type\":\"ask\",\"id\":\"q1\"}"
        case .nested: return "nested objects and arrays are not accepted: dropped; send one flat JSON object per line"
        case .duplicateKey: return "a key appears twice: dropped; send each key once"
        case .missingType: return "request has no \"type\": dropped; send {\"type\":\"ask\",\"id\":\"q1\"}"
        case .unknownType: return "unknown request type: dropped; the hello's \"requests\" lists the types this tracker takes"
        case .missingId: return "ask has no \"id\": dropped; give a string of 1 to 64 printable ASCII characters"
        case .badId: return "\"id\" must be a string of 1 to 64 printable ASCII characters without quotes or backslashes: dropped"
        case .badTimeout: return "\"timeout_s\" must be a number from 0.5 to 60 (seconds): dropped"
        case .tooLong: return "request line longer than 1024 bytes: dropped"
        case .unterminated: return "request line not ended by a newline before the end of input: dropped"
        case .tooMany: return "more than 5 requests in one second: dropped; send at most 5 a second"
        case .emptySubscribe: return "subscribe has none of \"state_hz\", \"calibration\" and \"explain\": dropped; send e.g. {\"type\":\"subscribe\",\"state_hz\":10}"
        case .badStateHz: return "\"state_hz\" must be a number from 0 to the hello's rates.state_hz: dropped"
        case .stateHzTooHigh: return "\"state_hz\" is above this stream's state rate: dropped; the most it sends is the hello's rates.state_hz"
        case .badCalibration: return "\"calibration\" must be true or false: dropped"
        case .badExplain: return "\"explain\" must be true or false: dropped"
        }
    }
}

/// The request channel's parser: a scanner over the bytes of one line (without its newline) that accepts one
/// flat JSON object, finds the top-level keys `type`, `id`, `timeout_s`, `state_hz`, `calibration` and `explain` in any
/// order with any whitespace, skips other keys whose values are strings, numbers, true, false or null (so later
/// requests can add keys), and refuses nested objects and arrays. It reads the bytes in place: no String, no
/// Array, no Foundation, no heap, so nothing a client sends makes the loop allocate.
///
/// Keys are compared as written: a key spelled with escapes (`"typ\u0065"`) is not `type`. The whole object is
/// checked for syntax before its fields are judged, so a broken line is "malformed", not "bad id".
enum RequestScanner {
    static let maxIdBytes = 64
    static let defaultTimeout = 5.0
    static let timeoutRange = 0.5...60.0

    static func scan(_ line: UnsafeBufferPointer<UInt8>) -> ClientRequest {
        var s = Cursor(line)
        s.skipWhitespace()
        if s.atEnd { return .blank }
        guard s.take(UInt8(ascii: "{")) else { return .refused(.malformed) }

        // What each known key held: `nil` when absent.
        var type: Field?
        var id: Field?
        var timeout: Field?
        var stateHz: Field?
        var calibration: Field?
        var explain: Field?
        s.skipWhitespace()
        if !s.take(UInt8(ascii: "}")) {
            while true {
                guard s.peek == UInt8(ascii: "\""), let key = s.string() else { return .refused(.malformed) }
                s.skipWhitespace()
                guard s.take(UInt8(ascii: ":")) else { return .refused(.malformed) }
                s.skipWhitespace()
                if s.peekIsNesting { return .refused(.nested) }
                guard let value = s.value() else { return .refused(.malformed) }
                // A known key keeps its value; a second of the same key refuses the line; other keys are skipped.
                func keep(_ name: StaticString, _ field: inout Field?) -> Bool? {
                    guard key.isString(name, in: line) else { return nil }
                    guard field == nil else { return false }
                    field = value
                    return true
                }
                let kept = keep("type", &type) ?? keep("id", &id) ?? keep("timeout_s", &timeout)
                    ?? keep("state_hz", &stateHz) ?? keep("calibration", &calibration) ?? keep("explain", &explain)
                if kept == false { return .refused(.duplicateKey) }
                s.skipWhitespace()
                if s.take(UInt8(ascii: ",")) { s.skipWhitespace(); continue }
                if s.take(UInt8(ascii: "}")) { break }
                return .refused(.malformed)
            }
        }
        s.skipWhitespace()
        guard s.atEnd else { return .refused(.malformed) }

        guard let type else { return .refused(.missingType) }
        if type.isString("subscribe", in: line) { return subscription(stateHz, calibration, explain, in: line) }
        if type.isString("recenter", in: line) { return .recenter }
        guard type.isString("ask", in: line) else { return .refused(.unknownType) }
        guard let id else { return .refused(.missingId) }
        guard id.kind == .string, !id.escaped, id.count >= 1, id.count <= maxIdBytes else { return .refused(.badId) }
        for i in id.start..<(id.start + id.count) where line[i] < 0x20 || line[i] > 0x7E {
            return .refused(.badId)
        }
        var seconds = defaultTimeout
        if let timeout {
            guard timeout.kind == .number, timeoutRange.contains(timeout.number) else { return .refused(.badTimeout) }
            seconds = timeout.number
        }
        return .ask(idStart: id.start, idCount: id.count, timeout: seconds)
    }

    /// A subscribe's keys (`id` and `timeout_s` are skipped like unknown keys). A subscribe replaces the
    /// previous one wholesale, so one without either key would only reset to the defaults, which is more
    /// likely a typo than a wish: refused.
    private static func subscription(_ stateHz: Field?, _ calibration: Field?, _ explain: Field?,
                                     in line: UnsafeBufferPointer<UInt8>) -> ClientRequest {
        if stateHz == nil && calibration == nil && explain == nil { return .refused(.emptySubscribe) }
        var hz: Double?
        if let stateHz {
            guard stateHz.kind == .number, stateHz.number >= 0, stateHz.number.isFinite else { return .refused(.badStateHz) }
            hz = stateHz.number == 0 ? 0 : stateHz.number  // -0 is 0
        }
        var on: Bool?
        if let calibration {
            guard let b = calibration.boolean(in: line) else { return .refused(.badCalibration) }
            on = b
        }
        var explaining: Bool?
        if let explain {
            guard let b = explain.boolean(in: line) else { return .refused(.badExplain) }
            explaining = b
        }
        return .subscribe(stateHz: hz, calibration: on, explain: explaining)
    }

    /// One scanned value (or key): where its bytes are and what kind it was.
    struct Field {
        enum Kind { case string, number, literal }
        var kind: Kind
        /// For a string, its bytes between the quotes, as written (escapes not decoded).
        var start: Int
        var count: Int
        var escaped = false
        var number = 0.0

        /// A string without escapes whose bytes are exactly `s`.
        func isString(_ s: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Bool {
            guard kind == .string, !escaped, count == s.utf8CodeUnitCount else { return false }
            return s.withUTF8Buffer { b in
                for i in 0..<count where line[start + i] != b[i] { return false }
                return true
            }
        }

        /// `true` or `false` (a literal is one of those or `null`, already checked); nil for anything else.
        func boolean(in line: UnsafeBufferPointer<UInt8>) -> Bool? {
            guard kind == .literal else { return nil }
            switch line[start] {
            case UInt8(ascii: "t"): return true
            case UInt8(ascii: "f"): return false
            default: return nil
            }
        }
    }

    /// A position in the line. Every method reads at most to the end of the line and never allocates.
    struct Cursor {
        let bytes: UnsafeBufferPointer<UInt8>
        var i = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var atEnd: Bool { i >= bytes.count }
        var peek: UInt8? { i < bytes.count ? bytes[i] : nil }
        var peekIsNesting: Bool { peek == UInt8(ascii: "{") || peek == UInt8(ascii: "[") }

        mutating func take(_ b: UInt8) -> Bool {
            guard peek == b else { return false }
            i += 1
            return true
        }

        mutating func skipWhitespace() {
            while let b = peek, b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { i += 1 }
        }

        static func isDigit(_ b: UInt8?) -> Bool {
            guard let b else { return false }
            return b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")
        }

        static func isHex(_ b: UInt8) -> Bool {
            isDigit(b) || (b >= UInt8(ascii: "a") && b <= UInt8(ascii: "f")) || (b >= UInt8(ascii: "A") && b <= UInt8(ascii: "F"))
        }

        /// A scalar value: a string, a number, `true`, `false` or `null`; nil when it is none of them.
        mutating func value() -> Field? {
            switch peek {
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return word("true")
            case UInt8(ascii: "f"): return word("false")
            case UInt8(ascii: "n"): return word("null")
            default:
                let start = i
                guard let n = number() else { return nil }
                return Field(kind: .number, start: start, count: i - start, number: n)
            }
        }

        mutating func word(_ w: StaticString) -> Field? {
            let start = i
            let matched = w.withUTF8Buffer { b in
                guard bytes.count - i >= b.count else { return false }
                for k in 0..<b.count where bytes[i + k] != b[k] { return false }
                return true
            }
            guard matched else { return nil }
            i += w.utf8CodeUnitCount
            return Field(kind: .literal, start: start, count: i - start)
        }

        /// A JSON string at the cursor (which is on its opening quote): its raw bytes, and whether it held
        /// escapes (checked to be valid ones). Control characters inside make it invalid JSON.
        mutating func string() -> Field? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            var field = Field(kind: .string, start: i, count: 0)
            while let b = peek {
                i += 1
                switch b {
                case UInt8(ascii: "\""):
                    field.count = i - 1 - field.start
                    return field
                case UInt8(ascii: "\\"):
                    field.escaped = true
                    guard let e = peek else { return nil }
                    i += 1
                    switch e {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                         UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        guard bytes.count - i >= 4 else { return nil }
                        for k in 0..<4 where !Cursor.isHex(bytes[i + k]) { return nil }
                        i += 4
                    default:
                        return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    break
                }
            }
            return nil  // no closing quote
        }

        /// A JSON number (`-`? int frac? exp?, no leading zeros, no `+`, no bare `.`), as a Double. Up to 19
        /// significant digits are kept (plenty for a timeout); the exponent is clamped, so `1e999999` is ∞ and
        /// `1e-999999` is 0, both simply out of any range.
        mutating func number() -> Double? {
            let negative = take(UInt8(ascii: "-"))
            guard Cursor.isDigit(peek) else { return nil }
            var digits = Digits()
            if take(UInt8(ascii: "0")) {
                if Cursor.isDigit(peek) { return nil }  // leading zero
            } else {
                while let b = peek, Cursor.isDigit(b) { digits.add(b, fraction: false); i += 1 }
            }
            if take(UInt8(ascii: ".")) {
                guard Cursor.isDigit(peek) else { return nil }
                while let b = peek, Cursor.isDigit(b) { digits.add(b, fraction: true); i += 1 }
            }
            if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
                let negativeExponent = take(UInt8(ascii: "-"))
                if !negativeExponent { _ = take(UInt8(ascii: "+")) }
                guard Cursor.isDigit(peek) else { return nil }
                var e = 0
                while let b = peek, Cursor.isDigit(b) {
                    if e < 100_000 { e = e * 10 + Int(b - UInt8(ascii: "0")) }
                    i += 1
                }
                digits.exponent += negativeExponent ? -e : e
            }
            var value = Double(digits.mantissa)
            if digits.mantissa != 0 {
                // Dividing by an exact power of ten (10^k is exact up to k = 22) keeps 0.5 and 60.0 exact.
                var scale = 1.0
                for _ in 0..<min(digits.exponent.magnitude, 400) { scale *= 10 }
                value = digits.exponent >= 0 ? value * scale : value / scale
            }
            return negative ? -value : value
        }
    }

    /// A number's decimal digits as they are read: the first 19 significant ones, and the power of ten.
    struct Digits {
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0

        mutating func add(_ ascii: UInt8, fraction: Bool) {
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(ascii - UInt8(ascii: "0"))
                if mantissa > 0 { significant += 1 }
                if fraction { exponent -= 1 }
            } else if !fraction {
                exponent += 1  // an integer digit beyond the 19th still scales the value
            }
        }
    }
}

/// What the server makes of one request line (without its newline), for the fuzz target and for tools: not on
/// the loop's path (it copies the line and makes a String of the id).
public enum RequestLine {
    public struct Reading: Sendable, Equatable {
        /// An `ask`: its id and timeout (s); nil fields otherwise.
        public var askId: String?
        public var timeout: Double?
        /// Why it was refused (the `error` line's message), or nil.
        public var refusal: String?
        public var isBlank: Bool
        /// A `subscribe` taken by the scanner (a `state_hz` above the stream's rate is refused by the server
        /// only), with the keys it gave: nil when absent.
        public var isSubscribe = false
        public var stateHz: Double?
        public var calibration: Bool?
        /// A `recenter`.
        public var isRecenter = false
    }

    public static func read(_ bytes: [UInt8]) -> Reading {
        bytes.withUnsafeBufferPointer { line in
            switch RequestScanner.scan(line) {
            case let .ask(idStart, idCount, timeout):
                let id = String(decoding: line[idStart..<(idStart + idCount)], as: UTF8.self)
                return Reading(askId: id, timeout: timeout, refusal: nil, isBlank: false)
            case let .subscribe(stateHz, calibration, _):
                return Reading(askId: nil, timeout: nil, refusal: nil, isBlank: false, isSubscribe: true, stateHz: stateHz,
                               calibration: calibration)
            case .recenter:
                return Reading(askId: nil, timeout: nil, refusal: nil, isBlank: false, isRecenter: true)
            case .blank:
                return Reading(askId: nil, timeout: nil, refusal: nil, isBlank: true)
            case let .refused(why):
                return Reading(askId: nil, timeout: nil, refusal: why.message.description, isBlank: false)
            }
        }
    }
}
