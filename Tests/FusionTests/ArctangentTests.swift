#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import Fusion

/// `fastAtan2` replaces libm's atan2 in the filter's large heading offsets and in the compass: it must give
/// libm's answer to rounding in every direction, on the octant and table boundaries, and for the signed zeros
/// and special values libm defines.
@Suite struct ArctangentTests {
    @Test func matchesLibmAroundTheCircle() {
        var worst = 0.0
        // 100 003 directions (not a divisor of the octants' table steps) at three radii.
        for i in 0..<100_003 {
            let a = -Double.pi + 2 * Double.pi * (Double(i) + 0.5) / 100_003
            for r in [1e-6, 1.0, 5e3] {
                let y = r * sin(a), x = r * cos(a)
                worst = max(worst, abs(fastAtan2(y, x) - atan2(y, x)))
            }
        }
        #expect(worst <= 5e-16, "largest difference \(worst) rad")
    }

    @Test func matchesLibmOnTheReductionBoundaries() {
        // Ratios on and next to the multiples of 1/8 and 1/16 where the table entry changes, in all octants.
        for k in 0...16 {
            let t = Double(k) / 16
            for ratio in [t.nextDown, t, t.nextUp] where ratio >= 0 {
                for (sy, sx) in [(1.0, 1.0), (1.0, -1.0), (-1.0, 1.0), (-1.0, -1.0)] {
                    for (y, x) in [(ratio * sy, sx), (sy, ratio * sx)] {
                        #expect(abs(fastAtan2(y, x) - atan2(y, x)) <= 5e-16, "y \(y) x \(x)")
                    }
                }
            }
        }
    }

    @Test func specialValuesAreLibms() {
        let values: [Double] = [0, -0.0, 1, -1, .infinity, -.infinity, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        for y in values {
            for x in values {
                let expected = atan2(y, x), got = fastAtan2(y, x)
                #expect(got == expected && got.sign == expected.sign, "y \(y) x \(x): \(got) against \(expected)")
            }
        }
        #expect(fastAtan2(.nan, 1).isNaN && fastAtan2(1, .nan).isNaN)
    }

    @Test func theSeriesIsExactOverItsRange() {
        for i in -64...64 {
            let u = Double(i) / 1024  // |u| ≤ 1/16
            #expect(abs(arctangentSeries(u) - atan(u)) <= 1.5e-17 + 2.3e-16 * abs(u), "u \(u)")
        }
    }
    /// The table index is rounded without libm's `round`: it must round exactly as `rounded()` does, on every
    /// half (a tie goes away from zero), next to each half, at 0, at the largest whole doubles it takes, and
    /// over a grid of the ratios the filter gives it (0 to 8).
    @Test func indexRoundingIsRoundeds() {
        var values: [Double] = [0, .leastNonzeroMagnitude, 0.5.nextDown, 1.5.nextDown, 4503599627370495.5, 4503599627370496]
        for k in 0...16 {
            let half = Double(k) + 0.5, whole = Double(k)
            values += [half.nextDown, half, half.nextUp, whole.nextDown, whole, whole.nextUp]
        }
        for i in 0...80_000 { values.append(Double(i) / 10_000 + 1e-9 * Double(i % 7)) }
        var mismatches = 0
        for v in values where v >= 0 && roundedNonNegative(v) != Int(v.rounded()) { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(roundedNonNegative(2.5) == 3 && roundedNonNegative(0.5.nextDown) == 0 && roundedNonNegative(7.5) == 8)
    }
}
