import Geometry

/// The run rules a candidate nod or shake is judged by (see `GestureDetector.Settings` for each rule's reason),
/// by the names `replay --explain` prints.
public enum GestureRule: Int, CaseIterable, Sendable {
    case leadIn, restBefore, carried, farPause, carriedSideways, turnPivot, excursion, pause, swingBigEnough, swingNotTooWide,
         noseDown, inFlight, cooldown

    /// What `replay --explain` prints and the stream's `explain` lines send (a static string: no allocation).
    public var name: StaticString {
        switch self {
        case .leadIn: return "lead-in"
        case .restBefore: return "rest before"
        case .carried: return "carried"
        case .farPause: return "far-end hold"
        case .carriedSideways: return "carried sideways"
        case .turnPivot: return "turn pivot"
        case .excursion: return "excursion"
        case .pause: return "reversal hold"
        case .swingBigEnough, .swingNotTooWide: return "widest swing"
        case .noseDown: return "nose-down start"
        case .inFlight: return "in flight"
        case .cooldown: return "cooldown"
        }
    }

    /// The unit values are printed and sent in, and the factor from the SI value stored.
    public var unit: (name: StaticString, factor: Double) {
        switch self {
        case .leadIn, .restBefore, .farPause, .pause, .inFlight, .cooldown: return ("s", 1)
        case .carried, .carriedSideways: return ("m/s²", 1)
        case .turnPivot: return ("m", 1)
        case .excursion, .swingBigEnough, .swingNotTooWide, .noseDown: return ("°", Units.degreesPerRadian)
        }
    }
}

/// Why a candidate gesture was taken or refused: each rule that applied, its measured value and its limit.
/// Kept by the detector for every candidate (`GestureDetector.verdict`); a value type of fixed size, so
/// recording one allocates nothing.
public struct GestureVerdict: Sendable, Equatable {
    public var event: GestureEvent
    /// When it was judged, and when its run's first swing began (s).
    public var t: Double
    public var start: Double
    public var swings: Int
    /// Indexed by `GestureRule.rawValue`, SI units (s, m/s², m, rad).
    public private(set) var values = SIMD16<Double>(repeating: 0)
    public private(set) var limits = SIMD16<Double>(repeating: 0)
    /// Bit `rule.rawValue`: the rule applied; it failed; it is a lower limit (the value must reach it).
    public private(set) var applied: UInt16 = 0
    public private(set) var failed: UInt16 = 0
    private var lowerLimits: UInt16 = 0

    public init(event: GestureEvent, t: Double, start: Double, swings: Int) {
        self.event = event; self.t = t; self.start = start; self.swings = swings
    }

    /// Records one rule: passes when `value ≤ limit` (`atMost`), else when `value ≥ limit`. Returns whether it passed.
    @discardableResult
    mutating func check(_ rule: GestureRule, _ value: Double, _ limit: Double, atMost: Bool = true) -> Bool {
        let bit: UInt16 = 1 << UInt16(rule.rawValue)
        values[rule.rawValue] = value
        limits[rule.rawValue] = limit
        applied |= bit
        if !atMost { lowerLimits |= bit }
        let passed = atMost ? value <= limit : value >= limit
        if !passed { failed |= bit }
        return passed
    }

    public var accepted: Bool { failed == 0 }

    public func applies(_ rule: GestureRule) -> Bool { applied & (1 << UInt16(rule.rawValue)) != 0 }
    public func passed(_ rule: GestureRule) -> Bool { applies(rule) && failed & (1 << UInt16(rule.rawValue)) == 0 }
    public func value(_ rule: GestureRule) -> Double { values[rule.rawValue] }
    public func limit(_ rule: GestureRule) -> Double { limits[rule.rawValue] }
    /// The limit is one the value must reach (≥), not stay within (≤).
    public func isLowerLimit(_ rule: GestureRule) -> Bool { lowerLimits & (1 << UInt16(rule.rawValue)) != 0 }

    /// The rules that refused it, in order.
    public var refusedBy: [GestureRule] { GestureRule.allCases.filter { applies($0) && !passed($0) } }

    /// One line for a person: "t=16.89s nod? 2 swings from 16.14s: refused by reversal hold 0.33 s > 0.25 s;
    /// lead-in 0.00 s ≤ 2.00 s ✓, ...". Allocates: for the command line, never the loop.
    public var text: String {
        func number(_ v: Double) -> String {
            guard v.isFinite else { return v > 0 ? "∞" : "-∞" }
            let r = (v * 100).rounded() / 100
            var s = String(r)
            if let dot = s.firstIndex(of: ".") {
                let decimals = s.distance(from: dot, to: s.endIndex) - 1
                if decimals < 2 { s += String(repeating: "0", count: 2 - decimals) }
            } else { s += ".00" }
            return s
        }
        func item(_ rule: GestureRule) -> String {
            let (unit, factor) = rule.unit
            let lower = isLowerLimit(rule)
            let ok = passed(rule)
            let sign = lower ? (ok ? "≥" : "<") : (ok ? "≤" : ">")
            return "\(rule.name) \(number(value(rule) * factor)) \(sign) \(number(limit(rule) * factor)) \(unit)"
        }
        let rules = GestureRule.allCases.filter(applies)
        let head = "t=\(number(t))s \(event.rawValue)? \(swings) swings from \(number(start))s: "
        let verdict = accepted ? "taken" : "refused by " + refusedBy.map(item).joined(separator: ", ")
        return head + verdict + "; " + rules.filter { passed($0) }.map { item($0) + " ✓" }.joined(separator: ", ")
    }
}
