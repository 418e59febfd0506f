#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
@testable import Formats
@testable import PlainText
@testable import EventStream

/// The stream's own number formatter, checked against two independent references: the C library's
/// printf("%.*f") (digit for digit, away from rounding ties) and parsing the text back with Double(_:).
struct LineBufferTests {
    func formatted(_ v: Double, _ decimals: Int) -> String {
        let b = LineBuffer(capacity: 64)
        b.fixed(v, decimals)
        return b.text
    }

    func printf(_ v: Double, _ decimals: Int) -> String {
        var out = [CChar](repeating: 0, count: 64)
        _ = withVaList([Int32(decimals), v]) { vsnprintf(&out, 64, "%.*f", $0) }
        return out.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    @Test func fixedMatchesPrintfAndParsesBack() {
        var state: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Double {  // xorshift: reproducible values from 1e-6 to 1e7, both signs
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let unit = Double(state >> 11) / Double(1 << 53)
            let magnitude = pow(10, unit * 13 - 6)
            return state & 1 == 0 ? magnitude : -magnitude
        }
        var compared = 0
        for i in 0..<20_000 {
            let v = next()
            let d = i % 10
            let text = formatted(v, d)
            let step = pow(10, Double(-d))
            let scaled = abs(v) / step
            if scaled >= LineBuffer.maxScaled {  // beyond exact scaling: null, never a wrong number
                #expect(text == "null")
                continue
            }
            guard let parsed = Double(text) else { Issue.record("\(v) with \(d) decimals gave '\(text)'"); return }
            #expect(abs(parsed - v) <= step / 2 * (1 + 1e-9) + abs(v) * 1e-15, "\(v) → \(text)")
            // Near a rounding tie, the scaling multiplication's own rounding (a few ulps of the scaled value)
            // may decide differently from printf, which rounds the exact binary value: compare away from ties.
            if abs(scaled - scaled.rounded(.down) - 0.5) > max(1e-6, 4 * scaled.ulp) {
                let reference = printf(v, d)
                // printf keeps the sign of a value that rounds to zero ("-0.00"); JSON readers want "0.00".
                let expected = reference.hasPrefix("-") && Double(reference) == 0 ? String(reference.dropFirst()) : reference
                #expect(text == expected, "\(v) with \(d) decimals")
                compared += 1
            }
        }
        #expect(compared > 18_000)
    }

    @Test func specialValues() {
        #expect(formatted(.nan, 2) == "null")
        #expect(formatted(.infinity, 2) == "null")
        #expect(formatted(-.infinity, 0) == "null")
        #expect(formatted(1e300, 2) == "null")      // too large to scale exactly: not a wrong number
        #expect(formatted(-0.0, 3) == "0.000")
        #expect(formatted(-0.0004, 3) == "0.000")
        #expect(formatted(0.0005, 3) == "0.001")
        #expect(formatted(359.996, 2) == "360.00")
        #expect(EventStream.headingForDisplay(359.996) == 0)
        #expect(EventStream.headingForDisplay(359.994) == 359.99)
        #expect(formatted(12.5, 0) == "13")
        #expect(formatted(7, 12) == "7.000000000")  // decimals are capped at 9
    }

    @Test func integersMatchSwift() {
        for v: Int64 in [0, 1, -1, 9, 10, 99, 100, 12345, -987654321, .max, .min, Int64(Int32.max) + 1] {
            let b = LineBuffer(capacity: 32)
            b.integer(v)
            #expect(b.text == String(v))
        }
    }

    @Test func stringsAreEscapedAndParseBack() throws {
        let b = LineBuffer(capacity: 256)
        let original = "MPU-9250 \"clone\" \\ tab\t nl\n ctl\u{01} µ°"
        b.string(original)
        #expect(try JSONParser.parse(b.text) == .string(original))
    }

    @Test func overflowIsFlaggedNotGrown() {
        let b = LineBuffer(capacity: 8)
        b.literal("0123456789")
        #expect(b.overflowed)
        #expect(b.count == 8)
        b.reset()
        #expect(!b.overflowed && b.count == 0)
    }
}
