import Testing
@testable import Simulation

/// The simulated clock never traps on extreme speeds or delays (once: `demo --speed 1e-15`).
@Suite struct VirtualClockTests {
    @Test func realDeadlinesSaturateInsteadOfOverflowing() {
        // 20 s of story at 1e-15× real time is 2e16 s = 2e25 ns: far beyond Int64.
        #expect(VirtualClock.saturating(1_000, plus: 20e9 / 1e-15) == .max)
        #expect(VirtualClock.saturating(.max - 10, plus: 100) == .max)
        #expect(VirtualClock.saturating(5, plus: -1e30) == .min)
        #expect(VirtualClock.saturating(5, plus: .nan) == 5)
        #expect(VirtualClock.saturating(1_000, plus: 2_500) == 3_500)
    }

    @Test func aHugeAdvanceDoesNotTrap() {
        let clock = VirtualClock()
        clock.advance(seconds: 1e300)
        #expect(clock.now() == .max)
        clock.advance(seconds: 1)
        #expect(clock.now() == .max)
    }
}
