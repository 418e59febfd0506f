import LibC
import Hardware

/// Whether another process holds the bus: `LinuxI2CBus` takes an exclusive POSIX lock on the device when it
/// opens it (so `run` holds it for its whole life) and names the holder. Opening and closing again here only
/// asks; the lock goes with the closed descriptor.
func busHeldElsewhere(_ device: String) -> Bool {
    do {
        _ = try LinuxI2CBus(path: device)
        return false
    } catch {
        if case .busInUse = error { return true }
        return false
    }
}

/// The systemd unit that runs `headtrack run` on a board, driven through `systemctl`.
struct ServiceControl {
    var unit: String

    /// `systemctl is-active --quiet UNIT`: false too when there is no systemd (a laptop).
    var isActive: Bool { ServiceControl.run(["systemctl", "is-active", "--quiet", unit], quiet: true) == 0 }

    func stop() throws {
        let status = ServiceControl.run(["systemctl", "stop", unit], quiet: false)
        guard status == 0 else { throw CommandError("could not stop \(unit) (systemctl exit \(status)); nothing changed") }
    }

    func start() -> Bool { ServiceControl.run(["systemctl", "start", unit], quiet: false) == 0 }

    static func run(_ argv: [String], quiet: Bool) -> Int32 {
        ChildProcess.run(argv, quiet: quiet)
    }
}

/// The account the service runs as (`User=` in board/headtrack.service). `calibrate --restart-service` reads
/// the sensors and writes the calibration as this user — effective ids only, so it can still start the
/// service again as root afterwards — and the file ends up owned exactly as the daemon expects.
struct ServiceUser {
    var name: String
    var uid: uid_t
    var gid: gid_t

    static func lookup(_ name: String) -> ServiceUser? {
        guard let pw = getpwnam(name) else { return nil }
        return ServiceUser(name: name, uid: pw.pointee.pw_uid, gid: pw.pointee.pw_gid)
    }

    /// Takes the user's groups (i2c, gpio...) and effective uid/gid.
    func become() throws {
        guard initgroups(name, gid) == 0, setegid(gid) == 0, seteuid(uid) == 0 else {
            let e = errno
            ServiceUser.becomeRootAgain()
            throw CommandError("could not switch to user \(name): \(String(cString: strerror(e)))")
        }
    }

    static func becomeRootAgain() {
        _ = seteuid(0)
        _ = setegid(0)
        _ = setgroups(0, nil)
    }
}

/// What `headtrack calibrate` does on a board, given who holds the sensors. Pure, so the decisions are tested
/// without a board.
enum InPlacePlan: Equatable {
    /// Nothing else reads the sensors: calibrate now.
    case calibrate
    /// Stop the service, calibrate as its user, start it again.
    case restartService
    case refuse(String)

    static func decide(busBusy: Bool, serviceActive: Bool, restartRequested: Bool, isRoot: Bool,
                       unit: String, device: String, out: String, program: String = "headtrack",
                       step: String = "calibrate") -> InPlacePlan {
        if !busBusy && !serviceActive { return .calibrate }
        if !serviceActive {
            return .refuse("another process holds \(device) (a 'headtrack run' in another terminal?): stop it, then calibrate again")
        }
        guard restartRequested else {
            return .refuse("the \(unit) service is running and reads the sensors on \(device). Let calibrate stop it, calibrate and start it again:\n"
                + "  sudo \(program) \(step) --restart-service\n"
                + "or do it by hand: sudo systemctl stop \(unit); sudo -u headtrack \(program) \(step) --out \(out); sudo systemctl start \(unit)")
        }
        guard isRoot else {
            return .refuse("--restart-service stops and starts \(unit), which needs root: run it with sudo")
        }
        return .restartService
    }
}
