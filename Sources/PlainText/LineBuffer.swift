/// A fixed-capacity byte buffer for one JSON line, with number formatting of its own. The loop formats every
/// stream message into one of these, so publishing allocates nothing: no String, no Foundation, no heap.
/// A message that would not fit sets `overflowed` (the caller drops it) instead of growing the buffer.
public final class LineBuffer {
    public let capacity: Int
    public private(set) var count = 0
    public private(set) var overflowed = false
    let bytes: UnsafeMutablePointer<UInt8>

    public init(capacity: Int) {
        precondition(capacity > 0 && capacity <= 1 << 20, "line buffer capacity out of range")
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    public func reset() {
        count = 0
        overflowed = false
    }

    /// The bytes written so far.
    public var contents: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes, count: count) }

    /// The contents as a String (for tests and the watch view; allocates).
    public var text: String { String(decoding: contents, as: UTF8.self) }

    @inline(__always)
    public func byte(_ b: UInt8) {
        guard count < capacity else { overflowed = true; return }
        bytes[count] = b
        count += 1
    }

    /// Appends a string literal's UTF-8 bytes (static strings live in the binary: no allocation).
    public func literal(_ s: StaticString) {
        s.withUTF8Buffer { b in
            for c in b { byte(c) }
        }
    }

    public func bool(_ v: Bool) { v ? literal("true") : literal("false") }

    /// A signed integer in decimal.
    public func integer(_ v: Int64) {
        if v < 0 {
            byte(UInt8(ascii: "-"))
            unsigned(v.magnitude)
        } else {
            unsigned(UInt64(v))
        }
    }

    public func unsigned(_ v: UInt64) {
        // Highest power of ten not above v (at most 10^19), then one digit per power, most significant first.
        var divisor: UInt64 = 1
        while v / divisor >= 10 { divisor *= 10 }
        var rest = v
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Largest |value| × 10^decimals written as a number; beyond it (or for NaN/∞) the JSON is `null`.
    /// 9e15 keeps the scaled value exact in a Double's 53-bit mantissa, so the rounding below is honest.
    static let maxScaled = 9e15

    /// `value` rounded to `decimals` (0...9) places, like printf's "%.Nf" but into the buffer: JSON has no
    /// NaN or infinity, so those (and values too large to scale exactly) become `null`. "-0" is written "0".
    public func fixed(_ value: Double, _ decimals: Int) {
        let places = min(max(decimals, 0), 9)
        var scale = 1.0
        var unit: UInt64 = 1
        for _ in 0..<places { scale *= 10; unit *= 10 }
        let scaled = (value.magnitude * scale).rounded(.toNearestOrAwayFromZero)
        guard value.isFinite, scaled < LineBuffer.maxScaled else { literal("null"); return }
        let n = UInt64(scaled)
        if value < 0 && n != 0 { byte(UInt8(ascii: "-")) }
        unsigned(n / unit)
        guard places > 0 else { return }
        byte(UInt8(ascii: "."))
        var frac = n % unit
        var divisor = unit / 10
        while divisor > 0 {
            byte(UInt8(ascii: "0") + UInt8(frac / divisor))
            frac %= divisor
            divisor /= 10
        }
    }

    /// A JSON string literal with quotes, escaping what JSON requires. Iterates UTF-8 in place: a native
    /// String's bytes are read without copying.
    public func string(_ s: String) {
        byte(UInt8(ascii: "\""))
        var copy = s
        copy.withUTF8 { b in
            for c in b { escaped(c) }
        }
        byte(UInt8(ascii: "\""))
    }

    public func string(_ s: StaticString) {
        byte(UInt8(ascii: "\""))
        s.withUTF8Buffer { b in
            for c in b { escaped(c) }
        }
        byte(UInt8(ascii: "\""))
    }

    private func escaped(_ c: UInt8) {
        switch c {
        case UInt8(ascii: "\""): literal("\\\"")
        case UInt8(ascii: "\\"): literal("\\\\")
        case 0x0A: literal("\\n")
        case 0x0D: literal("\\r")
        case 0x09: literal("\\t")
        case 0..<0x20:
            literal("\\u00")
            let hex: StaticString = "0123456789abcdef"
            hex.withUTF8Buffer { h in
                byte(h[Int(c >> 4)])
                byte(h[Int(c & 0xF)])
            }
        default: byte(c)
        }
    }
}
