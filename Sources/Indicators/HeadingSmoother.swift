#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Fusion

/// Output of the heading smoother: what to display and whether it is live.
public struct DisplayedHeading: Sendable, Equatable {
    /// Degrees clockwise from north in [0, 360).
    public var degrees: Double
    /// False while the raw heading is invalid and the smoother holds its last good value.
    public var isLive: Bool
    /// False until the first valid heading arrived.
    public var hasValue: Bool

    public init(degrees: Double, isLive: Bool, hasValue: Bool) {
        self.degrees = degrees; self.isLive = isLive; self.hasValue = hasValue
    }
}

/// Smooths the compass heading for display, on the circle: it always moves the short way across 0°/360°
/// and keeps its output in [0, 360). While the heading is invalid it holds the last good value.
public struct HeadingSmoother: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// The classic recipe: each display tick, move `classicFactor` of the way (factor per tick, so its
        /// time constant changes with the display rate). Kept as the baseline.
        case classic
        /// Exponential approach with a time constant in seconds: the same behaviour at any display rate.
        case exponential
    }

    public struct Settings: Sendable, Equatable {
        public var kind: Kind = .exponential
        /// Fraction per tick for `.classic` (0.1 per 1/60 s tick in the recipe).
        public var classicFactor: Double = 0.1
        /// Time constant (s) for `.exponential`.
        public var timeConstant: Double = 0.1
        public init() {}
        public static let `default` = Settings()
    }

    public let settings: Settings
    public private(set) var output = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)

    public init(settings: Settings = .default) { self.settings = settings }

    /// One display tick of `dt` seconds with the latest raw heading.
    public mutating func step(raw: HeadingReading, dt: Double) -> DisplayedHeading {
        guard raw.isValid, raw.degrees.isFinite else {
            output.isLive = false
            return output
        }
        if !output.hasValue {
            output = DisplayedHeading(degrees: wrapDegrees360(raw.degrees), isLive: true, hasValue: true)
            return output
        }
        let factor: Double
        switch settings.kind {
        case .classic: factor = settings.classicFactor
        case .exponential: factor = 1 - exp(-max(0, dt) / settings.timeConstant)
        }
        let step = shortestDegrees(from: output.degrees, to: raw.degrees) * factor
        output = DisplayedHeading(degrees: wrapDegrees360(output.degrees + step), isLive: true, hasValue: true)
        return output
    }
}

