/// One HTTP/1.x request head as the view needs it: method, target, version and headers. No body: the view
/// serves GET only.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var target: String
    /// "HTTP/1.1" or "HTTP/1.0".
    public var version: String
    public var headers: [Header]

    public struct Header: Sendable, Equatable {
        public var name: String
        public var value: String
    }

    /// The first header of that name (case-insensitive), if any.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// How many headers of that name (a second Host or Content-Length is an attack, not a request).
    public func count(of name: String) -> Int {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.count
    }

    /// The target's path: everything before `?` or `#`.
    public var path: String {
        String(target.prefix { $0 != "?" && $0 != "#" })
    }
}

/// Why a request is refused: a status and a line that says what was wrong.
public struct HTTPRejection: Error, Sendable, Equatable {
    public var status: Int
    public var message: String
    public init(_ status: Int, _ message: String) { self.status = status; self.message = message }
}

/// Reads a request head from bytes as they arrive, in bounded memory and bounded work: every byte is looked at
/// a fixed number of times, and a head that grows past `Limits.headBytes` is refused before it is stored.
public struct HTTPRequestParser: Sendable {
    public struct Limits: Sendable, Equatable {
        /// The whole head (request line and headers). Browsers send well under 2 KiB to a local page.
        public var headBytes = 8192
        /// The request line alone (method, target, version).
        public var requestLineBytes = 2048
        public var headers = 40
        public init() {}
    }

    public enum Result: Sendable, Equatable {
        case incomplete
        case complete(HTTPRequest)
        case rejected(HTTPRejection)
    }

    public let limits: Limits
    private var head: [UInt8] = []
    private var sawLineEnd = false
    private var done = false
    /// Bytes inspected while looking for the end of the head (tests hold it to the bytes given).
    public private(set) var bytesExamined = 0

    public init(limits: Limits = Limits()) {
        self.limits = limits
        head.reserveCapacity(Swift.min(limits.headBytes, 1 << 16))
    }

    /// Takes the next bytes of the connection. After `.complete` or `.rejected` further bytes are ignored.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Result {
        guard !done else { return .incomplete }
        for b in bytes {
            bytesExamined += 1
            if b == 0 { return reject(400, "a NUL byte in the request head") }
            head.append(b)
            if b == UInt8(ascii: "\n") {
                if !sawLineEnd {
                    sawLineEnd = true
                    let length = head.count - 1 - (head.count >= 2 && head[head.count - 2] == UInt8(ascii: "\r") ? 1 : 0)
                    if length > limits.requestLineBytes { return reject(414, "the request line is longer than \(limits.requestLineBytes) bytes") }
                }
                if endsHead() {
                    done = true
                    switch HTTPRequestParser.parse(head, limits: limits) {
                    case let .success(r): return .complete(r)
                    case let .failure(e): return .rejected(e)
                    }
                }
            }
            // + 1: room for the line's CR before its LF.
            if !sawLineEnd && head.count > limits.requestLineBytes + 1 {
                return reject(414, "the request line is longer than \(limits.requestLineBytes) bytes")
            }
            if head.count >= limits.headBytes { return reject(431, "the request head is longer than \(limits.headBytes) bytes") }
        }
        return .incomplete
    }

    public mutating func feed(_ bytes: [UInt8]) -> Result {
        bytes.withUnsafeBytes { feed($0) }
    }

    private mutating func reject(_ status: Int, _ message: String) -> Result {
        done = true
        head = []
        return .rejected(HTTPRejection(status, message))
    }

    /// The head ends with an empty line: CRLF CRLF, or bare LFs (RFC 9112 lets a server accept them).
    private func endsHead() -> Bool {
        let n = head.count
        if n >= 2 && head[n - 2] == UInt8(ascii: "\n") { return true }
        return n >= 3 && head[n - 2] == UInt8(ascii: "\r") && head[n - 3] == UInt8(ascii: "\n")
    }

    // MARK: the complete head

    static func parse(_ head: [UInt8], limits: Limits) -> Swift.Result<HTTPRequest, HTTPRejection> {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for i in head.indices where head[i] == UInt8(ascii: "\n") {
            var end = i
            if end > start && head[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            lines.append(head[start..<end])
            start = i + 1
        }
        // The last line is the empty one that ended the head.
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { return .failure(HTTPRejection(400, "an empty request")) }
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3 else {
            return .failure(HTTPRejection(400, "the request line must be METHOD TARGET HTTP/1.1, one space apart"))
        }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else { return .failure(HTTPRejection(400, "the method is not a token")) }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            if version.hasPrefix("HTTP/") && version.count == 8 { return .failure(HTTPRejection(505, "only HTTP/1.0 and HTTP/1.1 are served")) }
            return .failure(HTTPRejection(400, "the request line must end with HTTP/1.1"))
        }
        let target = parts[1]
        guard target.first == UInt8(ascii: "/") else {
            return .failure(HTTPRejection(400, "the target must be a path starting with / (no absolute URLs, no *)"))
        }
        guard target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(HTTPRejection(400, "the target has bytes a URL may not carry (control, space or non-ASCII)"))
        }
        var headers: [HTTPRequest.Header] = []
        for line in lines.dropFirst() {
            guard let first = line.first else { continue }
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                return .failure(HTTPRejection(400, "folded header lines are not accepted"))
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(HTTPRejection(400, "a header line without a colon"))
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenByte) else {
                return .failure(HTTPRejection(400, "a header name that is not a token (no spaces before the colon)"))
            }
            var value = line[(colon + 1)...]
            while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
            while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
            guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
                return .failure(HTTPRejection(400, "a header value with control characters"))
            }
            headers.append(.init(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
            if headers.count > limits.headers { return .failure(HTTPRejection(431, "more than \(limits.headers) headers")) }
        }
        return .success(HTTPRequest(method: String(decoding: parts[0], as: UTF8.self),
                                    target: String(decoding: target, as: UTF8.self), version: version, headers: headers))
    }

    /// RFC 9110 tchar.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(b)
        }
    }
}
