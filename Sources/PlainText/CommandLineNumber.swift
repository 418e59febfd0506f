/// A number as people write one on a command line: decimal digits with an optional sign, point and exponent
/// ("12", "-0.5", ".25", "1e-3"). Swift's `Double(_:)` also reads hexadecimal floats ("0x10" is 16), "inf"
/// and "nan": a typo there became a 16 s duration instead of an error.
public enum CommandLineNumber {
    /// The value of `text`, or nil when it is not a plain finite decimal number.
    public static func parse(_ text: String) -> Double? {
        let b = Array(text.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") { i += 1 }
            return i - start
        }
        if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
        var mantissa = digits()
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if i < b.count, b[i] == UInt8(ascii: "e") || b[i] == UInt8(ascii: "E") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { return nil }
        }
        guard i == b.count, let v = Double(text), v.isFinite else { return nil }
        return v
    }
}
