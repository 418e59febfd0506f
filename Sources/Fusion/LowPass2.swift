import LibC
import Geometry

/// Second-order Butterworth low-pass on vectors (bilinear transform, direct form II transposed).
/// Butterworth because it is the flattest passband for a given roll-off: it lets slow tilt through unchanged
/// while attenuating second-long accelerations by 40 dB per decade instead of a first-order filter's 20.
struct LowPass2: Sendable, Equatable {
    struct Coefficients: Sendable, Equatable {
        var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
        init() {}
        /// Cut-off f_c = √2 / (2π τ), which gives a step response settling like a first-order filter of time
        /// constant τ; prewarped so the digital filter cuts at f_c at any sample rate.
        init(timeConstant tau: Double, dt: Double) {
            guard tau > 0, dt > 0 else { return }
            let fc = 2.0.squareRoot() / (2 * Double.pi * tau)
            let k = tan(Double.pi * Swift.min(fc * dt, 0.49))
            let norm = 1 / (1 + 2.0.squareRoot() * k + k * k)
            b0 = k * k * norm
            b1 = 2 * b0
            b2 = b0
            a1 = 2 * (k * k - 1) * norm
            a2 = (1 - 2.0.squareRoot() * k + k * k) * norm
        }
    }

    private var s1: Vector3 = .zero
    private var s2: Vector3 = .zero
    private(set) var output: Vector3 = .zero

    init() {}

    @inline(__always) mutating func step(_ x: Vector3, _ c: Coefficients) {
        let y = c.b0 * x + s1
        s1 = c.b1 * x - c.a1 * y + s2
        s2 = c.b2 * x - c.a2 * y
        output = y
    }

    /// Puts the filter in the steady state of a constant input x (output x, no transient).
    mutating func settle(at x: Vector3, _ c: Coefficients) {
        s2 = (c.b2 - c.a2) * x
        s1 = (c.b1 - c.a1) * x + s2
        output = x
    }
}
