#if canImport(Glibc)
import Glibc
#endif
import Service
import Testing
@testable import Commands

/// Calibrating on a board where the service already reads the sensors.
@Suite struct InPlaceCalibrationTests {
    func decide(busy: Bool, active: Bool, restart: Bool, root: Bool) -> InPlacePlan {
        InPlacePlan.decide(busBusy: busy, serviceActive: active, restartRequested: restart, isRoot: root,
                           unit: "headtrack", device: "/dev/i2c-1", out: "/var/lib/headtrack/calibration.json")
    }

    @Test func theRunningServiceIsNamedWithTheCommandThatHandlesIt() {
        #expect(decide(busy: false, active: false, restart: false, root: false) == .calibrate)
        #expect(decide(busy: false, active: false, restart: true, root: true) == .calibrate, "nothing to stop, nothing to start")
        guard case let .refuse(message) = decide(busy: true, active: true, restart: false, root: true) else {
            Issue.record("a running service must not be fought for the bus"); return
        }
        #expect(message.contains("service is running"))
        #expect(message.contains("sudo headtrack calibrate --restart-service"))
        #expect(message.contains("systemctl stop headtrack"))
        guard case let .refuse(rootMessage) = decide(busy: true, active: true, restart: true, root: false) else {
            Issue.record("stopping a service needs root"); return
        }
        #expect(rootMessage.contains("sudo"))
        #expect(decide(busy: true, active: true, restart: true, root: true) == .restartService)
        // Active but the old binary takes no lock: still the service's bus.
        #expect(decide(busy: false, active: true, restart: true, root: true) == .restartService)
        guard case let .refuse(other) = decide(busy: true, active: false, restart: true, root: true) else {
            Issue.record("someone else's lock must not be broken"); return
        }
        #expect(other.contains("another process"))
    }
}
