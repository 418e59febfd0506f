import Testing
@testable import EventStream
@testable import Service
import Sensors
import Gestures
import Tracking

/// systemd's status line follows the tracker's state and changes only when it does.
struct ServiceStatusTests {
    @Test func faultRecoveringTrackingAndLastGesture() {
        var s = ServiceStatus(device: "MPU-9250 at 0x68 + AK8963")
        #expect(s.text == "tracking with MPU-9250 at 0x68 + AK8963")
        var sent: [String] = []
        func feed(_ e: LoopEvent) { if let t = s.handle(e) { sent.append(t) } }
        for i in 0..<600 { feed(.display(t: Double(i) / 60, leds: 0)) }  // 10 s of healthy ticks: nothing to send
        #expect(sent.isEmpty)
        feed(.gesture(ReportedGesture(DetectedGesture(event: .nod, start: 9.6, swings: 4), t: 10.2, bout: 1)))
        #expect(sent.last == "tracking with MPU-9250 at 0x68 + AK8963; last gesture: nod at 10.2 s")
        for k in 0..<100 { feed(.fault(t: 11 + Double(k) * 0.005, error: .frozenData("x"))) }  // one episode, 100 samples
        #expect(sent.count == 2)
        #expect(sent.last == "sensor fault (frozen_data) on MPU-9250 at 0x68 + AK8963; last gesture: nod at 10.2 s")
        feed(.display(t: 11.6, leds: 0))  // 0.105 s after the last fault: still in the episode
        #expect(sent.count == 2)
        feed(.display(t: 12.0, leds: 0))  // 0.5 s without a fault: over
        #expect(sent.last?.hasPrefix("recovering from a sensor fault") == true)
        feed(.display(t: 13.0, leds: 0))
        #expect(sent.count == 3)
        feed(.display(t: 14.0, leds: 0))  // 2 s after the end
        #expect(sent.count == 4)
        #expect(sent.last?.hasPrefix("tracking with") == true)
        feed(.reinitialized(t: 20))
        #expect(sent.last?.hasPrefix("sensor fault (chip_reset)") == true)
    }

    @Test func faultEpisodeBeginsOnceAndEndsAfterTheHold() {
        var e = FaultEpisode()
        var seen: [Bool] = []
        seen.append(e.fault(t: 1))
        seen.append(e.fault(t: 1.1))
        seen.append(e.tick(t: 1.5))
        seen.append(e.tick(t: 1.6))
        seen.append(e.tick(t: 2))
        seen.append(e.fault(t: 3))
        #expect(seen == [true, false, false, true, false, true])
    }
}
