import LibC
import Geometry

/// The synthetic raw-heading signals the smoothing benchmark feeds to a smoother, one value per display tick.
/// All times are tick-aligned at 30, 60 and 120 Hz so every rate sees the same motion.
public enum SmoothingScenarios {
    /// Heading before the benchmark turn (degrees).
    public static let turnStartHeading = 10.0
    /// The benchmark turn: 90° in 0.3 s, starting at `turnStart` s.
    public static let turnDegrees = 90.0
    public static let turnDuration = 0.3
    public static let turnStart = 1.0
    /// How close (degrees) the display must stay to the final heading to count as settled.
    public static let settleTolerance = 2.0

    /// Raw heading (degrees, unwrapped) of a constant-speed turn from `from` by `by` degrees between `start`
    /// and `start + duration`; constant before and after.
    public static func ramp(at t: Double, from: Double, by: Double, start: Double, duration: Double) -> Double {
        guard duration > 0 else { return t >= start ? from + by : from }
        let f = Swift.min(1, Swift.max(0, (t - start) / duration))
        return from + by * f
    }
}

/// Deterministic Gaussian noise (xorshift64* + Box–Muller), so the benchmark gives the same numbers every run.
struct SmoothingNoise {
    private var state: UInt64
    private var spare: Double?

    init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

    /// Uniform in (0, 1).
    mutating func uniform() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        let bits = (state &* 0x2545_F491_4F6C_DD1D) >> 11
        return (Double(bits) + 0.5) / Double(1 << 53)
    }

    /// Standard normal.
    mutating func gaussian() -> Double {
        if let s = spare { spare = nil; return s }
        let r = (-2 * log(uniform())).squareRoot()
        let phi = 2 * Double.pi * uniform()
        spare = r * sin(phi)
        return r * cos(phi)
    }
}
