/// A small, strict XML well-formedness checker for the plot tests: one root element, properly nested and
/// closed tags, quoted attributes without duplicates, no bare `<` or `&` in text or attribute values (only
/// the five predefined entities and character references). It builds a tree so tests can look inside.
struct XMLElement {
    var name: String
    var attributes: [String: String] = [:]
    var children: [XMLElement] = []
    /// Text directly inside this element, entities decoded.
    var text = ""

    /// This element and all its descendants, depth first.
    var all: [XMLElement] { [self] + children.flatMap(\.all) }

    func first(id: String) -> XMLElement? { all.first { $0.attributes["id"] == id } }
}

struct XMLError: Error, CustomStringConvertible {
    var message: String
    var offset: Int
    var description: String { "XML error at byte \(offset): \(message)" }
}

struct XMLChecker {
    private let bytes: [UInt8]
    private var i = 0

    static func parse(_ text: String) throws -> XMLElement {
        var checker = XMLChecker(bytes: Array(text.utf8))
        return try checker.document()
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func fail(_ message: String) -> XMLError { XMLError(message: message, offset: i) }

    private func peek(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return i + u.count <= bytes.count && Array(bytes[i..<(i + u.count)]) == u
    }

    private mutating func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
    }

    private mutating func skip(past terminator: String) throws {
        while i < bytes.count && !peek(terminator) { i += 1 }
        guard peek(terminator) else { throw fail("unterminated construct, expected '\(terminator)'") }
        i += terminator.utf8.count
    }

    private mutating func document() throws -> XMLElement {
        skipSpace()
        if peek("<?xml") { try skip(past: "?>") }
        try miscellany()
        guard peek("<") else { throw fail("no root element") }
        let root = try element()
        try miscellany()
        guard i == bytes.count else { throw fail("content after the root element") }
        return root
    }

    private mutating func miscellany() throws {
        while true {
            skipSpace()
            if peek("<!--") { try skip(past: "-->") } else if peek("<?") { try skip(past: "?>") } else { return }
        }
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || b == 0x2D || b == 0x5F || b == 0x3A || b == 0x2E || b >= 0x80
    }

    private mutating func name() throws -> String {
        let start = i
        while i < bytes.count && XMLChecker.isNameByte(bytes[i]) { i += 1 }
        guard i > start, !(bytes[start] >= 0x30 && bytes[start] <= 0x39), bytes[start] != 0x2D else { throw fail("bad name") }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }

    /// Decodes character data up to `end` (exclusive), rejecting `<` and bad `&`.
    private mutating func characterData(until stop: (UInt8) -> Bool) throws -> String {
        var out: [UInt8] = []
        while i < bytes.count && !stop(bytes[i]) {
            let b = bytes[i]
            if b == 0x3C { throw fail("bare '<'") }
            if b == 0x26 {
                guard let semicolon = bytes[i...].prefix(12).firstIndex(of: 0x3B) else { throw fail("bare '&'") }
                let entity = String(decoding: bytes[(i + 1)..<semicolon], as: UTF8.self)
                switch entity {
                case "amp": out.append(0x26)
                case "lt": out.append(0x3C)
                case "gt": out.append(0x3E)
                case "quot": out.append(0x22)
                case "apos": out.append(0x27)
                default:
                    let value: UInt32?
                    if entity.hasPrefix("#x") { value = UInt32(entity.dropFirst(2), radix: 16) }
                    else if entity.hasPrefix("#") { value = UInt32(entity.dropFirst(1)) }
                    else { value = nil }
                    guard let v = value, let scalar = Unicode.Scalar(v) else { throw fail("unknown entity '&\(entity);'") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                }
                i = semicolon + 1
                continue
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func element() throws -> XMLElement {
        i += 1  // '<'
        var e = XMLElement(name: try name())
        while true {
            let hadSpace = i < bytes.count && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i])
            skipSpace()
            if peek("/>") { i += 2; return e }
            if peek(">") { i += 1; break }
            guard hadSpace else { throw fail("attributes must be separated by white space") }
            let key = try name()
            skipSpace()
            guard peek("=") else { throw fail("attribute '\(key)' without '='") }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == 0x22 || bytes[i] == 0x27 else { throw fail("unquoted attribute '\(key)'") }
            let quote = bytes[i]
            i += 1
            let value = try characterData { $0 == quote }
            guard i < bytes.count else { throw fail("unterminated attribute '\(key)'") }
            i += 1
            guard e.attributes[key] == nil else { throw fail("duplicate attribute '\(key)'") }
            e.attributes[key] = value
        }
        // Content.
        while true {
            guard i < bytes.count else { throw fail("<\(e.name)> is never closed") }
            if peek("</") {
                i += 2
                let closing = try name()
                guard closing == e.name else { throw fail("</\(closing)> closes <\(e.name)>") }
                skipSpace()
                guard peek(">") else { throw fail("bad end tag") }
                i += 1
                return e
            } else if peek("<!--") {
                try skip(past: "-->")
            } else if peek("<![CDATA[") {
                try skip(past: "]]>")
            } else if peek("<") {
                e.children.append(try element())
            } else {
                e.text += try characterData { $0 == 0x3C }
            }
        }
    }
}
