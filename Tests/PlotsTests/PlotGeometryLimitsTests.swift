import Testing
@testable import Plots

/// Plot axes stay finite and small for any finite data (a gyro value of 1e308 once made the
/// symmetric range ±1e308, its span infinite, the tick step 1 and the tick loop endless: 17 GB, then abort).
@Suite struct PlotGeometryLimitsTests {
    @Test func symmetricRangeOfHugeValuesStaysFinite() {
        let r = PlotAxis.symmetricRange([[0, 1e308, -3]], atLeast: 60)
        #expect(r.isFinite && r >= 1e300)
        #expect((2 * r).isFinite)
    }

    @Test(arguments: [(-1e308, 1e308), (-Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude),
                      (1e15, 1e15 + 1), (0, 1e-300), (-5, 5)] as [(Double, Double)])
    func ticksAreFewAndInsideTheAxis(low: Double, high: Double) {
        let axis = PlotAxis(low: low, high: high, pixelLow: 0, pixelHigh: 400)
        let ticks = axis.ticks(minSpacing: 40)
        #expect(!ticks.isEmpty && Double(ticks.count) <= PlotAxis.maxTicks)
        #expect(ticks.allSatisfy { $0.isFinite })
        #expect(ticks.allSatisfy { $0 >= low - abs(low) * 1e-9 && $0 <= high + abs(high) * 1e-9 })
    }

    @Test func ordinaryAxesKeepTheirNiceTicks() {
        // 180 over 300 px with 40 px apart: at least 24 per tick, so the 1-2-5 step is 50.
        #expect(PlotAxis(low: -90, high: 90, pixelLow: 300, pixelHigh: 0).ticks(minSpacing: 40) == [-50, 0, 50])
        // 10 over 500 px: at least 0.8, step 1, both ends included.
        #expect(PlotAxis(low: 0, high: 10, pixelLow: 0, pixelHigh: 500).ticks(minSpacing: 40) == (0...10).map(Double.init))
    }

    @Test func plotOfHugeRatesRendersSmall() {
        var data = PlotData(title: "huge")
        for k in 0..<120 {
            data.append(t: Double(k) / 60, rawHeading: 10, smoothedHeading: 10, roll: 0, pitch: 0,
                        nodRate: k == 60 ? 1e308 : 0, shakeRate: k == 61 ? -1e308 : 0, ledMask: 0)
        }
        let svg = SVGPlot.render(data)
        #expect(svg.hasSuffix("</svg>\n"))
        #expect(svg.utf8.count < 2_000_000)
    }
}
