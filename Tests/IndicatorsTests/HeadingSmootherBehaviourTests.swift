#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
import Geometry
@testable import Indicators

/// Properties of the heading smoothers, measured in simulated time with a harness that only knows the
/// motion it fed in (the true heading), never the smoother's internals.
@Suite struct HeadingSmootherBehaviourTests {
    static let classic = HeadingSmoother.Settings(kind: .classic)
    static let standard = HeadingSmoother.Settings.default

    /// Time (s) from the start of a 90° turn made in 0.3 s until the display stays within 2° of the final
    /// heading; the crossing is interpolated between ticks so the tick grid does not decide the answer.
    func settlingTime(_ settings: HeadingSmoother.Settings, rate: Double) -> Double {
        var smoother = HeadingSmoother(settings: settings)
        let dt = 1 / rate
        var previous: (t: Double, error: Double)? = nil
        var crossing: Double? = nil
        for k in 0..<Int(5 * rate) {
            let t = Double(k) * dt
            let raw = 10 + 90 * min(1, max(0, (t - 1) / 0.3))
            let shown = smoother.step(raw: HeadingReading(degrees: raw, validity: .valid), dt: dt)
            let error = abs(shortestDegrees(from: 100, to: shown.degrees))
            if t >= 1 {
                if error > 2 {
                    crossing = nil
                } else if crossing == nil, let p = previous, p.error > 2 {
                    crossing = p.t + (p.error - 2) / (p.error - error) * dt
                }
            }
            previous = (t, error)
        }
        return (crossing ?? .infinity) - 1
    }

    /// RMS (degrees) of the display about the true heading at rest with `sigma` degrees of white noise.
    func restJitter(_ settings: HeadingSmoother.Settings, rate: Double, sigma: Double = 1, seconds: Double = 300) -> Double {
        var smoother = HeadingSmoother(settings: settings)
        var noise = TestNoise(seed: 42)
        let dt = 1 / rate
        var sum = 0.0
        var n = 0
        for k in 0..<Int((seconds + 2) * rate) {
            let shown = smoother.step(raw: HeadingReading(degrees: wrapDegrees360(200 + sigma * noise.gaussian()), validity: .valid), dt: dt)
            if Double(k) * dt >= 2 {
                let e = shortestDegrees(from: 200, to: shown.degrees)
                sum += e * e
                n += 1
            }
        }
        return (sum / Double(n)).squareRoot()
    }

    /// Mean lag (degrees) behind a steady turn.
    func steadyLag(_ settings: HeadingSmoother.Settings, rate: Double, speed: Double = 60) -> Double {
        var smoother = HeadingSmoother(settings: settings)
        let dt = 1 / rate
        var sum = 0.0, n = 0.0
        for k in 0..<Int(5 * rate) {
            let t = Double(k) * dt
            let shown = smoother.step(raw: HeadingReading(degrees: wrapDegrees360(speed * t), validity: .valid), dt: dt)
            if t >= 3 { sum += abs(shortestDegrees(from: shown.degrees, to: speed * t)); n += 1 }
        }
        return sum / n
    }

    // MARK: The recipe

    @Test func classicMovesTenPercentTheShortWayEachTick() {
        var s = HeadingSmoother(settings: Self.classic)
        _ = s.step(raw: HeadingReading(degrees: 350, validity: .valid), dt: 1 / 60)
        // 20° to go across north: 10 % of it is 2°, whatever dt says (the recipe counts ticks).
        let shown = s.step(raw: HeadingReading(degrees: 10, validity: .valid), dt: 0.5)
        #expect(abs(shown.degrees - 352) < 1e-9)
        let next = s.step(raw: HeadingReading(degrees: 10, validity: .valid), dt: 1 / 60)
        #expect(abs(next.degrees - 353.8) < 1e-9)
    }

    @Test func classicJitterMatchesTheTheoryOfAnExponentialAverage() {
        // An exponential average with factor a has output variance a / (2 − a) times the input's.
        let expected = (0.1 / 1.9).squareRoot()
        #expect(abs(restJitter(Self.classic, rate: 60) - expected) < 0.06 * expected)
    }

    // MARK: Against the classic recipe: settling, jitter, the short way round

    @Test func defaultSettlesInAtMostHalfTheClassicTimeAt60Hz() {
        let classic = settlingTime(Self.classic, rate: 60)
        let standard = settlingTime(Self.standard, rate: 60)
        // The turn itself takes 0.3 s, so no smoother can settle before that.
        #expect(standard >= 0.29)
        #expect(standard <= 0.5 * classic, "default \(standard) s, classic \(classic) s")
    }

    @Test func defaultJitterAtRestIsNoHigherThanClassicAt60Hz() {
        let classic = restJitter(Self.classic, rate: 60)
        let standard = restJitter(Self.standard, rate: 60)
        #expect(standard <= classic, "default \(standard)°, classic \(classic)°")
    }

    @Test func defaultSettlingTimeIsTheSameAt30_60And120Hz() {
        let times = [30.0, 60, 120].map { settlingTime(Self.standard, rate: $0) }
        let spread = (times.max()! - times.min()!) / times.min()!
        #expect(spread < 0.05, "settling times \(times)")
    }

    @Test func classicSettlingTimeDependsOnTheRate() {
        // The reason for the default: the recipe's time constant is per tick.
        #expect(settlingTime(Self.classic, rate: 30) > 1.5 * settlingTime(Self.classic, rate: 60))
    }

    @Test func defaultLagsLessThanClassicInASteadyTurn() {
        // Classic at 60 Hz, 1° per tick: the lag settles where 0.1 · lag = 0.9 · 1°, i.e. 9°.
        #expect(abs(steadyLag(Self.classic, rate: 60) - 9) < 1e-6)
        #expect(steadyLag(Self.standard, rate: 60) < 0.5 * 9)
    }

    // MARK: The circle

    static let wrapCases: [(from: Double, by: Double, duration: Double)] = [
        (330, 60, 0.3), (30, -60, 0.3), (355, 10, 0), (5, -10, 0), (280, 170, 0.2), (80, -170, 0.2), (0.2, -0.4, 0),
    ]

    @Test(arguments: [HeadingSmoother.Kind.classic, .adaptive, .exponential], [30.0, 60, 120])
    func turnsAcrossNorthNeverTakeTheLongWay(kind: HeadingSmoother.Kind, rate: Double) {
        for c in Self.wrapCases {
            var s = HeadingSmoother(settings: HeadingSmoother.Settings(kind: kind))
            let dt = 1 / rate
            let direction: Double = c.by > 0 ? 1 : -1
            var previous: Double? = nil
            var last = 0.0
            for k in 0..<Int(5 * rate) {
                let t = Double(k) * dt
                let raw = c.duration > 0 ? c.from + c.by * min(1, max(0, (t - 1) / c.duration)) : (t >= 1 ? c.from + c.by : c.from)
                let shown = s.step(raw: HeadingReading(degrees: wrapDegrees360(raw), validity: .valid), dt: dt).degrees
                if let p = previous {
                    // Every move goes the way the head turned ...
                    #expect(direction * shortestDegrees(from: p, to: shown) >= -1e-9, "\(kind) \(rate) Hz \(c): \(p) -> \(shown)")
                }
                // ... and the display stays on the arc the head swept.
                let along = direction * shortestDegrees(from: wrapDegrees360(c.from), to: shown)
                #expect(along >= -1e-9 && along <= abs(c.by) + 1e-9, "\(kind) \(rate) Hz \(c): \(shown)")
                previous = shown
                last = shown
            }
            #expect(abs(shortestDegrees(from: c.from + c.by, to: last)) < 0.5)
        }
    }

    @Test(arguments: [HeadingSmoother.Kind.classic, .adaptive, .exponential])
    func outputIsAlwaysInRangeWhateverComesIn(kind: HeadingSmoother.Kind) {
        var s = HeadingSmoother(settings: HeadingSmoother.Settings(kind: kind))
        var noise = TestNoise(seed: 7)
        let strange: [Double] = [-720, -360, -0.0, 359.9999999999, 360, 720.5, 1e9, -1e-12, .nan, .infinity, -.infinity]
        let dts: [Double] = [1 / 60, 0, -0.01, 1e-9, 5, .nan, 1 / 30]
        for i in 0..<5000 {
            let degrees = i % 7 == 0 ? strange[i % strange.count] : 1000 * (noise.uniform() - 0.5)
            let validity: HeadingReading.Validity = i % 13 == 0 ? .headNearVertical : .valid
            let shown = s.step(raw: HeadingReading(degrees: degrees, validity: validity), dt: dts[i % dts.count])
            #expect(shown.degrees >= 0 && shown.degrees < 360, "\(kind) step \(i): \(shown.degrees)")
        }
    }

    // MARK: Invalid heading

    @Test(arguments: [HeadingSmoother.Kind.classic, .adaptive])
    func holdsTheLastGoodValueWhileInvalidAndSaysSo(kind: HeadingSmoother.Kind) {
        var s = HeadingSmoother(settings: HeadingSmoother.Settings(kind: kind))
        let dt = 1.0 / 60
        var shown = s.step(raw: HeadingReading(degrees: 0, validity: .headNearVertical), dt: dt)
        #expect(!shown.hasValue && !shown.isLive)
        for _ in 0..<120 { shown = s.step(raw: HeadingReading(degrees: 40, validity: .valid), dt: dt) }
        #expect(shown.isLive && shown.reason == .valid)
        let held = shown.degrees
        #expect(abs(held - 40) < 0.1)
        // The head pitches up: the compass says "near vertical" with a meaningless angle.
        for i in 0..<60 {
            shown = s.step(raw: HeadingReading(degrees: Double(i * 7), validity: .headNearVertical), dt: dt)
            #expect(shown.degrees == held && !shown.isLive && shown.hasValue && shown.reason == .headNearVertical)
        }
        shown = s.step(raw: HeadingReading(degrees: 90, validity: .magneticDisturbance), dt: dt)
        #expect(shown.degrees == held && shown.reason == .magneticDisturbance)
        // Back to valid, facing 100°: live again, moving towards it the short way.
        shown = s.step(raw: HeadingReading(degrees: 100, validity: .valid), dt: dt)
        #expect(shown.isLive && shown.degrees > held && shown.degrees <= 100)
        for _ in 0..<180 { shown = s.step(raw: HeadingReading(degrees: 100, validity: .valid), dt: dt) }
        #expect(abs(shown.degrees - 100) < 0.5)
    }
}

/// Deterministic noise for the tests (xorshift64 + Box–Muller); independent of the code under test.
struct TestNoise {
    var state: UInt64
    init(seed: UInt64) { state = seed | 1 }
    mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return (Double(state >> 11) + 0.5) / 9007199254740992.0
    }
    mutating func gaussian() -> Double {
        let r = (-2 * log(uniform())).squareRoot()
        return r * cos(2 * Double.pi * uniform())
    }
}
