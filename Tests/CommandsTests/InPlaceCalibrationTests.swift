#if canImport(Glibc)
import Glibc
#endif
import Runtime
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

    @Test func theBusLockIsExclusiveAndFreedOnRelease() throws {
        let path = "/tmp/headtrack-test-\(UInt32.random(in: 0...UInt32.max))-bus"
        try FileIO.writeAtomically(path, [0])
        defer { unlink(path) }
        guard case let .held(first) = BusLock.take(path) else { Issue.record("first lock not taken"); return }
        guard case .busy = BusLock.take(path) else { Issue.record("second lock must see the first"); return }
        // calibrate on a bus someone holds refuses instead of reading the sensors alongside them.
        var args = ["calibrate", "--i2c", path, "--out", path + ".json"]
        #expect(HeadtrackCommand.run(&args) == 1)
        #expect(!FileIO.exists(path + ".json"))
        first.release()
        guard case let .held(again) = BusLock.take(path) else { Issue.record("lock not freed"); return }
        again.release()
        #expect(BusLock.take("/nonexistent/i2c-9").isUnavailable)
    }
}

extension BusLock.Outcome {
    var isUnavailable: Bool { if case .unavailable = self { return true } else { return false } }
}
