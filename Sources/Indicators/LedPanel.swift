import Geometry

/// The LEDs of the headset, by role. Raw values are bit positions in `LedPanel.mask` and the order of the
/// pins in the config.
public enum Led: Int, Sendable, CaseIterable {
    case nod = 0, shake, north, up, down, left, right, status
    public var name: String { String(describing: self) }
}

/// Turns gestures, heading and health into LED states over time. Pure: time comes in as an argument.
public struct LedPanel: Sendable {
    public struct Settings: Sendable, Equatable {
        /// How long a gesture LED stays on after its gesture (s).
        public var gestureOnTime: Double = 0.4
        /// North LED sector half-width (degrees) ...
        public var northHalfWidth: Double = 22.5
        /// ... with this much hysteresis (degrees) so it does not flicker at the edge.
        public var northHysteresis: Double = 3
        /// Healthy heartbeat: on for `heartbeatOn` once every `heartbeatPeriod` seconds.
        public var heartbeatPeriod: Double = 1.0
        public var heartbeatOn: Double = 0.1
        /// Fault: blink at 5 Hz (0.1 s on, 0.1 s off).
        public var faultPeriod: Double = 0.2
        public init() {}
        public static let `default` = Settings()
    }

    public let settings: Settings
    /// When each gesture's LED goes off again.
    private var gestureUntil = GestureLedTimes()
    public private(set) var northOn = false

    public init(settings: Settings = .default) { self.settings = settings }

    public mutating func show(_ event: GestureLedEvent, at t: Double) {
        gestureUntil[event] = t + settings.gestureOnTime
    }

    /// The LED bit mask at time `t`.
    public mutating func mask(at t: Double, heading: DisplayedHeading, fault: Bool) -> UInt64 {
        var m: UInt64 = 0
        func set(_ led: Led, _ on: Bool) { if on { m |= 1 << UInt64(led.rawValue) } }
        for event in GestureLedEvent.allCases { set(event.led, t < gestureUntil[event]) }
        if heading.hasValue && heading.isLive {
            let offNorth = abs(shortestDegrees(from: 0, to: heading.degrees))
            if northOn {
                if offNorth > settings.northHalfWidth + settings.northHysteresis { northOn = false }
            } else if offNorth < settings.northHalfWidth - settings.northHysteresis {
                northOn = true
            }
        } else {
            northOn = false
        }
        set(.north, northOn)
        let phase: Double
        if fault {
            phase = LedPanel.phase(of: t, period: settings.faultPeriod)
            set(.status, phase < settings.faultPeriod / 2)
        } else {
            phase = LedPanel.phase(of: t, period: settings.heartbeatPeriod)
            set(.status, phase < settings.heartbeatOn)
        }
        return m
    }

    /// t.truncatingRemainder(dividingBy: period), exactly (fmod's result is always a representable number),
    /// without libm's fmod, which at a running time of minutes subtracts bit by bit: about 120 instructions per
    /// display tick against about 30 here. With q = trunc(t / period), the remainder is t − q·period; q·period is
    /// formed exactly as a sum hi + lo (`exactProduct`), t − hi is exact (the two are within a factor of two),
    /// and so the last subtraction, whose exact result is representable, is exact too. When t / period rounds
    /// across a whole number (t a hair from a multiple), q is one off and one period puts the result back.
    @inline(__always) static func phase(of t: Double, period: Double) -> Double {
        guard period > 0, t.isFinite, abs(t) < 0x1p900 else { return t.truncatingRemainder(dividingBy: period) }
        let q = (t / period).rounded(.towardZero)
        let (hi, lo) = exactProduct(q, period)
        var r = (t - hi) - lo
        if t >= 0 {
            if r < 0 { r += period } else if r >= period { r -= period }
        } else {
            if r > 0 { r -= period } else if r <= -period { r += period }
        }
        return r
    }

    /// a·b as hi + lo with hi = the rounded product and lo its exact rounding error (Dekker's product with
    /// Veltkamp's split into 26-bit halves, whose partial products are exact; no FMA needed, which x86-64's
    /// baseline lacks).
    @inline(__always) static func exactProduct(_ a: Double, _ b: Double) -> (hi: Double, lo: Double) {
        func split(_ x: Double) -> (Double, Double) {
            let c = 134_217_729.0 * x  // 2²⁷ + 1
            let high = c - (c - x)
            return (high, x - high)
        }
        let hi = a * b
        let (ah, al) = split(a), (bh, bl) = split(b)
        let lo = ((ah * bh - hi) + ah * bl + al * bh) + al * bl
        return (hi, lo)
    }
}

/// Gesture kinds as the LED panel knows them (Indicators does not import Gestures).
public enum GestureLedEvent: String, Sendable, CaseIterable {
    case nod, shake, up, down, left, right

    /// The LED that shows it.
    public var led: Led {
        switch self {
        case .nod: return .nod
        case .shake: return .shake
        case .up: return .up
        case .down: return .down
        case .left: return .left
        case .right: return .right
        }
    }
}

/// A time per gesture LED, held inline (the display tick allocates nothing).
struct GestureLedTimes: Sendable {
    private var nod = -Double.infinity, shake = -Double.infinity, up = -Double.infinity
    private var down = -Double.infinity, left = -Double.infinity, right = -Double.infinity

    subscript(event: GestureLedEvent) -> Double {
        get {
            switch event {
            case .nod: return nod
            case .shake: return shake
            case .up: return up
            case .down: return down
            case .left: return left
            case .right: return right
            }
        }
        set {
            switch event {
            case .nod: nod = newValue
            case .shake: shake = newValue
            case .up: up = newValue
            case .down: down = newValue
            case .left: left = newValue
            case .right: right = newValue
            }
        }
    }
}
