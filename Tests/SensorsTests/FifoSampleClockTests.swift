import Hardware
import Sensors
import Testing

/// The sensor-clock time line on its own: exact spacing, and corrections only when the host's FIFO
/// observations prove the stamps impossible.
@Suite struct FifoSampleClockTests {
    let period: Nanoseconds = 5_000_000

    @Test func stampsAreSpacedByExactlyOnePeriod() {
        var c = FifoSampleClock(period: period, firstSampleAt: 1_000_000_000)
        var stamps: [Nanoseconds] = []
        for _ in 0..<1000 { stamps.append(c.stampNext()) }
        #expect(stamps.first == 1_000_000_000)
        #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $1 - $0 == period })
    }

    @Test func consistentObservationsChangeNothing() {
        var c = FifoSampleClock(period: period, firstSampleAt: 10_000_000)
        // At 23 ms the samples at 10, 15 and 20 ms exist, the one at 25 ms does not.
        c.observe(available: 3, before: 23_000_000, after: 23_000_000)
        #expect(c.adjustments == 0)
        #expect(c.stampNext() == 10_000_000)
    }

    @Test func aSampleStampedInTheFutureMovesTheLineBack() {
        var c = FifoSampleClock(period: period, firstSampleAt: 12_000_000)  // truth: 10 ms
        // Read at 20.5 ms: three samples (10, 15, 20 ms) — so the third cannot be stamped 22 ms.
        c.observe(available: 3, before: 20_500_000, after: 20_500_000)
        #expect(c.adjustments == 1)
        #expect(c.time(ofSample: 2) == 20_500_000)
        #expect(c.time(ofSample: 2) - c.time(ofSample: 1) == period)
    }

    @Test func aMissingSampleMovesTheLineForward() {
        var c = FifoSampleClock(period: period, firstSampleAt: 8_000_000)  // truth: 10 ms
        // At 14 ms only one sample exists (10 ms): a second one stamped 13 ms would already be there.
        c.observe(available: 1, before: 14_000_000, after: 14_000_000)
        #expect(c.adjustments == 1)
        #expect(c.time(ofSample: 1) > 14_000_000)
    }

    @Test func aSlowSensorClockIsFollowedWithoutGoingBackwards() {
        // The sensor's oscillator runs 0.5 % slow: its true period is 5.025 ms.
        let truePeriod = 5_025_000.0
        var c = FifoSampleClock(period: period, firstSampleAt: 5_025_000)
        var produced: Int64 = 0
        var last = Nanoseconds.min
        var worst: Nanoseconds = 0
        for wake in 1...20_000 {
            let host = Nanoseconds(wake) * 1_000_000  // drained every 1 ms for 20 s
            let exist = Int64(Double(host) / truePeriod)  // samples 1...exist have been taken
            c.observe(available: Int(exist - produced), before: host, after: host)
            while produced < exist {
                produced += 1
                let stamp = c.stampNext()
                #expect(stamp > last)
                last = stamp
                worst = max(worst, abs(stamp - Nanoseconds(Double(produced) * truePeriod)))
            }
        }
        #expect(produced > 3900)
        #expect(worst < period)  // 0.5 % over 20 s would be 100 ms adrift without the bounds
        #expect(c.adjustments > 0)
    }
}
