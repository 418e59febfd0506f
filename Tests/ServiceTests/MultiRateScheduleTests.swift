import Hardware
import Service
import Simulation
import Testing

/// The scheduler's arithmetic on a virtual clock: absolute deadlines, the overrun policy (skip whole
/// missed periods, count them, never serve them in a burst) and several rates from one schedule.
@Suite struct MultiRateScheduleTests {
    @Test func deadlinesNeverDriftOverAMillionPeriods() {
        let origin: Nanoseconds = 123_456_789
        let period: Nanoseconds = 1_000_000
        var schedule = MultiRateSchedule(periods: [period], origin: origin)
        let clock = VirtualClock(start: origin)
        var random = SeededRandom(seed: 7)
        var offGrid = 0
        for k in 0..<1_000_000 {
            let deadline = schedule.nextDeadline
            clock.sleep(until: deadline)
            // Wake up late by anything up to 90 % of a period: jitter must not move later deadlines.
            clock.sleep(until: deadline + Nanoseconds(random.uniform() * 0.9 * Double(period)))
            let firing = schedule.fire(now: clock.now())
            if deadline != origin + Nanoseconds(k) * period || firing.mask != 1 || firing.dueTime(0) != deadline { offGrid += 1 }
        }
        #expect(offGrid == 0)
        #expect(schedule.stages[0].next == origin + 1_000_000 * period)
        #expect(schedule.stages[0].fired == 1_000_000)
        #expect(schedule.stages[0].skipped == 0)
    }

    @Test func aLateWakeUpSkipsTheMissedPeriodsAndCountsThem() {
        let period: Nanoseconds = 5_000_000
        var schedule = MultiRateSchedule(periods: [period], origin: 0)
        #expect(schedule.fire(now: 0).mask == 1)
        // The deadline at 5 ms is served 3.5 periods late, at 22.5 ms: 10, 15 and 20 ms have passed too.
        let late = schedule.fire(now: 22_500_000)
        #expect(late.mask == 1)
        #expect(late.dueTime(0) == 5_000_000)
        #expect(schedule.stages[0].fired == 2)  // served once, not in a burst
        #expect(schedule.stages[0].skipped == 3)
        #expect(schedule.nextDeadline == 25_000_000)  // back on the original grid
        #expect(schedule.fire(now: 24_999_999).mask == 0)
        #expect(schedule.fire(now: 25_000_000).mask == 1)
        #expect(schedule.stages[0].skipped == 3)
    }

    @Test func wakingExactlyOnePeriodLateSkipsTheDeadlineThatIsDueNow() {
        let period: Nanoseconds = 1_000_000
        var schedule = MultiRateSchedule(periods: [period], origin: 0)
        _ = schedule.fire(now: 0)
        // Serving 1 ms at 2 ms and then 2 ms straight away would be a burst of two: 2 ms is skipped.
        #expect(schedule.fire(now: 2_000_000).dueTime(0) == 1_000_000)
        #expect(schedule.stages[0].skipped == 1)
        #expect(schedule.nextDeadline == 3_000_000)
    }

    @Test func eachStageFiresAtItsOwnRate() {
        // IMU 200 Hz, magnetometer 100 Hz, display 60 Hz (period rounded to whole ns), health 10 Hz, for 10 s.
        let periods: [Nanoseconds] = [5_000_000, 10_000_000, 16_666_667, 100_000_000]
        var schedule = MultiRateSchedule(periods: periods, origin: 0)
        let clock = VirtualClock()
        var counts = [0, 0, 0, 0]
        let end: Nanoseconds = 10_000_000_000
        while schedule.nextDeadline < end {
            clock.sleep(until: schedule.nextDeadline)
            let firing = schedule.fire(now: clock.now())
            for i in 0..<4 where firing.fired(i) {
                counts[i] += 1
                #expect(firing.dueTime(i) % periods[i] == 0)  // every firing lands on its own grid
                #expect(firing.dueTime(i) == clock.now())  // and exactly on time on a virtual clock
            }
        }
        #expect(counts == [2000, 1000, 600, 100])
        #expect(schedule.stages.allSatisfy { $0.skipped == 0 })
    }
}
