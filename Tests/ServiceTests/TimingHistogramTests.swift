import Service
import Testing

@Suite struct TimingHistogramTests {
    @Test func percentilesAreWithinTheBucketResolution() {
        var h = TimingHistogram()
        for v in 1...100_000 { h.record(Int64(v) * 10) }  // 10 ns ... 1 ms, uniform
        #expect(h.count == 100_000)
        #expect(h.minimum == 10)
        #expect(h.maximum == 1_000_000)
        for (p, truth) in [(0.5, 500_000.0), (0.99, 990_000.0), (0.999, 999_000.0)] {
            let v = Double(h.percentile(p))
            #expect(abs(v - truth) / truth < 1.0 / 16, "p\(p): \(v) vs \(truth)")
        }
        #expect(h.percentile(1) == 1_000_000)
    }

    @Test func smallValuesAreExactAndNegativeOnesCountAsZero() {
        var h = TimingHistogram()
        for v in [-5, 0, 3, 3, 7] as [Int64] { h.record(v) }
        #expect(h.percentile(0.2) == 0)
        #expect(h.percentile(0.6) == 3)
        #expect(h.percentile(1) == 7)
        #expect(h.mean == Double(0 + 0 + 3 + 3 + 7) / 5)
    }
}
