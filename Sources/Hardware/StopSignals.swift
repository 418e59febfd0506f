import CLinux
import LibC

/// SIGINT and SIGTERM as a flag the loop polls: the C handlers only set it (async-signal-safe), so a stop
/// ends the loop at its next deadline, with the LEDs switched off and the files closed by the normal path.
public enum StopSignals {
    public static func install() { ht_install_stop_handlers() }
    /// Also SIGHUP (the ssh session dropped) into the flag, and SIGPIPE ignored (writes to a terminal that is
    /// gone), for work that must finish its clean-up: `calibrate --restart-service` starts the service again.
    public static func installHangup() { ht_install_hangup_handlers() }
    /// Everything a command that serves the socket or writes files needs, installed before it creates anything
    /// (`HeadtrackCommand.main`): INT, TERM and HUP into the flag, PIPE ignored, and a write to a closed
    /// standard output or error (`run … | head`) a stop too (`Console`), so every way out is the clean one:
    /// LEDs off, the socket and its lock removed, no `*.tmp-PID` left.
    public static func installForCleanStop() {
        install()
        installHangup()
        brokenOutputStops = true
    }
    /// Whether a write to a closed pipe on standard output or error stops the command (set with the handlers).
    nonisolated(unsafe) public private(set) static var brokenOutputStops = false
    /// Sets the flag as if `signal` had arrived.
    public static func request(_ signal: Int32) { ht_request_stop(signal) }
    /// True once SIGINT or SIGTERM (or, when installed, SIGHUP) arrived, or a stop was requested.
    public static var requested: Bool { ht_stop_requested() != 0 }
    /// What stopped it, for messages: "SIGTERM", or "a closed output" for a broken pipe.
    public static var cause: String {
        switch ht_stop_requested() {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGPIPE: return "a closed output"
        case let n: return "signal \(n)"
        }
    }
}
