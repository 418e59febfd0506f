import CLinux

/// SIGINT and SIGTERM as a flag the loop polls: the C handlers only set it (async-signal-safe), so a stop
/// ends the loop at its next deadline, with the LEDs switched off and the files closed by the normal path.
public enum StopSignals {
    public static func install() { ht_install_stop_handlers() }
    /// Also SIGHUP (the ssh session dropped) into the flag, and SIGPIPE ignored (writes to a terminal that is
    /// gone), for work that must finish its clean-up: `calibrate --restart-service` starts the service again.
    public static func installHangup() { ht_install_hangup_handlers() }
    /// True once SIGINT or SIGTERM arrived.
    public static var requested: Bool { ht_stop_requested() != 0 }
}
