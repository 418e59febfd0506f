/// How an object or array is laid out as text. A file people read is `indented` at the top and `inline` for
/// the rows in it; a line a script reads (`probe --json`, the view's events) is `compact`.
public enum JSONLayout: Sendable {
    /// One member per line, indented two spaces a level: `{\n  "a": 1,\n  "b": 2\n}`.
    case indented
    /// One line with a space after each comma and colon: `{"a": 1, "b": 2}`.
    case inline
    /// One line without spaces: `{"a":1,"b":2}`.
    case compact

    var separator: String { self == .inline ? ", " : "," }
    var colon: String { self == .compact ? ":" : ": " }
}

/// A value to write as JSON: the one writer behind every JSON file, report and summary the project writes
/// (reading is `JSONParser`'s). Objects keep their members in the order they were added, strings are escaped by
/// `JSONValue.quoted`, numbers are written by `fixed` or as the shortest text that reads back the same, and
/// JSON's missing NaN and infinity are written `null`. Built as a tree and laid out once by `text`, so a nested
/// value needs no indentation of its own: it takes its layout from its container unless it names one.
///
///     JSONOutput.object { o in
///         o.add("version", .integer(1))
///         o.add("bias", .array(.inline, [.number(0.5, digits: 2), .number(nil, digits: 2)]))
///     }.text() + "\n"
///     // {
///     //   "version": 1,
///     //   "bias": [0.50, null]
///     // }
public struct JSONOutput: Sendable, Equatable {
    private indirect enum Node: Sendable, Equatable {
        /// A number, `true`, `false` or `null`, already as its JSON text.
        case literal(String)
        case string(String)
        /// nil layout: the container's (`indented` at the top).
        case object(JSONLayout?, [JSONMember])
        case array(JSONLayout?, [JSONOutput])
    }

    private let node: Node

    private static func literal(_ text: String) -> JSONOutput { JSONOutput(node: .literal(text)) }

    public static let null = JSONOutput.literal("null")

    public static func bool(_ value: Bool) -> JSONOutput { .literal(value ? "true" : "false") }

    /// `value` as `fixed(value, digits)` writes it ("%.Nf"); nil, NaN and infinity as `null`.
    public static func number(_ value: Double?, digits: Int) -> JSONOutput {
        guard let value, value.isFinite else { return .null }
        return .literal(fixed(value, digits))
    }

    /// `value` as the shortest text that reads back as the same Double (`0.1`, `44.30925890026717`, `3.0`), for
    /// files a program reads back; NaN and infinity as `null`.
    public static func number(roundTrip value: Double) -> JSONOutput {
        value.isFinite ? .literal(value.description) : .null
    }

    /// A whole number in decimal; nil as `null`.
    public static func integer<Integer: BinaryInteger>(_ value: Integer?) -> JSONOutput {
        value.map { .literal(String($0)) } ?? .null
    }

    /// nil as `null`.
    public static func string(_ value: String?) -> JSONOutput { value.map { JSONOutput(node: .string($0)) } ?? .null }

    /// An object whose members `body` adds, in order.
    public static func object(_ layout: JSONLayout? = nil, _ body: (inout JSONObjectWriter) -> Void) -> JSONOutput {
        var o = JSONObjectWriter()
        body(&o)
        return JSONOutput(node: .object(layout, o.members))
    }

    /// An array in its container's layout.
    public static func array(_ items: [JSONOutput]) -> JSONOutput { JSONOutput(node: .array(nil, items)) }

    public static func array(_ layout: JSONLayout, _ items: [JSONOutput]) -> JSONOutput { JSONOutput(node: .array(layout, items)) }

    /// The value as JSON text, without a final line break. `forScript` also escapes U+2028 and U+2029 in
    /// strings, for text a browser's JavaScript reads (`JSONValue.quoted(_:forScript:)`).
    public func text(forScript: Bool = false) -> String {
        var out = ""
        write(into: &out, depth: 0, container: .indented, forScript: forScript)
        return out
    }

    private func write(into out: inout String, depth: Int, container: JSONLayout, forScript: Bool) {
        switch node {
        case let .literal(text): out += text
        case let .string(text): out += JSONValue.quoted(text, forScript: forScript)
        case let .object(layout, members):
            let layout = JSONOutput.resolved(layout, in: container)
            JSONOutput.writeList(members.map { ($0.key, $0.value) }, open: "{", close: "}", layout: layout,
                                 into: &out, depth: depth, forScript: forScript)
        case let .array(layout, items):
            let layout = JSONOutput.resolved(layout, in: container)
            JSONOutput.writeList(items.map { (nil, $0) }, open: "[", close: "]", layout: layout,
                                 into: &out, depth: depth, forScript: forScript)
        }
    }

    /// A container inside a one-line container stays on that line, whatever it asked for.
    private static func resolved(_ asked: JSONLayout?, in container: JSONLayout) -> JSONLayout {
        guard let asked else { return container }
        return container != .indented && asked == .indented ? container : asked
    }

    private static func writeList(_ items: [(key: String?, value: JSONOutput)], open: String, close: String,
                                  layout: JSONLayout, into out: inout String, depth: Int, forScript: Bool) {
        out += open
        guard !items.isEmpty else { out += close; return }
        let inner = String(repeating: "  ", count: depth + 1)
        for (i, item) in items.enumerated() {
            if i > 0 { out += layout.separator }
            if layout == .indented { out += "\n" + inner }
            if let key = item.key { out += JSONValue.quoted(key, forScript: forScript) + layout.colon }
            item.value.write(into: &out, depth: depth + 1, container: layout, forScript: forScript)
        }
        if layout == .indented { out += "\n" + String(repeating: "  ", count: depth) }
        out += close
    }
}

/// One member of an object: its key and its value.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONOutput
    public init(_ key: String, _ value: JSONOutput) { self.key = key; self.value = value }
}

/// The members of an object being written, in the order they are added (`JSONOutput.object`).
public struct JSONObjectWriter {
    public private(set) var members: [JSONMember] = []

    public init() {}

    public mutating func add(_ key: String, _ value: JSONOutput) { members.append(JSONMember(key, value)) }
}
