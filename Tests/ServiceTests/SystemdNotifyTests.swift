#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Testing
@testable import Service

/// What systemd would receive: a real AF_UNIX datagram socket plays systemd's notify socket, bound at a
/// file path or in the abstract namespace, and NOTIFY_SOCKET names it as systemd names it for a service.
/// Serialized because the tests set the process environment (NOTIFY_SOCKET, WATCHDOG_USEC, WATCHDOG_PID).
@Suite(.serialized) struct SystemdNotifyTests {
    @Test func readyWatchdogAndStoppingArriveAtAFileSocket() throws {
        let path = "/tmp/headtrack-notify-test-\(getpid()).sock"
        let listener = try NotifyListener(name: path, abstract: false)
        setenv("NOTIFY_SOCKET", path, 1)
        defer { unsetenv("NOTIFY_SOCKET") }

        // The loop's way: the socket opened once, then one datagram per call on it.
        let notifier = try #require(SystemdNotifier())
        defer { notifier.close() }
        #expect(notifier.send("READY=1\nSTATUS=tracking with MPU-9250"))
        #expect(listener.receive() == "READY=1\nSTATUS=tracking with MPU-9250")
        #expect(notifier.watchdog() && notifier.watchdog())
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(listener.receive() == "WATCHDOG=1")
        #expect(notifier.send("STOPPING=1"))
        #expect(listener.receive() == "STOPPING=1")
        #expect(listener.receive() == nil)  // exactly one datagram per call
        // A one-off message opens its own socket.
        #expect(SystemdNotify.send("STATUS=degraded"))
        #expect(listener.receive() == "STATUS=degraded")
    }

    @Test func leadingAtMeansAbstractNamespace() throws {
        let name = "headtrack-notify-test-\(getpid())"
        let listener = try NotifyListener(name: name, abstract: true)
        setenv("NOTIFY_SOCKET", "@" + name, 1)
        defer { unsetenv("NOTIFY_SOCKET") }

        let notifier = try #require(SystemdNotifier())
        defer { notifier.close() }
        notifier.send("READY=1\nSTATUS=up")
        #expect(listener.receive() == "READY=1\nSTATUS=up")
        notifier.watchdog()
        #expect(listener.receive() == "WATCHDOG=1")
    }

    @Test func silentWithoutNotifySocket() {
        unsetenv("NOTIFY_SOCKET")
        #expect(SystemdNotify.send("READY=1") == false)
        #expect(SystemdNotifier() == nil)
        // A name longer than an AF_UNIX address holds (108 bytes) is refused, not truncated to another socket.
        #expect(SystemdNotifier(socketPath: "/tmp/" + String(repeating: "n", count: 120)) == nil)
    }

    @Test func watchdogIntervalIsHalfOfWatchdogUsec() {
        defer { unsetenv("WATCHDOG_USEC"); unsetenv("WATCHDOG_PID") }
        unsetenv("WATCHDOG_USEC")
        #expect(SystemdNotify.watchdogInterval == nil)
        // WatchdogSec=5s in board/headtrack.service: systemd passes WATCHDOG_USEC=5000000.
        setenv("WATCHDOG_USEC", "5000000", 1)
        #expect(SystemdNotify.watchdogInterval == 2.5)
        setenv("WATCHDOG_PID", "\(getpid())", 1)
        #expect(SystemdNotify.watchdogInterval == 2.5)
        // A watchdog meant for another process (e.g. a wrapper's PID) is not ours to feed.
        setenv("WATCHDOG_PID", "\(getpid() + 1)", 1)
        #expect(SystemdNotify.watchdogInterval == nil)
    }
}

/// A bound AF_UNIX datagram socket, read without blocking: a datagram sent to a local socket is queued by the
/// time sendto() returns, so no waiting (and no timeout) is needed.
private final class NotifyListener {
    private let fd: Int32
    private let path: String?

    init(name: String, abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw ListenerError(what: "socket", errno: errno) }
        path = abstract ? nil : name
        if let path { unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // Abstract names start with a NUL byte and are exactly as long as the address length says.
        let bytes = (abstract ? [0] : []) + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + bytes.count + (abstract ? 0 : 1))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard result == 0 else {
            let error = errno
            close(fd)
            throw ListenerError(what: "bind \(name)", errno: error)
        }
    }

    deinit {
        close(fd)
        if let path { unlink(path) }
    }

    /// The next queued datagram, or nil when none is waiting.
    func receive() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }
}

private struct ListenerError: Error, CustomStringConvertible {
    var what: String
    var errno: Int32
    var description: String { "\(what) failed: \(String(cString: strerror(errno)))" }
}
