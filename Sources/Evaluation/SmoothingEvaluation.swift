import LibC
import Geometry
import Indicators
import Formats

/// The heading-smoothing benchmark: settling, lag, jitter and wrap behaviour of each smoother at several
/// display rates, all computed in simulated time.
public enum SmoothingEvaluation {
    public static let displayRates: [Double] = [30, 60, 120]

    /// What is measured: a smoother, or the raw heading itself (`settings == nil`) as the reference.
    public struct Candidate: Sendable {
        public var name: String
        public var settings: HeadingSmoother.Settings?
        public init(name: String, settings: HeadingSmoother.Settings?) { self.name = name; self.settings = settings }
    }

    /// The raw heading, the classic recipe and the default smoother.
    public static let candidates: [Candidate] = [
        Candidate(name: "raw", settings: nil),
        Candidate(name: "classic", settings: HeadingSmoother.Settings(kind: .classic)),
        Candidate(name: "default (\(HeadingSmoother.Settings.default.kind.rawValue))", settings: .default),
    ]

    public struct Row: Sendable {
        public var smoother: String
        public var rateHz: Double
        /// Time (s) from the start of the 90°-in-0.3 s turn until the display stays within 2° of the final
        /// heading, interpolated between ticks. Subtract `SmoothingScenarios.turnDuration` for the time after
        /// the head stopped.
        public var settlingTime: Double
        /// Mean display lag (degrees) behind a steady 60 °/s turn.
        public var steadyTurnLag: Double
        /// RMS (degrees) of the display at rest with 1° RMS white noise on the raw heading.
        public var restJitter: Double
        /// RMS (degrees) of the display on the still stretches of the real recordings, drift removed (see
        /// `recordedJitter`); nil without data.
        public var recordedJitter: Double?
        /// The same about each piece's mean, the fused heading's slow drift included.
        public var recordedSpread: Double?
        public var wrap: WrapResult
    }

    /// Turns across north in both directions: the display must move only in the turn's direction and stay on
    /// the arc the head swept (so it never takes the long way round or spins through 360°).
    public struct WrapResult: Sendable {
        public var cases: Int
        public var failures: Int
        /// Largest move against the turn direction, or outside the swept arc (degrees; 0 when clean).
        public var worstViolation: Double
        public var passed: Bool { failures == 0 }
    }

    // MARK: The runs

    public static func evaluate(recordings: [RecordedHeadings]) -> [Row] {
        var rows: [Row] = []
        for candidate in candidates {
            for rate in displayRates {
                rows.append(Row(smoother: candidate.name, rateHz: rate,
                                settlingTime: settlingTime(candidate.settings, rateHz: rate),
                                steadyTurnLag: steadyTurnLag(candidate.settings, rateHz: rate),
                                restJitter: restJitter(candidate.settings, rateHz: rate),
                                recordedJitter: recordings.isEmpty ? nil : recordedJitter(candidate.settings, rateHz: rate, recordings: recordings),
                                recordedSpread: recordings.isEmpty ? nil : recordedJitter(candidate.settings, rateHz: rate, recordings: recordings, detrend: false),
                                wrap: wrapTest(candidate.settings, rateHz: rate)))
            }
        }
        return rows
    }

    /// Settling time (s) after the benchmark turn, measured from the turn's start; `.infinity` if never settled.
    public static func settlingTime(_ settings: HeadingSmoother.Settings?, rateHz: Double) -> Double {
        typealias S = SmoothingScenarios
        let target = S.turnStartHeading + S.turnDegrees
        var follower = Follower(settings)
        let dt = 1 / rateHz
        var lastOutside: (t: Double, error: Double)? = nil
        var crossing = 0.0
        var previousWasOutside = false
        let ticks = Int(((S.turnStart + S.turnDuration + 4) * rateHz).rounded())
        for k in 0..<ticks {
            let t = Double(k) * dt
            let raw = S.ramp(at: t, from: S.turnStartHeading, by: S.turnDegrees, start: S.turnStart, duration: S.turnDuration)
            let shown = follower.step(raw: raw, dt: dt)
            let error = abs(shortestDegrees(from: target, to: shown))
            if t >= S.turnStart && error > S.settleTolerance {
                lastOutside = (t, error)
                previousWasOutside = true
            } else if previousWasOutside, let o = lastOutside {
                // Linear interpolation of the tolerance crossing between the two ticks.
                crossing = o.t + (o.error - S.settleTolerance) / (o.error - error) * dt
                previousWasOutside = false
            }
        }
        if previousWasOutside { return .infinity }
        return lastOutside == nil ? 0 : crossing - S.turnStart
    }

    /// Mean lag (degrees) behind a steady turn of `degreesPerSecond`, after 3 s of turning.
    public static func steadyTurnLag(_ settings: HeadingSmoother.Settings?, rateHz: Double,
                                     degreesPerSecond: Double = 60) -> Double {
        var follower = Follower(settings)
        let dt = 1 / rateHz
        var sum = 0.0
        var n = 0
        for k in 0..<Int((5 * rateHz).rounded()) {
            let t = Double(k) * dt
            let raw = 200 + degreesPerSecond * t
            let shown = follower.step(raw: raw, dt: dt)
            if t >= 3 {
                sum += abs(shortestDegrees(from: shown, to: wrapDegrees360(raw)))
                n += 1
            }
        }
        return sum / Double(n)
    }

    /// RMS (degrees) of the display about the true heading at rest, with `noiseRMS` degrees of white noise on
    /// every raw sample, over `seconds` after a 2 s lead-in.
    public static func restJitter(_ settings: HeadingSmoother.Settings?, rateHz: Double, noiseRMS: Double = 1,
                                  seconds: Double = 120, seed: UInt64 = 0x5EED_0007) -> Double {
        let truth = 123.4
        var noise = SmoothingNoise(seed: seed)
        var follower = Follower(settings)
        let dt = 1 / rateHz
        var sumSquares = 0.0
        var n = 0
        for k in 0..<Int(((seconds + 2) * rateHz).rounded()) {
            let shown = follower.step(raw: truth + noiseRMS * noise.gaussian(), dt: dt)
            if Double(k) * dt >= 2 {
                let e = shortestDegrees(from: truth, to: shown)
                sumSquares += e * e
                n += 1
            }
        }
        return (sumSquares / Double(n)).squareRoot()
    }

    /// The wrap test at one rate: quick and slow turns and instant jumps across north, both ways.
    public static func wrapTest(_ settings: HeadingSmoother.Settings?, rateHz: Double) -> WrapResult {
        // (from, by, duration): clockwise and counter-clockwise across 0°/360°, up to nearly half a turn.
        let cases: [(Double, Double, Double)] = [
            (330, 60, 0.3), (30, -60, 0.3), (300, 120, 1.0), (60, -120, 1.0),
            (355, 10, 0), (5, -10, 0), (280, 170, 0.3), (80, -170, 0.3), (359.5, 1, 0.05), (0.5, -1, 0.05),
        ]
        var result = WrapResult(cases: cases.count, failures: 0, worstViolation: 0)
        let dt = 1 / rateHz
        for (from, by, duration) in cases {
            var follower = Follower(settings)
            let direction: Double = by > 0 ? 1 : -1
            var previous: Double? = nil
            var worst = 0.0
            var last = from
            for k in 0..<Int(((1 + duration + 3) * rateHz).rounded()) {
                let t = Double(k) * dt
                let shown = follower.step(raw: SmoothingScenarios.ramp(at: t, from: from, by: by, start: 1, duration: duration), dt: dt)
                if !(shown >= 0 && shown < 360) { worst = .infinity }
                if let p = previous {
                    worst = Swift.max(worst, -direction * shortestDegrees(from: p, to: shown))
                }
                // Position along the turn, measured the short way from the start: must stay in [0, |by|].
                let along = direction * shortestDegrees(from: wrapDegrees360(from), to: shown)
                worst = Swift.max(worst, -along, along - abs(by))
                previous = shown
                last = shown
            }
            let settled = abs(shortestDegrees(from: wrapDegrees360(from + by), to: last)) <= SmoothingScenarios.settleTolerance
            if worst > 1e-6 || !settled { result.failures += 1 }
            result.worstViolation = Swift.max(result.worstViolation, worst)
        }
        return result
    }

    /// Length (s) of the pieces a still stretch is cut into for `recordedJitter`.
    public static let jitterChunk = 5.0

    /// RMS (degrees) of the display during the still stretches of the real recordings, fed at the display rate
    /// with the latest raw heading (as the tracker's loop does). Each stretch is cut into 5 s pieces and a
    /// straight line is fitted to each: the residual is jitter, the line is the slow drift of the fused
    /// heading itself (the filter still pulling towards the magnetometer), which no display smoother should
    /// hide. Pieces with any invalid tick are skipped, so a hold-and-catch-up does not count as jitter.
    /// With `detrend == false` the residual is about each piece's mean instead, drift included.
    public static func recordedJitter(_ settings: HeadingSmoother.Settings?, rateHz: Double,
                                      recordings: [RecordedHeadings], detrend: Bool = true) -> Double {
        let dt = 1 / rateHz
        var total = 0.0
        var count = 0
        for recording in recordings {
            guard let end = recording.times.last else { continue }
            // The display, tick by tick, over the whole recording.
            var follower = Follower(settings)
            var shown: [DisplayedHeading] = []
            shown.reserveCapacity(Int(end * rateHz) + 2)
            var index = 0
            var k = 0
            while Double(k) * dt <= end {
                let t = Double(k) * dt
                while index + 1 < recording.times.count && recording.times[index + 1] <= t { index += 1 }
                let raw = recording.headings[index]
                var d = follower.step(reading: raw, dt: dt)
                if !raw.isValid { d.isLive = false }
                shown.append(d)
                k += 1
            }
            for window in recording.stillWindows {
                var chunkStart = window.start
                while chunkStart + jitterChunk / 2 <= window.end {
                    let chunkEnd = Swift.min(window.end, chunkStart + jitterChunk)
                    let first = Int((chunkStart * rateHz).rounded(.up))
                    let last = Swift.min(shown.count - 1, Int((chunkEnd * rateHz).rounded(.down)))
                    chunkStart += jitterChunk
                    guard last > first + 2, shown[first...last].allSatisfy({ $0.isLive }) else { continue }
                    let (sumSquares, n) = residualSquares(shown[first...last].map(\.degrees), dt: dt, detrend: detrend)
                    total += sumSquares
                    count += n
                }
            }
        }
        return count > 0 ? (total / Double(count)).squareRoot() : .nan
    }

    /// Sum of squared residuals (degrees²) of headings about their least-squares line (or their mean), and
    /// their count.
    static func residualSquares(_ headings: [Double], dt: Double, detrend: Bool) -> (Double, Int) {
        guard let reference = headings.first else { return (0, 0) }
        // Offsets from the first value, the short way, so a stretch across north is one straight line.
        let y = headings.map { shortestDegrees(from: reference, to: $0) }
        let n = Double(y.count)
        let meanT = (n - 1) / 2 * dt
        let meanY = y.reduce(0, +) / n
        var stt = 0.0, sty = 0.0
        for (i, v) in y.enumerated() {
            let dtI = Double(i) * dt - meanT
            stt += dtI * dtI
            sty += dtI * (v - meanY)
        }
        let slope = detrend && stt > 0 ? sty / stt : 0
        var squares = 0.0
        for (i, v) in y.enumerated() {
            let r = v - meanY - slope * (Double(i) * dt - meanT)
            squares += r * r
        }
        return (squares, y.count)
    }

    // MARK: Reports

    public static func table(_ rows: [Row]) -> String {
        let headers = ["smoother", "rate Hz", "settle s", "lag@60°/s °", "jitter 1° noise °", "jitter recorded °", "wrap"]
        var cells: [[String]] = []
        for r in rows {
            cells.append([
                r.smoother, fixed(r.rateHz, 0), fixed(r.settlingTime, 3), fixed(r.steadyTurnLag, 2),
                fixed(r.restJitter, 3), r.recordedJitter.map { fixed($0, 3) } ?? "-",
                r.wrap.passed ? "pass \(r.wrap.cases)/\(r.wrap.cases)" : "FAIL \(r.wrap.failures)/\(r.wrap.cases) (\(fixed(r.wrap.worstViolation, 2))°)",
            ])
        }
        var widths = headers.map { $0.count }
        for row in cells { for (i, c) in row.enumerated() { widths[i] = Swift.max(widths[i], c.count) } }
        func line(_ row: [String]) -> String {
            var s = ""
            for (i, c) in row.enumerated() {
                let pad = String(repeating: " ", count: widths[i] - c.count)
                s += i == 0 ? c + pad : "  " + pad + c
            }
            return s
        }
        var out = line(headers) + "\n"
        out += String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1)) + "\n"
        for row in cells { out += line(row) + "\n" }
        out += """
            settle: s from the start of a 90° turn made in 0.3 s until the display stays within 2° (interpolated).
            lag: mean degrees behind a steady 60 °/s turn. jitter: RMS degrees at rest, with 1° RMS white noise on
            every raw tick, and on 5 s pieces of the recordings' still stretches about a fitted line (slow drift of
            the fused heading removed; pieces with invalid ticks skipped).
            wrap: turns and jumps across north both ways; the display never moves against the turn or off its arc.

            """
        return out
    }

    public static func json(_ rows: [Row], recordings: [RecordedHeadings]) -> String {
        JSONOutput.object { o in
            o.add("recordings", .array(.inline, recordings.map { .string($0.name) }))
            o.add("rows", .array(rows.map { r in
                .object(.inline) { row in
                    row.add("smoother", .string(r.smoother))
                    row.add("rate_hz", .number(r.rateHz, digits: 0))
                    row.add("settle_s", .number(r.settlingTime, digits: 4))
                    row.add("settle_after_turn_end_s", .number(r.settlingTime - SmoothingScenarios.turnDuration, digits: 4))
                    row.add("lag_60dps_deg", .number(r.steadyTurnLag, digits: 3))
                    row.add("jitter_noise1_deg", .number(r.restJitter, digits: 4))
                    row.add("jitter_recorded_deg", .number(r.recordedJitter, digits: 4))
                    row.add("spread_recorded_with_drift_deg", .number(r.recordedSpread, digits: 4))
                    row.add("wrap_cases", .integer(r.wrap.cases))
                    row.add("wrap_failures", .integer(r.wrap.failures))
                    row.add("wrap_worst_violation_deg", .number(r.wrap.worstViolation, digits: 4))
                }
            }))
        }.text() + "\n"
    }
}

/// A smoother, or the raw heading passed straight through when `settings` is nil.
struct Follower {
    var smoother: HeadingSmoother?
    var rawOutput = DisplayedHeading(degrees: 0, isLive: false, hasValue: false)

    init(_ settings: HeadingSmoother.Settings?) { smoother = settings.map { HeadingSmoother(settings: $0) } }

    mutating func step(reading: HeadingReading, dt: Double) -> DisplayedHeading {
        if smoother != nil { return smoother!.step(raw: reading, dt: dt) }
        if reading.isValid && reading.degrees.isFinite {
            rawOutput = DisplayedHeading(degrees: wrapDegrees360(reading.degrees), isLive: true, hasValue: true)
        } else {
            rawOutput.isLive = false
            rawOutput.reason = reading.validity
        }
        return rawOutput
    }

    /// Valid raw heading in degrees (any range) -> displayed degrees.
    mutating func step(raw: Double, dt: Double) -> Double {
        step(reading: HeadingReading(degrees: wrapDegrees360(raw), validity: .valid), dt: dt).degrees
    }
}
