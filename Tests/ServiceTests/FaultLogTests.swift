import Testing
@testable import Service

/// `run` logs one line when a fault episode begins and one when it ends, not one per failing sample.
@Suite struct FaultLogTests {
    /// A sensor reseated and held in reset for 3 s (what the real-OS suite does to i2c-stub): the loop finds it
    /// reset at every 10 Hz health check and re-initialises it each time; the journal gets one line when that
    /// begins and one when it is over, not thirty.
    @Test func aChipThatStaysResetIsOneEpisodeInTheJournal() {
        var log = FaultLog()
        var lines: [String] = []
        var display = 0.0
        for i in 0..<60 {   // health checks at 10 Hz for 6 s; the chip is reset during the first 3 s
            let t = 1 + Double(i) / 10
            if t < 4, let w = log.warning(for: .reinitialized(t: t)) { lines.append(w) }
            while display <= t {
                if let w = log.warning(for: .display(t: display, leds: 0)) { lines.append(w) }
                display += 1.0 / 60
            }
        }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("lost its configuration") == true)
        #expect(lines.last?.contains("fault over after 2.90 s; 29 more failing samples") == true, "\(lines)")
    }

    /// A loose connector: every sample fails for 1 s at 200 Hz, the display ticks at 60 Hz, then all is well.
    @Test func aSecondOfFailingSamplesIsTwoLines() {
        var log = FaultLog()
        var logged = 0
        var ended: [FaultLog.Ended] = []
        var nextTick = 0.0
        for i in 0..<400 {
            let t = Double(i) / 200
            if t < 1 && log.fault(t: t) { logged += 1 }
            while nextTick <= t {
                if let e = log.tick(t: nextTick) { ended.append(e) }
                nextTick += 1.0 / 60
            }
        }
        #expect(logged == 1)
        #expect(ended.count == 1)
        #expect(ended.first?.repeats == 199)  // 200 failing samples, the first one logged
        #expect(abs((ended.first?.duration ?? 0) - 0.995) < 1e-9)
    }

    /// Two faults further apart than the 0.5 s hold are two episodes, each logged.
    @Test func separateEpisodesAreEachLogged() {
        var log = FaultLog()
        let began1 = log.fault(t: 1.0)
        let early = log.tick(t: 1.2)
        let first = log.tick(t: 1.5)
        let began2 = log.fault(t: 3.0)
        let began3 = log.fault(t: 3.1)
        let within = log.tick(t: 3.5)  // 0.4 s after the last failing sample: still the same episode
        let second = log.tick(t: 3.7)
        #expect(began1)
        #expect(early == nil)
        #expect(first == FaultLog.Ended(repeats: 0, duration: 0))
        #expect(began2)
        #expect(!began3)
        #expect(within == nil)
        #expect(second?.repeats == 1)
        #expect(abs((second?.duration ?? -1) - 0.1) < 1e-9)
    }
}
