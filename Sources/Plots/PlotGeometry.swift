import LibC
import Formats

/// A linear map from data values to pixels.
struct PlotAxis {
    var low: Double
    var high: Double
    var pixelLow: Double
    var pixelHigh: Double

    func pixel(_ v: Double) -> Double {
        guard high > low else { return pixelLow }
        return pixelLow + (v - low) / (high - low) * (pixelHigh - pixelLow)
    }

    /// More ticks than pixels can ever be drawn apart; a count above this means degenerate input.
    static let maxTicks = 10_000.0

    /// Tick values at a 1-2-5 step with at least `minSpacing` pixels between neighbours.
    func ticks(minSpacing: Double) -> [Double] {
        let span = high - low
        let pixels = abs(pixelHigh - pixelLow)
        // An infinite span (±1e308 overflows high − low) made the step 1 and the loop below run for ever.
        guard span > 0, span.isFinite, pixels > 0, pixels.isFinite else { return low.isFinite ? [low] : [] }
        let step = PlotAxis.niceStep(atLeast: span * minSpacing / pixels)
        // Tick k is first + k × step, counted, not accumulated: at 1e308 adding the step can round to nothing.
        let first = (low / step).rounded(.up)
        let count = ((high + step * 1e-9) / step).rounded(.down) - first + 1
        guard count.isFinite, count >= 0, count <= PlotAxis.maxTicks else { return [low, high] }
        var values: [Double] = []
        for k in 0..<Int(count) {
            let v = (first + Double(k)) * step
            values.append(abs(v) < step * 1e-9 ? 0 : v)
        }
        return values
    }

    /// The smallest 1, 2 or 5 × 10^k that is ≥ `minimum`.
    static func niceStep(atLeast minimum: Double) -> Double {
        guard minimum > 0, minimum.isFinite else { return 1 }
        let magnitude = pow(10, (log10(minimum)).rounded(.down))
        for m in [1.0, 2, 5, 10] where m * magnitude >= minimum * (1 - 1e-12) { return m * magnitude }
        return 10 * magnitude
    }

    /// Tick label with only as many decimals as the step needs.
    static func label(_ v: Double, step: Double) -> String {
        var digits = 0
        var s = step
        while digits < 6 && abs(s - s.rounded()) > 1e-9 * Swift.max(1, abs(s)) { s *= 10; digits += 1 }
        return fixed(v, digits)
    }

    /// `v` with at most one decimal and no trailing zero ("30", "11.5").
    static func shortLabel(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? fixed(v, 0) : fixed(v, 1)
    }

    /// A symmetric range ±(a nice value) that holds every finite value of `series` and `atLeast`.
    static func symmetricRange(_ series: [[Double]], atLeast: Double) -> Double {
        var m = atLeast
        // Values beyond 1e300 are clamped, so ±range and its span (2 × range) stay finite.
        for s in series { for v in s where v.isFinite { m = Swift.max(m, Swift.min(abs(v), 1e300)) } }
        let step = niceStep(atLeast: m / 4)
        return (m / step).rounded(.up) * step
    }
}

/// Turns a series into SVG path data, at most a few points per pixel column: each column keeps its first,
/// lowest, highest and last sample, in time order, so peaks survive (a gesture spike of one sample still
/// shows) while a 20-minute recording at 285 Hz stays a small file.
struct DecimatedPath {
    /// `circular`: a jump of more than 180 between neighbours is a wrap (0/360 for a heading, ±180 for roll)
    /// and breaks the line instead of drawing a vertical stroke across the panel.
    static func build(time: [Double], values: [Double], x: PlotAxis, y: PlotAxis, circular: Bool = false) -> String {
        var d = ""
        let count = Swift.min(time.count, values.count)
        var penDown = false
        var column = Int.min
        // Indices of the current column's first, min, max and last samples.
        var first = -1, lowest = -1, highest = -1, last = -1

        func flush() {
            guard first >= 0 else { return }
            var picks = [first, lowest, highest, last]
            picks.sort()
            var previous = -1
            for i in picks where i != previous {
                previous = i
                d += (penDown ? "L" : "M") + fixed(x.pixel(time[i]), 1) + " " + fixed(y.pixel(values[i]), 1)
                penDown = true
            }
            first = -1
        }

        for i in 0..<count {
            let v = values[i]
            let t = time[i]
            guard v.isFinite, t.isFinite else {
                flush(); penDown = false; continue
            }
            if circular, i > 0, values[i - 1].isFinite, abs(v - values[i - 1]) > 180 {
                flush(); penDown = false
            }
            // Clamped before the Int conversion: a time far outside the axis must not trap.
            let c = Int(Swift.min(Swift.max(x.pixel(t), -1e9), 1e9).rounded(.down))
            if c != column || first < 0 {
                flush()
                column = c
                first = i; lowest = i; highest = i; last = i
            } else {
                if v < values[lowest] { lowest = i }
                if v > values[highest] { highest = i }
                last = i
            }
        }
        flush()
        return d
    }
}

/// Stretches of time where a per-row condition holds, merged when closer than `mergeGap` seconds, each
/// lasting until the next row (sample-and-hold).
func timeSpans(time: [Double], count: Int, mergeGap: Double, where condition: (Int) -> Bool) -> [(Double, Double)] {
    var spans: [(Double, Double)] = []
    var start: Double? = nil
    for i in 0..<count {
        let on = condition(i)
        if on && start == nil { start = time[i] }
        if !on, let s = start {
            if let lastSpan = spans.last, s - lastSpan.1 < mergeGap {
                spans[spans.count - 1].1 = time[i]
            } else {
                spans.append((s, time[i]))
            }
            start = nil
        }
    }
    if let s = start, let end = time.last {
        let close = count > 1 ? end + (time[count - 1] - time[count - 2]) : end
        if let lastSpan = spans.last, s - lastSpan.1 < mergeGap {
            spans[spans.count - 1].1 = close
        } else {
            spans.append((s, close))
        }
    }
    return spans
}
