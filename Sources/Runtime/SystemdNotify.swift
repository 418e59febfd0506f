#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The sd_notify protocol without libsystemd: one datagram with the state string, sent to the AF_UNIX
/// socket named by $NOTIFY_SOCKET ("@" prefix = abstract namespace). Silent when not run by systemd.
public enum SystemdNotify {
    /// Sends `state` (e.g. "READY=1"). Returns false when there is no socket or the send failed.
    @discardableResult
    public static func send(_ state: String, socketPath: String? = nil) -> Bool {
        guard let path = socketPath ?? environment("NOTIFY_SOCKET"), !path.isEmpty else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if fd < 0 { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard pathBytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in pathBytes.enumerated() { raw[i] = b }
        }
        // For an abstract socket the address length covers exactly the name, with no trailing NUL.
        let length = MemoryLayout<sa_family_t>.size + pathBytes.count + (abstract ? 0 : 1)
        var message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                // MSG_DONTWAIT: a manager whose queue is full must not block the loop (the next ping follows).
                sendto(fd, &message, message.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), sa, socklen_t(length))
            }
        }
        return sent == message.count
    }

    /// Whether $NOTIFY_SOCKET names a socket (run by systemd with Type=notify): callers skip building
    /// status texts otherwise.
    public static var available: Bool { environment("NOTIFY_SOCKET").map { !$0.isEmpty } ?? false }

    public static func ready(status: String) { send("READY=1\nSTATUS=\(status)") }
    public static func watchdog() { send("WATCHDOG=1") }
    public static func stopping() { send("STOPPING=1") }

    /// Half of $WATCHDOG_USEC in seconds (systemd's recommendation), or nil when no watchdog is set
    /// or it is meant for another process ($WATCHDOG_PID).
    public static var watchdogInterval: Double? {
        guard let usec = environment("WATCHDOG_USEC").flatMap({ Double($0) }), usec > 0 else { return nil }
        if let pid = environment("WATCHDOG_PID").flatMap({ Int32($0) }), pid != getpid() { return nil }
        return usec / 2e6
    }

    static func environment(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }
}
