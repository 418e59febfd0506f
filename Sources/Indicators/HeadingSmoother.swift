import LibC
import Geometry

/// Output of the heading smoother: what to display and whether it is live.
public struct DisplayedHeading: Sendable, Equatable {
    /// Degrees clockwise from north in [0, 360).
    public var degrees: Double
    /// False while the raw heading is invalid and the smoother holds its last good value.
    public var isLive: Bool
    /// False until the first valid heading arrived.
    public var hasValue: Bool
    /// Why the display is not live: the validity of the latest raw reading (`.valid` while live).
    public var reason: HeadingReading.Validity

    public init(degrees: Double, isLive: Bool, hasValue: Bool, reason: HeadingReading.Validity = .valid) {
        self.degrees = degrees
        self.isLive = isLive
        self.hasValue = hasValue
        self.reason = reason
    }
}

/// Smooths the compass heading for display, on the circle: it always moves the short way across 0°/360°
/// and keeps its output in [0, 360). While the heading is invalid it holds the last good value and says so
/// (`isLive == false`, `reason`). Pure and allocation-free: call `step` once per display tick.
public struct HeadingSmoother: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The classic recipe: each display tick, move `classicFactor` of the way (factor per tick, so its
        /// time constant changes with the display rate). Kept as the baseline.
        case classic
        /// Exponential approach with a fixed time constant in seconds: the same behaviour at any display rate,
        /// but one compromise between lag and jitter.
        case exponential
        /// Speed-adaptive follower (One Euro style, Casiez et al. 2012, on the circle): slow and calm while the
        /// head is still, quick while it turns. Time constants in seconds, so rate-independent. The default.
        case adaptive
    }

    public struct Settings: Sendable, Equatable {
        public var kind: Kind = .adaptive
        /// Fraction per tick for `.classic` (0.1 per 1/60 s tick in the recipe).
        public var classicFactor: Double = 0.1
        /// Time constant (s) for `.exponential`.
        public var timeConstant: Double = 0.1
        /// `.adaptive`: time constant (s) at rest. 0.35 s keeps the display calmer than the classic recipe
        /// (whose time constant is 0.16 s at 60 Hz) because the speed estimate below never quite reaches 0.
        public var restTimeConstant: Double = 0.35
        /// `.adaptive`: head speed (°/s) at which the time constant has dropped to half the rest value
        /// (time constant = rest / (1 + speed / speedScale)). 15 °/s is slow looking around, so any real
        /// turn is followed closely (a 60 °/s turn lags by about 4°).
        public var speedScale: Double = 15
        /// `.adaptive`: the time constant never drops below this (s).
        public var minTimeConstant: Double = 0.01
        /// `.adaptive`: time constant (s) of the pre-filter whose slope is the speed estimate. Differencing
        /// the raw heading directly would turn 1° of noise into ~100 °/s of fake speed at 60 Hz.
        public var speedPrefilterTimeConstant: Double = 0.05
        /// `.adaptive`: time constant (s) of the low-pass on the speed estimate itself.
        public var speedTimeConstant: Double = 0.15
        public init() {}
        public init(kind: Kind) { self.kind = kind }
        public static let `default` = Settings()
    }

    public let settings: Settings
    public private(set) var output = DisplayedHeading(degrees: 0, isLive: false, hasValue: false,
                                                      reason: .noMagnetometer)

    // MARK: Adaptive state
    /// The raw heading of the previous live tick, for the slope across the interval.
    private var lastRaw = 0.0
    private var lastRawIsUsable = false
    /// Pre-filtered heading whose slope estimates the head's speed (degrees, [0, 360)).
    private var prefiltered = 0.0
    /// Smoothed signed speed (°/s).
    private var speed = 0.0
    /// The exponentials that depend only on dt and the settings, for the last dt seen (the display ticks at a
    /// fixed rate, so they are computed once instead of three exp() per tick).
    private var tick = TickCoefficients()

    private struct TickCoefficients: Sendable {
        var dt = Double.nan
        /// exp(−dt / τ) of the speed pre-filter, and 1 − exp(−dt / τ) of the speed low-pass.
        var prefilterDecay = 0.0, speedGain = 0.0
        /// 1 − exp(−dt / τ) of `.exponential`.
        var exponentialGain = 0.0
        init() {}
        init(dt: Double, settings s: Settings) {
            self.dt = dt
            prefilterDecay = exp(-dt / s.speedPrefilterTimeConstant)
            speedGain = 1 - exp(-dt / s.speedTimeConstant)
            exponentialGain = 1 - exp(-dt / s.timeConstant)
        }
        /// Whether these were made for `dt`. The loop's ticks are integer-nanosecond deadlines turned into
        /// seconds, so successive dt differ in their last bits (13 values in a minute at 60 Hz): compared
        /// exactly, two ticks in three recomputed. A relative 1e-9 changes the output far below any effect.
        func fits(_ dt: Double) -> Bool { abs(dt - self.dt) <= 1e-9 * dt }
    }

    public init(settings: Settings = .default) { self.settings = settings }

    /// The current time constant (s) of the `.adaptive` follower, for plots and tests.
    public var adaptiveTimeConstant: Double {
        max(settings.minTimeConstant, settings.restTimeConstant / (1 + abs(speed) / settings.speedScale))
    }

    /// One display tick of `dt` seconds with the latest raw heading.
    public mutating func step(raw: HeadingReading, dt: Double) -> DisplayedHeading {
        guard raw.isValid, raw.degrees.isFinite else {
            output.isLive = false
            // A "valid" reading with a non-finite angle can only come from a corrupt field sample.
            output.reason = raw.isValid ? .magneticDisturbance : raw.validity
            // The slope across an invalid stretch means nothing: restart it on the next good reading.
            lastRawIsUsable = false
            speed = 0
            return output
        }
        let x = wrapDegrees360(raw.degrees)
        if !output.hasValue {
            output = DisplayedHeading(degrees: x, isLive: true, hasValue: true, reason: .valid)
            prefiltered = x
            lastRaw = x
            lastRawIsUsable = true
            speed = 0
            return output
        }
        output.isLive = true
        output.reason = .valid
        switch settings.kind {
        case .classic:
            output.degrees = wrapDegrees360(output.degrees + shortestDegrees(from: output.degrees, to: x) * settings.classicFactor)
        case .exponential:
            guard dt > 0, dt.isFinite else { return output }
            if !tick.fits(dt) { tick = TickCoefficients(dt: dt, settings: settings) }
            let factor = tick.exponentialGain
            output.degrees = wrapDegrees360(output.degrees + shortestDegrees(from: output.degrees, to: x) * factor)
        case .adaptive:
            guard dt > 0, dt.isFinite else { return output }
            if !tick.fits(dt) { tick = TickCoefficients(dt: dt, settings: settings) }
            stepAdaptive(x, dt: dt)
        }
        return output
    }

    // MARK: Adaptive follower

    /// Exact response of a first-order low-pass, `dy/dt = (x − y) / tau`, over one tick during which the input
    /// moved linearly from `x0` to `x0 + rise` (first-order hold). Returns the new offset of y from the new
    /// input. Treating the input as a ramp, rather than held at its new value, is what makes the result the
    /// same at 30, 60 or 120 Hz; the result is a convex mix of old output and inputs, so it never overshoots.
    @inline(__always)
    static func firstOrderHold(offset e0: Double, rise: Double, dt: Double, tau: Double) -> Double {
        firstOrderHold(offset: e0, rise: rise, dt: dt, tau: tau, decay: exp(-dt / tau))
    }

    /// The same with the decay exp(−dt / tau) given (cached when tau is a constant).
    @inline(__always)
    static func firstOrderHold(offset e0: Double, rise: Double, dt: Double, tau: Double, decay a: Double) -> Double {
        e0 * a - rise * (tau / dt) * (1 - a)
    }

    private mutating func stepAdaptive(_ x: Double, dt: Double) {
        // Everything below works on offsets from the raw heading (shortest way), never on absolute angles,
        // so crossing 0°/360° is invisible to it.
        let reference = lastRawIsUsable ? lastRaw : x
        let rise = lastRawIsUsable ? shortestDegrees(from: lastRaw, to: x) : 0
        lastRaw = x
        lastRawIsUsable = true

        // Speed: slope of a short pre-filter (its offset from the input divided by its time constant equals
        // its rate of change), then smoothed.
        let tauP = settings.speedPrefilterTimeConstant
        let prefilterOffset = HeadingSmoother.firstOrderHold(
            offset: shortestDegrees(from: reference, to: prefiltered), rise: rise, dt: dt, tau: tauP, decay: tick.prefilterDecay)
        prefiltered = wrapDegrees360(x + prefilterOffset)
        let slope = -prefilterOffset / tauP
        speed += (slope - speed) * tick.speedGain

        let outputOffset = HeadingSmoother.firstOrderHold(
            offset: shortestDegrees(from: reference, to: output.degrees), rise: rise, dt: dt, tau: adaptiveTimeConstant)
        output.degrees = wrapDegrees360(x + outputOffset)
    }
}
