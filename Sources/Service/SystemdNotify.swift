import LibC

/// The sd_notify protocol without libsystemd: one datagram with the state string, sent to the AF_UNIX
/// socket named by $NOTIFY_SOCKET ("@" prefix = abstract namespace). Silent when not run by systemd.
public enum SystemdNotify {
    /// Sends `state` (e.g. "READY=1") on a socket opened for this one call. Returns false when there is no
    /// socket or the send failed. The loop keeps a `SystemdNotifier` open instead.
    @discardableResult
    public static func send(_ state: String, socketPath: String? = nil) -> Bool {
        guard let notifier = SystemdNotifier(socketPath: socketPath) else { return false }
        defer { notifier.close() }
        return notifier.send(state)
    }

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

/// The notify socket opened once, for the loop thread: a watchdog ping is then one non-blocking sendto() of a
/// static string, with no getenv, socket() or heap allocation while the loop runs.
public struct SystemdNotifier {
    private let fd: Int32
    private let address: sockaddr_un
    private let length: socklen_t

    /// Opens a datagram socket for $NOTIFY_SOCKET (or `socketPath`); nil when there is none (not run by
    /// systemd), the name does not fit an AF_UNIX address, or no socket can be made.
    public init?(socketPath: String? = nil) {
        guard let path = socketPath ?? SystemdNotify.environment("NOTIFY_SOCKET"), !path.isEmpty else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var pathBytes = Array(path.utf8)
        let abstract = pathBytes.first == UInt8(ascii: "@")
        if abstract { pathBytes[0] = 0 }
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in pathBytes.enumerated() { raw[i] = b }
        }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.address = address
        // For an abstract socket the address length covers exactly the name, with no trailing NUL.
        length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (abstract ? 0 : 1))
    }

    /// Sends `state` as one datagram. Returns false when the send failed.
    @discardableResult
    public func send(_ state: String) -> Bool {
        var message = state
        return message.withUTF8 { send(UnsafeRawBufferPointer($0)) }
    }

    /// "WATCHDOG=1", without building a string.
    @discardableResult
    public func watchdog() -> Bool {
        let ping: StaticString = "WATCHDOG=1"
        return ping.withUTF8Buffer { send(UnsafeRawBufferPointer($0)) }
    }

    private func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let sent = withUnsafePointer(to: address) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) { sa in
                // MSG_DONTWAIT: a manager whose queue is full must not block the loop (the next ping follows).
                sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT), sa, length)
            }
        }
        return sent == bytes.count
    }

    public func close() { closeDescriptor(fd) }
}

/// `close(2)`, under a name the struct's own `close()` does not hide.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }
